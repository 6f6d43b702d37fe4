"""Tournaments: several agents at a multiplayer game, their win rates and ratings.

Each seating (which agent sits in which seat) is a table that plays the same number of games.
``round-robin`` seats every pair of agents alternately round the table, once with each of the
two in seat 0; ``all`` plays every seating of the agents over the seats except those with a
single agent. Ratings come from openskill's Plackett-Luce model (a maintained, TrueSkill-like
Bayesian rating): in each game the agents at the table are the competitors, those holding a
winning seat ranked first and the rest tied behind them. Games are rated round by round (game
0 of every table, then game 1, ...), so the ratings do not depend on the order tables are listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

import spyglass
from spyglass.engine import RulesError, derive_seed

from . import plots
from .outcome import GameOutcome
from .outputs import write_csv, write_json
from .simulate import SimResult, play_tables, prepare
from .summary import rate

FORMATS = ("round-robin", "all")


def seatings(names: Sequence[str], players: int, format: str = "round-robin") -> list[tuple]:
    """The tables of a tournament: one tuple of agents (one per seat) each."""
    if len(set(names)) != len(names) or len(names) < 2:
        raise RulesError("a tournament needs at least two different agents")
    if format == "round-robin":
        tables = []
        for a, b in combinations(names, 2):
            tables.append(tuple((a, b)[seat % 2] for seat in range(players)))
            tables.append(tuple((b, a)[seat % 2] for seat in range(players)))
        return tables
    if format == "all":
        return [seats for seats in product(names, repeat=players) if len(set(seats)) > 1]
    raise RulesError(f"unknown tournament format {format!r}; choose one of {', '.join(FORMATS)}")


@dataclass(slots=True)
class AgentStanding:
    agent: str
    seat_games: int = 0  # games played, counted once per seat the agent held
    wins: int = 0  # seats that won (a shared win counts)
    share: float = 0.0  # wins with a shared win split between its winners
    mu: float = 0.0
    sigma: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "wins": rate(self.wins, self.seat_games),
            "win_share": self.share / self.seat_games if self.seat_games else None,
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.mu - 3 * self.sigma},
        }


@dataclass(slots=True)
class TournamentResult:
    game: str
    agents: tuple[str, ...]
    players: int
    seed: int
    format: str
    tables: list[SimResult] = field(default_factory=list)
    standings: list[AgentStanding] = field(default_factory=list)
    interrupted: bool = False

    @property
    def games(self) -> int:
        return sum(t.games for t in self.tables)

    def standing(self, agent: str) -> AgentStanding:
        return next(s for s in self.standings if s.agent == agent)

    def summary(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agents": list(self.agents),
            "players": self.players,
            "seed": self.seed,
            "format": self.format,
            "games": self.games,
            "interrupted": self.interrupted,
            "fair_share": 1 / self.players,
            "rating_model": "openskill Plackett-Luce (mu 25, sigma 25/3); ordinal = mu - 3 sigma",
            "standings": [s.to_json() for s in self.standings],
            "tables": [
                {
                    "seats": list(t.agents),
                    "seed": t.seed,
                    "games": t.games,
                    "seat_wins": [
                        sum(1 for o in t.outcomes if s in o.winners) for s in range(t.players)
                    ],
                }
                for t in self.tables
            ],
        }


def standings(tables: Sequence[SimResult], names: Sequence[str]) -> list[AgentStanding]:
    """Win counts and ratings of every agent over the tables, best rating first."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    table_of = {name: AgentStanding(name) for name in names}
    rounds = max((t.games for t in tables), default=0)
    by_index = [{o.index: o for o in t.outcomes} for t in tables]
    for index in range(rounds):
        for table, outcomes in zip(tables, by_index, strict=True):
            outcome = outcomes.get(index)
            if outcome is not None:
                _count(table.agents, outcome, table_of)
                _rate(model, ratings, table.agents, outcome)
    for name, standing in table_of.items():
        standing.mu, standing.sigma = ratings[name].mu, ratings[name].sigma
    return sorted(table_of.values(), key=lambda s: s.mu - 3 * s.sigma, reverse=True)


