"""Drawing Action Chits from the cup, and the hand limit of ten.

A chit is drawn at random from the cup (a cup has no order). A power never holds more than ten
chits (rule 3.21): when a draw takes it over, it returns chits of its choice to the cup at once,
one decision per chit (``return Papers``), before anything else happens. The chits themselves
are played in a later slice; the draws and the hands are real and hidden here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.engine import Action

from .notation import action

if TYPE_CHECKING:
    from .rules import SpiesState

HAND_LIMIT = 10
SURPLUS = "surplus"


def draw(state: SpiesState, power: str, count: int = 1) -> None:
    """``power`` draws ``count`` chits at random from the cup (fewer if the cup runs dry)."""
    for _ in range(count):
        if not state.cup:
            state._say(f"the cup is empty: {power} draws no Action Chit")
            return
        chit = state.cup.pop(state.rng.below(len(state.cup)))
        hand = state.chits[power]
        hand.append(chit)
        hand.sort()
        state._say(
            f"{power} draws the Action Chit {chit}",
            [state.controller(power)],
            f"{power} draws an Action Chit",
        )
    if len(state.chits[power]) > HAND_LIMIT and (SURPLUS, power, None) not in state.pending:
        state.pending.append((SURPLUS, power, None))


def surplus_actions(state: SpiesState, power: str) -> list[Action]:
    return [action("return", chit) for chit in sorted(set(state.chits[power]))]


def apply_return(state: SpiesState, power: str, chit: str) -> None:
    state.chits[power].remove(chit)
    state.cup.append(chit)
    state.cup.sort()
    state._say(
        f"{power} returns the Action Chit {chit} to the cup (ten at most)",
        [state.controller(power)],
        f"{power} returns an Action Chit to the cup (ten at most)",
    )
    if len(state.chits[power]) <= HAND_LIMIT:
        state.pending.pop(0)
