"""Option sweeps: how each value of a game option changes win rate, score and game length.

Every setting plays the same game seeds (the master seed is shared), so the settings are
compared on the same shuffles as far as the option lets them be, and a setting's games are
exactly those of ``spyglass sim`` with that option and seed. That makes every deal a pair, and
the sweep reports each setting's paired difference from the first one (:mod:`.paired`).
With ``out``, games are saved as they finish and ``resume`` continues an interrupted sweep.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any

import spyglass
from spyglass.engine import RulesError

from . import plots
from .outcome import GameOutcome
from .outputs import write_csv, write_json
from .paired import baseline_pairings, compare, write_paired
from .simulate import SimResult, play_stored_tables, prepare
from .stats import distribution


def parse_sweep(specs: Sequence[str]) -> dict[str, list[str]]:
    """``["jokers=0,1,2"]`` -> {"jokers": ["0", "1", "2"]}."""
    values: dict[str, list[str]] = {}
    for spec in specs:
        name, sep, text = spec.partition("=")
        choices = [v.strip() for v in text.split(",") if v.strip()]
        if not sep or not name.strip() or not choices:
            raise RulesError(f"--option {spec!r}: write NAME=V1,V2,..., e.g. jokers=0,1,2")
        values[name.strip()] = choices
    if not values:
        raise RulesError("a sweep needs at least one --option NAME=V1,V2,...")
    return values


@dataclass(slots=True)
class SweepResult:
    game: str
    agents: tuple[str, ...]
    players: int
    seed: int
    swept: tuple[str, ...]  # the option names varied
    points: list[SimResult] = field(default_factory=list)
    interrupted: bool = False
    planned: int = 0  # games asked for per setting

    def label(self, point: SimResult) -> str:
        return ", ".join(f"{name}={point.options[name]}" for name in self.swept)

    @property
    def seats(self) -> list[int]:
        return list(range(self.players))

    def paired(self) -> dict[str, Any]:
        """Each setting against the first, deal by deal (see :mod:`.paired`)."""
        labels = [self.label(p) for p in self.points]
        return compare(self.points, labels, baseline_pairings(len(self.points)), self.seats)

    def summary(self) -> dict[str, Any]:
        rows = []
        for point in self.points:
            stats = point.summary()
            if self.players > 1:
                scores = [s for o in point.outcomes for s in o.scores]
                stats["score"] = distribution(scores)  # every seat's score
            rows.append(
                {
                    "setting": {name: point.options[name] for name in self.swept},
                    "options": point.options,
                    "games": point.games,
                    "win_rate": stats["win_rate"],
                    "score": stats["score"],
                    "length": stats["length"],
                    "seats": stats["seats"],
                }
            )
        return {
            "game": self.game,
            "agents": list(self.agents),
            "players": self.players,
            "seed": self.seed,
            "swept": list(self.swept),
            "games": sum(p.games for p in self.points),
            "planned": self.planned * len(self.points),
            "interrupted": self.interrupted,
            "points": rows,
            "paired": self.paired(),
        }


def sweep(
    game_id: str,
    values: Mapping[str, Sequence[Any]],
    agent: str | Sequence[str],
    games: int,
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
    out: Path | str | None = None,
    resume: bool = False,
) -> SweepResult:
    """Play ``games`` games at every combination of the option ``values`` (other options from
    ``options``), with the same master seed for each. With ``out``, games are saved there as
    they finish, and at the end every output (:func:`write_sweep`); ``resume`` continues the
    sweep saved there."""
    if games < 1:
        raise RulesError("--games must be at least 1")
    if resume and out is None:
        raise RulesError("resuming a sweep needs its --out directory")
    known = {o.name for o in spyglass.load(game_id).info.options}
    for name in values:
        if name not in known:
            listed = ", ".join(sorted(known)) or "none"
            raise RulesError(f"{game_id} has no option {name!r} (its options: {listed})")
    names = tuple(values)
    points = [
        prepare(
            game_id,
            agent,
            seed=seed,
            players=players,
            options={**dict(options or {}), **dict(zip(names, combo, strict=True))},
        )
        for combo in product(*(values[name] for name in names))
    ]
    first = points[0]
    result = SweepResult(game_id, first.agents, first.players, seed, names, points, planned=games)
    labels = [result.label(p) for p in points]
    if len(set(labels)) != len(labels):
        raise RulesError("a sweep's settings must differ: a value is listed twice")
    spec = {
        "command": "sweep",
        "game": game_id,
        "agents": list(first.agents),
        "players": first.players,
        "seed": seed,
        "options": {k: v for k, v in first.options.items() if k not in names},
        "values": {name: [str(v) for v in values[name]] for name in names},
        "games": games,
    }
    result.interrupted = play_stored_tables(
        points,
        games,
        out=out,
        spec=spec,
        resume=resume,
        labels=labels,
        jobs=jobs,
        backend=backend,
        address=address,
        progress=progress,
    )
    if out is not None:
        write_sweep(result, Path(out))
    return result


def write_sweep(result: SweepResult, directory: Path) -> list[Path]:
    """sweep.json, sweep.csv and the plots (win rate, score, length by setting)."""
    summary = result.summary()
    written = [write_json(directory / "sweep.json", summary)]
    header = ["setting", "games", "wins", "win_rate", "low", "high"]
    header += ["mean_score", "median_score", "mean_length", "median_length"]
    if len(result.points) > 1:
        written += write_paired(
            summary["paired"],
            tables=result.points,
            labels=[result.label(p) for p in result.points],
            seats=result.seats,
            directory=directory,
            title=f"{result.game}: each setting against {result.label(result.points[0])}",
        )
    labels = [result.label(p) for p in result.points]
    rows = [
        [
            label,
            row["games"],
            row["win_rate"]["successes"],
            row["win_rate"]["rate"],
            row["win_rate"]["low"],
            row["win_rate"]["high"],
            row["score"]["mean"] if row["score"] else None,
            row["score"]["q50"] if row["score"] else None,
            row["length"]["mean"],
            row["length"]["q50"],
        ]
        for label, row in zip(labels, summary["points"], strict=True)
    ]
    written.append(write_csv(directory / "sweep.csv", header, rows))
    name = f"{result.game} ({', '.join(sorted(set(result.agents)))})"
    if result.players == 1:
        written += plots.rate_bars(
            labels,
            [row["win_rate"] for row in summary["points"]],
            directory / "win_rate",
            f"{name}: win rate by setting",
        )
    else:
        series = {
            f"seat {seat}": [row["seats"][seat]["wins"] for row in summary["points"]]
            for seat in range(result.players)
        }
        written += plots.grouped_rate_bars(
            labels, series, directory / "win_rate", f"{name}: win rate by seat and setting"
        )
    written += plots.line_plot(
        labels,
        [row["score"]["mean"] if row["score"] else None for row in summary["points"]],
        directory / "score",
        f"{name}: mean score by setting",
        ylabel="mean score" if result.players == 1 else "mean score of a seat",
        xlabel=", ".join(result.swept),
    )
    written += plots.line_plot(
        labels,
        [row["length"]["mean"] for row in summary["points"]],
        directory / "length",
        f"{name}: mean game length by setting",
        ylabel="actions per game",
        xlabel=", ".join(result.swept),
    )
    return written
