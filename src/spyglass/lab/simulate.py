"""Play many games with agents in the seats and collect their outcomes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import spyglass
from spyglass import agents
from spyglass.engine import Game, derive_seed

from .stats import mean, wilson_interval


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished game: enough to recount every statistic, and to replay it (the seed)."""

    index: int
    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    won: bool | None
    score: float | None
    length: int


@dataclass(slots=True)
class SimResult:
    game: str
    agents: tuple[str, ...]
    players: int
    seed: int
    options: dict[str, Any]
    outcomes: list[GameOutcome] = field(default_factory=list)
    interrupted: bool = False  # stopped by Ctrl-C: ``outcomes`` holds the finished games

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
) -> SimResult:
    """Play ``games`` games. Game i uses a seed derived from (seed, i), so results do not
    depend on how the games are scheduled. ``agent`` is one name for every seat or one per
    seat. ``progress`` is called after each finished game. Ctrl-C stops the run: the result
    then holds the games finished so far and ``interrupted`` is set. ``first`` numbers the
    games from there (games first..first+games-1), so a long run can be split in parts.
    """
    game = spyglass.load(game_id, **dict(options or {}))
    n = game.check_players(players)
    names = (agent,) * n if isinstance(agent, str) else tuple(agent)
    if len(names) != n:
        raise spyglass.RulesError(f"{len(names)} agents given for {n} seats")
    for name in set(names):
        agents.load_spec(name)  # fail early on an unknown agent or a bad parameter
    result = SimResult(game_id, names, n, seed, dict(game.options))
    try:
        for index in range(first, first + games):
            outcome = play_game(game, names, n, derive_seed(seed, f"game/{index}"), index)
            result.outcomes.append(outcome)
            if progress is not None:
                progress(outcome)
    except KeyboardInterrupt:
        result.interrupted = True
    return result
