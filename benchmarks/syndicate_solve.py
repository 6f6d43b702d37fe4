"""Solve many random Syndicate deals exactly: how many can be won, and with how few sacrifices.

    python benchmarks/syndicate_solve.py [--deals 10000] [--seed 0] [--workers 2]

Deal i is ``new_state(seed=derive_seed(seed, "deal/i"))``, so a run can be repeated and split.
Every solution is replayed on the real cards and checked (won, with that many sacrifices).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import spyglass
from spyglass.agents.solvers.syndicate import solve
from spyglass.engine import derive_seed
from spyglass.lab.stats import wilson_interval as wilson


def solve_deal(args: tuple[int, int]) -> tuple[int, int | None, int, float]:
    seed, index = args
    game = spyglass.load("syndicate")
    deal_seed = derive_seed(seed, f"deal/{index}")
    started = time.process_time()
    solution = solve(game.new_state(seed=deal_seed))
    seconds = time.process_time() - started
    if solution.winnable:
        check = game.new_state(seed=deal_seed)
        for move in solution.moves:
            check.apply(move)
        if not (check.won and len(check.sacrificed) == solution.sacrifices):
            raise AssertionError(f"deal {index}: the solution does not replay")
    return index, solution.sacrifices, solution.nodes, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    optimal: Counter[int | None] = Counter()
    times: list[float] = []
    nodes: list[int] = []
    started = time.perf_counter()
    jobs = [(args.seed, i) for i in range(args.deals)]
    try:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            for done, (_, sacrifices, count, seconds) in enumerate(
                pool.map(solve_deal, jobs, chunksize=50), start=1
            ):
                optimal[sacrifices] += 1
                times.append(seconds)
                nodes.append(count)
                if done % 250 == 0 or done == args.deals:
                    rate = done / (time.perf_counter() - started)
                    eta = (args.deals - done) / rate
                    tally = ", ".join(
                        f"{'lost' if k is None else k}: {v}"
                        for k, v in sorted(optimal.items(), key=lambda kv: (kv[0] is None, kv[0]))
                    )
                    print(
                        f"  {done:>6} / {args.deals} deals, ETA {eta:5.0f} s "
                        f"(fewest sacrifices -> deals: {tally})",
                        file=sys.stderr,
                        flush=True,
                    )
    except (KeyboardInterrupt, BrokenProcessPool):
        print("interrupted: the figures below cover the deals solved so far", file=sys.stderr)
    total = sum(optimal.values())
    if not total:
        return 130
    won = total - optimal[None]
    low, high = wilson(won, total)
    print(f"Syndicate, {total} random deals (seed {args.seed}), solved exactly")
    print(f"winnable: {won} ({100 * won / total:.2f}%, 95% CI {100 * low:.2f}-{100 * high:.2f}%)")
    print("fewest sacrifices to win   deals")
    for sacrifices in sorted(k for k in optimal if k is not None):
        print(f"  {sacrifices:>24}   {optimal[sacrifices]:>5}")
    print(f"  {'cannot be won':>24}   {optimal[None]:>5}")
    times.sort()
    nodes.sort()
    print(
        f"CPU per deal: median {1000 * times[len(times) // 2]:.0f} ms, "
        f"p99 {1000 * times[int(len(times) * 0.99)]:.0f} ms, max {times[-1]:.1f} s; "
        f"positions: median {nodes[len(nodes) // 2]}, max {nodes[-1]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
