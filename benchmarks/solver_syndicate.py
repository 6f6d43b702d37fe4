"""How often a game's own solver settles a deal within a CPU allowance, and how fast.

    python benchmarks/solver_syndicate.py [--deals 200] [--first 0] [--seconds 2] [--seed 2026]

The deals are the strength run's (``benchmarks/strength.py``): deal i is
``new_state(seed=derive_seed(seed, f"game/{i}"))``, asked only whether it can be won
(``optimise_score=False``). Every winning line is replayed on the real state and its score
checked. Prints how many deals are won, cannot be won and unknown, the CPU seconds a deal
(mean, max), and the unknown deals' indices.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import spyglass
from spyglass.agents import solvers
from spyglass.engine import derive_seed


def main(argv: list[str] | None = None, game_id: str = "syndicate") -> int:
    """Measure ``game_id``'s own solver (``solver_loot_the_loop.py`` runs this for its game)."""
    parser = argparse.ArgumentParser(description=f"{game_id}: {__doc__.splitlines()[0]}")
    parser.add_argument("--deals", type=int, default=200, help="how many deals (default 200)")
    parser.add_argument("--first", type=int, default=0, help="index of the first deal")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a deal")
    parser.add_argument("--seed", type=int, default=2026, help="the strength run's seed")
    parser.add_argument(
        "--generic",
        action="store_true",
        help="measure the generic search (solvers.clairvoyant) instead: the figure before",
    )
    args = parser.parse_args(argv)
    if args.deals <= 0 or args.seconds <= 0:
        parser.error("--deals and --seconds must be positive")
    game = spyglass.load(game_id)
    which = "generic" if args.generic else game_id  # a game without a solver: the generic
    solve = solvers.solver(which)
    counts: Counter[str] = Counter()
    times: list[float] = []
    unknown: list[int] = []
    started = time.process_time()
    last = args.first + args.deals
    for index in range(args.first, last):
        deal = derive_seed(args.seed, f"game/{index}")
        found = solve(game.new_state(seed=deal), seconds=args.seconds, optimise_score=False)
        if found.won:
            replay = game.new_state(seed=deal)
            for move in found.moves:
                replay.apply(move)
            result = replay.result
            if not (result is not None and result.won and result.score == found.score):
                raise AssertionError(f"deal {index}: the winning line does not replay")
        if found.won is None:
            unknown.append(index)
        counts[found.status] += 1
        times.append(found.seconds)
        print(
            f"\r{index + 1 - args.first}/{args.deals} deals, {len(unknown)} unknown",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    print(
        f"{game_id}: {solvers.version(which)}, deals {args.first}..{last - 1} of seed "
        f"{args.seed}, {args.seconds:g} CPU-s a deal"
    )
    for status in ("won", "cannot be won", "unknown"):
        print(f"  {status:>13}: {counts[status]} ({100 * counts[status] / args.deals:.1f}%)")
    print(
        f"  CPU seconds a deal: mean {sum(times) / len(times):.3f}, max {max(times):.3f}"
        f" (whole run {time.process_time() - started:.1f})"
    )
    print(f"  unknown deals: {unknown or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
