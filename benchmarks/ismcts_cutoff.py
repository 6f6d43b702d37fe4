"""What cutting ISMCTS playouts short (``cutoff``) buys on the solo games.

    python benchmarks/ismcts_cutoff.py [GAME ...] [--deals N] [--full-deals M]
        [--heuristic-deals H] [--budgets 10,40] [--cutoffs 0,3,10] [--workers W] [--seed S]

For each solo game (or those named), on the same deals: the heuristic bot, and ISMCTS at each
iteration budget with full playouts (the game's bot plays each playout to the end; the Emissary,
whose bot is too slow for that, plays out at random) and with each cutoff (the playout stops
after C moves and the game's evaluation scores the position). Prints, per agent, the deals
played, the win rate with its Wilson 95% interval, and the CPU seconds per deal (measured in the
worker that played it), and how many times cheaper each cutoff is than the full playouts.

Full playouts cost seconds to minutes per deal, so they run on the first M deals (default N);
the heuristic bot, which costs milliseconds, on the first H (default max(N, 200)). Deals are the
lab's: deal i of a run with seed S is the same deal for every agent. Work is spread over W
processes by the lab's runner, one deal of every agent after another; Ctrl-C (or
``timeout -s INT``) prints what finished.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from dataclasses import dataclass

import spyglass
from spyglass.lab import simulate, wilson_interval
from spyglass.lab.runner import run_tasks

SOLO = (
    "area-52",
    "boba-tea",
    "dead-center",
    "emissary",
    "foursquare",
    "hide-and-seek",
    "loot-the-loop",
    "sandwich-guy",
    "skyway",
    "syndicate",
    "tinker-sailor-soldier-spy",
)
SLOW_BOT = {"emissary"}  # bots too slow to run inside every playout: ISMCTS rolls out at random
HEURISTIC_CHUNK = 50  # heuristic deals per task


def ismcts(game_id: str, budget: int, cutoff: int | None) -> str:
    spec = f"ismcts:iterations={budget}"
    if game_id in SLOW_BOT:
        spec += ",rollout=random"
    if cutoff is not None:
        spec += f",cutoff={cutoff}"
    return spec


@dataclass(frozen=True)
class Deals:
    """Deals first..first+count-1 of one game for one agent: (won, CPU seconds) per deal."""

    game: str
    agent: str
    seed: int
    first: int
    count: int

    def run(self) -> list[tuple[bool, float]]:
        rows = []
        for index in range(self.first, self.first + self.count):
            start = time.process_time()
            result = simulate(self.game, self.agent, 1, seed=self.seed, first=index)
            rows.append((bool(result.outcomes[0].won), time.process_time() - start))
        return rows


def plan(args: argparse.Namespace) -> list[Deals]:
    """Every task: the bot's deals first, then deal 0 of every search, deal 1, and so on, so a
    run stopped early (Ctrl-C) leaves every agent with about as many deals played."""
    tasks = []
    for game_id in args.games:
        for first in range(0, args.heuristic_deals, HEURISTIC_CHUNK):
            count = min(HEURISTIC_CHUNK, args.heuristic_deals - first)
            tasks.append(Deals(game_id, "heuristic", args.seed, first, count))
    for index in range(max(args.deals, args.full_deals)):
        for budget in sorted(args.budgets, reverse=True):
            for game_id in args.games:
                if index < args.full_deals:
                    tasks.append(Deals(game_id, ismcts(game_id, budget, None), args.seed, index, 1))
                if index < args.deals:
                    for cutoff in args.cutoffs:
                        agent = ismcts(game_id, budget, cutoff)
                        tasks.append(Deals(game_id, agent, args.seed, index, 1))
    return tasks


def report(args: argparse.Namespace, tasks: list[Deals], results: list) -> None:
    rows: dict[tuple[str, str], list[tuple[bool, float]]] = defaultdict(list)
    for task, result in zip(tasks, results, strict=True):
        if result is not None:
            rows[task.game, task.agent] += result
    print("| game | agent | deals | win rate (95% CI) | CPU s/deal | cheaper |")
    print("|---|---|---:|---|---:|---:|")
    for game_id in args.games:
        agents = ["heuristic"]
        for budget in args.budgets:
            agents.append(ismcts(game_id, budget, None))
            agents += [ismcts(game_id, budget, c) for c in args.cutoffs]
        full_cost: dict[int, float] = {}
        for agent in agents:
            played = rows.get((game_id, agent))
            if not played:
                continue
            wins = sum(won for won, _ in played)
            low, high = wilson_interval(wins, len(played))
            cost = sum(cpu for _, cpu in played) / len(played)
            budget = int(agent.split("iterations=")[1].split(",")[0]) if "=" in agent else None
            cheaper = ""
            if budget is not None and "cutoff" not in agent:
                full_cost[budget] = cost
            elif budget in full_cost and cost > 0:
                cheaper = f"{full_cost[budget] / cost:.1f}x"
            name = agent.replace("ismcts:", "").replace(",rollout=random", " (random)")
            print(
                f"| {game_id} | {name} | {len(played)} | {wins / len(played):.0%}"
                f" ({low:.0%}–{high:.0%}) | {cost:.3f} | {cheaper} |"
            )
        sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="solo games (default: all eleven)")
    parser.add_argument("--deals", type=int, default=20, help="deals for each cutoff")
    parser.add_argument("--full-deals", type=int, help="deals for full playouts (default: N)")
    parser.add_argument("--heuristic-deals", type=int, help="deals for the bot (max(N, 200))")
    parser.add_argument("--budgets", default="10,40", help="ISMCTS iterations, comma-separated")
    parser.add_argument("--cutoffs", default="0,3,10", help="cutoffs to try, comma-separated")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="master seed of the deals")
    args = parser.parse_args(argv)
    args.games = args.games or list(SOLO)
    for game_id in args.games:
        if game_id not in SOLO:
            parser.error(f"{game_id!r} is not a solo game; choose from {', '.join(SOLO)}")
        spyglass.load(game_id)
    args.budgets = [int(b) for b in args.budgets.split(",") if b]
    args.cutoffs = [int(c) for c in args.cutoffs.split(",") if c]
    if args.full_deals is None:
        args.full_deals = args.deals
    if args.heuristic_deals is None:
        args.heuristic_deals = max(args.deals, 200)
    tasks = plan(args)
    print(
        f"# {len(args.games)} games; cutoffs on {args.deals} deals, full playouts on"
        f" {args.full_deals}, the bot on {args.heuristic_deals}; seed {args.seed};"
        f" {args.workers} workers",
        flush=True,
    )
    started = time.perf_counter()
    done = 0

    def progress(position: int, result: list[tuple[bool, float]]) -> None:
        nonlocal done
        done += 1
        task = tasks[position]
        cpu = sum(c for _, c in result)
        print(
            f"  [{done}/{len(tasks)}] {task.game} {task.agent} deals {task.first}+{task.count}:"
            f" {cpu:.1f} CPU s",
            file=sys.stderr,
            flush=True,
        )

    outcome = run_tasks(tasks, jobs=args.workers, batch=1, on_result=progress)
    report(args, tasks, outcome.results)
    minutes = (time.perf_counter() - started) / 60
    state = "interrupted" if outcome.interrupted else "done"
    print(f"# {state} in {minutes:.1f} min wall-clock")
    return 130 if outcome.interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
