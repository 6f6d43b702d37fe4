"""What a run writes: JSON and CSV that agree with the result object, and non-empty plots."""

import csv
import json

import pytest

from spyglass.lab import simulate


def read_csv(path):
    with path.open() as file:
        return list(csv.DictReader(file))


def test_solo_outputs_agree_with_the_result(tmp_path) -> None:
    result = simulate("sandwich-guy", "heuristic", 30, seed=5, out=tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary == json.loads(json.dumps(result.summary()))
    assert summary["games"] == 30 and summary["win_rate"]["successes"] == result.wins
    assert summary["win_rate"]["rate"] == pytest.approx(result.win_rate)
    low, high = result.win_interval()
    assert summary["win_rate"]["low"] == pytest.approx(low)
    assert summary["win_rate"]["high"] == pytest.approx(high)
    assert summary["score"]["count"] == len(result.scores())
    assert summary["score"]["mean"] == pytest.approx(result.mean_score)
    assert summary["length"]["mean"] == pytest.approx(result.mean_length)
    rows = read_csv(tmp_path / "games.csv")
    assert [int(r["index"]) for r in rows] == list(range(30))
    for row, outcome in zip(rows, result.outcomes, strict=True):
        assert int(row["seed"]) == outcome.seed and int(row["length"]) == outcome.length
        assert row["won"] == str(outcome.won)
        assert row["score"] == ("" if outcome.score is None else str(outcome.score))
    for name in ("score", "seats", "length"):
        for suffix, magic in (("png", b"\x89PNG"), ("svg", b"<?xml")):
            data = (tmp_path / f"{name}.{suffix}").read_bytes()
            assert data.startswith(magic) and len(data) > 2000


def test_per_seat_results_of_a_multiplayer_game(tmp_path) -> None:
    result = simulate("tinker-tailor", ["heuristic", "random"], 12, seed=3, out=tmp_path)
    seats = read_csv(tmp_path / "seats.csv")
    assert [r["agent"] for r in seats] == ["heuristic", "random"]
    for seat, row in enumerate(seats):
        wins = sum(1 for o in result.outcomes if seat in o.winners)
        assert int(row["wins"]) == wins and int(row["games"]) == 12
        mean = sum(o.scores[seat] for o in result.outcomes) / 12
        assert float(row["mean_score"]) == pytest.approx(mean)
    games = read_csv(tmp_path / "games.csv")
    assert [float(games[0][f"score_{s}"]) for s in (0, 1)] == list(result.outcomes[0].scores)
    assert (tmp_path / "seats.svg").stat().st_size > 2000
