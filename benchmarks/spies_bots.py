"""Spies!: the heuristic bot against random play, and against itself, seat by seat.

    nice python benchmarks/spies_bots.py [--random 2,3,4,5] [--self 2,3] [--games 35]
        [--self-games 10] [--minutes 60] [--seed 2024]

The tables are played in turn, one game each round, until each has played its games
(``--games`` against random, ``--self-games`` bot against bot) or the time is up:

- bot vs random, at each size of ``--random``: one heuristic seat going round the table, the
  others random; the heuristic seat's share of wins (a shared win counts as its share), with
  its Wilson 95% interval, beside the fair share;
- bot vs bot, at each size of ``--self``: every seat heuristic; each seat's share of wins with
  its interval (the seats play different powers, so they are not equal).

Also: the mean score of each kind of seat, the diplomacy of the bots (approaches, and offers
the bot accepted, per game), the bot's time per decision (mean and 95th percentile, the
determinization of the agent not included) and the time per game. The game is built from
``spyglass.games.spies.SPEC``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
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
    approaches: int = 0  # by the bot
    trades: int = 0  # offers the bot accepted

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
        self.moves: Counter[str] = Counter()  # the kinds of the bot's moves

    def __call__(self, state: SpiesState, rng: Rng) -> Action:
        start = time.perf_counter()
        move = bot.choose(state, rng)
        self.times.append(time.perf_counter() - start)
        self.moves[move.kind] += 1
        return move


def interval(share: float, games: int) -> str:
    low, high = wilson_interval(round(share), games)
    return f"{share / games:6.1%}  [{low:.1%}–{high:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", default="2,3,4,5", help="sizes of bot vs random tables")
    parser.add_argument("--self", default="2,3", help="sizes of bot vs bot tables")
    parser.add_argument("--games", type=int, default=35, help="games per bot vs random table")
    parser.add_argument("--self-games", type=int, default=10, help="games per bot vs bot table")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop after this")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    timer = Timer()
    game = Game(replace(SPEC, bot=timer))
    sizes = [(n, True) for n in args.random.split(",") if n] + [
        (n, False) for n in args.self.split(",") if n
    ]
    tables = [
        Table("bot vs random" if vs_random else "bot vs bot", int(n), vs_random)
        for n, vs_random in sizes
    ]
    deadline = time.perf_counter() + 60 * args.minutes
    decisions_before = 0
    game_decisions: list[int] = []

    def wanted(table: Table) -> int:
        return args.games if table.against_random else args.self_games

    while time.perf_counter() < deadline and any(t.games < wanted(t) for t in tables):
        for table in tables:
            if table.games >= wanted(table):
                continue
            names, hero = table.seats()
            before = Counter(timer.moves)
            seed = derive_seed(args.seed, f"{table.name}/{table.players}/{table.games}")
            start = time.perf_counter()
            outcome = play_game(game, names, table.players, seed, table.games)
            table.seconds += time.perf_counter() - start
            game_decisions.append(len(timer.times) - decisions_before)
            decisions_before = len(timer.times)
            table.games += 1
            table.approaches += timer.moves["approach"] - before["approach"]
            table.trades += timer.moves["accept"] - before["accept"]
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
          f"{'score bot':>11}{'score random':>14}{'s/game':>8}{'approaches':>12}"
          f"{'trades':>8}")  # fmt: skip
    for table in tables:
        if not table.games or not table.against_random:
            continue
        bots, randoms = table.scores["heuristic"], table.scores["random"]
        print(
            f"{table.name:<16}{table.players:>8}{table.games:>7}  "
            f"{interval(table.bot_wins, table.games):<28}{1 / table.players:>6.1%}"
            f"{sum(bots) / len(bots):>11.1f}{sum(randoms) / len(randoms):>14.1f}"
            f"{table.seconds / table.games:>8.2f}{table.approaches / table.games:>12.2f}"
            f"{table.trades / table.games:>8.2f}"
        )
    print()
    print(f"{'table':<16}{'players':>8}{'games':>7}  approaches/game  trades/game  s/game  "
          "seat wins [95% CI]")  # fmt: skip
    for table in tables:
        if not table.games or table.against_random:
            continue
        seats = "   ".join(
            f"seat {s}: {interval(table.wins[s], table.games)}" for s in range(table.players)
        )
        print(
            f"{table.name:<16}{table.players:>8}{table.games:>7}  "
            f"{table.approaches / table.games:>15.2f}{table.trades / table.games:>13.2f}"
            f"{table.seconds / table.games:>8.2f}  {seats}"
        )
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
