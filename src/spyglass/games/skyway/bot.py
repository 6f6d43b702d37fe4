"""A heuristic for Skyway (placeholder while the rules are written)."""

from __future__ import annotations

from spyglass.engine import Action, Rng

from .rules import SkywayState


def choose(state: SkywayState, rng: Rng) -> Action:
    return rng.choice(state.legal_actions())
