"""The chance of winning from a Syndicate position, for searches that stop playouts early.

Syndicate is lost when no promotion is left, and won by lifting a member out of rank 1, which
needs three members there and a fitting candidate. The model reads how far the agents have
climbed (members weighted by the height of their rank), how many distinct promotions are still
open (a position with one or two is near a dead end), and the candidates still waiting in
rank 1 (the winning promotion needs one that fits). While the first members are being chosen
nothing is decided yet. Weights fitted on heuristic self-play (see
``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .rules import RANKS

if TYPE_CHECKING:
    from .rules import SyndicateState

#: intercept; climb / 10; log(1 + distinct promotions); candidates left in rank 1
WEIGHTS = (-5.49, 0.522, 2.29, 1.29)


def features(state: SyndicateState) -> tuple[float, ...]:
    members = state.members
    climb = sum((6 - rank) * len(members[rank]) for rank in RANKS) / 10
    distinct = len({move.cards[:2] for move in state._moves}) if not state.choosing else 9
    candidates = state.candidates
    return (climb, math.log1p(distinct), len(candidates[1]))


def evaluate(state: SyndicateState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
