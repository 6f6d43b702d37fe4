"""The chance of winning from a Boba Tea position, for searches that stop playouts early.

The game is lost by a fourth discard of any rank, so the model starts from the bot's own
estimate of that risk: for each rank, the chance that no more than its remaining slack of
copies is discarded (copies in the deck are discarded far more often than copies standing in a
queue), multiplied over the ranks; its logarithm is the main feature. It adds how many cards
the deck still holds (each is one more draw to survive) and how well the queues can take the
next customer (the share of the deck that fits the widest position: a shop with only narrow
gaps is about to turn people away). Weights fitted on heuristic self-play (see
``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .bot import survival
from .rules import FOURTH, RANK

if TYPE_CHECKING:
    from .rules import BobaTeaState

#: intercept; log of the ranks' joint survival; cards left in the deck / 10; the widest
#: position's share of the deck
WEIGHTS = (3.57, 3.2, -0.34, 0.569)

#: a floor for the survival logarithm (a rank already past saving gives 0)
_FLOOR = 1e-4


def features(state: BobaTeaState) -> tuple[float, ...]:
    deck = [0] * 14
    for card in state.deck:
        deck[RANK[card]] += 1
    queued = [0] * 14
    widest = 0
    for queue in state.queues:
        for card in queue:
            queued[RANK[card]] += 1
        # positions run from above the top (13 down to the top card) to below the bottom
        high = 13
        for card in queue:
            low = RANK[card]
            widest = max(widest, sum(deck[low : high + 1]))
            high = low
        widest = max(widest, sum(deck[1 : high + 1]))
    alive = 1.0
    discarded = state.discarded
    for rank in range(1, 14):
        alive *= survival(FOURTH - 1 - discarded[rank], deck[rank], queued[rank])
    size = len(state.deck)
    return (math.log(max(alive, _FLOOR)), size / 10, widest / size if size else 1.0)


def evaluate(state: BobaTeaState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
