"""Play many games with agents in the seats and collect their outcomes."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import spyglass
from spyglass import agents
from spyglass.engine import Game, derive_seed

from .outcome import GameOutcome
from .outputs import write_sim
from .runner import check_backend, run_tasks
from .stats import mean, wilson_interval
from .store import RunStore
from .summary import summarize


@dataclass(slots=True)
class SimResult:
    game: str
    agents: tuple[str, ...]
    players: int
    seed: int
    options: dict[str, Any]
    outcomes: list[GameOutcome] = field(default_factory=list)
    interrupted: bool = False  # stopped by Ctrl-C: ``outcomes`` holds the finished games

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


def play_game(
    game: Game, agent_names: Sequence[str], players: int, seed: int, index: int = 0
) -> GameOutcome:
    """One game from ``seed``; each seat's agent gets its own seed derived from it."""
    state = game.new_state(players=players, seed=seed)
    seated = [
        agents.load_spec(name, seed=derive_seed(seed, f"agent/{seat}"))
        for seat, name in enumerate(agent_names)
    ]
    while not state.is_over:
        player = state.current_player
        assert player is not None
        state.apply(seated[player].choose(state.seat(player)))
    result = state.result
    assert result is not None
    return GameOutcome(
        index=index,
        seed=seed,
        scores=result.scores,
        winners=result.winners,
        won=result.won,
        score=result.score,
        length=state.step,
    )


@functools.lru_cache(maxsize=32)
def _load(game_id: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return spyglass.load(game_id, **dict(options))


@dataclass(frozen=True, slots=True)
class GameTask:
    """Game ``index`` of a table: picklable, so any worker of any back-end can play it."""

    game: str
    options: tuple[tuple[str, Any], ...]
    agents: tuple[str, ...]
    players: int
    seed: int  # the table's master seed: the game's own seed is derived from it and the index
    index: int

    def run(self) -> GameOutcome:
        game = _load(self.game, self.options)
        seed = game_seed(self.seed, self.index)
        return play_game(game, self.agents, self.players, seed, self.index)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with master seed ``seed``."""
    return derive_seed(seed, f"game/{index}")


def prepare(
    game_id: str,
    agent: str | Sequence[str],
    *,
    seed: int = 0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> SimResult:
    """An empty result for a table of ``agent`` (one spec, or one per seat) at ``game_id``:
    everything checked (game, options, player count, agents) before a game is played."""
    game = spyglass.load(game_id, **dict(options or {}))
    n = game.check_players(players)
    names = (agent,) * n if isinstance(agent, str) else tuple(agent)
    if len(names) != n:
        raise spyglass.RulesError(f"{len(names)} agents given for {n} seats")
    for name in set(names):
        agents.load_spec(name)  # fail early on an unknown agent or a bad parameter
    return SimResult(game_id, names, n, seed, dict(game.options))


def play_tables(
    tables: Sequence[SimResult],
    games: int,
    *,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[GameOutcome], None] | None = None,
) -> bool:
    """Play games 0..games-1 at each of ``tables`` (from :func:`prepare`) in one run of the
    back-end, filling their outcomes; True if Ctrl-C stopped it. Round i of every table is
    sent before round i+1, so an interrupted run leaves the tables evenly played."""
    check_backend(backend, jobs)
    tasks: list[GameTask] = []
    owner: list[SimResult] = []
    for index in range(games):
        for table in tables:
            tasks.extend(table.tasks([index]))
            owner.append(table)
    run = run_tasks(
        tasks,
        jobs=jobs,
        backend=backend,
        address=address,
        on_result=None if progress is None else lambda _p, outcome: progress(outcome),
    )
    for table, outcome in zip(owner, run.results, strict=True):
        if outcome is not None:
            table.outcomes.append(outcome)
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
    result = prepare(game_id, agent, seed=seed, players=players, options=options)
    check_backend(backend, jobs)
    if resume and out is None:
        raise spyglass.RulesError("resuming a run needs its --out directory")
    store = RunStore(out) if out is not None else None
    done: dict[int, GameOutcome] = {}
    if store is not None:
        done = store.open(result.spec(games, first), resume)
        done = {i: o for i, o in done.items() if first <= i < first + games}
    tasks = [t for t in result.tasks(range(first, first + games)) if t.index not in done]

    def finished(_position: int, outcome: GameOutcome) -> None:
        if store is not None:
            store.append(outcome)
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
