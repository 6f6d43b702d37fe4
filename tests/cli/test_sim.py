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


def flat(output: str) -> str:
    """The output with its line breaks undone (the test terminal is narrow: rich folds)."""
    return " ".join(output.split())


def one_line_error(result, fragment: str) -> None:
    """Exit code 2 and one message (folded by the narrow test terminal, never a traceback)."""
    assert result.exit_code == 2, result.output
    text = flat(result.output)
    assert text.startswith("error:") and text.count("error:") == 1, text
    assert " ".join(fragment.split()) in "".join(result.output.splitlines()) or fragment in text
    assert "Traceback" not in result.output


def test_mistakes_are_one_line_before_any_game(tmp_path) -> None:
    afile = tmp_path / "file"
    afile.write_text("")
    one_line_error(run("sim", "syndicate", "--agent", "ismcts:c=abc"), "c is a number, not 'abc'")
    one_line_error(
        run("sim", "syndicate", "--seats", "ismcts:iterations=abc"), "iterations is a whole number"
    )
    one_line_error(
        run("tournament", "tinker-tailor", "--agents", "random,ismcts:c=x"), "c is a number"
    )
    for command in (
        ["sim", "syndicate"],
        ["tournament", "tinker-tailor", "--agents", "random,heuristic"],
        ["sweep", "dead-center", "-o", "jokers=0,1"],
        ["tune", "dead-center", "-p", "option.jokers=0,1"],
    ):
        one_line_error(run(*command, "--out", str(afile)), "is a file, not a folder")
        one_line_error(run(*command, "--out", str(afile / "x")), "cannot be created")
    assert afile.read_text() == ""


def test_a_tournament_interrupted_then_resumed(tmp_path, monkeypatch) -> None:
    from spyglass.lab.tournament import tournament as real

    def interrupted(*args, **kwargs):
        seen = []

        def progress(_outcome) -> None:
            seen.append(_outcome)
            if len(seen) == 5:
                raise KeyboardInterrupt

        kwargs["progress"] = progress
        return real(*args, **kwargs)

    out = str(tmp_path)
    args = ["tournament", "tinker-tailor", "--agents", "random,heuristic", "--players", "2"]
    monkeypatch.setattr("spyglass.cli.lab.tournament", interrupted)
    result = run(*args, "--games", "6", "--out", out)
    assert result.exit_code == 130
    assert "5 of 12 games (42%, interrupted)" in flat(result.output)
    assert "--resume" in result.output
    monkeypatch.undo()
    result = run("tournament", "tinker-tailor", "--out", out, "--resume")
    assert result.exit_code == 0, result.output
    assert "2 seatings × 6 games (round-robin), 12 games" in flat(result.output)
    assert "Head to head" in result.output
    saved = json.loads((tmp_path / "tournament.json").read_text())
    assert saved["games"] == 12 and not saved["interrupted"]
    shrunk = run("tournament", "tinker-tailor", "--out", out, "--resume", "--games", "2")
    one_line_error(shrunk, "holds a run of 6 games (12 played so far)")


def test_sweep_agents_and_resume(tmp_path) -> None:
    out = str(tmp_path / "agents")
    result = run(
        "sweep", "syndicate", "--agents", "random,heuristic", "--games", "12", "--out", out
    )
    assert result.exit_code == 0, result.output
    assert "Paired differences" in result.output
    saved = json.loads((tmp_path / "agents" / "comparison.json").read_text())
    wins = saved["paired"]["comparisons"][0]
    assert (wins["first"], wins["second"], wins["significant"]) == ("heuristic", "random", True)
    again = run("sweep", "syndicate", "--out", out, "--resume")
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "agents" / "comparison.json").read_text()) == saved
    one_line_error(run("sweep", "syndicate", "--agents", "random", "-o", "x=1"), "not both at once")


def test_tune_from_the_command_line(tmp_path) -> None:
    out = str(tmp_path)
    result = run(
        "tune", "dead-center", "-p", "option.jokers=0,2", "--agent", "random", "--games", "4",
        "--trials", "2", "--out", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "best option.jokers" in flat(result.output) and "2 trials" in flat(result.output)
    assert json.loads((tmp_path / "tune.json").read_text())["trials"] == 2
    more = run("tune", "dead-center", "--out", out, "--resume", "--trials", "3")
    assert more.exit_code == 0, more.output
    assert json.loads((tmp_path / "tune.json").read_text())["trials"] == 3
    one_line_error(run("tune", "dead-center", "-p", "agent.c"), "NAME=LOW:HIGH")
    one_line_error(run("tune", "dead-center"), "at least one --param")


def test_a_resumed_study_keeps_its_confirmation(tmp_path) -> None:
    # `--resume` without `--confirm` used to rewrite tune.json without the confirmation (and
    # print no figure on fresh deals) although its games were saved.
    out = str(tmp_path)
    first = run(
        "tune", "dead-center", "-p", "option.jokers=0,2", "--agent", "random", "--games", "3",
        "--trials", "2", "--confirm", "4", "--out", out,
    )  # fmt: skip
    assert first.exit_code == 0, first.output
    saved = json.loads((tmp_path / "tune.json").read_text())
    assert (saved["confirm"]["games"], saved["confirm"]["planned"]) == (4, 4)
    again = run("tune", "dead-center", "--out", out, "--resume")
    assert again.exit_code == 0, again.output
    assert "on 4 fresh deals" in flat(again.output)
    assert json.loads((tmp_path / "tune.json").read_text()) == saved
