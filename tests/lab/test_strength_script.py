"""benchmarks/strength.py: the search runs in rounds and stops a series once it is precise
enough; a cached run prints the same table without running anything."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from benchmarks import strength


def rows(wins: int, games: int) -> list[tuple]:
    return [(i, i < wins, None) for i in range(games)]


def test_a_series_is_precise_once_its_interval_is_narrow_enough() -> None:
    # 95% Wilson interval of 0 wins in 50: 0-7.1%, half-width 3.6 points
    assert strength.precise(rows(0, 50), 4.0)
    assert not strength.precise(rows(0, 50), 3.0)
    # a rate near a half needs far more deals for the same width
    assert not strength.precise(rows(25, 50), 4.0)
    assert strength.precise(rows(1200, 2401), 2.0)
    assert not strength.precise([], 50.0)


def test_a_round_stops_a_series_where_its_observed_rate_needs() -> None:
    # 80% needs about 1,540 deals for +-2 points; with 5% to spare, in whole parts of 2, and
    # not the 2,401 that doubling past 1,600 would play
    needed = strength.enough(rows(40, 50), 2.0, 2401)
    assert needed == 1612
    assert strength.precise(rows(round(0.8 * needed), needed), 2.0)
    assert not strength.precise(rows(round(0.8 * 1500), 1500), 2.0)
    # a rate of a half needs every deal allowed; a certain one, a hundred or so
    assert strength.enough(rows(25, 50), 2.0, 2401) == 2401
    assert strength.enough(rows(50, 50), 2.0, 2401) == 98
    assert strength.enough(rows(25, 50), 2.0, 300) == 300  # never beyond the cap


def test_a_candidate_plays_all_its_deals_however_precise_its_rate() -> None:
    """A candidate is run for its paired test against the heuristic: 50 deals of 50 won is a
    precise rate (+-3.6 points) but no evidence that it beats the heuristic (Foursquare's ISMCTS
    10 stopped so at 174 deals, 12 to 2 ahead; over 2,401 it was 80 to 71)."""
    won = rows(50, 50)
    assert strength.precise(won, 4.0)
    assert strength.round_stop(won, 50, 100, 400, 4.0, estimate=True) is None
    assert strength.round_stop(won, 50, 100, 400, 4.0, estimate=False) == 100
    assert strength.round_stop(rows(300, 400), 400, 800, 400, 4.0, estimate=False) is None
    # an estimate stops a round where its rate needs; a candidate goes to the round's end
    assert strength.round_stop(rows(40, 50), 50, 3200, 2401, 2.0, estimate=True) == 1612
    assert strength.round_stop(rows(40, 50), 50, 3200, 2401, 2.0, estimate=False) == 2401


def test_a_candidate_stops_at_the_candidate_deals_unless_its_test_needs_more() -> None:
    """Foursquare's heuristic loses about 4% of deals: its expectimax candidate plays all the
    search's deals (the paired test needs them), where other candidates stop at
    --candidate-deals and the cheap tuned policy and the table's columns play them all."""
    assert strength.deals_allowed("foursquare", "expectimax:depth=1", 2401, 400, True) == 2401
    assert strength.deals_allowed("skyway", "expectimax:depth=1", 2401, 400, True) == 400
    assert strength.deals_allowed("sandwich-guy", "tuned", 2401, 400, True) == 2401
    assert strength.deals_allowed("foursquare", "ismcts:iterations=10", 2401, 400, False) == 2401
    assert strength.deals_allowed("foursquare", "expectimax:depth=1", 300, 400, True) == 300
    assert "expectimax:depth=1" in strength.CANDIDATES["foursquare"]
    # the look-ahead plays its own number: more than a candidate, at most the search's
    look = "lookahead:depth=2,width=2,piles=15"
    assert look in strength.CANDIDATES["foursquare"]
    assert strength.deals_allowed("foursquare", look, 2401, 400, True) == 1600
    assert strength.deals_allowed("foursquare", look, 1000, 400, True) == 1000
    assert strength.deals_allowed("foursquare", look, 2401, 2000, True) == 2000
    # the Sandwich Guy's rollout search: 1,200 deals for its paired test
    rollout = strength.SANDWICH_ROLLOUT
    assert rollout in strength.CANDIDATES["sandwich-guy"]
    assert strength.deals_allowed("sandwich-guy", rollout, 2401, 400, True) == 1200
    assert strength.deals_allowed("sandwich-guy", rollout, 800, 400, True) == 800


