"""Spies!: the heuristic bot against random play, and against itself, seat by seat.

    nice python benchmarks/spies_bots.py [--minutes 10] [--seed 2024]

Four tables are played in turn, one game each round, until the time is up:

- bot vs random, 2 and 3 players: one heuristic seat going round the table, the others random;
  the heuristic seat's share of wins (a shared win counts as its share), with its Wilson 95%
  interval, beside the fair share;
- bot vs bot, 2 and 3 players: every seat heuristic; each seat's share of wins with its
  interval (the seats play different powers, so they are not equal).

Also: the mean score of each kind of seat, the bot's time per decision (mean and 95th
percentile, the determinization of the agent not included) and the time per game. The game is
not in the catalogue yet: it is built from ``spyglass.games.spies.SPEC``.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace

from spyglass.engine import Action, Game, Rng, derive_seed
from spyglass.games.spies import SPEC, bot
from spyglass.games.spies.rules import SpiesState
from spyglass.lab import wilson_interval
from spyglass.lab.simulate import play_game


@dataclass
class Table:
    name: str
    players: int
    against_random: bool
    games: int = 0
    wins: defaultdict[int, float] = field(default_factory=lambda: defaultdict(float))
    bot_wins: float = 0.0
    scores: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    seconds: float = 0.0

    def seats(self) -> tuple[list[str], int | None]:
        """The agents for the next game and the heuristic seat (None: all heuristic)."""
        if not self.against_random:
            return ["heuristic"] * self.players, None
        seat = self.games % self.players
        return ["heuristic" if s == seat else "random" for s in range(self.players)], seat


class Timer:
    """The bot, timed decision by decision."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __call__(self, state: SpiesState, rng: Rng) -> Action:
        start = time.perf_counter()
        move = bot.choose(state, rng)
        self.times.append(time.perf_counter() - start)
        return move


def interval(share: float, games: int) -> str:
    low, high = wilson_interval(round(share), games)
    return f"{share / games:6.1%}  [{low:.1%}–{high:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    timer = Timer()
    game = Game(replace(SPEC, bot=timer))
    tables = [
        Table("bot vs random", 2, True),
        Table("bot vs random", 3, True),
        Table("bot vs bot", 2, False),
        Table("bot vs bot", 3, False),
    ]
    deadline = time.perf_counter() + 60 * args.minutes
    decisions_before = 0
    game_decisions: list[int] = []
    while time.perf_counter() < deadline:
        for table in tables:
            names, hero = table.seats()
            seed = derive_seed(args.seed, f"{table.name}/{table.players}/{table.games}")
            start = time.perf_counter()
            outcome = play_game(game, names, table.players, seed, table.games)
            table.seconds += time.perf_counter() - start
            game_decisions.append(len(timer.times) - decisions_before)
            decisions_before = len(timer.times)
            table.games += 1
            for seat in outcome.winners:
                table.wins[seat] += 1 / len(outcome.winners)
            if hero is not None:
                table.bot_wins += (hero in outcome.winners) / len(outcome.winners)
            for seat, score in enumerate(outcome.scores):
                table.scores[names[seat]].append(score)
            if time.perf_counter() >= deadline:
                break
    report(tables, timer, game_decisions)


def report(tables: list[Table], timer: Timer, game_decisions: list[int]) -> None:
    print(f"{'table':<16}{'players':>8}{'games':>7}  {'heuristic wins  [95% CI]':<28}{'fair':>6}"
          f"{'score bot':>11}{'score random':>14}{'s/game':>8}")  # fmt: skip
    for table in tables:
        if not table.games or not table.against_random:
            continue
        bots, randoms = table.scores["heuristic"], table.scores["random"]
        print(
            f"{table.name:<16}{table.players:>8}{table.games:>7}  "
            f"{interval(table.bot_wins, table.games):<28}{1 / table.players:>6.1%}"
            f"{sum(bots) / len(bots):>11.1f}{sum(randoms) / len(randoms):>14.1f}"
            f"{table.seconds / table.games:>8.2f}"
        )
    print()
    print(f"{'table':<16}{'players':>8}{'games':>7}  seat wins [95% CI]")
    for table in tables:
        if not table.games or table.against_random:
            continue
        seats = "   ".join(
            f"seat {s}: {interval(table.wins[s], table.games)}" for s in range(table.players)
        )
        print(f"{table.name:<16}{table.players:>8}{table.games:>7}  {seats}")
    times = sorted(timer.times)
    if times:
        mean = sum(times) / len(times)
        p95 = times[int(0.95 * (len(times) - 1))]
        per_game = sum(game_decisions) / len(game_decisions)
        print()
        print(
            f"bot decisions: {len(times)}, {1000 * mean:.2f} ms mean, {1000 * p95:.2f} ms at the "
            f"95th percentile, {1000 * times[-1]:.1f} ms at most; {per_game:.0f} bot decisions "
            f"and {per_game * mean:.2f} s of bot time per game"
        )


if __name__ == "__main__":
    main()
