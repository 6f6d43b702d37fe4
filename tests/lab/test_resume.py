"""Runs of several tables (sweeps, reports) saved as they go, resumed, and never shrunk; the
``--out`` folder checked before the first game."""

from __future__ import annotations

import json

import pytest

from spyglass.engine import RulesError
from spyglass.lab import simulate
from spyglass.lab.difficulty import difficulty
from spyglass.lab.store import RunStore, prepare_directory
from spyglass.lab.sweep import sweep


def stop_after(count: int):
    seen = []

    def progress(_outcome) -> None:
        seen.append(_outcome)
        if len(seen) == count:
            raise KeyboardInterrupt

    return progress


def test_a_sweep_resumes_to_the_uninterrupted_sweep(tmp_path) -> None:
    values = {"jokers": ["0", "2"]}
    whole = sweep("dead-center", values, "random", 12, seed=3)
    part = sweep("dead-center", values, "random", 12, seed=3, out=tmp_path, progress=stop_after(7))
    assert part.interrupted and sum(p.games for p in part.points) == 7
    saved = json.loads((tmp_path / "sweep.json").read_text())
    assert saved["games"] == 7 and saved["planned"] == 24
    rest = sweep("dead-center", values, "random", 12, seed=3, out=tmp_path, resume=True)
    assert [p.outcomes for p in rest.points] == [p.outcomes for p in whole.points]
    assert json.loads((tmp_path / "sweep.json").read_text()) == whole.summary()
    with pytest.raises(RulesError, match="different run"):
        sweep("dead-center", {"jokers": ["0", "1"]}, "random", 12, seed=3, out=tmp_path,
              resume=True)  # fmt: skip


def test_a_report_resumes_with_its_bounds(tmp_path) -> None:
    kwargs = {"only": ["syndicate"], "iterations": 2, "seconds": 0.2, "seed": 1}
    whole = difficulty(3, **kwargs)
    part = difficulty(3, out=tmp_path, progress=stop_after(5), **kwargs)
    assert part.interrupted
    played = []
    rest = difficulty(3, out=tmp_path, resume=True, progress=played.append, **kwargs)
    assert len(played) == 12 - 5  # three agents and the bound, three deals
    assert rest.rows[0].bounds == whole.rows[0].bounds
    for role, table in rest.rows[0].agents.items():
        assert table.outcomes == whole.rows[0].agents[role].outcomes


def test_resuming_with_fewer_games_is_refused_not_shrunk(tmp_path) -> None:
    simulate("syndicate", "random", 30, seed=1, out=tmp_path)
    with pytest.raises(RulesError, match=r"holds a run of 30 games \(30 played so far\)"):
        simulate("syndicate", "random", 5, seed=1, out=tmp_path, resume=True)
    assert len(RunStore(tmp_path).finished()) == 30
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 30


def test_game_files_are_the_same_bytes_on_one_or_two_jobs_and_after_a_resume(tmp_path) -> None:
    simulate("syndicate", "random", 40, seed=7, out=tmp_path / "one")
    simulate("syndicate", "random", 40, seed=7, jobs=2, out=tmp_path / "two")
    simulate("syndicate", "random", 40, seed=7, out=tmp_path / "cut", progress=stop_after(9))
    simulate("syndicate", "random", 40, seed=7, jobs=2, out=tmp_path / "cut", resume=True)
    for name in ("games.jsonl", "summary.json", "games.csv", "seats.csv", "run.json"):
        one = (tmp_path / "one" / name).read_bytes()
        assert one == (tmp_path / "two" / name).read_bytes()
        assert one == (tmp_path / "cut" / name).read_bytes()


def test_an_out_folder_that_cannot_be_one_fails_before_any_game(tmp_path) -> None:
    afile = tmp_path / "a file"
    afile.write_text("not a folder")
    played = []
    with pytest.raises(RulesError, match="is a file, not a folder"):
        sweep("dead-center", {"jokers": ["0"]}, "random", 5, out=afile, progress=played.append)
    with pytest.raises(RulesError, match="cannot be created"):
        simulate("syndicate", "random", 5, out=afile / "inside", progress=played.append)
    assert played == []
    assert prepare_directory(tmp_path / "new" / "deep").is_dir()
