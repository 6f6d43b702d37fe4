"""Play many games with agents in the seats and collect their outcomes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import spyglass

from .agentspec import check_agents
from .metrics import game_metrics
from .outcome import GameOutcome
from .outputs import write_sim
from .play import GameTask, game_seed, play_game
from .runner import Task, check_backend, run_tasks
from .stats import mean, wilson_interval
from .store import RunStore, prepare_directory
from .summary import summarize

__all__ = [
    "GameOutcome",
    "GameTask",
    "SimResult",
    "game_seed",
    "play_game",
    "play_stored_tables",
    "play_tables",
    "prepare",
    "simulate",
]


@dataclass(slots=True)
class SimResult:
    game: str
    agents: tuple[str, ...]
    players: int
    seed: int
    options: dict[str, Any]
    outcomes: list[GameOutcome] = field(default_factory=list)
    interrupted: bool = False  # stopped by Ctrl-C: ``outcomes`` holds the finished games
    planned: int | None = None  # how many games were asked for (None: as many as were played)

    def spec(self, games: int, first: int = 0) -> dict[str, Any]:
        """What was asked: enough to run it again (see :mod:`spyglass.lab.store`)."""
        return {
            "command": "sim",
            "game": self.game,
            "agents": list(self.agents),
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "first": first,
            "games": games,
        }

    def tasks(self, indices: Iterable[int]) -> list[GameTask]:
        """The games ``indices`` of this table, ready for a back-end."""
        settings = tuple(sorted(self.options.items()))
        return [
            GameTask(self.game, settings, self.agents, self.players, self.seed, index)
            for index in indices
        ]

    def summary(self) -> dict[str, Any]:
        """Every statistic of the run as a JSON-ready dict (see :mod:`spyglass.lab.summary`)."""
        return summarize(self)

    def metrics(self) -> dict[str, Any]:
        """The game metrics (decisions, branching, forced moves, ...: :mod:`.metrics`)."""
        return game_metrics(self)

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def wins(self) -> int:
        """Solo: games won. Multiplayer: games seat 0 won (see ``seat_wins``)."""
        return sum(1 for o in self.outcomes if 0 in o.winners)

    def seat_wins(self, seat: int) -> float:
        """Games won by ``seat``, a shared win counting as its share."""
        return sum(1 / len(o.winners) for o in self.outcomes if seat in o.winners)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.outcomes else None

    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def scores(self) -> list[float]:
        """The rulebook scores of the games that have one (some games score only wins)."""
        return [o.score for o in self.outcomes if o.score is not None]

    @property
    def mean_score(self) -> float | None:
        """Mean rulebook score over the games that have one."""
        return mean(self.scores())

    @property
    def mean_won_score(self) -> float | None:
        """Mean rulebook score over won games (solo games)."""
        return mean([o.score for o in self.outcomes if o.won and o.score is not None])

    @property
    def mean_length(self) -> float | None:
        return mean([o.length for o in self.outcomes])


def prepare(
    game_id: str,
    agent: str | Sequence[str],
    *,
    seed: int = 0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> SimResult:
    """An empty result for a table of ``agent`` (one spec, or one per seat) at ``game_id``:
    everything checked (game, options, player count, agents and their parameters) before a
    game is played."""
    game = spyglass.load(game_id, **dict(options or {}))
    if players is None and not isinstance(agent, str):
        players = len(agent)  # one agent per seat says how many seats there are
    n = game.check_players(players)
    names = (agent,) * n if isinstance(agent, str) else tuple(agent)
    if len(names) != n:
        raise spyglass.RulesError(f"{len(names)} agents given for {n} seats")
    check_agents(names, game)
    return SimResult(game_id, names, n, seed, dict(game.options))


def play_stored_tables(
    tables: Sequence[SimResult],
    games: int,
    *,
    out: Path | str | None,
    spec: Mapping[str, Any],
    resume: bool,
    labels: Sequence[str],
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
) -> bool:
    """:func:`play_tables` with the run saved in ``out`` as it goes (``spec`` describes it, so a
    resumed run with other settings is refused), continued from there with ``resume``; True if
    Ctrl-C stopped it. Without ``out`` nothing is saved."""
    store = None
    done: Mapping[tuple[str | None, int], Mapping[str, Any]] = {}
    if out is not None:
        prepare_directory(out)
        store = RunStore(out)
        done = store.open(dict(spec), resume)
    try:
        return play_tables(
            tables,
            games,
            jobs=jobs,
            backend=backend,
            address=address,
            progress=progress,
            store=store,
            labels=labels,
            done=done,
        )
    finally:
        if store is not None:
            store.close()


def play_tables(
    tables: Sequence[SimResult],
    games: int,
    *,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
    store: RunStore | None = None,
    labels: Sequence[str] | None = None,
    done: Mapping[tuple[str | None, int], Mapping[str, Any]] | None = None,
    wrap: Callable[[GameTask], Task] | None = None,
) -> bool:
    """Play games 0..games-1 at each of ``tables`` (from :func:`prepare`) in one run of the
    back-end, filling their outcomes; True if Ctrl-C stopped it. Round i of every table is
    sent before round i+1, so an interrupted run leaves the tables evenly played.

    With a ``store`` (opened by the caller), each game is saved as it finishes, tagged with its
    table's label; ``done`` holds the games a resumed run already has (they are not played).
    ``wrap`` turns each game's task into another that plays it (to set a worker up first)."""
    check_backend(backend, jobs)
    if store is not None and labels is None:
        raise ValueError("a stored run of several tables needs a label per table")
    names = list(labels) if labels is not None else [str(i) for i in range(len(tables))]
    saved = done or {}
    times = store.times() if store is not None and saved else {}
    tasks: list[Task] = []
    owner: list[int] = []
    for table in tables:
        table.outcomes = []
        table.planned = games
    for index in range(games):
        for number, table in enumerate(tables):
            key = (names[number], index)
            if key in saved:
                record = saved[key]
                table.outcomes.append(GameOutcome.from_json(dict(record), times.get(key, ())))
                continue
            task = table.tasks([index])[0]
            tasks.append(task if wrap is None else wrap(task))
            owner.append(number)

    def finished(position: int, outcome: GameOutcome) -> None:
        if store is not None:
            store.add(outcome, names[owner[position]])
        if progress is not None:
            progress(outcome)

    run = run_tasks(tasks, jobs=jobs, backend=backend, address=address, on_result=finished)
    for number, outcome in zip(owner, run.results, strict=True):
        if outcome is not None:
            tables[number].outcomes.append(outcome)
    for table in tables:
        table.outcomes.sort(key=lambda o: o.index)
        table.interrupted = run.interrupted
    return run.interrupted


