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
    "sandwich-guy": "spyglass.games.sandwich_guy",
    "syndicate": "spyglass.games.syndicate",
    "emissary": "spyglass.games.emissary",
}

REGISTRY = Registry(CATALOGUE)


def list_games() -> list[GameInfo]:
    return REGISTRY.infos()


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[GameInfo]:
        return list_games()


sys.modules[__name__].__class__ = _CallablePackage
