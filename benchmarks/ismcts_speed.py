"""ISMCTS iterations per second on the solo games, one core.

    python benchmarks/ismcts_speed.py [GAME ...] [--seconds S] [--iterations N] [--repeats R]

For each solo game (or those named), ISMCTS plays whole games, deal after deal, with N
iterations per decision, until its searches have used S CPU seconds. The figure is iterations
per CPU second of search: time.process_time around ``choose``, leaving out decisions with one
legal move (they are not searched). Each figure is the median of R such runs, in three
configurations of ``spyglass.agents.load("ismcts", ...)``:

- ``leaf`` (``cutoff=0, bias=0``): each new leaf is scored by the game's evaluation at once, and
  no bot is consulted. This is the search's own speed: determinization, the walk down the tree,
  expansion, the evaluation and the backup. Issue 6's target (at least 5,000 iterations per
  second on one core on the small solo games) is read on this column.
- ``table`` (``cutoff=0``, bias 1): as ``benchmarks/strength.py`` plays it. The game's bot also
  names the move to favour at each node the first time the search passes through it, so a slow
  bot slows every iteration.
- ``random`` (``rollout=random, bias=0``): no evaluation; every iteration plays a random game
  out to the end, so its cost grows with the moves left (the figure over whole games is
  dominated by the long playouts of their first decisions).

Times are this process's CPU time, but two processes sharing a core still slow each other
(caches, hyperthreads), and so does a virtual machine's host taking time from it (the ``st``
column of ``vmstat``): run it on an otherwise idle machine, and again if a figure is far off.
"""

from __future__ import annotations

import argparse
import statistics
import time

import spyglass
from spyglass import agents
from spyglass.engine import RulesError, derive_seed
from spyglass.lab.difficulty import solo_games

TARGET_ITERATIONS_PER_SECOND = 5_000
TARGET_CONFIG = "leaf"
CONFIGS: dict[str, dict[str, object]] = {
    "leaf": {"cutoff": 0, "bias": 0},
    "table": {"cutoff": 0},
    "random": {"rollout": "random", "bias": 0},
}


def measure(
    game_id: str, seconds: float, iterations: int, config: str, seed: int
) -> tuple[int, float]:
    """Whole games of ``game_id`` until the searches have used ``seconds`` of CPU time: the
    iterations they ran and the CPU seconds they took."""
    game = spyglass.load(game_id)
    done, spent, deal = 0, 0.0, 0
    while spent < seconds:
        state = game.new_state(seed=derive_seed(seed, f"{game_id}/{deal}"))
        agent = agents.load(
            "ismcts", seed=derive_seed(seed, f"agent/{deal}"), iterations=iterations,
            **CONFIGS[config],
        )  # fmt: skip
        while not state.is_over and spent < seconds:
            seat = state.seat(0)
            start = time.process_time()
            action = agent.choose(seat)
            if len(seat.legal_actions) > 1:
                spent += time.process_time() - start
                done += agent.last_iterations
            state.apply(action)
        deal += 1
    return done, spent


def rate(game_id: str, seconds: float, iterations: int, config: str, seed: int) -> float:
    """Iterations per CPU second of search over whole games of ``game_id``."""
    done, spent = measure(game_id, seconds, iterations, config, seed)
    return done / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="solo game ids (default: every solo game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    parser.add_argument("--iterations", type=int, default=200, help="iterations per decision")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    try:
        ids = [info.id for info in solo_games(args.games)]
    except RulesError as error:
        parser.error(str(error))
    width = max(len(i) for i in ids) + 2
    header = f"{'game':<{width}}" + "".join(f"{c + ' it/s':>13}" for c in CONFIGS)
    header += f"  {TARGET_CONFIG} >= {TARGET_ITERATIONS_PER_SECOND:,}"
    print(header)
    print("-" * len(header))
    for game_id in ids:
        figures = {
            config: statistics.median(
                rate(game_id, args.seconds, args.iterations, config, args.seed + r)
                for r in range(args.repeats)
            )
            for config in CONFIGS
        }
        verdict = "ok" if figures[TARGET_CONFIG] >= TARGET_ITERATIONS_PER_SECOND else "BELOW"
        row = "".join(f"{figures[c]:>13,.0f}" for c in CONFIGS)
        print(f"{game_id:<{width}}{row}  {verdict}", flush=True)


if __name__ == "__main__":
    main()
