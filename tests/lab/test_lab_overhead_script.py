"""benchmarks/lab_overhead.py: both ways play the same games, and the plain loop builds no seat."""

from __future__ import annotations

from benchmarks import lab_overhead

from spyglass.engine import State


def test_both_ways_play_the_same_games_and_report_a_ratio(monkeypatch) -> None:
    row = lab_overhead.measure("syndicate", "heuristic", 1, 0.02, 1)
    assert row["games"] >= 1 and row["moves"] > 0 and row["ratio"] > 0
    built = []
    monkeypatch.setattr(State, "seat", lambda *a, **k: built.append(1))
    seconds, outcomes = lab_overhead.plain("tinker-tailor", "random", 3, 2)
    assert seconds > 0 and len(outcomes) == 2 and built == []
    assert ("espionage", 4) in lab_overhead.default_tables()
    assert ("spies", 5) in lab_overhead.default_tables()
