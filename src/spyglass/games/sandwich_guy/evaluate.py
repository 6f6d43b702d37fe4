"""The chance of winning from a Sandwich Guy position, for searches that stop playouts early.

The game is lost when the hand holds no sandwich before the deck runs out, so the model reads
how close that is: the sandwiches the hand offers now (a hand with one is a step from a dead
end), the cards in hand (more cards, more ways to complete a sandwich after the next draw), and
how many cards the deck still holds (each draw must find new sandwiches). Once the last card
is drawn the game is won whatever follows. Weights fitted on heuristic self-play (see
``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

if TYPE_CHECKING:
    from .rules import SandwichGuyState

#: intercept; log(1 + sandwiches in hand); cards in hand; cards left in the deck / 10
WEIGHTS = (-3.36, 0.88, 0.839, -1.14)


def features(state: SandwichGuyState) -> tuple[float, ...]:
    moves = state._moves
    return (math.log1p(len(moves)), len(state.hand), len(state.deck) / 10)


def evaluate(state: SandwichGuyState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    if state.deck_done:
        return (1.0,)
    return win_chance(WEIGHTS, features(state))
