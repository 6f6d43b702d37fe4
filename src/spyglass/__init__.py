"""spyglass: tabletop games to play, simulate and learn.

import spyglass
spyglass.games()                        # the registered games
game = spyglass.load("sandwich-guy")    # options as keywords
state = game.new_state(seed=7)
state.apply(state.legal_actions()[0])
"""

from __future__ import annotations

from typing import Any

from . import games
from .engine import (
    Action,
    Game,
    GameInfo,
    IllegalAction,
    ReplayError,
    Result,
    RulesError,
    Seat,
    SpyglassError,
    State,
)
from .engine import replay as _replay

__version__ = "0.1.0"


def load(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with its options (keywords); RulesError lists the known games."""
    return games.REGISTRY.load(game_id, **options)


def replay(record: dict[str, Any], upto: int | None = None) -> State:
    """The state a record describes (or the state after its first ``upto`` actions)."""
    return _replay(record, games.REGISTRY, upto)


__all__ = [
    "Action",
    "Game",
    "GameInfo",
    "IllegalAction",
    "ReplayError",
    "Result",
    "RulesError",
    "Seat",
    "SpyglassError",
    "State",
    "games",
    "load",
    "replay",
]
