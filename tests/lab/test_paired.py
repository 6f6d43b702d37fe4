"""Paired comparisons on the same deals: the statistics on known figures, and sweeps and agent
comparisons that pair the right games."""

from __future__ import annotations

import csv
import json
import math

import pytest
from scipy.stats import ttest_1samp

from spyglass.engine import RulesError
from spyglass.lab import simulate
from spyglass.lab.compare import compare_agents
from spyglass.lab.stats import holm, mcnemar, paired_means, paired_proportions
from spyglass.lab.sweep import sweep


def test_holm_on_a_known_family() -> None:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_paired_proportions_newcombe_and_mcnemar() -> None:
    # Far from the ends and on many deals the score interval meets the Wald interval.
    both, first, second, neither = 3000, 600, 400, 6000
    n = both + first + second + neither
    r = paired_proportions(both, first, second, neither)
    assert r["difference"] == pytest.approx(200 / n)
    half = 1.959964 * math.sqrt((first + second) / n**2 - (first - second) ** 2 / n**3)
    assert r["low"] == pytest.approx(200 / n - half, abs=2e-4)
    assert r["high"] == pytest.approx(200 / n + half, abs=2e-4)
    assert r["p"] == mcnemar(600, 400)
    # No discordant deal: no difference, an interval around zero, nothing to test.
    tied = paired_proportions(20, 0, 0, 20)
    assert tied["difference"] == 0 and tied["low"] < 0 < tied["high"] and tied["p"] == 1.0
    # Symmetric counts give a symmetric interval.
    a, b = paired_proportions(10, 7, 3, 20), paired_proportions(10, 3, 7, 20)
    assert a["low"] == pytest.approx(-b["high"]) and a["high"] == pytest.approx(-b["low"])
    assert a["low"] < a["difference"] < a["high"]


def test_paired_means_on_known_differences() -> None:
    r = paired_means([1.0, 2.0, 3.0, 4.0, 5.0])
    assert r["difference"] == 3.0
    assert r["p"] == pytest.approx(ttest_1samp([1, 2, 3, 4, 5], 0).pvalue)
    assert r["low"] == pytest.approx(3 - 2.7764451 * math.sqrt(2.5 / 5))
    assert r["high"] == pytest.approx(3 + 2.7764451 * math.sqrt(2.5 / 5))
    assert paired_means([2.0, 2.0, 2.0])["p"] == 0.0
    assert paired_means([0.0, 0.0])["p"] == 1.0 and paired_means([1.0])["low"] is None


def test_a_sweep_pairs_each_setting_with_the_first_deal_by_deal(tmp_path) -> None:
    result = sweep(
        "espionage",
        {"game_length": ["short", "long"]},
        "random",
        20,
        players=3,
        seed=3,
        out=tmp_path,
    )
    short, long = result.points
    report = result.summary()["paired"]
    rows = [r for r in report["comparisons"] if r["measure"] == "win rate"]
    assert [(r["first"], r["second"], r["seat"]) for r in rows] == [
        ("game_length=long", "game_length=short", s) for s in range(3)
    ]
    for row in rows:
        seat = row["seat"]
        only_long = sum(
            1
            for a, b in zip(long.outcomes, short.outcomes, strict=True)
            if seat in a.winners and seat not in b.winners
        )
        only_short = sum(
            1
            for a, b in zip(long.outcomes, short.outcomes, strict=True)
            if seat in b.winners and seat not in a.winners
        )
        assert (row["only_first"], row["only_second"]) == (only_long, only_short)
        assert row["p"] == mcnemar(only_long, only_short)
    tested = [r["p"] for r in report["comparisons"] if r["p"] is not None]
    assert [r["p_holm"] for r in report["comparisons"] if r["p"] is not None] == holm(tested)
    with (tmp_path / "paired.csv").open() as file:
        deals = list(csv.DictReader(file))
    assert [int(d["index"]) for d in deals] == list(range(20))
    assert [int(d["game_length=long seat 0 won"]) for d in deals] == [
        int(0 in o.winners) for o in long.outcomes
    ]
    assert (tmp_path / "paired_wins.png").stat().st_size > 0
    saved = json.loads((tmp_path / "sweep.json").read_text())
    assert saved["paired"]["comparisons"][0]["only_first"] == rows[0]["only_first"]


def test_agents_compared_on_the_same_deals(tmp_path) -> None:
    result = compare_agents("syndicate", ["random", "heuristic"], 25, seed=5, out=tmp_path)
    random_table, heuristic_table = result.tables
    assert heuristic_table.outcomes == simulate("syndicate", "heuristic", 25, seed=5).outcomes
    assert [o.seed for o in random_table.outcomes] == [o.seed for o in heuristic_table.outcomes]
    wins = next(r for r in result.paired()["comparisons"] if r["measure"] == "win rate")
    assert (wins["first"], wins["second"]) == ("heuristic", "random")
    assert wins["only_first"] == heuristic_table.wins - sum(
        1
        for a, b in zip(random_table.outcomes, heuristic_table.outcomes, strict=True)
        if a.won and b.won
    )
    assert wins["significant"] and wins["difference"] > 0.4
    assert (tmp_path / "comparison.json").exists() and (tmp_path / "agents.csv").exists()
    multiplayer = compare_agents(
        "espionage", ["random", "heuristic"], 4, seat=1, opponents="random", players=3
    )
    assert [t.agents for t in multiplayer.tables] == [
        ("random", "random", "random"),
        ("random", "heuristic", "random"),
    ]
    with pytest.raises(RulesError, match="seats 0 to 2"):
        compare_agents("espionage", ["random", "heuristic"], 2, seat=3, players=3)
    with pytest.raises(RulesError, match="two different agents"):
        compare_agents("syndicate", ["random", "random"], 2)
