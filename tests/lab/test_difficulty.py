import json

import pytest

import spyglass
from spyglass.engine import RulesError
from spyglass.lab.difficulty import (
    BoundTask,
    GameDifficulty,
    difficulty,
    solo_games,
    strong_spec,
    write_difficulty,
)
from spyglass.lab.simulate import prepare, simulate


def test_unknown_deals_make_the_bound_a_range() -> None:
    info = spyglass.load("boba-tea").info
    roles = {r: prepare("boba-tea", "random") for r in ("random", "heuristic", "strongest")}
    row = GameDifficulty(info, roles, [(True, 3.0), (None, None), (False, None), (True, 1.0)])
    bound = row.bound()
    assert (bound["won"], bound["lost"], bound["unknown"], bound["deals"]) == (2, 1, 1, 4)
    assert bound["low"] == 0.5 and bound["high"] == 0.75
    assert bound["known"]["successes"] == 2 and bound["known"]["trials"] == 3


def test_syndicate_bound_is_exact() -> None:
    won, sacrifices = BoundTask("syndicate", 0, 0, 0.1).run()
    assert won is True and sacrifices == 0


def test_a_small_report(tmp_path) -> None:
    report = difficulty(2, only=["syndicate", "sandwich-guy"], iterations=2, seconds=0.2)
    assert [row.info.id for row in report.rows] == ["syndicate", "sandwich-guy"]
    for row in report.rows:
        s = row.summary()
        # the same deals as spyglass sim plays
        alone = simulate(row.info.id, "heuristic", 2)
        assert row.agents["heuristic"].outcomes == alone.outcomes
        assert s["agents"]["strongest"] == strong_spec(2)
        rates = s["win_rate"]
        assert s["skill"] == pytest.approx(rates["strongest"]["rate"] - rates["random"]["rate"])
        assert s["bound"]["deals"] == 2
        assert s["luck"][0] == pytest.approx(s["bound"]["low"] - rates["strongest"]["rate"])
        book = info_ratings(row.info.id)
        assert s["rulebook"] == book
    written = {p.name for p in write_difficulty(report, tmp_path)}
    assert {"difficulty.md", "difficulty.html", "difficulty.png", "difficulty.svg"} <= written
    text = (tmp_path / "difficulty.md").read_text()
    assert "| Syndicate |" in text and "2 iterations" in text and "0.2 CPU-s" in text
    assert "<table>" in (tmp_path / "difficulty.html").read_text()
    data = json.loads((tmp_path / "difficulty.json").read_text())
    assert data["rows"][0]["bound"]["won"] == 2  # syndicate deals 0-1 are all winnable


def info_ratings(game_id: str):
    r = spyglass.load(game_id).info.ratings
    return {"strategy": r.strategy, "tactics": r.tactics, "luck": r.luck}


def test_only_solo_games() -> None:
    assert all(i.solo for i in solo_games())
    with pytest.raises(RulesError, match="not a solo game: espionage"):
        solo_games(["espionage"])
