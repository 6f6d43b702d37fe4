"""Each game's heuristic bot against uniform random play.

    python benchmarks/bots.py [GAME ...] [--games N] [--seed S]

Solo games: win rate with its Wilson 95% interval and the mean score of won games, for the
random agent and the heuristic agent on the same deals (game i uses a seed derived from S).
"""

from __future__ import annotations

import argparse
import time

import spyglass
from spyglass.lab import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all solo games)")
    parser.add_argument("--games", dest="count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    infos = [i for i in spyglass.games() if i.solo and (not args.games or i.id in args.games)]
    width = max([len(i.id) for i in infos] + [4]) + 2
    header = f"{'game':<{width}}{'agent':<11}{'wins':>12}{'win rate':>10}{'95% CI':>17}"
    header += f"{'mean score':>12}{'s/game':>9}"
    print(header)
    print("-" * len(header))
    for info in infos:
        for agent in ("random", "heuristic"):
            start = time.perf_counter()
            result = simulate(info.id, agent, args.count, seed=args.seed)
            per_game = (time.perf_counter() - start) / result.games
            low, high = result.win_interval()
            score = "-" if result.mean_score is None else f"{result.mean_score:.2f}"
            print(
                f"{info.id:<{width}}{agent:<11}{result.wins:>6} / {result.games:<4}"
                f"{result.win_rate:>10.1%}{f'{low:.1%}–{high:.1%}':>17}{score:>12}"
                f"{per_game:>9.4f}"
            )
        order = "lower" if info.score_order == "lower" else "higher"
        print(f"{'':<{width}}(score: {order} is better, counted over won games)")


if __name__ == "__main__":
    main()
