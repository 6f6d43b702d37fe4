"""Loot the Loop: how games end, and whether every declared loss is one the rulebook declares.

    python benchmarks/loot_the_loop_losses.py [--games N] [--seed S] [--agents random,heuristic]

For each agent, N games on the deals of seeds S, S+1, ...: wins, losses by landing on a trap, and
losses declared by the game (stuck: no action at all; cornered: every movement lands on a trap).
Each declared loss is checked against a referee written from the rulebook alone: from the final
position it walks every arrangement that Marks and Returns can reach (the rulebook puts no limit
on them) and looks for a Look Around or an Explore that does not land on a face-up trap. Where it
finds one, the rulebook would have let the game go on: a *false loss*. The script also counts the
games in which a Mark or a Return on offer would have ended the game at once.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, deque

import spyglass
from spyglass import agents

NOTES_LIMIT = 3


def kind(card) -> str:
    if card.rank == 0:
        return "exit"
    if card.rank == 1:
        return "jewel"
    return "trinket" if card.rank <= 10 else "trap"


def safe_movement(shown: tuple, jewels: int) -> bool:
    """A Look Around, or an Explore landing anywhere but on a face-up trap."""
    if shown[0] is None:
        return True
    values = {c.rank for c in shown[:2] if c is not None and kind(c) == "trinket"}
    return any(
        shown[v % len(shown)] is None or kind(shown[v % len(shown)]) != "trap" for v in values
    )


def rulebook_lost(shown: tuple, notes: tuple, jewels: int) -> bool:
    """Lost by the rulebook: no arrangement that Marks and Returns reach offers a safe movement."""
    start = (tuple(shown), frozenset(notes))
    queue, seen = deque([start]), {start}
    while queue:
        loop, held = queue.popleft()
        if safe_movement(loop, jewels):
            return False
        nexts = [((note, *loop), held - {note}) for note in held]
        top = loop[0]
        if top is not None and kind(top) == "trinket" and len(held) < NOTES_LIMIT:
            nexts.append((loop[1:], held | {top}))
        for node in nexts:
            if node not in seen:
                seen.add(node)
                queue.append(node)
    return True


def play(agent_name: str, seed: int, index: int) -> tuple[str, bool, bool]:
    """One game: (outcome, whether a declared loss is false, whether a game-ending Mark or
    Return was ever on offer)."""
    game = spyglass.load("loot-the-loop")
    state = game.new_state(seed=seed + index)
    agent = agents.load(agent_name, seed=index)
    ending_offered = False
    while not state.is_over:
        for action in state.legal_actions():
            if action.kind in ("mark", "return"):
                after = state.clone()
                after.apply(action)
                if after.is_over:
                    ending_offered = True
        state.apply(agent.choose(state.seat(0)))
    outcome = state.result.detail[0]["outcome"]
    false_loss = outcome in ("stuck", "cornered") and not rulebook_lost(
        tuple(state.loop.shown), tuple(state.notes), state.jewels
    )
    return outcome, false_loss, ending_offered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", default="random,heuristic")
    args = parser.parse_args()
    header = (
        f"{'agent':<11}{'games':>6}{'won':>8}{'trapped':>9}{'stuck':>7}{'cornered':>9}"
        f"{'false losses':>14}{'ending M/R offered':>20}{'s/game':>8}"
    )
    print(header)
    print("-" * len(header))
    for name in args.agents.split(","):
        start = time.perf_counter()
        outcomes: Counter[str] = Counter()
        false = offered = 0
        for index in range(args.games):
            outcome, false_loss, ending = play(name, args.seed, index)
            outcomes[outcome] += 1
            false += false_loss
            offered += ending
        per_game = (time.perf_counter() - start) / args.games
        n = args.games
        print(
            f"{name:<11}{n:>6}{outcomes['escaped'] / n:>8.1%}{outcomes['trapped'] / n:>9.1%}"
            f"{outcomes['stuck'] / n:>7.1%}{outcomes['cornered'] / n:>9.1%}"
            f"{f'{false} ({false / n:.1%})':>14}{f'{offered} ({offered / n:.0%})':>20}"
            f"{per_game:>8.3f}"
        )


if __name__ == "__main__":
    main()
