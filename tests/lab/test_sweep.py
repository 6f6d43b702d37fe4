import json

import pytest

from spyglass.engine import RulesError
from spyglass.lab import simulate
from spyglass.lab.sweep import parse_sweep, sweep, write_sweep


def test_parse_sweep() -> None:
    assert parse_sweep(["jokers=0,1, 2"]) == {"jokers": ["0", "1", "2"]}
    for bad in (["jokers"], ["=1"], ["jokers="]):
        with pytest.raises(RulesError, match="NAME=V1"):
            parse_sweep(bad)


def test_each_setting_plays_the_games_sim_plays(tmp_path) -> None:
    result = sweep("dead-center", {"jokers": ["0", "2"]}, "random", 8, seed=6, jobs=2)
    assert [p.options["jokers"] for p in result.points] == [0, 2]
    for point in result.points:
        alone = simulate(
            "dead-center", "random", 8, seed=6, options={"jokers": point.options["jokers"]}
        )
        assert point.outcomes == alone.outcomes
    write_sweep(result, tmp_path)
    data = json.loads((tmp_path / "sweep.json").read_text())
    assert [p["setting"] for p in data["points"]] == [{"jokers": 0}, {"jokers": 2}]
    assert data["points"][1]["win_rate"]["successes"] == result.points[1].wins
    for name in ("win_rate", "score", "length"):
        assert (tmp_path / f"{name}.png").stat().st_size > 0


def test_unknown_option() -> None:
    with pytest.raises(RulesError, match="no option 'joker'"):
        sweep("dead-center", {"joker": ["1"]}, "random", 1)
