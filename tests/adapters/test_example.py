"""The training example of docs/rl.md runs, in a short form (a few hundred steps)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def test_the_maskable_ppo_example_trains_and_reports_before_and_after() -> None:
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--game", "area-52", "--timesteps", "128", "--deals", "3"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    lines = run.stdout.splitlines()
    assert lines[0] == "area-52: 3 evaluation deals (the same for every line)"
    for line, name in zip(
        lines[1:4], ("before training", "after training", "heuristic bot"), strict=True
    ):
        assert line.startswith(name) and "win rate" in line and "mean score" in line
    assert lines[4].startswith("trained 128 steps")
