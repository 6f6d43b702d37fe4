"""``spyglass solve`` with the games' own solvers: scores proved, lines that replay."""

from __future__ import annotations

import re

from typer.testing import CliRunner

import spyglass
from spyglass.cli.main import app


def test_sandwich_guy_seed_0_is_solved_to_one_card_and_proved_best() -> None:
    # Issue 28: the generic search reported "score 4 (best found)"; one card is reachable and
    # cannot be beaten (52 = 3 x 17 + 1).
    result = CliRunner().invoke(app, ["solve", "sandwich-guy", "--seed", "0"])
    assert result.exit_code == 0, result.output
    assert "can be won; score 1 (the best possible, proved" in result.output
    moves = re.findall(r"^\s+\d+ (.+)$", result.output, flags=re.MULTILINE)
    state = spyglass.load("sandwich-guy").new_state(seed=0)
    for move in moves:
        state.apply(move)
    assert state.is_over and state.result.won and state.result.score == 1
