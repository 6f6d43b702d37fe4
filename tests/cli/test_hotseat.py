"""Hot-seat play: the table is hidden between two human seats."""

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
