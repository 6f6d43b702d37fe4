"""The dependency direction of DESIGN.md, checked on the code: engine <- components <- games <-
agents <- lab <- (cli, web, adapters); the engine imports nothing else from spyglass; no game
imports another; nothing imports cli/ or web/ (but the entry points that start them); and no
modules import each other in a circle at module level, so that each can be imported on its own,
whatever imported first (Spies!' control, police and reactions once did)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.contract.imports import Imports

SRC = Path(__file__).resolve().parents[2] / "src"
LAYERS = {"engine": 0, "components": 1, "games": 2, "agents": 3, "lab": 4}
TOP = 5  # cli, web, adapters
#: The entry points: ``python -m spyglass`` runs the CLI, and ``spyglass serve`` starts the web
#: app (its imports are inside the command, so the other commands do not load the web stack).
ENTRY_POINTS = {("spyglass.__main__", "cli"), ("spyglass.cli.serve", "web")}


@pytest.fixture(scope="module")
def imports() -> Imports:
    return Imports.of(SRC, "spyglass")


def part(module: str) -> str:
    """``engine``, ``games``, ``web``...: the top-level part of spyglass a module is in (the
    package itself counts as games: it is the registry's front)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] not in ("__main__",) else "games"


def layer(module: str) -> int:
    return LAYERS.get(part(module), TOP)


def test_the_tree_is_read(imports: Imports) -> None:
    assert len(imports.modules) > 200
    assert "spyglass.games.spies.captures" in imports.top["spyglass.games.spies.control"]
    # imports inside functions count for the direction, not for circles
    serve = "spyglass.cli.serve"
    assert "spyglass.web.server" in imports.anywhere[serve] - imports.top[serve]


def test_imports_point_one_way(imports: Imports) -> None:
    wrong = [
        f"{module} -> {target}"
        for module, targets in sorted(imports.anywhere.items())
        for target in sorted(targets)
        if layer(target) > layer(module)
        or (part(target) in ("cli", "web", "adapters") and part(target) != part(module))
    ]
    wrong = [w for w in wrong if (w.split(" -> ")[0], part(w.split(" -> ")[1])) not in ENTRY_POINTS]
    assert wrong == []


def test_the_engine_imports_nothing_else_from_spyglass(imports: Imports) -> None:
    engine = {m: t for m, t in imports.anywhere.items() if part(m) == "engine" and m != "spyglass"}
    assert engine and all(part(t) == "engine" for targets in engine.values() for t in targets)


def test_no_game_imports_another(imports: Imports) -> None:
    def game(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 2 and parts[1] == "games" else None

    crossing = [
        (m, t)
        for m, targets in imports.anywhere.items()
        for t in targets
        if game(m) and game(t) and game(m) != game(t)
    ]
    assert crossing == []


def test_no_circle_at_module_level(imports: Imports) -> None:
    assert imports.circles() == []


def test_the_check_finds_a_circle(tmp_path: Path) -> None:
    """The shape Spies! had: control imports police, police reactions, reactions both."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from . import control, police, reactions\n")
    (package / "sub" / "control.py").write_text("from .police import capture\n")
    (package / "sub" / "police.py").write_text(
        "from . import reactions\n\ndef capture():\n    pass\n"
    )
    (package / "sub" / "reactions.py").write_text(
        "from typing import TYPE_CHECKING\nfrom . import control, police\n"
        "if TYPE_CHECKING:\n    from . import rules\n"
    )
    (package / "sub" / "rules.py").write_text("from . import reactions\n")
    (package / "sub" / "lazy.py").write_text("def f():\n    from . import lazy2\n")
    (package / "sub" / "lazy2.py").write_text("from . import lazy\n")
    found = Imports.of(tmp_path, "pkg")
    assert found.circles() == [["pkg.sub.control", "pkg.sub.police", "pkg.sub.reactions"]]
