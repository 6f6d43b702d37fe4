"""What ``simulate()`` costs per move over a plain loop on the public API, in every game.

    python benchmarks/lab_overhead.py [--agent random heuristic] [--game espionage:4 ...]
                                      [--seconds 1.0] [--rounds 5] [--json results.json]

For each game (every registered game at its smallest table, and the multiplayer games also at
four players, Spies! at five) and each agent, the same games are played two ways in this one
process, CPU time (``time.process_time``, so other work on the machine does not stretch it):

- plain: the loop anyone would write on the public API, doing only what the agent needs:
  ``rng.choice(state.legal_actions())`` for random; for the heuristic, a forced move at once,
  otherwise the game's bot on one ``state.determinize(player, rng)``. No ``Seat``, no view;
- simulate: ``spyglass.lab.simulate`` in this process (one job), with everything it does per
  game: seeds, agents built from their specs, the seats they are given, the game metrics it
  records (branching, forced moves, time per decision) and the outcome records.

Both play the very same games (the agents' generators are seeded as ``simulate`` seeds them),
and the script checks it: same winners, scores and lengths, game for game. The two are measured
in alternating rounds and each keeps its fastest round: on a shared machine CPU time still
swells with the neighbours' load (caches, the other thread of a core), never shrinks, so the
fastest round is the nearest to the code's own cost, and a burst of load hits neither. The ratio
simulate / plain is the lab's overhead; the target is at most 1.3 for random and heuristic
agents in every game. The number of games per game is set from a first timing so that one
measurement takes about ``--seconds``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import spyglass
from spyglass.engine import derive_seed
from spyglass.engine.rng import Rng
from spyglass.lab import simulate
from spyglass.lab.simulate import game_seed

SEED = 1
TARGET = 1.3


def default_tables() -> list[tuple[str, int]]:
    """Every game at its smallest table; the multiplayer games also at 4 (Spies! at 5)."""
    tables = []
    for info in spyglass.games():
        low, high = info.players
        tables.append((info.id, low))
        big = min(high, 5 if info.id == "spies" else 4)
        if big > low:
            tables.append((info.id, big))
    return tables


def plain_random(state: Any, player: int, rng: Rng) -> Any:
    return rng.choice(state.legal_actions())


def plain_heuristic(state: Any, player: int, rng: Rng) -> Any:
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    return state.game.spec.bot(state.determinize(player, rng), rng)


PLAIN: dict[str, Callable[[Any, int, Rng], Any]] = {
    "random": plain_random,
    "heuristic": plain_heuristic,
}


def plain(game_id: str, agent: str, players: int, games: int) -> tuple[float, list[tuple]]:
    """The plain loop over games 0..games-1 of master seed SEED: CPU seconds, outcomes."""
    game = spyglass.load(game_id)
    choose = PLAIN[agent]
    outcomes = []
    start = time.process_time()
    for index in range(games):
        seed = game_seed(SEED, index)
        state = game.new_state(players=players, seed=seed)
        rngs = [Rng(derive_seed(seed, f"agent/{seat}")) for seat in range(players)]
        while not state.is_over:
            player = state.current_player
            state.apply(choose(state, player, rngs[player]))
        result = state.result
        outcomes.append((result.winners, result.scores, state.step))
    return time.process_time() - start, outcomes


def lab(game_id: str, agent: str, players: int, games: int) -> tuple[float, list[tuple]]:
    start = time.process_time()
    result = simulate(game_id, agent, games, seed=SEED, players=players)
    seconds = time.process_time() - start
    return seconds, [(o.winners, o.scores, o.length) for o in result.outcomes]


def measure(game_id: str, agent: str, players: int, seconds: float, rounds: int) -> dict[str, Any]:
    once, _ = plain(game_id, agent, players, 1)  # also warms the game's caches up
    games = max(1, min(2000, round(seconds / max(once, 1e-4))))
    plain_times, lab_times = [], []
    moves = 0
    for _ in range(rounds):
        base, expected = plain(game_id, agent, players, games)
        sim, played = lab(game_id, agent, players, games)
        if played != expected:
            raise SystemExit(f"{game_id} ({agent}): simulate played other games than the loop")
        plain_times.append(base)
        lab_times.append(sim)
        moves = sum(length for _, _, length in expected)
    base, sim = min(plain_times), min(lab_times)
    return {
        "game": game_id,
        "players": players,
        "agent": agent,
        "games": games,
        "moves": moves,
        "plain_us_per_move": 1e6 * base / moves,
        "simulate_us_per_move": 1e6 * sim / moves,
        "ratio": sim / base,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", nargs="+", default=["random", "heuristic"], choices=PLAIN)
    parser.add_argument(
        "--game", nargs="+", help="GAME or GAME:PLAYERS (default: every game, see above)"
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU-s per measurement")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args()
    if args.game:
        tables = []
        for text in args.game:
            name, _, count = text.partition(":")
            tables.append((name, spyglass.load(name).check_players(int(count) if count else None)))
    else:
        tables = default_tables()
    rows = []
    print(f"{'game':<26} {'n':>2} {'agent':<9} {'games':>5} {'plain µs/move':>13} "
          f"{'simulate':>9} {'ratio':>6}")  # fmt: skip
    for game_id, players in tables:
        for agent in args.agent:
            row = measure(game_id, agent, players, args.seconds, args.rounds)
            rows.append(row)
            flag = "" if row["ratio"] <= TARGET else "  over the target"
            print(
                f"{game_id:<26} {players:>2} {agent:<9} {row['games']:>5} "
                f"{row['plain_us_per_move']:>13.1f} {row['simulate_us_per_move']:>9.1f} "
                f"{row['ratio']:>6.2f}{flag}",
                flush=True,
            )
    worst = max(rows, key=lambda r: r["ratio"])
    print(
        f"worst ratio {worst['ratio']:.2f} ({worst['game']}, {worst['players']} players, "
        f"{worst['agent']}); target {TARGET}; every game played the same moves both ways"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
