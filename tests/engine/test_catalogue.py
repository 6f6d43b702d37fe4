"""One game whose data file is broken does not take the catalogue down (issue 25)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import spyglass
from spyglass.cli.main import app
from spyglass.engine import Registry, RulesError
from spyglass.games import CATALOGUE

BROKEN = "tests.fixtures.broken_game"
REASON = (
    "edition.toml line 30: pirate_cards must be 4 (the rulebook's contents: 4 Pirate Cards), not 3"
)


def test_the_registry_lists_a_broken_game_as_unavailable_with_the_reason() -> None:
    registry = Registry({"high-card": "tests.fixtures.high_card", "broken": BROKEN})
    infos = registry.infos()
    assert [i.id for i in infos] == ["high-card", "broken"]
    assert infos[0].unavailable is None
    assert infos[1].unavailable == REASON and infos[1].to_json()["unavailable"] == REASON
    with pytest.raises(RulesError, match=r"broken is unavailable: edition\.toml line 30"):
        registry.load("broken")
    assert registry.load("high-card").new_state(players=2, seed=1).legal_actions()


@pytest.fixture
def broken_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = Registry({**CATALOGUE, "broken-game": BROKEN})
    monkeypatch.setattr(spyglass.games, "REGISTRY", registry)


@pytest.mark.usefixtures("broken_catalogue")
def test_spyglass_games_lists_the_others_and_the_broken_one() -> None:
    infos = spyglass.games()
    assert [i.id for i in infos] == [*CATALOGUE, "broken-game"]
    assert all(i.unavailable is None for i in infos[:-1])
    assert infos[-1].unavailable == REASON


@pytest.mark.usefixtures("broken_catalogue")
@pytest.mark.parametrize("width", [80, 100])
def test_spyglass_games_at_the_terminal_shows_it_unavailable(width: int) -> None:
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    row = next(i for i, line in enumerate(lines) if "broken-game" in line)
    assert "unavailable" in lines[row + 1]
    cells = [line.rstrip().rstrip("│").rsplit("│", 1)[-1].strip() for line in lines[row:]]
    reason = " ".join(cells[: cells.index("")] if "" in cells else cells)
    assert reason.startswith("edition.toml line 30: pirate_cards must be 4")
    assert all(len(line) <= width for line in lines)
    assert any("sandwich-guy" in line for line in lines)


@pytest.mark.usefixtures("broken_catalogue")
def test_the_web_lists_the_broken_game_unavailable_and_refuses_its_tables(tmp_path) -> None:
    from fastapi.testclient import TestClient

    from spyglass.web import create_app

    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_pool="thread")
    with TestClient(app) as client:
        listed = client.get("/api/games")
        assert listed.status_code == 200, listed.text
        games = {g["id"]: g for g in listed.json()}
        assert games["broken-game"]["unavailable"] == REASON
        assert games["broken-game"]["layout"] == []
        assert games["sandwich-guy"]["unavailable"] is None and games["sandwich-guy"]["layout"]
        refused = client.post("/api/tables", json={"game": "broken-game", "players": 2})
        assert refused.status_code in (404, 422), refused.text
        assert "unavailable" in refused.text