def test_an_effort_series_plays_its_game_s_share_of_the_effort_deals() -> None:
    """Where no agent meets the targets the series play more deals, so that their intervals
    show where the growth levels off (five times in the cheap games, 1.6 times where a budget
    costs a minute a deal); always in whole parts, and none when the run asks for none."""
    assert strength.effort_deals("sandwich-guy", 20) == 100
    assert strength.effort_deals("boba-tea", 20) == 100
    assert strength.effort_deals("skyway", 20) == 32
    assert strength.effort_deals("dead-center", 20) == 32
    assert strength.effort_deals("tinker-sailor-soldier-spy", 20) == 20  # its targets are met
    assert strength.effort_deals("skyway", 5) % strength.SEARCH_CHUNK == 0
    assert all(strength.effort_deals(game, 0) == 0 for game in strength.EFFORT)
    # ISMCTS goes on to seconds a move in the Sandwich Guy, Boba Tea and Dead Center (the
    # Emissary's 1000 iterations already cost about that); the dearest budgets play fewer
    # deals, never more than their game's series
    dear = "ismcts:iterations=10000,cutoff=0"
    for game in ("sandwich-guy", "boba-tea", "dead-center"):
        assert strength.EFFORT[game][strength._ISMCTS][-1] == dear
    assert strength.effort_deals("sandwich-guy", 20, dear) == 100
    assert strength.effort_deals("boba-tea", 20, dear) == 8
    assert strength.effort_deals("boba-tea", 20, "ismcts:iterations=1000,cutoff=0") == 100
    assert strength.effort_deals("boba-tea", 1, dear) == 4  # never more than the series
    assert strength.effort_deals("dead-center", 20, dear) == 6
    for (game, spec), cap in strength.EFFORT_CAP.items():
        assert any(spec in specs for specs in strength.EFFORT[game].values())
        assert cap % strength.SEARCH_CHUNK == 0


def test_work_that_plays_the_tuned_policy_names_its_version() -> None:
    version = strength.policy_version("sandwich-guy")
    assert version.startswith("sandwich_guy:")
    for agent in ("tuned", "rollout", "rollout:samples=96", "pimc:samples=4,policy=tuned"):
        assert strength.work_tag("sandwich-guy", agent) == version
    assert strength.work_tag("sandwich-guy", "ismcts:iterations=40,cutoff=0") == ""
    assert strength.work_tag("skyway", "rollout") == ""  # no tuned policy: the bot plays


def test_interleave_takes_a_part_of_each_series_in_turn() -> None:
    assert strength.interleave([[1, 2, 3], [4], [5, 6]]) == [1, 4, 5, 2, 6, 3]