def simulate(
    game_id: str,
    agent: str | Sequence[str],
    games: int,
    *,
    seed: int = 0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
    first: int = 0,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    out: Path | str | None = None,
    resume: bool = False,
) -> SimResult:
    """Play ``games`` games. Game i uses a seed derived from (seed, i), so results do not
    depend on how the games are scheduled. ``agent`` is one name for every seat or one per
    seat. ``progress`` is called after each finished game. Ctrl-C stops the run: the result
    then holds the games finished so far and ``interrupted`` is set. ``first`` numbers the
    games from there (games first..first+games-1), so a long run can be split in parts.

    ``jobs`` and ``backend`` ("process" or "ray", with ``address`` for a running Ray cluster)
    spread the games over workers; the outcomes are the same whatever they are. With ``out``,
    each game is saved as it finishes in that directory (see :mod:`spyglass.lab.store`) and,
    at the end, the summary, CSV tables and plots are written there; ``resume`` continues the
    run saved in ``out``, playing only the games it is missing.
    """
    if games < 1:
        raise spyglass.RulesError("--games must be at least 1")
    result = prepare(game_id, agent, seed=seed, players=players, options=options)
    result.planned = games
    check_backend(backend, jobs)
    if resume and out is None:
        raise spyglass.RulesError("resuming a run needs its --out directory")
    store = None
    done: dict[int, GameOutcome] = {}
    if out is not None:
        prepare_directory(out)
        store = RunStore(out)
        records = store.open(result.spec(games, first), resume)
        times = store.times()
        done = {
            key[1]: GameOutcome.from_json(record, times.get(key, ()))
            for key, record in records.items()
            if first <= key[1] < first + games
        }
    tasks = [t for t in result.tasks(range(first, first + games)) if t.index not in done]

    def finished(_position: int, outcome: GameOutcome) -> None:
        if store is not None:
            store.add(outcome)
        if progress is not None:
            progress(outcome)

    try:
        run = run_tasks(tasks, jobs=jobs, backend=backend, address=address, on_result=finished)
    finally:
        if store is not None:
            store.close()
    played = [o for o in run.results if o is not None]
    result.outcomes = sorted([*done.values(), *played], key=lambda o: o.index)
    result.interrupted = run.interrupted
    if out is not None:
        write_sim(result, Path(out))
    return result
