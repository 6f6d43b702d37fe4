"""The spyglass command, driven as a user would drive it (typed input, files, exit codes)."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spyglass
from spyglass.cli.main import app
from spyglass.engine import Rng

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})


def bot_moves(game_id: str, seed: int) -> list[str]:
    """The moves the game's bot plays from this seed, as typed notation."""
    state = spyglass.load(game_id).new_state(seed=seed)
    rng = Rng(seed)
    moves = []
    while not state.is_over:
        action = state.game.spec.bot(state, rng)
        moves.append(str(action))
        state.apply(action)
    return moves


def test_games_lists_the_games() -> None:
    result = run("games")
    assert result.exit_code == 0
    assert "sandwich-guy" in result.output and "syndicate" in result.output


def test_rules_prints_the_rules() -> None:
    result = run("rules", "syndicate")
    assert result.exit_code == 0 and "Our rulings" in result.output


def test_unknown_game_lists_the_known_ones() -> None:
    result = run("play", "chess")
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output and "sandwich-guy" in result.output


@pytest.mark.parametrize("game_id", ["sandwich-guy", "syndicate"])
def test_a_full_game_at_the_terminal(game_id: str) -> None:
    moves = bot_moves(game_id, seed=4)
    result = run("play", game_id, "--seed", "4", input="\n".join([*moves, "quit"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert ("Won:" in result.output) or ("Lost:" in result.output)


def test_numbers_hint_undo_and_errors(tmp_path: Path) -> None:
    lines = ["help", "hint", "1", "undo", "undo", "99", "9X 9Y 9Z", "rules", "log", "quit"]
    result = run("play", "sandwich-guy", "--seed", "7", input="\n".join(lines) + "\n")
    out = result.output
    assert result.exit_code == 0
    assert "Commands" in out and "Hint:" in out
    assert "Move taken back." in out and "Nothing to undo." in out
    assert "There is no move 99" in out
    assert "is not allowed" in out and "You gave up" in out


def test_save_and_load(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    result = run("play", "syndicate", "--seed", "3", input=f"1\n2\nsave {saved}\nquit\n")
    assert result.exit_code == 0 and saved.exists()
    record = json.loads(saved.read_text())
    assert record["game"] == "syndicate" and len(record["actions"]) == 2
    result = run("play", "--load", str(saved), input="quit\n")
    assert result.exit_code == 0 and "step 2" in result.output


def test_corrupt_save_files_say_what_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = run("play", "--load", str(bad))
    assert result.exit_code == 2 and "is not valid JSON (line 1, column 2" in result.output
    good = tmp_path / "good.json"
    run("play", "syndicate", "--seed", "3", input=f"1\nsave {good}\nquit\n")
    record = json.loads(good.read_text())
    record["actions"][0] = "pick XX"
    good.write_text(json.dumps(record))
    result = run("play", "--load", str(good))
    assert result.exit_code == 2 and "record fails at step 1" in result.output
    result = run("play", "sandwich-guy", "--seed", "1", input=f"load {bad}\nquit\n")
    assert "Cannot load" in result.output and result.exit_code == 0


def test_replay_steps_through_a_record(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    run("play", "syndicate", "--seed", "3", input=f"1\n2\n3\nsave {saved}\nquit\n")
    result = run("replay", str(saved), input="n\nn\nb\ne\ng 1\nq\n")
    assert result.exit_code == 0
    assert "the deal (0 of 3 steps)" in result.output
    assert "step 2 of 3" in result.output and "step 3 of 3" in result.output


def test_bad_arguments() -> None:
    assert run("play", "syndicate", "--seat", "1=human").exit_code == 2
    assert run("play", "syndicate", "-o", "jokers=1").exit_code == 2
    # an agent that cannot play the game is refused before the game starts, with the ones that can
    refused = run("play", "espionage", "--players", "3", "--seat", "1=expectimax")
    assert refused.exit_code == 2
    assert "agent 'expectimax' does not play Espionage" in refused.output
    assert "agents that do: random, heuristic, ismcts" in refused.output


def test_ctrl_c_leaves_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    def interrupt(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupt)
    result = run("play", "sandwich-guy", "--seed", "1")
    assert result.exit_code == 130 and "Interrupted." in result.output


def test_end_of_input_quits() -> None:
    result = run("play", "sandwich-guy", "--seed", "1", input="")
    assert result.exit_code == 0


def test_lobby_starts_a_chosen_game() -> None:
    result = run("play", input="syndicate\n5\nquit\n")  # chosen by id, seed 5
    assert result.exit_code == 0
    assert "Syndicate" in result.output and "pick" in result.output


def test_lobby_seats_offer_only_the_agents_that_play_the_game(monkeypatch) -> None:
    from io import StringIO

    from rich.console import Console

    from spyglass.cli import lobby

    prompts: list[str] = []
    answers = iter(["human", "expectimax", "heuristic", "random"])

    def ask(console: Console, prompt: str, default: str) -> str:
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr(lobby, "_ask", ask)
    out = StringIO()
    seats = lobby.choose_seats(Console(file=out, width=200), 3, spyglass.load("espionage"))
    assert seats == {0: "human", 1: "heuristic", 2: "random"}
    assert "expectimax" not in prompts[0] and "solver" not in prompts[0]
    assert "/heuristic/ismcts/" in prompts[0]
    assert "agent 'expectimax' does not play Espionage" in out.getvalue()


def test_solve_prints_the_fewest_sacrifices_and_a_line_that_wins() -> None:
    result = run("solve", "syndicate", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "won with 0 sacrifices, the fewest possible" in result.output
    lines = re.findall(r"^\s+\d+ (.+)$", result.output, flags=re.MULTILINE)
    assert lines[0].startswith("pick")
    state = spyglass.load("syndicate").new_state(seed=5)
    for move in lines:
        state.apply(move)
    assert state.won


def test_solve_gives_the_clairvoyant_bound_of_other_solo_games() -> None:
    result = run("solve", "sandwich-guy", "--seed", "5", "--seconds", "20")
    assert result.exit_code == 0, result.output
    assert "clairvoyant: every hidden card known" in result.output
    assert "can be won" in result.output or "cannot be won" in result.output


def test_solve_refuses_multiplayer_games_and_unknown_ones() -> None:
    result = run("solve", "espionage", "--seed", "1")
    assert result.exit_code == 2 and "solve is for solo games" in result.output
    assert run("solve", "chess", "--seed", "1").exit_code == 2


@pytest.mark.parametrize("width", [80, 100])
def test_games_is_readable_at_80_and_100_columns(width: int) -> None:
    result = runner.invoke(app, ["games"], env={"COLUMNS": str(width)})
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "…" not in result.output and all(len(line) <= width for line in lines)
    rows = [line for line in lines if line.startswith("│")]
    cells = [[cell.strip() for cell in line.strip("│").split("│")] for line in rows]
    described = " ".join(" ".join(row[3] for row in cells).split())
    games = " ".join(" ".join(row[1] for row in cells).split())
    for info in spyglass.games():
        assert " ".join(info.summary.split()) in described
        assert f"{info.id} {info.title}" in games
        assert info.players_text() in {row[2] for row in cells}


def test_hint_gives_the_moves_number() -> None:
    result = run("play", "sandwich-guy", "--seed", "7", input="hint\nquit\n")
    hint = next(line for line in result.output.splitlines() if "Hint:" in line)
    number, _, move = hint.split("Hint: ", 1)[1].split(" — ")[0].partition(" · ")
    shown = next(
        line for line in result.output.splitlines() if line.strip().startswith(f"{number} ")
    )
    assert move in shown


def test_walk_at_the_game_over_prompt_and_in_replay(tmp_path: Path) -> None:
    args = ["play", "espionage", "--players", "3", "--seed", "4", "-o", "city_limit=1"]
    seats = ["--seat", "0=random", "--seat", "1=random", "--seat", "2=random"]
    path = tmp_path / "city.json"
    answers = ["s", "walk", "s", f"save {path}", "quit"]
    result = run(*args, *seats, input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    over = result.output.split("Game over", 1)[1]
    assert "walk · log · save FILE" in over
    assert over.count("Walking back the dog: city 1") >= 1  # walked again on request
    assert "save FILE, undo, load FILE or quit" not in over
    replay = run("replay", str(path), "--step", "9999", input="w\ns\nq\n")
    assert replay.exit_code == 0, replay.output
    assert "w walk through the story" in " ".join(replay.output.split())
    walked = replay.output.split("›", 1)[1]
    assert "Walking back the dog: city 1" in walked


def test_a_record_from_a_newer_spyglass_is_refused_in_one_line(tmp_path: Path) -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    record = {**state.record(), "version": 99}
    path = tmp_path / "future.json"
    path.write_text(json.dumps(record))
    result = run("replay", str(path))
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert (
        "the record is version 99, made by a newer spyglass; this one reads versions up to 1"
        in text
    )


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--signup-rate", "lots", "signups"),
        ("--login-rate", "5 a minute", "logins"),
        ("--login-failure-rate", "-1/hour", "failures"),
        ("--cookie-secure", "sometimes", "cookie_secure"),
    ],
)
def test_serve_refuses_bad_account_settings_before_it_starts(option, value, said) -> None:
    result = run("serve", "--port", "1", option, value)
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and said in result.output
