"""Random-playout throughput per game, single process (the engine's raw speed).

    python benchmarks/throughput.py [GAME ...] [--seconds S] [--repeats R]

For each game: random playouts per second, actions per second (set-up included, every action
generated, checked and applied), and the cost of clone() and determinize() on a mid-game state
(what tree search pays per iteration). Times are this process's CPU time (time.process_time), so
other work on a shared machine does not distort them; each figure is the median of R runs of S
seconds. Target (issue 2): at least 20,000 actions per second on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial

import spyglass
from spyglass.engine import Rng

TARGET_ACTIONS_PER_SECOND = 20_000


def playouts(game: spyglass.Game, seconds: float) -> tuple[float, float, float]:
    rng = Rng(1)
    games = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = game.new_state(seed=games)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, actions / elapsed, actions / games


def per_call(fn, seconds: float) -> float:
    """Microseconds per call."""
    calls = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(100):
            fn()
        calls += 100
    return (time.process_time() - start) / calls * 1e6


def mid_game(game: spyglass.Game) -> spyglass.State:
    state = game.new_state(seed=12345)
    rng = Rng(2)
    for _ in range(3):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all)")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ids = args.games or [info.id for info in spyglass.games()]
    width = max([len(i) for i in ids] + [4]) + 2
    header = (
        f"{'game':<{width}}{'playouts/s':>12}{'actions/s':>12}{'actions/game':>14}"
        f"{'clone µs':>10}{'determinize µs':>16}  target"
    )
    print(header)
    print("-" * len(header))
    for game_id in ids:
        game = spyglass.load(game_id)
        runs = [playouts(game, args.seconds) for _ in range(args.repeats)]
        games_rate = statistics.median(r[0] for r in runs)
        actions_rate = statistics.median(r[1] for r in runs)
        length = statistics.median(r[2] for r in runs)
        state = mid_game(game)
        clone_us = per_call(state.clone, args.seconds / 4)
        determinize_us = per_call(partial(state.determinize, 0, Rng(3)), args.seconds / 4)
        verdict = "ok" if actions_rate >= TARGET_ACTIONS_PER_SECOND else "BELOW"
        print(
            f"{game_id:<{width}}{games_rate:>12,.0f}{actions_rate:>12,.0f}{length:>14.1f}"
            f"{clone_us:>10.1f}{determinize_us:>16.1f}  {verdict}"
        )


if __name__ == "__main__":
    main()
