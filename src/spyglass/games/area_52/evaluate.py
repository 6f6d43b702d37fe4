"""The chance of winning from an Area 52 position, for searches that stop playouts early.

The game is a race between soldiers and aliens: it is lost when no defender is left, won when
the second wave's last alien is beaten. The model reads both sides of the race: the soldiers
still available (the squad and the defender deck), the aliens still to beat in this wave, which
wave it is (the second wave ends the game; in the first, the discard pile is the second wave
in the making), and whether the current attacker can be beaten without a sacrifice. Weights
fitted on heuristic self-play (see ``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .rules import SACRIFICE

if TYPE_CHECKING:
    from .rules import Area52State

#: intercept; soldiers / 10; aliens left in this wave / 10; second wave (0 or 1);
#: discard pile / 10 during the first wave; the attacker can be beaten (0 or 1)
WEIGHTS = (-4.8, 3.52, -1.52, 2.78, -0.789, 0.678)


def features(state: Area52State) -> tuple[float, ...]:
    second = state.wave == 2
    beatable = any(move.kind != SACRIFICE for move in state._moves)
    return (
        (len(state.defenders) + len(state.defender_deck)) / 10,
        state.aliens_left() / 10,
        float(second),
        0.0 if second else len(state.discard) / 10,
        float(beatable),
    )


def evaluate(state: Area52State) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
