"""The chance of winning from a Hide and Seek position, for searches that stop playouts early.

A win needs 20 cards in the score pile. Every playmate is revealed before the end, so a guess on
the table scores for sure exactly when its line still hides a playmate of its suit: in the world
the search is exploring (a sample of the hidden playground) that is known, so those guesses are
counted as good as scored. The model weighs the cards still missing after them against what is
left to win them with: the cards still in the deck (each can become a guess) and the playmates
still face down (the lines that can still score). Weights fitted on heuristic self-play (see
``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .playground import CELLS, SPACES
from .rules import SUIT, WINNING_SCORE

if TYPE_CHECKING:
    from .rules import HideAndSeekState

#: intercept; cards still missing after the sure guesses / 10; cards in the deck / 10;
#: playmates face down / 12
WEIGHTS = (-0.635, -5.54, 2.38, 1.46)

#: per guess space, the playmates of its line
_LINE_CELLS = tuple(space.cells for space in SPACES)


def features(state: HideAndSeekState) -> tuple[float, ...]:
    revealed, cells = state.revealed, state.cells
    sure = 0
    for space, guess in enumerate(state.guesses):
        if guess is not None:
            suit = SUIT[guess]
            for cell in _LINE_CELLS[space]:
                if not revealed >> cell & 1 and SUIT[cells[cell]] == suit:
                    sure += 1
                    break
    hidden = CELLS - bin(revealed).count("1")
    missing = WINNING_SCORE - state.score - sure
    return (missing / 10, len(state.deck) / 10, hidden / CELLS)


def evaluate(state: HideAndSeekState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
