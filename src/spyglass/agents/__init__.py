"""Agents: anything that picks a move from a :class:`~spyglass.engine.Seat`.

An agent sees only the seat it is given (view, legal actions, determinizations); it never
touches the true state. ``load(name, seed=..., **params)`` builds one by name.
"""

from __future__ import annotations

from typing import Any, Protocol

from spyglass.engine import Action, RulesError, Seat

from .heuristic import HeuristicAgent
from .random import RandomAgent


class Agent(Protocol):
    name: str

    def choose(self, seat: Seat) -> Action:
        """A legal action for the seat (whose turn it is)."""
        ...


AGENTS: dict[str, type] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
}


def names() -> list[str]:
    return list(AGENTS)


def load(name: str, seed: int | None = None, **params: Any) -> Agent:
    """The agent called ``name`` (see :func:`names`), seeded, with its parameters."""
    cls = AGENTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise RulesError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)}")
    try:
        return cls(seed=seed, **params)
    except TypeError as error:
        raise RulesError(f"agent {name!r}: {error}") from None


__all__ = ["AGENTS", "Agent", "HeuristicAgent", "RandomAgent", "load", "names"]
