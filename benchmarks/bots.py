"""Each game's heuristic bot against uniform random play.

    python benchmarks/bots.py [GAME ...] [--games N] [--seed S] [--players 4,6] [--table-games M]

Solo games: win rate with its Wilson 95% interval, the mean score of won games and the mean
score of every game that has one (some games also score losses), for the random agent and the
heuristic agent on the same deals (game i uses a seed derived from S).

Multiplayer games: one heuristic bot in seat 0 against random bots in every other seat, for each
player count of --players the game allows (M games each, default 200): the heuristic seat's share
of wins (a shared win counts as a share) with its Wilson 95% interval, beside the fair share 1/n.
"""

from __future__ import annotations

import argparse
import time

import spyglass
from spyglass.lab import simulate, wilson_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all solo games)")
    parser.add_argument("--games", dest="count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--players", default="4,6", help="player counts for multiplayer games")
    parser.add_argument("--table-games", type=int, default=200)
    args = parser.parse_args()
    infos = [i for i in spyglass.games() if i.solo and (not args.games or i.id in args.games)]
    if not infos:
        tables(args)
        return
    width = max([len(i.id) for i in infos] + [4]) + 2
    header = f"{'game':<{width}}{'agent':<11}{'wins':>12}{'win rate':>10}{'95% CI':>17}"
    header += f"{'score (won)':>13}{'score (all)':>13}{'s/game':>9}"
    print(header)
    print("-" * len(header))
    for info in infos:
        for agent in ("random", "heuristic"):
            start = time.perf_counter()
            result = simulate(info.id, agent, args.count, seed=args.seed)
            per_game = (time.perf_counter() - start) / result.games
            low, high = result.win_interval()
            won = "-" if result.mean_won_score is None else f"{result.mean_won_score:.2f}"
            scored = "-" if result.mean_score is None else f"{result.mean_score:.2f}"
            print(
                f"{info.id:<{width}}{agent:<11}{result.wins:>6} / {result.games:<4}"
                f"{result.win_rate:>10.1%}{f'{low:.1%}–{high:.1%}':>17}{won:>13}{scored:>13}"
                f"{per_game:>9.4f}"
            )
        order = "lower" if info.score_order == "lower" else "higher"
        print(f"{'':<{width}}(score: {order} is better)")
    tables(args)


def tables(args: argparse.Namespace) -> None:
    """Multiplayer games: the heuristic in seat 0 against random bots."""
    counts = [int(n) for n in args.players.split(",") if n.strip()]
    infos = [i for i in spyglass.games() if not i.solo and (not args.games or i.id in args.games)]
    if not infos:
        return
    print()
    header = f"{'game':<16}{'players':>8}{'heuristic seat wins':>22}{'95% CI':>17}{'fair':>7}"
    print(header + f"{'length':>8}{'s/game':>9}")
    print("-" * (len(header) + 17))
    for info in infos:
        low, high = info.players
        for n in [c for c in counts if low <= c <= high] or [low]:
            agents = ["heuristic"] + ["random"] * (n - 1)
            start = time.perf_counter()
            result = simulate(info.id, agents, args.table_games, seed=args.seed, players=n)
            per_game = (time.perf_counter() - start) / result.games
            share = result.seat_wins(0)
            lo, hi = wilson_interval(round(share), result.games)
            print(
                f"{info.id:<16}{n:>8}{share / result.games:>22.1%}{f'{lo:.1%}–{hi:.1%}':>17}"
                f"{1 / n:>7.1%}{result.mean_length:>8.0f}{per_game:>9.3f}"
            )


if __name__ == "__main__":
    main()
