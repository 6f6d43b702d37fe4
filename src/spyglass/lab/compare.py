"""Agent comparisons on the same deals: which agent plays a seat better, and by how much.

Each agent in turn takes the seat compared (the only seat of a solo game), the others seats
keep the same opponents, and every agent plays the very same deals: game i of every table
comes from the same seed, and the opponents' own generators are seeded from it too, so the
opponents meet each deal the same way until the compared seat's choices change the game. The
agents are then compared two by two, deal by deal (:mod:`.paired`): paired differences with
their intervals, exact tests, and Holm's correction over all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import spyglass
from spyglass.engine import RulesError

from . import plots
from .outcome import GameOutcome
from .outputs import write_csv, write_json
from .paired import all_pairings, compare, write_paired
from .simulate import SimResult, play_stored_tables, prepare


@dataclass(slots=True)
class Comparison:
    game: str
    agents: tuple[str, ...]
    seat: int
    opponents: str
    players: int
    seed: int
    tables: list[SimResult] = field(default_factory=list)
    interrupted: bool = False
    planned: int = 0

    def paired(self) -> dict[str, Any]:
        return compare(self.tables, list(self.agents), all_pairings(len(self.tables)), [self.seat])

    def summary(self) -> dict[str, Any]:
        rows = []
        for name, table in zip(self.agents, self.tables, strict=True):
            stats = table.summary()
            seat = stats["seats"][self.seat]
            rows.append(
                {
                    "agent": name,
                    "seats": list(table.agents),
                    "games": table.games,
                    "wins": seat["wins"],
                    "score": stats["score"] if self.players == 1 else seat["score"],
                    "length": stats["length"],
                }
            )
        return {
            "game": self.game,
            "agents": list(self.agents),
            "seat": self.seat,
            "opponents": None if self.players == 1 else self.opponents,
            "players": self.players,
            "seed": self.seed,
            "games": sum(t.games for t in self.tables),
            "planned": self.planned * len(self.tables),
            "interrupted": self.interrupted,
            "results": rows,
            "paired": self.paired(),
        }


def compare_agents(
    game_id: str,
    names: Sequence[str],
    games: int,
    *,
    seat: int = 0,
    opponents: str = "heuristic",
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
    out: Path | str | None = None,
    resume: bool = False,
) -> Comparison:
    """Play ``games`` deals with each of ``names`` in ``seat`` (see the module's docstring)."""
    if len(names) < 2 or len(set(names)) != len(names):
        raise RulesError("a comparison needs at least two different agents")
    if games < 1:
        raise RulesError("--games must be at least 1")
    if resume and out is None:
        raise RulesError("resuming a comparison needs its --out directory")
    n = spyglass.load(game_id, **dict(options or {})).check_players(players)
    if not 0 <= seat < n:
        raise RulesError(f"--seat {seat}: this table has seats 0 to {n - 1}")
    tables = [
        prepare(
            game_id,
            [name if s == seat else opponents for s in range(n)],
            seed=seed,
            players=n,
            options=options,
        )
        for name in names
    ]
    result = Comparison(game_id, tuple(names), seat, opponents, n, seed, tables, planned=games)
    spec = {
        "command": "compare",
        "game": game_id,
        "agents": list(names),
        "seat": seat,
        "opponents": opponents,
        "players": n,
        "seed": seed,
        "options": tables[0].options,
        "games": games,
    }
    result.interrupted = play_stored_tables(
        tables,
        games,
        out=out,
        spec=spec,
        resume=resume,
        labels=list(names),
        jobs=jobs,
        backend=backend,
        address=address,
        progress=progress,
    )
    if out is not None:
        write_comparison(result, Path(out))
    return result


def write_comparison(result: Comparison, directory: Path) -> list[Path]:
    """comparison.json, agents.csv, paired.csv, comparisons.csv and the plots."""
    summary = result.summary()
    written = [write_json(directory / "comparison.json", summary)]
    header = ["agent", "games", "wins", "win_rate", "low", "high", "mean_score", "mean_length"]
    rows = [
        [
            r["agent"],
            r["games"],
            r["wins"]["successes"],
            r["wins"]["rate"],
            r["wins"]["low"],
            r["wins"]["high"],
            r["score"]["mean"] if r["score"] else None,
            r["length"]["mean"],
        ]
        for r in summary["results"]
    ]
    written.append(write_csv(directory / "agents.csv", header, rows))
    where = "" if result.players == 1 else f", seat {result.seat} vs {result.opponents}"
    written += plots.rate_bars(
        list(result.agents),
        [r["wins"] for r in summary["results"]],
        directory / "win_rates",
        f"{result.game}{where}: win rate on the same {result.planned} deals",
    )
    written += write_paired(
        summary["paired"],
        tables=result.tables,
        labels=list(result.agents),
        seats=[result.seat],
        directory=directory,
        title=f"{result.game}{where}",
    )
    return written
