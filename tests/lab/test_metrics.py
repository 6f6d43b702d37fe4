"""Game metrics and turn positions: exact counts, checked against the games replayed by hand."""

from __future__ import annotations

import json

import pytest
from scipy.stats import binomtest, chisquare

import spyglass
from spyglass import agents
from spyglass.engine import derive_seed
from spyglass.lab import simulate
from spyglass.lab.metrics import margin, places
from spyglass.lab.outcome import GameOutcome
from spyglass.lab.positions import turn_positions
from spyglass.lab.stats import histogram_distribution, histogram_quantile, quantile


def outcome(scores, winners, order=(), index=0) -> GameOutcome:
    return GameOutcome(index, index, tuple(scores), tuple(winners), None, None, 10, tuple(order))


def test_places_share_the_better_place_on_equal_scores() -> None:
    assert places(outcome((10, 30, 20, 20), (1,))) == (4, 1, 2, 2)
    assert places(outcome((5, 5, 1), (0, 1))) == (1, 1, 3)
    assert places(outcome((3, 1, 2), (1,)), lower_is_better=True) == (3, 1, 2)
    assert margin(outcome((10, 30, 20, 25), (1,))) == 5
    assert margin(outcome((5, 5), (0, 1))) is None


def test_histogram_quantiles_match_the_values_written_out() -> None:
    counts = [(1, 3), (2, 1), (5, 4), (9, 2)]
    values = [v for v, n in counts for _ in range(n)]
    for q in (0, 0.05, 0.25, 0.5, 0.75, 0.95, 1):
        assert histogram_quantile(counts, q) == pytest.approx(quantile(values, q))
    d = histogram_distribution(counts)
    assert d["count"] == 10 and d["mean"] == pytest.approx(sum(values) / 10)
    assert d["min"] == 1 and d["max"] == 9


def replay_counts(game_id: str, agent: str, players: int, seed: int):
    """Decisions, forced moves and legal actions per move, counted by replaying a game."""
    state = spyglass.load(game_id).new_state(players=players, seed=seed)
    seated = [agents.load_spec(agent, seed=derive_seed(seed, f"agent/{p}")) for p in range(players)]
    decisions = [0] * players
    branching: dict[int, int] = {}
    order: list[int] = []
    while not state.is_over:
        player = state.current_player
        legal = state.legal_actions()
        branching[len(legal)] = branching.get(len(legal), 0) + 1
        decisions[player] += len(legal) > 1
        if player not in order:
            order.append(player)
        state.apply(seated[player].choose(state.seat(player)))
    return tuple(decisions), tuple(sorted(branching.items())), tuple(order)


@pytest.mark.parametrize(("game_id", "players"), [("espionage", 4), ("syndicate", 1)])
def test_metrics_are_the_games_counted_by_hand(game_id: str, players: int) -> None:
    result = simulate(game_id, "heuristic", 4, players=players, seed=8)
    for o in result.outcomes:
        decisions, branching, order = replay_counts(game_id, "heuristic", players, o.seed)
        assert (o.decisions, o.branching, o.order) == (decisions, branching, order)
        assert sum(o.moves) == o.length == sum(n for _, n in o.branching)
    metrics = result.summary()["metrics"]
    moves = sum(o.length for o in result.outcomes)
    made = sum(sum(o.decisions) for o in result.outcomes)
    assert metrics["forced_share"] == pytest.approx((moves - made) / moves)
    assert metrics["decisions"]["mean"] == pytest.approx(made / 4)
    every = [k for o in result.outcomes for k, n in o.branching for _ in range(n)]
    assert metrics["branching"]["mean"] == pytest.approx(sum(every) / len(every))
    assert metrics["branching"]["q50"] == pytest.approx(quantile(every, 0.5))
    if players > 1:
        rows = metrics["places"]
        assert [sum(r["places"]) for r in rows] == [4] * players
        firsts = sum(r["places"][0] for r in rows)
        assert firsts == sum(len(o.winners) for o in result.outcomes)


def test_timing_is_kept_apart_from_the_reproducible_files(tmp_path) -> None:
    first = simulate("syndicate", "heuristic", 6, seed=2, out=tmp_path / "a")
    second = simulate("syndicate", "heuristic", 6, seed=2, jobs=2, out=tmp_path / "b")
    assert first.outcomes == second.outcomes  # the seconds differ, and do not count
    assert all(o.seconds and o.seconds[0] >= 0 for o in first.outcomes)
    for name in ("games.jsonl", "summary.json", "games.csv", "seats.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert "seconds" not in (tmp_path / "a" / "games.jsonl").read_text()
    timing = json.loads((tmp_path / "a" / "timing.json").read_text())["agents"][0]
    assert timing["agent"] == "heuristic" and timing["decisions"] == sum(
        o.decisions[0] for o in first.outcomes
    )
    assert timing["ms_per_decision"] > 0


def test_turn_positions_and_their_tests_on_known_counts() -> None:
    # 30 three-player games: the first mover (seat 0, 1 or 2 in turn) wins 20, the second 6
    games = []
    for i in range(30):
        order = ((0, 1, 2), (1, 2, 0), (2, 0, 1))[i % 3]
        winner = order[0] if i < 20 else (order[1] if i < 26 else order[2])
        games.append(outcome((0, 0, 0), (winner,), order, i))
    report = turn_positions(games, 3)
    assert report["random_first"] and report["first_movers"] == [0, 1, 2]
    assert [p["wins"]["successes"] for p in report["positions"]] == [20, 6, 4]
    assert report["fair_share"] == pytest.approx(1 / 3)
    assert report["first_player"]["p"] == pytest.approx(binomtest(20, 30, 1 / 3).pvalue)
    assert report["first_player"]["p"] < 0.001
    assert report["chi_square"]["p"] == pytest.approx(chisquare([20, 6, 4]).pvalue)
    even = [outcome((0, 0, 0), (o.order[i % 3],), o.order, i) for i, o in enumerate(games)]
    assert turn_positions(even, 3)["first_player"]["p"] == pytest.approx(1.0)


def test_turn_positions_of_real_games() -> None:
    random_first = simulate("tinker-tailor", "random", 12, players=3, seed=1).summary()
    report = random_first["turn_positions"]
    assert report["random_first"] and report["games"] == 12
    wins = sum(p["wins"]["successes"] for p in report["positions"])
    outcomes = simulate("tinker-tailor", "random", 12, players=3, seed=1).outcomes
    assert wins == sum(len(o.winners) for o in outcomes)
    fixed = [outcome((0, 0), (i % 2,), (0, 1), i) for i in range(10)]  # seat 0 always first
    assert turn_positions(fixed, 2)["random_first"] is False
    assert simulate("syndicate", "random", 2).summary()["turn_positions"] is None
