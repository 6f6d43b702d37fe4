"""Turn order, not just seat: the win rate of the player who moves first, second, ...

In Tinker Tailor and Espionage the first player is drawn at random, so seat 0 is not the first
player and a win rate by seat says nothing of the advantage of moving first. Each outcome
records the seats in the order of their first move; a seat's turn position is its place in
that order. If positions made no difference, each would hold a winning seat with the same
chance, the mean number of winners per game divided by the number of players: the *fair
share*. Two tests of that:

- Pearson's chi-square test of the wins counted by position against equal counts (all
  positions together);
- the exact binomial test of the first position's wins against the fair share (the first
  player's advantage alone; two-sided, so a first-player disadvantage shows too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .outcome import GameOutcome
from .stats import binomial_test, chi_square_uniform, rate


def turn_positions(outcomes: Sequence[GameOutcome], players: int) -> dict[str, Any] | None:
    """Win rates by turn position with their intervals and both tests (None for solo games or
    runs without the turn order recorded)."""
    if players < 2:
        return None
    games = [o for o in outcomes if len(o.order) == players]
    if not games:
        return None
    wins = [0] * players
    for outcome in games:
        for position, seat in enumerate(outcome.order):
            if seat in outcome.winners:
                wins[position] += 1
    n = len(games)
    fair = sum(len(o.winners) for o in games) / (n * players)
    statistic, pvalue = chi_square_uniform(wins)
    first_movers = sorted({o.order[0] for o in games})
    return {
        "games": n,
        "random_first": len(first_movers) > 1,
        "first_movers": first_movers,
        "fair_share": fair,
        "positions": [{"position": k + 1, "wins": rate(wins[k], n)} for k in range(players)],
        "chi_square": {"statistic": statistic, "df": players - 1, "p": pvalue},
        "first_player": {
            "wins": wins[0],
            "games": n,
            "fair_share": fair,
            "p": binomial_test(wins[0], n, min(1.0, fair)),
            "test": "exact binomial, two-sided",
        },
    }
