"""What a seat remembers of another power's chits: those it handed over in a trade or saw in
an offer (``diplomacy``). The memory is a lower bound on that hand: a public play takes one of
the kind off it, and a hand that loses chits out of the seat's sight (a return over the limit
of ten, a trade with a third power) makes the seat forget it, since the bound might no longer
hold. Determinization keeps the remembered chits in the hand (``hidden``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import SpiesState


def adjust(state: SpiesState, seat: int, power: str, add: list[str], remove: list[str]) -> None:
    known = Counter(state.talks.chit_memory.get((seat, power), ()))
    known = (known - Counter(remove)) + Counter(add)  # it gave first, then received
    if known:
        state.talks.chit_memory[(seat, power)] = sorted(known.elements())
    else:
        state.talks.chit_memory.pop((seat, power), None)


def forget(state: SpiesState, power: str, keep: set[int] | frozenset[int] = frozenset()) -> None:
    """Seats other than ``keep`` forget the chits they knew ``power`` held (its hand lost chits
    they could not see: a lower bound that might no longer hold)."""
    for key in [k for k in state.talks.chit_memory if k[1] == power and k[0] not in keep]:
        del state.talks.chit_memory[key]


def played(state: SpiesState, power: str, chit: str) -> None:
    """A chit played is public: every seat that knew ``power`` held one knows one fewer."""
    for key in [k for k in state.talks.chit_memory if k[1] == power]:
        adjust(state, key[0], power, add=[], remove=[chit])
