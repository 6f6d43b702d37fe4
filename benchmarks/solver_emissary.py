"""The Emissary's clairvoyant solver on the strength run's deals: won / cannot be won / unknown.

    python benchmarks/solver_emissary.py [--deals 200] [--first 0] [--seconds 2] [--seed 2026]
        [--generic]

Deal i is ``new_state(seed=derive_seed(seed, f"game/{i}"))``, as in ``benchmarks/strength.py``;
only whether a deal can be won is asked (``optimise_score=False``), within ``--seconds`` of CPU.
Every winning line is replayed on the real state and checked. ``--generic`` measures the
generic search (``clairvoyant``) on the same deals instead, for the figures before.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import spyglass
from spyglass.agents.solvers.clairvoyant import clairvoyant
from spyglass.agents.solvers.emissary import bound
from spyglass.engine import derive_seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--generic", action="store_true", help="measure the generic search")
    args = parser.parse_args(argv)
    game = spyglass.load("emissary")
    solve = clairvoyant if args.generic else bound
    counts: Counter[str] = Counter()
    seconds: list[float] = []
    unknown: list[int] = []
    last = args.first + args.deals
    for index in range(args.first, last):
        state = game.new_state(seed=derive_seed(args.seed, f"game/{index}"))
        found = solve(state, seconds=args.seconds, optimise_score=False)
        if found.won:
            end = state.clone()
            for move in found.moves:
                end.apply(move)
            result = end.result
            if result is None or not result.won:
                raise AssertionError(f"deal {index}: the winning line does not replay to a win")
        counts[found.status] += 1
        seconds.append(found.seconds)
        if found.won is None:
            unknown.append(index)
        print(
            f"\r  deal {index + 1 - args.first}/{args.deals}: {counts['won']} won,"
            f" {counts['cannot be won']} cannot be won, {counts['unknown']} unknown",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    name = "generic search" if args.generic else "emissary solver"
    print(
        f"{name}, deals {args.first}..{last - 1} (seed {args.seed}), {args.seconds:g} CPU-s a deal"
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
