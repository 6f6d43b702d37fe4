"""The clairvoyant bound of Dead Center and Area 52 deals: how many are won, cannot be won,
or left unknown within a CPU allowance, and the CPU seconds a deal.

    nice -n 10 python benchmarks/solver_dead_center.py --game dead-center --deals 200 --seconds 2

Deal i is ``new_state(seed=derive_seed(seed, f"game/{i}"))``, the strength run's deals, solved
with ``optimise_score=False``. Every winning line is replayed on the real state and checked.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import spyglass
from spyglass.agents.solvers import bound
from spyglass.engine import derive_seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dead-center", choices=["dead-center", "area-52"])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--show-unknown", action="store_true", help="list the unknown deals")
    args = parser.parse_args(argv)
    game = spyglass.load(args.game)
    counts: Counter[str] = Counter()
    times: list[float] = []
    unknown: list[int] = []
    for done, index in enumerate(range(args.first, args.first + args.deals), start=1):
        state = game.new_state(seed=derive_seed(args.seed, f"game/{index}"))
        found = bound(state, seconds=args.seconds, optimise_score=False)
        counts[found.status] += 1
        times.append(found.seconds)
        if found.won is None:
            unknown.append(index)
        if found.won:
            check = state.clone()
            for move in found.moves:
                check.apply(move)
            if not (check.is_over and check.result is not None and check.result.won):
                raise AssertionError(f"deal {index}: the winning line does not replay")
        print(
            f"\r  {done}/{args.deals} deals: {counts['won']} won, {counts['cannot be won']}"
            f" cannot be won, {counts['unknown']} unknown",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    total = len(times)
    print(
        f"{args.game}, deals {args.first}..{args.first + total - 1} (seed {args.seed}),"
        f" {args.seconds:g} CPU-s a deal"
    )
    print(
        f"won {counts['won']}, cannot be won {counts['cannot be won']},"
        f" unknown {counts['unknown']} ({100 * counts['unknown'] / total:.1f}%)"
    )
    print(f"CPU seconds a deal: mean {sum(times) / total:.3f}, max {max(times):.3f}")
    if args.show_unknown and unknown:
        print("unknown deals:", " ".join(map(str, unknown)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