def _count(seats: Sequence[str], outcome: GameOutcome, table: dict[str, AgentStanding]) -> None:
    for seat, name in enumerate(seats):
        standing = table[name]
        standing.seat_games += 1
        if seat in outcome.winners:
            standing.wins += 1
            standing.share += 1 / len(outcome.winners)


def _rate(model: Any, ratings: dict, seats: Sequence[str], outcome: GameOutcome) -> None:
    present = list(dict.fromkeys(seats))
    winners = {seats[w] for w in outcome.winners}
    ranks = [0 if name in winners else 1 for name in present]
    if len(set(ranks)) == 1:
        return  # every agent present won (or none did): nothing to learn
    updated = model.rate([[ratings[name]] for name in present], ranks=ranks)
    for name, (rating,) in zip(present, updated, strict=True):
        ratings[name] = rating


def tournament(
    game_id: str,
    names: Sequence[str],
    games: int,
    *,
    players: int | None = None,
    format: str = "round-robin",
    seed: int = 0,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games at every seating of ``names`` (see :func:`seatings`). Each table's
    master seed is derived from ``seed`` and its seating, so adding an agent leaves the other
    tables' games unchanged."""
    info = spyglass.load(game_id, **dict(options or {}))
    if info.info.solo:
        raise RulesError(
            f"{game_id} is a solo game: compare agents on it with `spyglass report difficulty` "
            "or `spyglass sim`"
        )
    n = info.check_players(players)
    tables = [
        prepare(
            game_id,
            seats,
            seed=derive_seed(seed, "table/" + ",".join(seats)),
            players=n,
            options=options,
        )
        for seats in seatings(list(names), n, format)
    ]
    result = TournamentResult(game_id, tuple(names), n, seed, format, tables)
    result.interrupted = play_tables(
        tables, games, jobs=jobs, backend=backend, address=address, progress=progress
    )
    result.standings = standings(tables, names)
    return result


def write_tournament(result: TournamentResult, directory: Path) -> list[Path]:
    """tournament.json, standings.csv, tables.csv and the win-rate and rating plots."""
    summary = result.summary()
    written = [write_json(directory / "tournament.json", summary)]
    header = ["agent", "seat_games", "wins", "win_rate", "low", "high", "win_share"]
    header += ["mu", "sigma", "ordinal"]
    rows = [
        [
            s["agent"],
            s["wins"]["trials"],
            s["wins"]["successes"],
            s["wins"]["rate"],
            s["wins"]["low"],
            s["wins"]["high"],
            s["win_share"],
            s["rating"]["mu"],
            s["rating"]["sigma"],
            s["rating"]["ordinal"],
        ]
        for s in summary["standings"]
    ]
    written.append(write_csv(directory / "standings.csv", header, rows))
    rows = [
        [" ".join(t["seats"]), t["seed"], t["games"], *t["seat_wins"]] for t in summary["tables"]
    ]
    header = ["seats", "seed", "games"] + [f"wins_{s}" for s in range(result.players)]
    written.append(write_csv(directory / "tables.csv", header, rows))
    labels = [s["agent"] for s in summary["standings"]]
    title = f"{result.game}, {result.players} players, {result.format}"
    written += plots.rate_bars(
        labels,
        [s["wins"] for s in summary["standings"]],
        directory / "win_rates",
        f"{title}: share of seats won",
        reference=1 / result.players,
        reference_label="fair share",
    )
    written += plots.value_bars(
        labels,
        [s["rating"]["mu"] for s in summary["standings"]],
        [3 * s["rating"]["sigma"] for s in summary["standings"]],
        directory / "ratings",
        f"{title}: ratings",
        ylabel="openskill mu (± 3 sigma)",
    )
    return written
