"""The registry: game ids to the modules that declare them, imported on first use."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .errors import RulesError, SpyglassError
from .game import Game, GameSpec
from .info import GameInfo


class Registry:
    """Maps game ids to modules exposing ``SPEC`` (a :class:`GameSpec`)."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._specs: dict[str, GameSpec[Any]] = {}
        self._broken: dict[str, str] = {}  # game id -> why its module would not load

    def ids(self) -> list[str]:
        return list(self._modules)

    def spec(self, game_id: str) -> GameSpec[Any]:
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
        broken = self._broken.get(game_id)
        if broken is not None:
            raise RulesError(f"{game_id} is unavailable: {broken}")
        try:
            spec = importlib.import_module(module_name).SPEC
        except (SpyglassError, OSError) as error:
            # A game's data files are read and checked when its module is imported: one broken
            # file makes that game unavailable, not the catalogue.
            self._broken[game_id] = str(error)
            raise RulesError(f"{game_id} is unavailable: {error}") from None
        if spec.info.id != game_id:
            raise RulesError(f"module {module_name} declares {spec.info.id!r}, not {game_id!r}")
        self._specs[game_id] = spec
        return spec

    def infos(self) -> list[GameInfo]:
        """Every registered game; one that cannot be loaded is listed as unavailable, with
        the reason (see :attr:`GameInfo.unavailable`)."""
        infos = []
        for game_id in self._modules:
            try:
                infos.append(self.spec(game_id).info)
            except RulesError:
                infos.append(GameInfo.broken(game_id, self._broken[game_id]))
        return infos

    def load(self, game_id: str, **options: Any) -> Game:
        return Game(self.spec(game_id), options)
