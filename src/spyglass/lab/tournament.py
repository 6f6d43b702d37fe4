"""Tournaments: several agents at a multiplayer game, their win rates and ratings.

Each seating (which agent sits in which seat) is a table that plays the same number of games.
``round-robin`` seats every pair of agents alternately round the table, once with each of the
two in seat 0; ``all`` plays every seating of the agents over the seats except those with a
single agent. Ratings come from openskill's Plackett-Luce model (a maintained, TrueSkill-like
Bayesian rating): in each game the agents at the table are the competitors, those holding a
winning seat ranked first and the rest tied behind them. Games are rated round by round (game
0 of every table, then game 1, ...), so the ratings do not depend on the order tables are listed.

An agent that holds two seats of one table does not play two independent trials: the two
seats' results are tied together (when one wins, the other has almost always lost), so a
binomial interval over its seats, as if each were a separate game, would be wrong. The
win-rate intervals come from a bootstrap by game instead: whole games are resampled, within
each seating, and the agent's share of seats won recounted (2,000 resamples, percentile
interval, a fixed seed: reproducible). Where every resample gives the same share (an agent
that won every game it could, or none), the interval is Wilson's with one trial per game the
agent played. The head-to-head matrix gives, for every two agents, how often the first
finished ahead of the second in the games both played (each agent's best seat; a tie counts
half), with the same bootstrap's interval.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

import spyglass
from spyglass.engine import RulesError, derive_seed

from . import plots
from .metrics import places
from .outcome import GameOutcome
from .outputs import write_csv, write_json
from .simulate import SimResult, play_stored_tables, prepare
from .stats import rate, wilson_interval

FORMATS = ("round-robin", "all")
#: Resamples of the bootstrap by game.
RESAMPLES = 2000


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
    interval: tuple[float, float] | None = None  # the bootstrap by game's 95% interval

    def to_json(self) -> dict[str, Any]:
        wins = rate(self.wins, self.seat_games)
        if self.interval is not None:
            wins["low"], wins["high"] = self.interval
        wins["interval"] = "bootstrap by game" if self.interval is not None else "Wilson"
        return {
            "agent": self.agent,
            "wins": wins,
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
    planned: int = 0  # games asked for per seating
    head_to_head: dict[str, Any] = field(default_factory=dict)

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
            "planned": self.planned * len(self.tables),
            "interrupted": self.interrupted,
            "fair_share": 1 / self.players,
            "rating_model": "openskill Plackett-Luce (mu 25, sigma 25/3); ordinal = mu - 3 sigma",
            "interval": (
                f"95% percentile bootstrap by game, {RESAMPLES} resamples within each seating"
            ),
            "standings": [s.to_json() for s in self.standings],
            "head_to_head": self.head_to_head,
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
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
    out: Path | str | None = None,
    resume: bool = False,
) -> TournamentResult:
    """Play ``games`` games at every seating of ``names`` (see :func:`seatings`). Each table's
    master seed is derived from ``seed`` and its seating, so adding an agent leaves the other
    tables' games unchanged. With ``out``, games are saved as they finish and every output is
    written at the end (:func:`write_tournament`); ``resume`` continues the run saved there."""
    if games < 1:
        raise RulesError("--games must be at least 1")
    if resume and out is None:
        raise RulesError("resuming a tournament needs its --out directory")
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
    result = TournamentResult(game_id, tuple(names), n, seed, format, tables, planned=games)
    labels = [",".join(t.agents) for t in tables]
    spec = {
        "command": "tournament",
        "game": game_id,
        "agents": list(names),
        "players": n,
        "seed": seed,
        "format": format,
        "options": tables[0].options,
        "games": games,
    }
    result.interrupted = play_stored_tables(
        tables,
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
    lower = spyglass.load(game_id).info.score_order == "lower"
    result.standings = standings(tables, names)
    intervals, result.head_to_head = bootstrap(tables, names, seed, lower)
    for standing in result.standings:
        standing.interval = intervals.get(standing.agent)
    if out is not None:
        write_tournament(result, Path(out))
    return result


def bootstrap(
    tables: Sequence[SimResult], names: Sequence[str], seed: int, lower: bool = False
) -> tuple[dict[str, tuple[float, float]], dict[str, Any]]:
    """The bootstrap by game (see the module's docstring): each agent's 95% interval of its
    share of seats won, and the head-to-head matrix with its intervals."""
    import numpy as np  # noqa: PLC0415 - only the main process summarises

    k = len(names)
    column = {name: i for i, name in enumerate(names)}
    rng = np.random.default_rng(derive_seed(seed, "bootstrap") % 2**63)
    wins = np.zeros((RESAMPLES, k))
    seats = np.zeros((RESAMPLES, k))
    ahead = np.zeros((RESAMPLES, k * k))
    met = np.zeros((RESAMPLES, k * k))
    point_ahead = np.zeros(k * k)
    point_met = np.zeros(k * k)
    point_wins = np.zeros(k)
    point_seats = np.zeros(k)
    point_games = np.zeros(k, dtype=int)
    for table in tables:
        n = len(table.outcomes)
        if not n:
            continue
        held = np.zeros(k)
        for name in table.agents:
            held[column[name]] += 1
        present = [column[name] for name in dict.fromkeys(table.agents)]
        won = np.zeros((n, k))
        duel = np.zeros((n, k * k))
        for g, outcome in enumerate(table.outcomes):
            for seat in outcome.winners:
                won[g, column[table.agents[seat]]] += 1
            best: dict[int, int] = {}
            for seat, place in enumerate(places(outcome, lower)):
                a = column[table.agents[seat]]
                best[a] = min(place, best.get(a, place))
            for a in present:
                for b in present:
                    if a != b:
                        duel[g, a * k + b] = (
                            1.0 if best[a] < best[b] else (0.5 if best[a] == best[b] else 0.0)
                        )
        pairs = np.zeros(k * k)
        for a in present:
            for b in present:
                if a != b:
                    pairs[a * k + b] = 1.0
        counts = rng.multinomial(n, np.full(n, 1.0 / n), size=RESAMPLES)
        wins += counts @ won
        seats += np.outer(counts.sum(axis=1), held)
        ahead += counts @ duel
        met += np.outer(counts.sum(axis=1), pairs)
        point_ahead += duel.sum(axis=0)
        point_met += n * pairs
        point_wins += won.sum(axis=0)
        point_seats += n * held
        point_games[held > 0] += n
    intervals: dict[str, tuple[float, float]] = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = wins / seats
        duels = ahead / met
    for name, i in column.items():
        if not seats[0, i]:
            continue
        if np.ptp(shares[:, i]) == 0:
            # Every resample is the same (an agent that won every game it could, or none):
            # a bootstrap cannot show doubt there, so count one trial per game it played,
            # its seats moving together (wider than the truth, never narrower).
            games_played = int(point_games[i])
            share = point_wins[i] / point_seats[i]
            low, high = wilson_interval(round(share * games_played), games_played)
        else:
            low, high = np.percentile(shares[:, i], [2.5, 97.5])
        intervals[name] = (float(low), float(high))
    matrix: list[list[dict[str, Any] | None]] = []
    for a in range(k):
        row: list[dict[str, Any] | None] = []
        for b in range(k):
            cell = a * k + b
            if a == b or not point_met[cell]:
                row.append(None)
                continue
            share = float(point_ahead[cell] / point_met[cell])
            if np.nanmax(duels[:, cell]) == np.nanmin(duels[:, cell]):  # no doubt shown
                games = int(point_met[cell])
                low, high = wilson_interval(round(share * games), games)
            else:
                low, high = np.nanpercentile(duels[:, cell], [2.5, 97.5])
            row.append(
                {
                    "games": int(point_met[cell]),
                    "ahead": share,
                    "low": float(low),
                    "high": float(high),
                }
            )
        matrix.append(row)
    head_to_head = {
        "agents": list(names),
        "meaning": (
            "row's agent finished ahead of the column's (best seat each; a tie counts half), "
            "over the games both played"
        ),
        "matrix": matrix,
    }
    return intervals, head_to_head


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
    duel = summary["head_to_head"]
    if duel:
        agents = duel["agents"]
        rows = [
            [a, b, cell["games"], cell["ahead"], cell["low"], cell["high"]]
            for a, cells in zip(agents, duel["matrix"], strict=True)
            for b, cell in zip(agents, cells, strict=True)
            if cell is not None
        ]
        header = ["agent", "against", "games", "ahead", "low", "high"]
        written.append(write_csv(directory / "head_to_head.csv", header, rows))
        written += plots.matrix_plot(
            agents,
            [[None if c is None else c["ahead"] for c in cells] for cells in duel["matrix"]],
            directory / "head_to_head",
            f"{title}: head to head",
            note="share of games the row finished ahead",
        )
    return written
