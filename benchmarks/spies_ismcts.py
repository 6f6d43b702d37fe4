"""Spies!: information-set MCTS, with the game's evaluation, against the heuristic bot.

    nice python benchmarks/spies_ismcts.py [--players 2,3] [--games 10] [--iterations 8]
        [--cutoff 20] [--rollout heuristic] [--seed 2024]
    nice python benchmarks/spies_ismcts.py --calibrate [--games 12] [--players 2,3,4,5]

The match: one ISMCTS seat (``spyglass.agents.load("ismcts", iterations=N, cutoff=C)``, whose
playouts stop after C moves and are scored by ``spyglass.games.spies.evaluate``) against
heuristic seats, the ISMCTS seat going round the table. Prints, per table size, the ISMCTS
seat's share of wins with its Wilson 95% interval beside the fair share, the mean score of
each kind of seat, the seconds per game and the ISMCTS time per decision it searched (decisions
with one legal move are not searched); then the evaluation's time per call.

``--calibrate`` plays heuristic self-play games instead, scores positions along them (every
25th decision) with the evaluation's projected seat scores, and fits the softmax temperature
(points, at the end of the game and added at its start) that best predicts the winners (the
mean log-probability of the real winner), against a uniform guess and against the temperature
in ``evaluate.TEMPERATURE``.
"""

from __future__ import annotations

import argparse
import math
import time

from spyglass import agents
from spyglass.engine import Game, Rng, derive_seed
from spyglass.games.spies import SPEC, bot
from spyglass.games.spies import evaluate as evaluation
from spyglass.games.spies.rules import SpiesState
from spyglass.lab import wilson_interval

GAME = Game(SPEC)


def match(players: int, games: int, args: argparse.Namespace) -> None:
    won = 0.0
    scores: dict[str, list[float]] = {"ismcts": [], "heuristic": []}
    seconds, searched, search_time = 0.0, 0, 0.0
    for index in range(games):
        seed = derive_seed(args.seed, f"ismcts/{players}/{index}")
        hero = index % players
        seats = [
            agents.load("ismcts", seed=derive_seed(seed, "ismcts"), iterations=args.iterations,
                        cutoff=args.cutoff, rollout=args.rollout)
            if s == hero
            else agents.load("heuristic", seed=derive_seed(seed, f"bot/{s}"))
            for s in range(players)
        ]  # fmt: skip
        state = GAME.new_state(players=players, seed=seed)
        start = time.perf_counter()
        while not state.is_over:
            player = state.current_player
            assert player is not None
            seat = state.seat(player)
            began = time.perf_counter()
            move = seats[player].choose(seat)
            if player == hero and len(seat.legal_actions) > 1:
                searched += 1
                search_time += time.perf_counter() - began
            state.apply(move)
        seconds += time.perf_counter() - start
        result = state.result
        assert result is not None
        won += (hero in result.winners) / len(result.winners)
        for s, score in enumerate(result.scores):
            scores["ismcts" if s == hero else "heuristic"].append(score)
        print(f"  game {index + 1}: ISMCTS seat {hero}, scores {result.scores}, winners "
              f"{result.winners}, {time.perf_counter() - start:.1f} s", flush=True)  # fmt: skip
    low, high = wilson_interval(round(won), games)
    mean = {k: sum(v) / len(v) for k, v in scores.items()}
    print(
        f"{players} players, {games} games: ISMCTS wins {won / games:.1%} [{low:.1%}–{high:.1%}]"
        f" (fair {1 / players:.1%}); mean score ISMCTS {mean['ismcts']:.1f}, heuristic "
        f"{mean['heuristic']:.1f}; {seconds / games:.1f} s/game; "
        f"{1000 * search_time / max(1, searched):.0f} ms per searched decision "
        f"({searched / games:.0f} a game)",
        flush=True,
    )


