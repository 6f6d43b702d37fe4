"""Placeholder bot (replaced below)."""

from __future__ import annotations

from spyglass.engine import Action, Rng


def choose(state, rng: Rng) -> Action:
    return rng.choice(state.legal_actions())
