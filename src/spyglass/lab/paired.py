"""Paired comparisons: two settings (or agents) on the very same deals.

Game i of every table of a sweep or an agent comparison is dealt from the same seed, so each
deal is a pair: the same cards met by one setting and by the other. Comparing pair by pair
removes the luck of the deal from the difference, which independent samples cannot do. For
each pair of tables and each seat compared:

- **wins**: the difference of the two win rates with Newcombe's paired score interval, and the
  exact McNemar test (only the deals one side won and the other lost tell them apart);
- **scores**: the mean of the score differences, deal by deal, with its t interval and the
  paired t-test (Wilcoxon's signed-rank p-value beside it). Solo games compare the rulebook
  score over the deals both sides scored (some games score only a win);

and, because a sweep of many settings runs many tests, **Holm's correction** over all of them:
a difference *survives* if its adjusted p-value is below 5%. ``paired.csv`` holds the deals
themselves, one row each, so that any other test can be run on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import plots
from .outputs import write_csv
from .stats import holm, paired_means, paired_proportions

if TYPE_CHECKING:
    from .simulate import SimResult

LEVEL = 0.05


@dataclass(frozen=True, slots=True)
class Pairing:
    """Table ``first`` against table ``second`` (indices into the list of tables)."""

    first: int
    second: int


def _score(outcome: Any, seat: int, solo: bool) -> float | None:
    return outcome.score if solo else outcome.scores[seat]


def compare(
    tables: Sequence[SimResult],
    labels: Sequence[str],
    pairings: Sequence[Pairing],
    seats: Sequence[int],
) -> dict[str, Any]:
    """Every pairing at every seat in ``seats``: the rows of differences, Holm-adjusted."""
    rows: list[dict[str, Any]] = []
    for pairing in pairings:
        a, b = tables[pairing.first], tables[pairing.second]
        solo = a.players == 1
        by_index = {o.index: o for o in b.outcomes}
        pairs = [(o, by_index[o.index]) for o in a.outcomes if o.index in by_index]
        for seat in seats:
            counts = [0, 0, 0, 0]  # both, only the first, only the second, neither
            for x, y in pairs:
                won = (seat in x.winners, seat in y.winners)
                counts[{(True, True): 0, (True, False): 1, (False, True): 2}.get(won, 3)] += 1
            wins = paired_proportions(*counts)
            differences = [
                sx - sy
                for x, y in pairs
                if (sx := _score(x, seat, solo)) is not None
                and (sy := _score(y, seat, solo)) is not None
            ]
            scores = paired_means(differences)
            for measure, stats in (("win rate", wins), ("score", scores)):
                rows.append(
                    {
                        "first": labels[pairing.first],
                        "second": labels[pairing.second],
                        "seat": seat,
                        "measure": measure,
                        **stats,
                    }
                )
    # A measure with fewer than two deals to compare (a solo game's score where the two
    # sides never both scored) is no test at all, and stays out of the family.
    tested = [row for row in rows if row["games"] >= 2 and row["difference"] is not None]
    for row in rows:
        if row not in tested:
            row.update(p=None, p_holm=None, significant=False)
    adjusted = holm([row["p"] for row in tested])
    for row, p in zip(tested, adjusted, strict=True):
        row["p_holm"] = p
        row["significant"] = p < LEVEL
    return {
        "level": LEVEL,
        "correction": f"Holm over all {len(tested)} tests",
        "comparisons": rows,
    }


def baseline_pairings(count: int) -> list[Pairing]:
    """Each table against the first (a sweep: every setting against the first one)."""
    return [Pairing(k, 0) for k in range(1, count)]


def all_pairings(count: int) -> list[Pairing]:
    """Every table against every earlier one (an agent comparison: each agent against those
    listed before it, so that listing the baseline first reads "new − baseline")."""
    return [Pairing(j, i) for i in range(count) for j in range(i + 1, count)]


def paired_rows(
    tables: Sequence[SimResult], labels: Sequence[str], seats: Sequence[int]
) -> tuple[list[str], list[list[Any]]]:
    """paired.csv: one row per deal played by every table, each table's result at each seat."""
    solo = tables[0].players == 1
    header = ["index", "seed"]
    for label in labels:
        for seat in seats:
            where = label if solo else f"{label} seat {seat}"
            header += [f"{where} won", f"{where} score"]
    maps = [{o.index: o for o in t.outcomes} for t in tables]
    common = sorted(set.intersection(*(set(m) for m in maps))) if maps else []
    rows = []
    for index in common:
        row: list[Any] = [index, maps[0][index].seed]
        for outcomes in maps:
            outcome = outcomes[index]
            for seat in seats:
                row += [int(seat in outcome.winners), _score(outcome, seat, solo)]
        rows.append(row)
    return header, rows


def write_paired(
    report: dict[str, Any],
    *,
    tables: Sequence[SimResult],
    labels: Sequence[str],
    seats: Sequence[int],
    directory: Path,
    title: str,
) -> list[Path]:
    """paired.csv (the deals), comparisons.csv (the tests) and the two difference plots."""
    written = [write_csv(directory / "paired.csv", *paired_rows(tables, labels, seats))]
    header = ["first", "second", "seat", "measure", "games", "difference", "low", "high"]
    header += ["p", "p_holm", "significant"]
    rows = [[row.get(key) for key in header] for row in report["comparisons"]]
    written.append(write_csv(directory / "comparisons.csv", header, rows))
    solo = tables[0].players == 1
    for measure, stem, xlabel in (
        ("win rate", "paired_wins", "difference in win rate (points)"),
        ("score", "paired_scores", "mean difference in score"),
    ):
        chosen = [r for r in report["comparisons"] if r["measure"] == measure]
        names = [
            f"{r['first']} − {r['second']}" + ("" if solo else f", seat {r['seat']}")
            for r in chosen
        ]
        written += plots.difference_plot(
            names,
            chosen,
            directory / stem,
            f"{title}: {measure}, paired",
            xlabel=f"{xlabel}, 95% interval; filled: survives Holm's correction at 5%",
            percent=measure == "win rate",
        )
    return written