def test_the_search_stops_in_rounds_and_the_cache_reprints_the_same_table(tmp_path, capsys) -> None:
    cache = tmp_path / "parts.jsonl"
    args = ["sandwich-guy", "--deals", "120", "--budgets", "1,2", "--seconds", "0.05"]
    args += ["--precision", "15", "--workers", "1", "--cache", str(cache)]
    args += ["--candidate", "sandwich-guy=", "--effort-deals", "0"]  # ISMCTS and the bound only
    assert strength.main(args) == 0
    first = capsys.readouterr()
    # with +-15 points the first round of 50 deals is enough for both ISMCTS series
    assert "search, round 1 (up to 50 deals)" in first.err
    assert "round 2" not in first.err
    line = next(x for x in first.out.splitlines() if x.startswith("| sandwich-guy"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[1].endswith("of 120") and cells[2].split(" [")[0].endswith("of 120")
    assert cells[3].split(" [")[0].endswith("of 50") and cells[4].split(" [")[0].endswith("of 50")
    assert cells[5] == "`heuristic` (its column)"  # no series beats it deal by deal
    assert cells[6].endswith("of 50 (0 unknown)")  # the game's own solver settles every deal
    keys = [json.loads(x)["key"] for x in cache.read_text().splitlines()]
    assert len(keys) == len(set(keys)) == 2 * 12 + 3 * 25  # 12 parts of 10, 25 of 2 per series

    assert strength.main([*args, "--report-only"]) == 0
    again = capsys.readouterr()
    assert again.out == first.out
    assert "parts to run" not in again.err


def test_a_search_cap_stops_one_game_early(tmp_path, capsys) -> None:
    args = ["sandwich-guy", "--deals", "60", "--budgets", "1,2", "--seconds", "0.05"]
    args += ["--precision", "0.5", "--workers", "1", "--search-cap", "sandwich-guy=4"]
    args += ["--candidate", "sandwich-guy=", "--effort-deals", "0"]
    assert strength.main(args) == 0
    out = capsys.readouterr()
    assert "round 2" not in out.err  # the cap (4) ends both series within the first round
    line = next(x for x in out.out.splitlines() if x.startswith("| sandwich-guy"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[3].split(" [")[0].endswith("of 4") and cells[4].split(" [")[0].endswith("of 4")


@pytest.mark.parametrize("cap", ["nosuchgame=4", "sandwich-guy=0", "sandwich-guy=x"])
def test_a_bad_search_cap_is_refused_with_a_reason(cap, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        strength.main(["sandwich-guy", "--search-cap", cap])
    assert stop.value.code == 2
    assert "--search-cap" in capsys.readouterr().err


def test_the_regenerating_command_drops_a_machine_s_cache_and_report_only() -> None:
    argv = ["--deals", "9", "--cache", "/tmp/x.jsonl", "--report-only", "--out", "d.md"]
    assert strength._regenerating(argv) == ["--deals", "9", "--out", "d.md"]
    assert strength._regenerating(["--cache=/tmp/x", "emissary"]) == ["emissary"]


def test_the_regenerating_command_keeps_a_cache_of_the_repository() -> None:
    # The published table's deal-by-deal results are a file of the repository: the command in
    # its header reprints the table from them (or continues the run where they end).
    argv = ["--cache", "benchmarks/results/strength.jsonl", "--report-only", "--out", "d.md"]
    assert strength._regenerating(argv) == [
        "--cache",
        "benchmarks/results/strength.jsonl",
        "--out",
        "d.md",
    ]
    assert strength._regenerating(["--cache=r.jsonl"]) == ["--cache=r.jsonl"]


def test_a_candidate_is_checked_and_its_specs_split() -> None:
    assert strength._split_specs("pimc:samples=16,cutoff=5,ismcts:iterations=40,solver") == [
        "pimc:samples=16,cutoff=5",
        "ismcts:iterations=40",
        "solver",
    ]
    with pytest.raises(SystemExit):
        strength.main(["sandwich-guy", "--candidate", "sandwich-guy=genius", "--report-only"])


def test_holm_holds_a_family_of_tests_to_its_level() -> None:
    # sorted 0.01, 0.02, 0.04 times 3, 2, 1 -> 0.03, 0.04, 0.04 (monotone); order kept
    assert strength.holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert strength.holm([0.5, 0.9]) == [1.0, 1.0]


def test_the_strongest_is_the_heuristic_unless_beaten_deal_by_deal() -> None:
    import spyglass

    game = "sandwich-guy"
    heuristic = [(i, i % 4 != 0, None) for i in range(200)]  # 75%
    better = [(i, i % 10 != 0, None) for i in range(200)]  # 90%: wins every deal but 20
    lucky = [(i, i % 4 != 1, None) for i in range(200)]  # 75% too, other deals
    results = strength.Results(
        {(game, "heuristic"): heuristic, (game, "pimc:samples=16"): better,
         (game, "ismcts:iterations=10,cutoff=0"): lucky},
        {}, {}, {},
    )  # fmt: skip
    ranking = strength.solo_ranking(game, [10, 40], results)
    assert [agent for agent, _, _ in ranking] == ["pimc:samples=16", "heuristic"]
    info = spyglass.load(game).info
    chosen = strength.strongest_choices([info], [10, 40], results)
    assert chosen[game] == {"agent": "pimc:samples=16", "win_rate": 0.9, "deals": 200,
                            "heuristic": 0.75}  # fmt: skip
    text = strength.strongest_toml([info], results)
    assert '[games."sandwich-guy"]' in text and 'agent = "pimc:samples=16"' in text


def test_ismcts_and_the_heuristic_are_compared_on_the_deals_both_played() -> None:
    import spyglass

    info = spyglass.load("sandwich-guy").info
    search = strength.ismcts(info.id, 10, solo=True)
    # deals 0-9 for the heuristic (won: 0-4); ISMCTS on 0-5 and 20 (won: 1-5 and 20)
    solo_rows = {
        (info.id, "heuristic"): [(i, i < 5, None) for i in range(10)],
        (info.id, search): [(i, 1 <= i <= 5, None) for i in range(6)] + [(20, True, None)],
    }
    lines = strength.paired([info], [10], solo_rows)
    row = next(x for x in lines if x.startswith("| sandwich-guy"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    # deal 20 is ISMCTS's alone: the six shared deals, 5 wins each, deal 0 only the
    # heuristic's, deal 5 only ISMCTS's: a split of one each, p = 1
    assert cells == ["sandwich-guy", f"`{search}`", "6", "83.3%", "83.3%", "1", "1", "1", "1"]
    assert strength.paired([info], [40], solo_rows)[-1].startswith("|---")  # no deals, no row


def test_a_capped_effort_budget_is_read_on_its_own_deals_only() -> None:
    import spyglass

    info = spyglass.load("boba-tea").info
    dear = "ismcts:iterations=10000,cutoff=0"
    assert strength.effort_deals(info.id, 20, dear) == 8
    # the heuristic wins deals 0-79 of 100; the dear budget has 40 deals, wins the even ones
    results = strength.Results(
        {(info.id, "heuristic"): [(i, i < 80, None) for i in range(100)],
         (info.id, dear): [(i, i % 2 == 0, None) for i in range(40)]},
        {(info.id, dear): [30.0] * 40}, {}, {},
    )  # fmt: skip
    row = next(line for line in strength.effort([info], results, 20) if f"`{dear}`" in line)
    cells = [c.strip() for c in row.strip("|").split("|")]
    # its first 8 deals only: 4 won, the heuristic won all 8, so 0 only it, 4 only the heuristic
    assert cells[3].startswith("50.0%") and cells[3].endswith("of 8")
    assert cells[4:] == ["100.0%", "0 / 4", "30.00"]


def test_the_published_table_is_the_report_of_the_committed_results(monkeypatch, capsys) -> None:
    # docs/strength.md is made from benchmarks/results/strength.jsonl: the command in its header,
    # with --report-only and without --out, reprints the page's tables to the character.
    root = Path(__file__).resolve().parents[2]
    title, header, tables = (root / "docs" / "strength.md").read_text().split("\n\n", 2)
    assert title == "# Strength of play"
    command = shlex.split(header.split("`")[1])
    assert command[:2] == ["python", "benchmarks/strength.py"]
    argv = command[2:]
    assert "--cache" in argv and "--out" in argv
    assert argv[argv.index("--cache") + 1] == "benchmarks/results/strength.jsonl"
    for option in ("--out", "--write-strongest"):  # reprint only: write nothing
        if option in argv:
            at = argv.index(option)
            del argv[at : at + 2]
    monkeypatch.chdir(root)
    assert strength.main([*argv, "--report-only"]) == 0
    assert capsys.readouterr().out == tables + "\n"
