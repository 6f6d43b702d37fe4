"""A heuristic for The Sandwich Guy.

While the deck lasts, each sandwich is judged by the chance that the next hand still holds a
sandwich: the remaining cards' pairs each need one of a few ranks, and the chance that the draw
brings none of those cards is hypergeometric over the (known) deck contents. More cards drawn
and a bigger hand break ties toward moving through the deck faster. Once the deck is done play
is deterministic, so the bot searches for the order that leaves the fewest cards.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from spyglass.engine import Action, Rng

from .rules import COMPLETES, DRAWS, HAND_LIMIT, PROGRESSIONS, SandwichGuyState, quality


def choose(state: SandwichGuyState, rng: Rng) -> Action:
    moves = state.legal_actions()
    if state.deck_done:
        return max(moves, key=lambda m: _endgame_value(state, m))
    deck_ranks = [c.rank for c in state.deck]
    best, best_value = moves[0], float("-inf")
    for move in moves:
        value = _value(state, move, deck_ranks) + rng.random() * 1e-9
        if value > best_value:
            best, best_value = move, value
    return best


def _value(state: SandwichGuyState, move: Action, deck_ranks: list[int]) -> float:
    rest = [c for c in state.hand if c not in move.cards]
    draws = min(DRAWS[quality(move.cards)], HAND_LIMIT - len(rest), len(deck_ranks))
    if draws == len(deck_ranks):
        return 10.0 + draws  # this move draws the last card: the game is won
    ranks = [c.rank for c in rest]
    return _survival(tuple(sorted(ranks)), deck_ranks, draws) * 4 + draws + 0.1 * len(rest)


def _survival(ranks: tuple[int, ...], deck_ranks: list[int], draws: int) -> float:
    """Chance that ``ranks`` plus ``draws`` cards from the deck hold a sandwich (lower bound)."""
    n = len(ranks)
    for i in range(n - 2):
        for j in range(i + 1, n - 1):
            for k in range(j + 1, n):
                if (ranks[i], ranks[j], ranks[k]) in PROGRESSIONS:
                    return 1.0
    wanted = 0  # bitmask of the ranks that would complete a pair of the hand
    for i in range(n - 1):
        for j in range(i + 1, n):
            wanted |= COMPLETES[ranks[i] * 14 + ranks[j]]
    outs = sum(1 for r in deck_ranks if wanted >> r & 1)
    size = len(deck_ranks)
    if draws <= 0 or size == 0:
        return 0.0
    return 1.0 - comb(size - outs, draws) / comb(size, draws)


def _endgame_value(state: SandwichGuyState, move: Action) -> int:
    rest = tuple(sorted(c.rank for c in state.hand if c not in move.cards))
    return _most_sandwiches(rest)


@lru_cache(maxsize=4096)
def _most_sandwiches(ranks: tuple[int, ...]) -> int:
    best = 0
    n = len(ranks)
    for i in range(n - 2):
        for j in range(i + 1, n - 1):
            for k in range(j + 1, n):
                if (ranks[i], ranks[j], ranks[k]) in PROGRESSIONS:
                    rest = tuple(r for x, r in enumerate(ranks) if x not in (i, j, k))
                    best = max(best, 1 + _most_sandwiches(rest))
    return best
