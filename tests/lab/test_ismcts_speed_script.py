"""benchmarks/ismcts_speed.py: every configuration runs on a solo game and counts only searched
decisions; a game that is not solo is refused by name."""

from __future__ import annotations

import sys

import pytest
from benchmarks import ismcts_speed


@pytest.mark.parametrize("config", sorted(ismcts_speed.CONFIGS))
def test_each_configuration_reports_iterations_per_cpu_second(config: str) -> None:
    # 5 iterations a decision for at least 0.05 CPU-s of search: every searched decision ran
    # exactly its budget, and the time is what was asked for (the last decision may overrun)
    done, spent = ismcts_speed.measure("sandwich-guy", 0.05, 5, config, seed=7)
    assert done > 0 and done % 5 == 0
    assert 0.05 <= spent < 1.0
    assert ismcts_speed.rate("sandwich-guy", 0.05, 5, config, seed=7) > 0


def test_a_game_that_is_not_solo_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["ismcts_speed.py", "spies"])
    with pytest.raises(SystemExit) as raised:
        ismcts_speed.main()
    assert raised.value.code == 2
    assert "not a solo game: spies" in capsys.readouterr().err
