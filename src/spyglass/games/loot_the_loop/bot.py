"""A heuristic for Loot the Loop (placeholder)."""

from __future__ import annotations

from spyglass.engine import Action, Rng

from .rules import LootTheLoopState


def choose(state: LootTheLoopState, rng: Rng) -> Action:
    return rng.choice(state.legal_actions())
