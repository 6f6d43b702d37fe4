"""Tuned policies: fast move choices fitted by self-play, for playing and for rollouts.

A game's bot is its hand-written heuristic, and stays the baseline every agent is measured
against. Where a policy tuned by simulation plays clearly better at about the same cost, it
lives here, one module per game: a ``Policy`` class whose instances are called like a bot
(``policy(state, rng) -> Action``, reading only what the seat may know), built with its tuned
``WEIGHTS`` or with weights of one's own (to search them again: ``spyglass tune GAME --agent
tuned -p agent.NAME=LOW:HIGH``). :func:`policy` gives a game's tuned policy, or its bot where it
has none; the ``tuned`` agent plays it, and ``pimc:policy=tuned`` rolls out with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from spyglass.engine import Bot, RulesError

#: Game id -> the module (in this package) holding its tuned policy.
DEDICATED = {
    "sandwich-guy": "sandwich_guy",
    "espionage": "espionage",
    "dead-center": "dead_center",
    "spies": "spies",
}


def policy(game_id: str, bot: Bot | None, weights: Mapping[str, float] | None = None) -> Bot:
    """``game_id``'s tuned policy (with ``weights`` replacing some of its own), or ``bot``
    (the game's own) where it has none."""
    module = DEDICATED.get(game_id)
    if module is None:
        if weights:
            raise RulesError(f"{game_id} has no tuned policy to give weights to")
        if bot is None:
            raise RulesError(f"{game_id} has neither a tuned policy nor a bot")
        return bot
    return import_module(f"{__name__}.{module}").Policy(dict(weights or {}))


def weight_names() -> set[str]:
    """Every weight some tuned policy has (an agent given weights checks them against these
    before any game is played)."""
    names: set[str] = set()
    for module in DEDICATED.values():
        names.update(import_module(f"{__name__}.{module}").WEIGHTS)
    return names


def version(game_id: str) -> str:
    """Which tuned policy plays ``game_id`` and in which version (``module:VERSION``; empty where
    the game has none): results kept from a run (the strength run's cache) name it, so that
    retuned weights are measured anew."""
    module = DEDICATED.get(game_id)
    if module is None:
        return ""
    return f"{module}:{import_module(f'{__name__}.{module}').VERSION}"


__all__ = ["DEDICATED", "policy", "version", "weight_names"]
