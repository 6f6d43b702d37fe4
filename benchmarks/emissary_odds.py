"""How long The Emissary's exact-bid odds tables take to build, by the size of the hand.

    python benchmarks/emissary_odds.py [--sizes 1-14] [--hands N] [--batch B] [--seed S]

For each hand size, N random hands (a seeded deal of the 32 debate cards): the hand is the
first cards, the topic pool the rest, the trump random, wins needed up to eight, and the hearts
ability open (as the bot asks for them most of the time). Each table is timed alone, in CPU
time; the figure is the median over the hands, with tables per second from it. A last column
times the same hands B at a time (``solve_many``, the first hand's trump for the batch), as
the bot builds the tables of its sampled draws, per table: the median over the batches.

The bot builds thousands of these tables a game (ISMCTS consults it at every new node, and it
samples the draws of clubs and diamonds), so they are nearly all of the Emissary's time in
``benchmarks/strength.py``. Run it on an otherwise idle machine: a second process on the same
core, or a virtual machine's host taking time from it, slows every figure.
"""

from __future__ import annotations

import argparse
import statistics
import time

from spyglass.engine import Rng
from spyglass.games.emissary.odds import solve, solve_many
from spyglass.games.emissary.rules import DEBATE_CARDS

LIMIT = 8  # the eighth kingdom needs eight wins


def cases(size: int, hands: int, seed: int) -> list[tuple]:
    """``hands`` arguments for ``solve``: a sorted hand of ``size`` cards, a trump, the rest of
    the debate cards as the pool, wins needed up to eight, the hearts ability open."""
    rng = Rng.derived(seed, f"emissary-odds/{size}")
    out = []
    for _ in range(hands):
        cards = rng.shuffled(DEBATE_CARDS)
        hand, pool = tuple(sorted(cards[:size])), tuple(sorted(cards[size:]))
        out.append((hand, rng.below(4), pool, LIMIT, True))
    return out


def seconds_per_table(size: int, hands: int, seed: int) -> float:
    """The median CPU seconds to build one table for a hand of ``size`` cards."""
    times = []
    for case in cases(size, hands, seed):
        start = time.process_time()
        solve(*case)
        times.append(time.process_time() - start)
    return statistics.median(times)


def seconds_per_batched_table(size: int, hands: int, batch: int, seed: int) -> float:
    """The median CPU seconds per table when the same hands are built ``batch`` at a time."""
    every = cases(size, hands, seed)
    times = []
    for first in range(0, len(every), batch):
        group = every[first : first + batch]
        start = time.process_time()
        solve_many([c[0] for c in group], group[0][1], [c[2] for c in group], LIMIT, True)
        times.append((time.process_time() - start) / len(group))
    return statistics.median(times)


def sizes(text: str) -> list[int]:
    """'1-14' or '5,8,12': hand sizes from 1 to 16."""
    try:
        if "-" in text:
            low, high = (int(part) for part in text.split("-"))
            chosen = list(range(low, high + 1))
        else:
            chosen = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a range or list of sizes: {text!r}") from None
    if not chosen or not all(1 <= size <= 16 for size in chosen):
        raise argparse.ArgumentTypeError(f"hand sizes run from 1 to 16, not {text!r}")
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=sizes, default=sizes("1-14"), help="e.g. 1-14 or 5,8")
    parser.add_argument("--hands", type=int, default=20, help="hands per size (median)")
    parser.add_argument("--batch", type=int, default=12, help="hands a batch (the bot: 12)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.batch < 1:
        parser.error("--batch must be at least 1")
    print(f"{'cards':>5} {'ms per table':>13} {'tables/s':>10} {'ms in a batch':>14}")
    for size in args.sizes:
        seconds = seconds_per_table(size, args.hands, args.seed)
        rate = f"{1 / seconds:>10,.1f}" if seconds > 0 else f"{'-':>10}"
        batched = seconds_per_batched_table(size, args.hands, args.batch, args.seed)
        print(f"{size:>5} {seconds * 1000:>13.2f} {rate} {batched * 1000:>14.2f}", flush=True)


if __name__ == "__main__":
    main()
