"""The uniform random agent: the baseline every other agent must beat."""

from __future__ import annotations

from spyglass.engine import Action, IllegalAction, Seat
from spyglass.engine.rng import as_rng


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = as_rng(seed)

    def choose(self, seat: Seat) -> Action:
        if not seat.legal_actions:
            raise IllegalAction(f"seat {seat.player} has no move to make")
        return self.rng.choice(seat.legal_actions)
