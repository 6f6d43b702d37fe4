"""The chance of winning from an Emissary position, for searches that stop playouts early.

The mission fails at the first kingdom that ends without exactly its target of won debates, so
the chance of winning is roughly the chance of hitting the current target times the chances of
the kingdoms still to visit. The model reads the first from the bot's exact-bid odds table (the
best chance that the hand wins exactly the debates still needed, topics drawn from the cards the
seat knows are left, the hearts advisor included), the second from the typical odds of a fresh
hand of eight at each target still to visit (the bot's ``TYPICAL``), with their number (the
bot picks the order, so a hard target waits for a fitting hand), and adds the supporters still
face up (abilities for the kingdoms ahead). The odds table costs about a millisecond when it is
not cached, a tenth of a bot move. Weights fitted on heuristic self-play (see
``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .bot import TYPICAL
from .bot import _pool as topic_pool
from .odds import odds
from .rules import CHOOSE, HEARTS

if TYPE_CHECKING:
    from .rules import EmissaryState

#: intercept; log chance of this kingdom's exact target (0 between kingdoms); sum of the log
#: typical chances of the kingdoms still to visit; supporters face up; kingdoms still to visit
WEIGHTS = (-0.75, 0.361, 0.329, 0.307, 0.584)

#: a floor for the logarithms (a kingdom that can no longer be hit gives 0)
_FLOOR = 1e-3
_LOG_TYPICAL = tuple(math.log(max(p, _FLOOR)) for p in TYPICAL)


def features(state: EmissaryState) -> tuple[float, ...]:
    here = 0.0
    if state.phase != CHOOSE and state.visiting is not None:
        need = state.target - state.wins
        hand = state.hand
        if not 0 <= need <= len(hand):
            chance = 0.0
        else:
            hearts = not state.jacks_used >> HEARTS & 1
            pool = topic_pool(state)
            chance = odds(hand, state.trump, pool, need, hearts).chance(hand, need) if pool else 0
        here = math.log(max(chance, _FLOOR))
    left = [k for k in state.unvisited() if k != state.visiting]
    ahead = sum(_LOG_TYPICAL[k + 1] for k in left)
    return (here, ahead, len(state.ready_supporters()), len(left))


def evaluate(state: EmissaryState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if state.is_over:
        return state.result.rewards
    return win_chance(WEIGHTS, features(state))
