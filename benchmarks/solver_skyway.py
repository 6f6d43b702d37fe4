"""How many Skyway deals the clairvoyant bound settles, and at what CPU cost a deal.

    python benchmarks/solver_skyway.py [--deals 200] [--first 0] [--seconds 2] [--seed 2026]
                                       [--generic]

Deal i is the strength run's: ``new_state(seed=derive_seed(seed, f"game/{i}"))``, asked only
whether it can be won (``optimise_score=False``), as ``benchmarks/strength.py`` asks. Every
winning line is replayed on the real state and checked. ``--generic`` measures the generic
search (``solvers.clairvoyant``) on the same deals instead, for the figures before.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import spyglass
from spyglass.agents.solvers.clairvoyant import clairvoyant
from spyglass.agents.solvers.skyway import bound
from spyglass.engine import derive_seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="how many deals (default 200)")
    parser.add_argument("--first", type=int, default=0, help="the first deal's index")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a deal")
    parser.add_argument("--seed", type=int, default=2026, help="the strength run's seed")
    parser.add_argument("--generic", action="store_true", help="the generic search instead")
    args = parser.parse_args(argv)
    solve = clairvoyant if args.generic else bound
    game = spyglass.load("skyway")
    counts: Counter[str] = Counter()
    times: list[float] = []
    unknown: list[int] = []
    for done, index in enumerate(range(args.first, args.first + args.deals), start=1):
        state = game.new_state(seed=derive_seed(args.seed, f"game/{index}"))
        found = solve(state, seconds=args.seconds, optimise_score=False)
        if found.won:
            end = state.clone()
            for move in found.moves:
                end.apply(move)
            if not (end.is_over and end.won):
                raise AssertionError(f"deal {index}: the winning line does not replay to a win")
        counts[found.status] += 1
        times.append(found.seconds)
        if found.won is None:
            unknown.append(index)
        print(
            f"\r{done}/{args.deals} deals: {counts['won']} won, {counts['cannot be won']}"
            f" cannot be won, {counts['unknown']} unknown",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    solver = "generic search" if args.generic else "skyway solver"
    print(
        f"{solver}, deals {args.first}..{args.first + args.deals - 1}, {args.seconds:g} CPU-s:"
        f" won {counts['won']}, cannot be won {counts['cannot be won']},"
        f" unknown {counts['unknown']}"
    )
    print(f"CPU seconds a deal: mean {sum(times) / len(times):.3f}, max {max(times):.3f}")
    if unknown:
        print("unknown deals: " + " ".join(map(str, unknown)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