def evaluation_speed(seed: int) -> None:
    """Microseconds per call of the evaluation, on positions along a heuristic game."""
    state = GAME.new_state(players=5, seed=seed)
    rng = Rng(seed)
    positions: list[SpiesState] = []
    step = 0
    while not state.is_over:
        if step % 20 == 0:
            positions.append(state.clone())  # type: ignore[arg-type]
        state.apply(bot.choose(state.determinize(state.current_player, rng), rng))
        step += 1
    start = time.perf_counter()
    calls = 0
    for _ in range(20):
        for position in positions:
            evaluation.evaluate(position)
            calls += 1
    micros = 1e6 * (time.perf_counter() - start) / calls
    print(f"evaluation: {micros:.0f} µs per call (5 players, {len(positions)} positions)")


Sample = tuple[float, list[float], tuple[int, ...]]  # (share of the game left, scores, winners)


def samples(players: int, games: int, seed: int) -> list[Sample]:
    found: list[Sample] = []
    for index in range(games):
        state = GAME.new_state(players=players, seed=derive_seed(seed, f"cal/{players}/{index}"))
        rng = Rng(index)
        taken: list[tuple[float, list[float]]] = []
        step = 0
        while not state.is_over:
            if step % 25 == 0 and state.phase not in ("secrets", "police", "spies"):
                taken.append((evaluation.share_left(state), evaluation.seat_scores(state)))
            state.apply(bot.choose(state.determinize(state.current_player, rng), rng))
            step += 1
        result = state.result
        assert result is not None
        found += [(left, scores, result.winners) for left, scores in taken]
    return found


def log_likelihood(data: list[Sample], start: float, end: float) -> float:
    total = 0.0
    for left, scores, winners in data:
        temperature = end + start * left
        top = max(scores)
        weights = [math.exp((s - top) / temperature) for s in scores]
        chance = sum(weights[w] for w in winners) / sum(weights)
        total += math.log(max(chance, 1e-12))
    return total / len(data)


def calibrate(args: argparse.Namespace) -> None:
    data: list[Sample] = []
    for players in args.players:
        begun = time.perf_counter()
        data += samples(players, args.games, args.seed)
        print(f"{players} players: {args.games} games in {time.perf_counter() - begun:.0f} s",
              flush=True)  # fmt: skip
    uniform = sum(math.log(len(w) / len(s)) for _, s, w in data) / len(data)
    grid = [(log_likelihood(data, start, end), end, start)
            for end in (0.5, 1, 1.5, 2, 3, 4, 6, 8, 12) for start in range(0, 61, 5)]  # fmt: skip
    best, end, start = max(grid)
    current = log_likelihood(data, evaluation.TEMPERATURE[1], evaluation.TEMPERATURE[0])
    print(f"{len(data)} positions; mean log-probability of the winner: uniform {uniform:.3f}, "
          f"TEMPERATURE {evaluation.TEMPERATURE} {current:.3f}, best ({end}, {start}) "
          f"{best:.3f}")  # fmt: skip
    for low, high in ((0.67, 1.01), (0.33, 0.67), (0.0, 0.33)):
        part = [d for d in data if low <= d[0] < high]
        if part:
            right = sum(max(range(len(s)), key=s.__getitem__) in w for _, s, w in part)
            print(f"  share of the game left {low:.2f}-{min(high, 1):.2f}: {len(part)} positions,"
                  f" the projected leader wins {right / len(part):.1%}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default=None, help="table sizes, e.g. 2,3")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--cutoff", type=int, default=20)
    parser.add_argument("--rollout", default="heuristic", choices=("heuristic", "random"))
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--calibrate", action="store_true")
    args = parser.parse_args()
    default_players = "2,3,4,5" if args.calibrate else "2,3"
    args.players = [int(p) for p in (args.players or default_players).split(",")]
    if args.calibrate:
        args.games = args.games or 12
        calibrate(args)
        return
    args.games = args.games or 10
    evaluation_speed(args.seed)
    for players in args.players:
        match(players, args.games, args)


if __name__ == "__main__":
    main()
