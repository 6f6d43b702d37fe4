"""The lab's commands as a user drives them: sim, tournament, sweep, report difficulty."""

import csv
import json

import pytest
from typer.testing import CliRunner

from spyglass.cli.main import app
from spyglass.lab import simulate

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def test_sim_reports_a_win_rate_with_an_interval() -> None:
    result = run("sim", "syndicate", "--agent", "random", "--games", "30", "--seed", "1")
    assert result.exit_code == 0
    assert "30 games" in result.output and "95% CI" in result.output
    wins = simulate("syndicate", "random", 30, seed=1).wins
    assert f"{wins} of 30" in result.output


def test_bad_arguments() -> None:
    assert run("sim", "syndicate", "--agent", "genius", "--games", "2").exit_code == 2
    assert run("sim", "syndicate", "--games", "0").exit_code == 2
    result = run("sim", "syndicate", "--games", "2", "--backend", "threads")
    assert result.exit_code == 2 and "unknown back-end" in result.output
    result = run("sim", "syndicate", "--resume")
    assert result.exit_code == 2 and "--out" in result.output


def test_sim_with_seats_writes_its_outputs(tmp_path) -> None:
    out = tmp_path / "run"
    result = run(
        "sim", "tinker-tailor", "--seats", "heuristic,random", "--games", "8",
        "--seed", "2", "--jobs", "2", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "seat 0 (heuristic) win rate" in result.output and "seat 1 (random)" in result.output
    expected = simulate("tinker-tailor", ["heuristic", "random"], 8, seed=2)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seats"][0]["wins"]["successes"] == sum(
        1 for o in expected.outcomes if 0 in o.winners
    )
    with (out / "games.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert [int(r["seed"]) for r in rows] == [o.seed for o in expected.outcomes]
    for name in ("score", "seats", "length"):
        assert (out / f"{name}.png").stat().st_size > 0 and (out / f"{name}.svg").exists()


def test_ctrl_c_then_resume(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spyglass.lab import simulate as real_simulate

    def interrupted(*args, **kwargs):
        seen = []

        def progress(outcome) -> None:
            seen.append(outcome)
            if len(seen) == 3:
                raise KeyboardInterrupt

        kwargs["progress"] = progress
        return real_simulate(*args, **kwargs)

    out = str(tmp_path)
    monkeypatch.setattr("spyglass.cli.lab.simulate", interrupted)
    result = run("sim", "syndicate", "--agent", "random", "--games", "50", "--out", out)
    assert result.exit_code == 130
    assert "Interrupted: 3 of 50 games finished." in result.output
    assert "3 of 50 games (6%, interrupted)" in result.output and "--resume" in result.output
    monkeypatch.undo()
    result = run("sim", "syndicate", "--out", out, "--resume")  # the rest from run.json
    assert result.exit_code == 0, result.output
    assert "50 games, agent random, seed 0" in result.output
    whole = simulate("syndicate", "random", 50)
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["win_rate"]["successes"] == whole.wins and saved["games"] == 50
    result = run("sim", "syndicate", "--out", out, "--resume", "--seed", "3")
    assert result.exit_code == 2 and "different run" in result.output


def test_tournament_table(tmp_path) -> None:
    result = run(
        "tournament", "tinker-tailor", "--agents", "random,heuristic", "--players", "2",
        "--games", "4", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "2 seatings × 4 games" in result.output and "μ − 3σ" in result.output
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert sum(s["wins"]["trials"] for s in data["standings"]) == 16
    assert (tmp_path / "win_rates.png").stat().st_size > 0
    assert run("tournament", "syndicate", "--agents", "random,heuristic").exit_code == 2


def test_agent_lists_keep_parameters_together() -> None:
    from spyglass.cli.lab import split_agents

    assert split_agents("random, ismcts:iterations=5,c=1,heuristic") == [
        "random",
        "ismcts:iterations=5,c=1",
        "heuristic",
    ]


def test_sweep_table(tmp_path) -> None:
    result = run(
        "sweep", "dead-center", "--option", "jokers=0,2", "--agent", "random",
        "--games", "6", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "jokers=0" in result.output and "jokers=2" in result.output
    assert (tmp_path / "sweep.csv").read_text().count("\n") == 3
    result = run("sweep", "dead-center", "--option", "jokers", "--games", "2")
    assert result.exit_code == 2 and "NAME=V1" in result.output


def test_report_difficulty(tmp_path) -> None:
    result = run(
        "report", "difficulty", "syndicate", "--games", "2", "--iterations", "2",
        "--seconds", "0.2", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Syndicate" in result.output and "skill" in result.output
    assert (tmp_path / "difficulty.html").exists() and (tmp_path / "difficulty.png").exists()
    assert run("report", "difficulty", "espionage").exit_code == 2
