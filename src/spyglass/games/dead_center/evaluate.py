"""The chance of winning from a Dead Center position, for searches that stop playouts early.

The game is a race of the zombies still standing against the cards left to kill them with
(every turn spends one card, and the deck running out loses). The model reads the zombies alive
and the cards in the deck, the Kings among the living (a King needs both supports of its own
suit, the hardest kill), and the living zombies whose supports are already in place (ready: the
next card played in front of them kills them). In the world the search explores the zombies
face down are known too, so their readiness counts like the others'. Weights fitted on heuristic
self-play (see ``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .cabin import SUPPORTS, kills

if TYPE_CHECKING:
    from .rules import DeadCenterState

#: intercept; zombies alive; cards in the deck / 10; Kings alive; zombies alive and ready
WEIGHTS = (-0.601, -0.71, 2.72, -0.726, 0.527)

_KING = 13


def features(state: DeadCenterState) -> tuple[float, ...]:
    alive, ring, piles = state.alive, state.ring, state.piles
    living = kings = ready = 0
    for space, zombie in enumerate(ring):
        if alive >> space & 1:
            living += 1
            kings += zombie.rank == _KING
            a, b = SUPPORTS[space]
            ready += kills(zombie, piles[a][-1], piles[b][-1])
    return (living, len(state.deck) / 10, kings, ready)


def evaluate(state: DeadCenterState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
