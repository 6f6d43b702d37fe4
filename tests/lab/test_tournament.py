import json

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


def two_tables(first_wins: int, second_wins: int, games: int = 100):
    """(a, b, a) and (b, a, b) at three seats; the pair's two seats win or lose together."""
    aba = prepare("tinker-tailor", ["heuristic", "random", "heuristic"], players=3)
    bab = prepare("tinker-tailor", ["random", "heuristic", "random"], players=3)
    aba.outcomes = [
        GameOutcome(i, i, (1.0, 0.0, 1.0) if i < first_wins else (0.0, 1.0, 0.0),
                    (0, 2) if i < first_wins else (1,), None, None, 10)
        for i in range(games)
    ]  # fmt: skip
    bab.outcomes = [
        GameOutcome(i, i, (0.0, 1.0, 0.0) if i < second_wins else (1.0, 0.0, 1.0),
                    (1,) if i < second_wins else (0, 2), None, None, 10)
        for i in range(games)
    ]  # fmt: skip
    return [aba, bab]


def test_two_seats_of_one_table_are_not_two_trials() -> None:
    from spyglass.lab.stats import wilson_interval
    from spyglass.lab.tournament import bootstrap

    tables = two_tables(50, 50)
    intervals, _ = bootstrap(tables, ["heuristic", "random"], seed=1)
    low, high = intervals["heuristic"]
    # 150 of its 300 seats won, but its two seats at (a, b, a) are one result each game:
    # counted as 300 independent seats the interval would be too narrow by far.
    naive_low, naive_high = wilson_interval(150, 300)
    assert (high - low) > 1.25 * (naive_high - naive_low)
    assert low < 0.5 < high
    again, _ = bootstrap(tables, ["heuristic", "random"], seed=1)
    assert again == intervals  # a fixed seed: the same interval every time


def test_head_to_head_counts_who_finished_ahead() -> None:
    from spyglass.lab.tournament import bootstrap

    _, duel = bootstrap(two_tables(70, 40), ["heuristic", "random"], seed=2)
    (none, h_vs_r), (r_vs_h, none_too) = duel["matrix"]
    assert none is None and none_too is None
    assert h_vs_r["games"] == 200 and h_vs_r["ahead"] == pytest.approx(110 / 200)
    assert r_vs_h["ahead"] == pytest.approx(90 / 200)
    assert h_vs_r["low"] < 0.55 < h_vs_r["high"]


def test_a_tournament_resumes_where_it_stopped(tmp_path) -> None:
    whole = tournament("tinker-tailor", ["random", "heuristic"], 6, players=2, seed=4)
    seen = []

    def stop(outcome) -> None:
        seen.append(outcome)
        if len(seen) == 5:
            raise KeyboardInterrupt

    part = tournament(
        "tinker-tailor", ["random", "heuristic"], 6, players=2, seed=4, out=tmp_path,
        progress=stop,
    )  # fmt: skip
    assert part.interrupted and part.games == 5
    saved = json.loads((tmp_path / "tournament.json").read_text())
    assert saved["games"] == 5 and saved["planned"] == 12 and saved["interrupted"]
    played = []
    rest = tournament(
        "tinker-tailor", ["random", "heuristic"], 6, players=2, seed=4, out=tmp_path,
        resume=True, progress=played.append,
    )  # fmt: skip
    assert len(played) == 7 and not rest.interrupted
    assert [t.outcomes for t in rest.tables] == [t.outcomes for t in whole.tables]
    assert rest.summary() == whole.summary()
    with pytest.raises(RulesError, match="holds a run of 6 games"):
        tournament(
            "tinker-tailor", ["random", "heuristic"], 2, players=2, seed=4, out=tmp_path,
            resume=True,
        )  # fmt: skip
