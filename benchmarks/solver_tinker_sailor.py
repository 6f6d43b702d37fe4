"""How many Tinker, Sailor, Soldier, Spy deals the clairvoyant solver settles, and at what cost.

    python benchmarks/solver_tinker_sailor.py [--deals 200] [--first 0] [--seconds 2]
        [--seed 2026] [--generic]

Deal i is the strength run's: ``new_state(seed=derive_seed(seed, f"game/{i}"))``, asked only
whether it can be won (``optimise_score=False``), with ``--seconds`` of CPU each. ``--generic``
runs the generic search instead (the figures before the game had a solver of its own). Every
winning line is replayed on the real deal and checked.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import spyglass
from spyglass.agents.solvers import clairvoyant, tinker_sailor
from spyglass.engine import derive_seed

GAME = "tinker-sailor-soldier-spy"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="how many deals (default 200)")
    parser.add_argument("--first", type=int, default=0, help="the first deal's index")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds a deal")
    parser.add_argument("--seed", type=int, default=2026, help="the strength run's seed")
    parser.add_argument("--generic", action="store_true", help="run the generic search")
    args = parser.parse_args(argv)
    solve = clairvoyant.clairvoyant if args.generic else tinker_sailor.bound
    game = spyglass.load(GAME)
    counts: Counter[str] = Counter()
    seconds: list[float] = []
    unknown: list[int] = []
    for done, index in enumerate(range(args.first, args.first + args.deals), start=1):
        seed = derive_seed(args.seed, f"game/{index}")
        found = solve(game.new_state(seed=seed), seconds=args.seconds, optimise_score=False)
        if found.won:
            end = game.new_state(seed=seed)
            for move in found.moves:
                end.apply(move)
            if not (end.is_over and end.won):
                raise AssertionError(f"deal {index}: the winning line does not replay")
        counts[found.status] += 1
        seconds.append(found.seconds)
        if found.won is None:
            unknown.append(index)
        print(
            f"\r  {done}/{args.deals} deals: {counts['won']} won, {counts['cannot be won']}"
            f" cannot be won, {counts['unknown']} unknown",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    name = "generic search" if args.generic else f"tinker_sailor:{tinker_sailor.VERSION}"
    print(
        f"{GAME}, deals {args.first}..{args.first + args.deals - 1} (seed {args.seed}),"
        f" {args.seconds:g} CPU-s a deal, {name}"
    )
    print(
        f"won {counts['won']}, cannot be won {counts['cannot be won']}, unknown {counts['unknown']}"
    )
    print(f"CPU seconds a deal: mean {sum(seconds) / len(seconds):.3f}, max {max(seconds):.3f}")
    if unknown:
        print("unknown deals: " + " ".join(map(str, unknown)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
