"""Write a simulation's results: summary.json, timing.json, games.csv, seats.csv, plots."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import plots
from .metrics import margin, timing

if TYPE_CHECKING:
    from .simulate import SimResult

SUMMARY_FILE = "summary.json"
TIMING_FILE = "timing.json"
GAMES_CSV = "games.csv"
SEATS_CSV = "seats.csv"
PLOTS = ("score", "seats", "length", "branching")
#: Plots of multiplayer runs only.
TABLE_PLOTS = ("places", "margin", "positions")


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        writer.writerows(["" if v is None else v for v in row] for row in rows)
    return path


def games_rows(result: SimResult) -> tuple[list[str], list[list[Any]]]:
    """One row per game, sorted by index: what games.csv holds."""
    header = ["index", "seed", "won", "score", "length", "decisions", "order", "winners"]
    header += [f"score_{seat}" for seat in range(result.players)]
    rows = [
        [
            o.index,
            o.seed,
            o.won,
            o.score,
            o.length,
            sum(o.decisions) if o.measured else None,
            " ".join(str(s) for s in o.order),
            " ".join(str(w) for w in o.winners),
            *o.scores,
        ]
        for o in result.outcomes
    ]
    return header, rows


def seats_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    header = ["seat", "agent", "wins", "games", "win_rate", "low", "high", "win_share"]
    header += ["mean_score", "median_score", "mean_place"]
    places = {p["seat"]: p["mean_place"] for p in summary["metrics"]["places"]}
    rows = [
        [
            s["seat"],
            s["agent"],
            s["wins"]["successes"],
            s["wins"]["trials"],
            s["wins"]["rate"],
            s["wins"]["low"],
            s["wins"]["high"],
            s["win_share"],
            s["score"]["mean"],
            s["score"]["q50"],
            places.get(s["seat"]),
        ]
        for s in summary["seats"]
    ]
    return header, rows


def write_sim(result: SimResult, directory: Path) -> list[Path]:
    """Every output of a simulation in ``directory``; the paths written."""
    summary = result.summary()
    written = [write_json(directory / SUMMARY_FILE, summary)]
    # the one output that depends on the machine, apart from the reproducible ones
    written.append(write_json(directory / TIMING_FILE, {"agents": timing(result)}))
    written.append(write_csv(directory / GAMES_CSV, *games_rows(result)))
    written.append(write_csv(directory / SEATS_CSV, *seats_rows(summary)))
    if not result.outcomes:
        return written
    who = ", ".join(sorted(set(result.agents)))
    name = f"{result.game} ({who})"
    if result.players == 1:
        scores = result.scores()
        score_label = "score (rulebook)"
    else:
        scores = [s for o in result.outcomes for s in o.scores]
        score_label = "score, every seat"
    written += plots.histogram(scores, directory / "score", f"{name}: scores", score_label)
    labels = [f"seat {s['seat']}\n{s['agent']}" for s in summary["seats"]]
    if result.players == 1:
        labels = [result.agents[0]]
    written += plots.rate_bars(
        labels,
        [s["wins"] for s in summary["seats"]],
        directory / "seats",
        f"{name}: win rate by seat, {result.games} games",
        reference=None if result.players == 1 else 1 / result.players,
        reference_label="fair share",
    )
    written += plots.histogram(
        [o.length for o in result.outcomes],
        directory / "length",
        f"{name}: game length",
        "actions per game",
    )
    metrics = summary["metrics"]
    written += plots.count_bars(
        metrics["branching_histogram"],
        directory / "branching",
        f"{name}: legal actions per move (mean {_figure(metrics['branching']['mean'])}, "
        f"{_share(metrics['forced_share'])} forced)",
        xlabel="legal actions",
        ylabel="moves",
    )
    if result.players == 1:
        return written
    seat_labels = [f"seat {p['seat']}\n{p['agent']}" for p in metrics["places"]]
    written += plots.place_bars(
        seat_labels,
        [p["places"] for p in metrics["places"]],
        directory / "places",
        f"{name}: finishing places by seat",
    )
    margins = [m for o in result.outcomes if (m := margin(o, lower_is_better(result))) is not None]
    written += plots.histogram(
        margins, directory / "margin", f"{name}: winner's lead", "score margin over the next seat"
    )
    positions = summary["turn_positions"]
    if positions is not None:
        first = positions["first_player"]
        written += plots.rate_bars(
            [f"{p['position']}" for p in positions["positions"]],
            [p["wins"] for p in positions["positions"]],
            directory / "positions",
            f"{name}: win rate by turn position (first player p = {first['p']:.2g})",
            reference=positions["fair_share"],
            reference_label="fair share",
        )
    return written


def lower_is_better(result: SimResult) -> bool:
    from spyglass import load  # noqa: PLC0415 - the registry, only when plotting

    return load(result.game).info.score_order == "lower"


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def _share(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"
