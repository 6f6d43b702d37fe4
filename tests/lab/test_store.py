"""Saving a run as it goes, and resuming it."""

import json

import pytest

from spyglass.engine import RulesError
from spyglass.lab import simulate


def stop_after(count: int):
    seen = []

    def progress(outcome) -> None:
        seen.append(outcome)
        if len(seen) == count:
            raise KeyboardInterrupt

    return progress


def test_interrupted_and_resumed_equals_a_whole_run(tmp_path) -> None:
    whole = simulate("syndicate", "random", 40, seed=9)
    part = simulate("syndicate", "random", 40, seed=9, out=tmp_path, progress=stop_after(15))
    assert part.interrupted and part.games == 15
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 15
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 15
    played = []
    rest = simulate(
        "syndicate", "random", 40, seed=9, out=tmp_path, resume=True, progress=played.append
    )
    assert not rest.interrupted and len(played) == 25  # only the missing games were played
    assert rest.outcomes == whole.outcomes
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 40


def test_resume_on_two_jobs_after_a_cut_line(tmp_path) -> None:
    whole = simulate("syndicate", "random", 30, seed=2)
    simulate("syndicate", "random", 30, seed=2, out=tmp_path, progress=stop_after(10))
    with (tmp_path / "games.jsonl").open("a") as file:
        file.write('{"index": 17, "se')  # a line cut short by a crash
    rest = simulate("syndicate", "random", 30, seed=2, out=tmp_path, resume=True, jobs=2)
    assert rest.outcomes == whole.outcomes


def test_a_run_is_not_overwritten_or_resumed_with_other_settings(tmp_path) -> None:
    simulate("syndicate", "random", 5, seed=1, out=tmp_path)
    with pytest.raises(RulesError, match="--resume"):
        simulate("syndicate", "random", 5, seed=1, out=tmp_path)
    with pytest.raises(RulesError, match="seed 1 \\(now 2\\)"):
        simulate("syndicate", "random", 5, seed=2, out=tmp_path, resume=True)
    with pytest.raises(RulesError, match="no run to resume"):
        simulate("syndicate", "random", 5, out=tmp_path / "empty", resume=True)
    more = simulate("syndicate", "random", 8, seed=1, out=tmp_path, resume=True)
    assert more.games == 8  # a run may be extended
