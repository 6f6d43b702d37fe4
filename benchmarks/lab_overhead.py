"""What the lab costs per game over the bare engine loop.

    python benchmarks/lab_overhead.py [--game syndicate] [--agent random] [--games 3000]

Three ways of playing the same games, one process, CPU time (time.process_time, so other work
on the machine does not distort it):

- bare: new_state, then the agents' choose/apply loop: what any script would write;
- simulate: ``spyglass.lab.simulate`` (seeds, agents built per game, outcome records);
- simulate --out: the same, saving each game as it finishes and writing the summary, CSV
  tables and six plots at the end (the plots are a fixed cost per run, shown apart).

The difference per game is the overhead. A cheap game with random agents makes it as visible as
it can be; with real agents the games cost far more and the overhead is lost in them.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import spyglass
from spyglass import agents
from spyglass.engine import derive_seed
from spyglass.lab import simulate
from spyglass.lab.outputs import write_sim
from spyglass.lab.simulate import game_seed


def bare(game_id: str, agent: str, games: int) -> float:
    game = spyglass.load(game_id)
    start = time.process_time()
    for index in range(games):
        seed = game_seed(1, index)
        state = game.new_state(seed=seed)
        seated = [agents.load_spec(agent, seed=derive_seed(seed, f"agent/{p}")) for p in (0,)]
        while not state.is_over:
            player = state.current_player
            state.apply(seated[player].choose(state.seat(player)))
    return time.process_time() - start


def lab(game_id: str, agent: str, games: int, out: Path | None) -> tuple[float, float]:
    start = time.process_time()
    result = simulate(game_id, agent, games, seed=1, out=out)
    total = time.process_time() - start
    if out is None:
        return total, 0.0
    start = time.process_time()
    write_sim(result, out / "again")  # the fixed cost of the summary and plots, timed alone
    return total, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="syndicate", help="a solo game")
    parser.add_argument("--agent", default="random")
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()
    n = args.games
    lab(args.game, args.agent, 20, None)  # warm up imports and caches
    base = bare(args.game, args.agent, n)
    plain, _ = lab(args.game, args.agent, n, None)
    with tempfile.TemporaryDirectory() as folder:
        saved, outputs = lab(args.game, args.agent, n, Path(folder))
    per = 1e6 / n
    print(f"{n} games of {args.game}, agent {args.agent} (CPU time, µs per game)")
    print(f"bare engine loop      {base * per:9.0f}")
    print(f"simulate              {plain * per:9.0f}   overhead {(plain - base) * per:+.0f}")
    streamed = saved - outputs
    print(
        f"simulate --out        {streamed * per:9.0f}   overhead {(streamed - base) * per:+.0f}"
        f"   (+ {outputs:.2f} s once per run for the summary, CSV and plots)"
    )


if __name__ == "__main__":
    main()
