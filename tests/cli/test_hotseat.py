"""Hot-seat play: the table is hidden between two human seats."""

import io
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from spyglass.cli.play import PlaySession
from tests.fixtures.high_card import REGISTRY


def test_pass_the_device_between_human_seats(monkeypatch) -> None:
    state = REGISTRY.load("high-card").new_state(players=2, seed=5)
    hand0 = state.view(0)["table"]["hand"]
    hand1 = state.view(1)["table"]["hand"]
    answers = iter(["1", "", "1", "", "quit"])
    console = Console(record=True, width=100, force_terminal=False)
    monkeypatch.setattr(console, "input", lambda *a, **k: next(answers))
    PlaySession(console, state, {0: "human", 1: "human"}).run()
    text = console.export_text()
    assert "Pass the device to seat 1" in text
    after = text.split("Pass the device to seat 1", 1)[1].split("Pass the device", 1)[0]
    assert all(card in after for card in hand1[1:])
    first_hand_line = next(line for line in after.splitlines() if "Your hand" in line)
    assert not any(card in first_hand_line for card in hand0)


def test_bots_play_their_seats(monkeypatch) -> None:
    state = REGISTRY.load("high-card").new_state(players=3, seed=2)
    answers = iter(["1"] * 10 + ["quit"])
    console = Console(record=True, width=100)
    monkeypatch.setattr(console, "input", lambda *a, **k: next(answers))
    PlaySession(console, state, {0: "human", 1: "heuristic", 2: "random"}).run()
    text = console.export_text()
    assert "seat 1 (heuristic) · seat 1 plays" in text
    assert "seat 2 (random) · seat 2 plays" in text
    assert state.is_over or "Game over" in text


def test_a_bots_secret_is_not_shown_at_the_table(monkeypatch) -> None:
    """Bots' moves are told as the human's log tells them: what a bot alone saw (its draws,
    its hand) never reaches the screen."""
    import spyglass

    state = spyglass.load("tinker-tailor").new_state(players=4, seed=3)
    answers = iter(["1"] * 12 + ["quit", "y"])
    console = Console(record=True, width=2000)
    monkeypatch.setattr(console, "input", lambda *a, **k: next(answers, "quit"))
    seats = {0: "human", 1: "heuristic", 2: "heuristic", 3: "random"}
    PlaySession(console, state, seats).run()
    text = console.export_text()
    told = [
        line.split(" · ", 1)[1]
        for line in text.splitlines()
        if line.startswith(("seat 1 (", "seat 2 (", "seat 3 (")) and " · " in line
    ]
    assert len(told) > 10
    mine = state.view(0)["log"]
    assert all(line in mine for line in told)  # exactly what seat 0 was told, nothing more


def test_the_first_human_to_move_gets_a_pass_screen_too(monkeypatch) -> None:
    state = REGISTRY.load("high-card").new_state(players=2, seed=5)
    first = state.current_player
    answers = iter(["", "quit"])
    console = Console(record=True, width=100, force_terminal=False)
    monkeypatch.setattr(console, "input", lambda *a, **k: next(answers))
    PlaySession(console, state, {0: "human", 1: "human"}).run()
    text = console.export_text()
    assert text.lstrip().startswith(f"Pass the device to seat {first} and press Enter.")
    assert text.index("Pass the device") < text.index("Your hand")


def test_the_pass_screen_erases_the_scrollback_too(monkeypatch) -> None:
    """rich's clear() sends ESC[2J, which many terminals (tmux among them) keep in their
    history; the pass screen also sends ESC[3J, which erases the history."""
    state = REGISTRY.load("high-card").new_state(players=2, seed=5)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    answers = iter(["", "quit"])
    monkeypatch.setattr(console, "input", lambda *a, **k: next(answers))
    PlaySession(console, state, {0: "human", 1: "human"}).run()
    written = out.getvalue()
    before_table = written[: written.index("Your hand")]
    assert before_table.count("\x1b[2J") == 2 and before_table.count("\x1b[3J") == 2


class Tmux:
    """A private tmux server (its own socket) running one command in a wide window."""

    def __init__(self, socket: Path, command: str) -> None:
        self.base = ["tmux", "-S", str(socket)]
        subprocess.run(
            [*self.base, "new-session", "-d", "-s", "play", "-x", "160", "-y", "60", command],
            check=True,
        )

    def history(self) -> str:
        """Everything the pane holds: its scrollback and its screen."""
        done = subprocess.run(
            [*self.base, "capture-pane", "-p", "-S", "-", "-t", "play"],
            check=True,
            capture_output=True,
            text=True,
        )
        return done.stdout

    def wait_for(self, text: str, seconds: float = 60.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = self.history()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never showed; the pane holds:\n{self.history()}")

    def send(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", "-t", "play", *keys], check=True)

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], check=False, capture_output=True)


def test_hot_seat_in_tmux_leaves_no_hand_in_the_scrollback(tmp_path: Path) -> None:
    """Three humans at Espionage in a real terminal (tmux): after each pass screen, nothing of
    the seat that moved before, neither its role nor its hand, is left to scroll back to."""
    if shutil.which("tmux") is None:
        if os.environ.get("CI"):
            pytest.fail("tmux is not installed: CI must have it (.ci/run installs it)")
        pytest.skip("tmux is not installed")
    import spyglass

    seed = 4
    state = spyglass.load("espionage").new_state(players=3, seed=seed)
    first = state.current_player
    role = state.view(first)["table"]["role"]
    sources = Path(spyglass.__file__).resolve().parents[1]
    command = " ".join(
        shlex.quote(part)
        for part in (
            "env", f"PYTHONPATH={sources}", "COLUMNS=160", sys.executable, "-m", "spyglass",
            "play", "espionage", "--players", "3", "--seed", str(seed),
            "--seat", "0=human", "--seat", "1=human", "--seat", "2=human",
        )
    )  # fmt: skip
    tmux = Tmux(tmp_path / "tmux.sock", command)
    try:
        tmux.wait_for(f"Pass the device to seat {first}")
        assert "Your role" not in tmux.history()  # the first human gets a pass screen too
        tmux.send("Enter")
        shown = tmux.wait_for(f"Move (seat {first})")
        assert f"Your role  {role}" in shown
        tmux.send("1", "Enter")
        after = tmux.wait_for("Pass the device to seat")
        assert "Your role" not in after and "Your hand" not in after
        assert role not in after
        tmux.send("Enter")
        nxt = tmux.wait_for("Move (seat")
        assert nxt.count("Your role") == 1 and role not in nxt
    finally:
        tmux.close()
