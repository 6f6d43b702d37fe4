"""One package per game, and the catalogue of registered games.

``spyglass.games`` is both this package and a function: ``spyglass.games()`` lists the
registered games. (A module cannot be called, so the package's module object gets a class
with ``__call__``; the ``spyglass.games.<id>`` subpackages import as usual.)
"""

from __future__ import annotations

import sys
import types

from spyglass.engine import GameInfo, Registry

#: Game id -> the module that declares its ``SPEC``, in the order games are listed.
CATALOGUE = {
    "tinker-sailor-soldier-spy": "spyglass.games.tinker_sailor_soldier_spy",
    "tinker-tailor": "spyglass.games.tinker_tailor",
    "skyway": "spyglass.games.skyway",
    "sandwich-guy": "spyglass.games.sandwich_guy",
    "area-52": "spyglass.games.area_52",
    "dead-center": "spyglass.games.dead_center",
    "boba-tea": "spyglass.games.boba_tea",
    "foursquare": "spyglass.games.foursquare",
    "loot-the-loop": "spyglass.games.loot_the_loop",
    "syndicate": "spyglass.games.syndicate",
    "hide-and-seek": "spyglass.games.hide_and_seek",
    "emissary": "spyglass.games.emissary",
    "espionage": "spyglass.games.espionage",
    "spies": "spyglass.games.spies",
}

REGISTRY = Registry(CATALOGUE)


def list_games() -> list[GameInfo]:
    return REGISTRY.infos()


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[GameInfo]:
        return list_games()


sys.modules[__name__].__class__ = _CallablePackage
