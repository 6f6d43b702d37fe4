"""The chance of winning from a Skyway position, for searches that stop playouts early.

A win needs a climbing run of five in every suit when the third pass through the deck ends. The
model reads the runs already on the plot against the turns still to come (about one per five
cards left in this pass and the passes after it): the cards the four runs lack in all, per turn
to come, and the cards the weakest suit lacks (one suit far behind is what loses). Runs are
still rebuilt and broken until the last pass, so a position says less here than in most
games. Weights fitted on heuristic self-play (see ``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .rules import MARKET_SIZE, NUMBER_CARDS, PASSES
from .scoring import WIN_LENGTH, runs

if TYPE_CHECKING:
    from .rules import SkywayState

#: intercept; cards the weakest suit lacks; turns to come / 10; cards lacking per turn to come
WEIGHTS = (1.42, -0.117, 0.343, -1.75)


def features(state: SkywayState) -> tuple[float, ...]:
    lacking = [max(0, WIN_LENGTH - length) for length in runs(state.grid)]
    cards = len(state.deck) + (PASSES - state.round) * len(NUMBER_CARDS)
    turns = cards / MARKET_SIZE
    return (max(lacking), turns / 10, sum(lacking) / (turns + 1))


def evaluate(state: SkywayState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
