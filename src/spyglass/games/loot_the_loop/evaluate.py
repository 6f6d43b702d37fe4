"""The chance of winning from a Loot the Loop position, for searches that stop playouts early.

A win needs the four jewels nabbed and then a landing on the exit; the game is lost by landing
on a trap or by running out of safe moves. The model reads the jewels nabbed and the jewels
still in the temple that are already face up (found: a route to them can be planned), the
trinkets still in the temple (they are the only way to move, so a temple stripped of them
strands the player), the notes held (a way out of a dead end), and the cards still face down
(each Look Around risks revealing traps next to the path). Weights fitted on heuristic
self-play (see ``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .rules import IS_TRINKET, JEWEL, KIND

if TYPE_CHECKING:
    from .rules import LootTheLoopState

#: intercept; jewels nabbed; jewels face up in the temple; trinkets in the temple / 10; notes
#: held; cards face down / 10
WEIGHTS = (-4.76, 0.79, 0.421, 0.86, 0.199, 0.315)


def features(state: LootTheLoopState) -> tuple[float, ...]:
    loop = state.loop
    found = trinkets = down = 0
    for card, shown in zip(loop.cards, loop.shown, strict=True):
        if shown is None:
            down += 1
        elif KIND[card] == JEWEL:
            found += 1
        trinkets += IS_TRINKET[card]
    return (state.jewels, found, trinkets / 10, len(state.notes), down / 10)


def evaluate(state: LootTheLoopState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
