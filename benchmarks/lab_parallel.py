"""Parallel efficiency of the lab: 1 vs 2 jobs on the process pool and on Ray.

    python benchmarks/lab_parallel.py [--game sandwich-guy] [--agent heuristic] [--games 2000]

Plays the same games under each back-end and job count and checks they come out identical.
Prints wall-clock games per second (the start of the pool's workers included: that is what a
user waits for) and the parallel efficiency, rate(2 jobs) / (2 * rate(1 job)), per back-end.
Ray's own start-up (a local instance of ``jobs`` CPUs) is timed separately and left out of the
rate. Wall-clock figures on a machine shared with other work are only as steady as its load,
which is printed too.
"""

from __future__ import annotations

import argparse
import logging
import os
import time

from spyglass.lab import simulate


def timed(game: str, agent: str, games: int, jobs: int, backend: str) -> tuple[float, list]:
    start = time.perf_counter()
    result = simulate(game, agent, games, seed=1, jobs=jobs, backend=backend)
    return time.perf_counter() - start, result.outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="sandwich-guy")
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    print(f"{args.games} games of {args.game}, agent {args.agent}; load {os.getloadavg()[0]:.1f}")
    print(f"{'back-end':<8} {'jobs':>4} {'seconds':>8} {'games/s':>8} {'efficiency':>10}")
    reference = None
    for backend in ("process", "ray"):
        rates = {}
        for jobs in (1, 2):
            started = None
            if backend == "ray":
                import ray  # noqa: PLC0415 - only this half of the benchmark needs it

                begin = time.perf_counter()
                ray.init(num_cpus=jobs, include_dashboard=False, logging_level=logging.WARNING)
                started = time.perf_counter() - begin
            try:
                seconds, outcomes = timed(args.game, args.agent, args.games, jobs, backend)
            finally:
                if started is not None:
                    ray.shutdown()
            if reference is None:
                reference = outcomes
            assert outcomes == reference, f"{backend} with {jobs} jobs played other games"
            rates[jobs] = args.games / seconds
            efficiency = "" if jobs == 1 else f"{rates[2] / (2 * rates[1]):.0%}"
            extra = "" if started is None else f"   (Ray start-up {started:.1f} s, not counted)"
            figures = f"{seconds:>8.2f} {rates[jobs]:>8.1f} {efficiency:>10}"
            print(f"{backend:<8} {jobs:>4} {figures}{extra}")
    print("every configuration played the same games, game for game")


if __name__ == "__main__":
    main()
