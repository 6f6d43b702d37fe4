import pytest

from spyglass.engine import RulesError
from spyglass.lab.outcome import GameOutcome
from spyglass.lab.simulate import prepare, simulate
from spyglass.lab.tournament import seatings, standings, tournament, write_tournament


def test_seatings() -> None:
    assert seatings(["a", "b", "c"], 2) == [
        ("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b"),
    ]  # fmt: skip
    assert seatings(["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    everything = seatings(["a", "b"], 3, "all")
    assert len(everything) == 6 and ("a", "a", "a") not in everything
    with pytest.raises(RulesError):
        seatings(["a", "a"], 2)
    with pytest.raises(RulesError, match="format"):
        seatings(["a", "b"], 2, "swiss")


def outcome(index: int, winners: tuple[int, ...]) -> GameOutcome:
    return GameOutcome(index, index, (0.0, 0.0), winners, None, None, 10)


def test_ratings_follow_the_wins() -> None:
    ab = prepare("tinker-tailor", ["heuristic", "random"], players=2)
    ba = prepare("tinker-tailor", ["random", "heuristic"], players=2)
    ab.outcomes = [outcome(i, (0,)) for i in range(20)]  # heuristic wins every game...
    ba.outcomes = [outcome(i, (1,) if i % 4 else (0,)) for i in range(20)]  # ...but five
    table = standings([ab, ba], ["random", "heuristic"])
    best, worst = table
    assert best.agent == "heuristic" and worst.agent == "random"
    assert best.seat_games == 40 and best.wins == 35 and worst.wins == 5
    assert best.mu > 25 > worst.mu and best.sigma < 25 / 3
    # a shared win counts for both agents and teaches the ratings nothing
    ab.outcomes = [outcome(0, (0, 1))]
    tied = standings([ab], ["random", "heuristic"])
    assert all(s.wins == 1 and s.share == 0.5 and s.mu == 25 for s in tied)


def test_a_small_tournament(tmp_path) -> None:
    result = tournament("tinker-tailor", ["random", "heuristic"], 6, players=2, seed=1, jobs=2)
    assert result.games == 12 and not result.interrupted
    # each table is exactly a simulation with its seating and seed
    first = result.tables[0]
    assert first.outcomes == simulate("tinker-tailor", first.agents, 6, seed=first.seed).outcomes
    wins = {s.agent: s.wins for s in result.standings}
    for name in ("random", "heuristic"):
        counted = sum(
            1
            for table in result.tables
            for o in table.outcomes
            for seat in o.winners
            if table.agents[seat] == name
        )
        assert wins[name] == counted
    written = write_tournament(result, tmp_path)
    names = {p.name for p in written}
    assert {"tournament.json", "standings.csv", "win_rates.png", "ratings.svg"} <= names
    assert all(p.stat().st_size > 0 for p in written)


def test_solo_games_have_no_tournament() -> None:
    with pytest.raises(RulesError, match="solo"):
        tournament("syndicate", ["random", "heuristic"], 2)
