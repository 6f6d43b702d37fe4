"""The registry: game ids to the modules that declare them, imported on first use."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .errors import RulesError
from .game import Game, GameSpec
from .info import GameInfo


class Registry:
    """Maps game ids to modules exposing ``SPEC`` (a :class:`GameSpec`)."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._specs: dict[str, GameSpec] = {}

    def ids(self) -> list[str]:
        return list(self._modules)

    def spec(self, game_id: str) -> GameSpec:
        if not isinstance(game_id, str):
            raise RulesError(
                f"a game id is text, not {game_id!r}; known games: {', '.join(self._modules)}"
            )
        spec = self._specs.get(game_id)
        if spec is not None:
            return spec
        module_name = self._modules.get(game_id)
        if module_name is None:
            known = ", ".join(self._modules)
            raise RulesError(f"unknown game {game_id!r}; known games: {known}")
        spec = importlib.import_module(module_name).SPEC
        if spec.info.id != game_id:
            raise RulesError(f"module {module_name} declares {spec.info.id!r}, not {game_id!r}")
        self._specs[game_id] = spec
        return spec

    def infos(self) -> list[GameInfo]:
        return [self.spec(game_id).info for game_id in self._modules]

    def load(self, game_id: str, **options: Any) -> Game:
        return Game(self.spec(game_id), options)
