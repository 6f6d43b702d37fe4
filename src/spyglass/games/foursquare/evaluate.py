"""The chance of winning from a Foursquare position, for searches that stop playouts early.

A win is a full four-by-four block with every top face up before the deck runs out; a loss
comes from a card with nowhere to go. The model reads how far the block is from full (lots
still empty), the closed restaurants (face-down tops: at most four are allowed, and each must
be covered or flipped back before the end), the piles already holding their four cards (they
can take no more, so the grid loses room), the cards left in the deck, and how many
placements the card in hand has (few choices, a dead end is near). Weights fitted on
heuristic self-play (see ``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .rules import GRID_PILES

if TYPE_CHECKING:
    from .rules import FoursquareState

#: intercept; empty lots of the 4x4 block; closed piles; full piles; cards in the deck / 10;
#: log(1 + placements of the card in hand)
WEIGHTS = (2.31, -0.119, -0.292, -0.793, 0.508, 0.351)


def features(state: FoursquareState) -> tuple[float, ...]:
    return (
        GRID_PILES - len(state.piles),
        state.down.bit_count(),
        state.full.bit_count(),
        len(state.deck) / 10,
        math.log1p(len(state._moves)),
    )


def evaluate(state: FoursquareState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
