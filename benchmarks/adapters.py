"""Steps per second natively and through each learning-library adapter, per game.

    python benchmarks/adapters.py [GAME ...] [--seconds S] [--rounds R] [--best] [--markdown]

A step is one action by a uniformly random agent, resets included. "native" applies random
legal actions to a spyglass State; "encoded" adds what every adapter pays per step (the legal
actions by index, the mask and the observation vector of the seat to move); then Gymnasium
(solo games), PettingZoo AEC (multiplayer games) and OpenSpiel the way its clients run a game
(``rl_environment`` and the samplers of MCTS and CFR): chance sampled from
``chance_outcomes()`` with numpy's weighted choice as ``rl_environment`` does,
``legal_actions()`` and the observation tensor of the seat to move at every decision.

Gymnasium and PettingZoo are seeded at the first reset only, as clients run them. The agent
is the same everywhere: it draws a uniform index into the legal actions with the
engine's own generator, reading them from ``info["legal_actions"]`` in Gymnasium and
PettingZoo (the mask is built at every step all the same). So the figures compare what the
environments cost, not what one random generator costs against another. The overhead column
is native steps per second divided by the adapter's (the targets: at most 3 for Gymnasium and
PettingZoo, 5 for OpenSpiel). CPU time of this process (time.process_time); every figure of a
game comes from the same run. On a shared machine the figures move with the load: ``--rounds
R`` measures each game R times, the four loops in rotation, and shows the median factor and
its spread over the rounds; the load average is printed at the end. ``--best`` shows instead
each loop's best round (the fastest steps per second of each over the rounds, and the factor
of those): under heavy load the best round is the one least disturbed, and the steadiest
figure to compare two versions of the code by (run them alternately, many short rounds:
``--seconds 0.5 --rounds 5 --best``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import spyglass
from spyglass.adapters import gymnasium as gym_adapter
from spyglass.adapters import openspiel as spiel_adapter
from spyglass.adapters import pettingzoo as zoo_adapter
from spyglass.adapters.tensors import encoding_for
from spyglass.engine import Rng


def timed(run: Callable[[float], int], seconds: float) -> float:
    start = time.process_time()
    steps = run(start + seconds)
    return steps / (time.process_time() - start)


def native(game: spyglass.Game, players: int) -> Callable[[float], int]:
    def run(deadline: float) -> int:
        rng, steps, seed = Rng(1), 0, 0
        while time.process_time() < deadline:
            state = game.new_state(players=players, seed=seed)
            seed += 1
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return run


def encoded(game: spyglass.Game, players: int) -> Callable[[float], int]:
    encoding = encoding_for(game, players)

    def run(deadline: float) -> int:
        rng, steps, seed = Rng(1), 0, 0
        while time.process_time() < deadline:
            state = game.new_state(players=players, seed=seed)
            seed += 1
            while not state.is_over:
                legal = encoding.legal_map(state)
                encoding.mask(legal)
                indices = tuple(sorted(legal))
                encoding.observe_state(state, state.current_player)
                state.apply_legal(legal[indices[rng.below(len(indices))]])
                steps += 1
        return steps

    return run


def gymnasium_env(game: spyglass.Game, players: int) -> Callable[[float], int]:
    env = gym_adapter.SpyglassEnv(game.info.id, **game.options)

    def run(deadline: float) -> int:
        rng, steps = Rng(1), 0
        _, info = env.reset(seed=1)  # seeded once, as clients do: the next deals follow
        while time.process_time() < deadline:
            done = False
            while not done:
                legal = info["legal_actions"]
                # None legal: the deal decided the game, and any action reports the end.
                action = legal[rng.below(len(legal))] if legal else 0
                _, _, done, _, info = env.step(action)
                steps += len(legal) > 0
            _, info = env.reset()
        return steps

    return run


def pettingzoo_env(game: spyglass.Game, players: int) -> Callable[[float], int]:
    env = zoo_adapter.raw_env(game.info.id, players=players, **game.options)

    def run(deadline: float) -> int:
        rng, steps = Rng(1), 0
        env.reset(seed=1)  # seeded once, as clients do: the next deals follow
        while time.process_time() < deadline:
            for _agent in env.agent_iter():
                _, _, done, truncated, info = env.last()
                if done or truncated:
                    env.step(None)
                    continue
                legal = info["legal_actions"]
                env.step(legal[rng.below(len(legal))])
                steps += 1
            env.reset()
        return steps

    return run


def openspiel_game(game: spyglass.Game, players: int) -> Callable[[float], int]:
    spiel = pyspiel.load_game(spiel_adapter.short_name(game.info.id), {"players": players})

    def run(deadline: float) -> int:
        chance, rng, steps = np.random.default_rng(1), Rng(1), 0
        while time.process_time() < deadline:
            state = spiel.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    # As rl_environment's ChanceEventSampler does.
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(chance.choice(actions, p=probs)))
                    continue
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
                steps += 1
        return steps

    return run


def measure(
    game: spyglass.Game, players: int, seconds: float, rounds: int
) -> tuple[list[float], ...]:
    """Steps per second of each loop (native, encoded, library, OpenSpiel), ``rounds`` times
    in rotation, so that a burst of load on the machine falls on all four alike."""
    library = gymnasium_env if game.info.solo else pettingzoo_env
    loops = [native, encoded, library, openspiel_game]
    figures: tuple[list[float], ...] = ([], [], [], [])
    for _ in range(rounds):
        for loop, out in zip(loops, figures, strict=True):
            out.append(timed(loop(game, players), seconds))
    return figures


def factor(base: list[float], other: list[float], best: bool = False) -> str:
    """How many times slower than native: the median of the rounds' factors, and their
    spread when there are several rounds; with ``best``, the best rounds' factor."""
    if best:
        return f"{max(base) / max(other):.2f}x"
    each = sorted(b / o for b, o in zip(base, other, strict=True))
    middle = statistics.median(each)
    return f"{middle:.1f}x" if len(each) == 1 else f"{middle:.1f}x ({each[0]:.1f}-{each[-1]:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument(
        "--rounds", type=int, default=1, help="measure each game this many times (median, spread)"
    )
    parser.add_argument(
        "--best", action="store_true", help="each loop's best round rather than the median"
    )
    parser.add_argument("--markdown", action="store_true", help="a table for docs/rl.md")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds above 0")
    known = {i.id for i in spyglass.games()}
    unknown = [g for g in args.games if g not in known]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    infos = [i for i in spyglass.games() if not args.games or i.id in args.games]
    start_load = os.getloadavg()[0]
    if args.markdown:
        print("| game | players | native | encoded | Gymnasium / PettingZoo | OpenSpiel |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
    else:
        print(
            f"{'game':26} {'p':>2} {'native':>8} {'encoded':>8} {'library':>11} {'steps/s':>8}"
            f" {'x':>15} {'openspiel':>9} {'x':>15}"
        )
    for info in infos:
        game = spyglass.load(info.id)
        players = info.players[0]
        base, enc, library, spiel = measure(game, players, args.seconds, args.rounds)
        median = max if args.best else statistics.median
        if args.markdown:
            print(
                f"| {info.id} | {players} | {median(base):,.0f} | {median(enc):,.0f} |"
                f" {median(library):,.0f} ({factor(base, library, args.best)}) |"
                f" {median(spiel):,.0f} ({factor(base, spiel, args.best)}) |",
                flush=True,
            )
        else:
            name = "gymnasium" if info.solo else "pettingzoo"
            print(
                f"{info.id:26} {players:>2} {median(base):>8.0f} {median(enc):>8.0f} {name:>11}"
                f" {median(library):>8.0f} {factor(base, library, args.best):>15}"
                f" {median(spiel):>9.0f} {factor(base, spiel, args.best):>15}",
                flush=True,
            )
    print(
        f"\nload average (1 min) {start_load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    )


if __name__ == "__main__":
    main()
