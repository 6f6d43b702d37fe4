"""A position's worth to each seat, for searches that stop their playouts early.

Each seat's chance of winning is estimated from the points its hand would score if the game
ended now: a softmax of the totals whose temperature grows with the rounds still to play (a lead
of a few points means little in round 1 and nearly everything in the last round). The scale was
fitted on heuristic self-play (see ``tests/games/test_tinker_tailor_evaluate.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import scoring

if TYPE_CHECKING:
    from .rules import TinkerTailorState

#: points of temperature at the end of the game, and added per round still to play
BASE, PER_ROUND = 4.0, 1.0


def evaluate(state: TinkerTailorState) -> tuple[float, ...]:
    """Each seat's estimated share of the win (the values sum to 1), like ``Result.rewards``."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    totals = [scoring.total(hand) for hand in state.hands]
    temperature = BASE + PER_ROUND * (state.rounds - state.round + 1)
    best = max(totals)
    weights = [math.exp((t - best) / temperature) for t in totals]
    whole = sum(weights)
    return tuple(w / whole for w in weights)
