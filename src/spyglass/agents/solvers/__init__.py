"""Exact and clairvoyant solvers for the solo games.

:func:`bound` is the entry point: the best result reachable from a position with every hidden
card and every future shuffle known (a ceiling no fair player can beat), answered by the game's
own solver where it has one (positions keyed independently of the order of play, pruning and
proofs made for that game) and by the generic search on the real state otherwise. Syndicate has
nothing hidden, so its exact solver's answer is the game's true value, not only a ceiling.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from spyglass.engine import RulesError, State

from .base import Bound

Solve = Callable[..., Bound]

#: Game id -> the module (in this package) whose ``bound(state, seconds, optimise_score,
#: max_nodes)`` solves it; other solo games use the generic search (``clairvoyant``).
DEDICATED = {
    "area-52": "area_52",
    "dead-center": "dead_center",
    "emissary": "emissary",
    "hide-and-seek": "hide_and_seek",
    "loot-the-loop": "loot_the_loop",
    "sandwich-guy": "sandwich_guy",
    "skyway": "skyway",
    "syndicate": "syndicate",
    "tinker-sailor-soldier-spy": "tinker_sailor",
}


def solver(game_id: str) -> Solve:
    """The function that solves ``game_id``'s positions (its own solver, else the generic)."""
    module = DEDICATED.get(game_id)
    if module is None:
        return import_module(f"{__name__}.clairvoyant").clairvoyant
    return import_module(f"{__name__}.{module}").bound


def version(game_id: str) -> str:
    """Which solver answers for ``game_id`` and in which version (``module:VERSION``): results
    kept from a run (the strength run's cache) name it, so a better solver is measured anew."""
    module = DEDICATED.get(game_id)
    if module is None:
        return "clairvoyant:1"
    return f"{module}:{getattr(import_module(f'{__name__}.{module}'), 'VERSION', 1)}"


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of a solo position within ``seconds`` of CPU time (and at most
    ``max_nodes`` positions): won with a line and its score, cannot be won, or unknown."""
    if state.players != 1:
        raise RulesError("the clairvoyant bound is for solo games")
    return solver(state.game.info.id)(
        state, seconds=seconds, optimise_score=optimise_score, max_nodes=max_nodes
    )


__all__ = ["DEDICATED", "Bound", "bound", "solver", "version"]
