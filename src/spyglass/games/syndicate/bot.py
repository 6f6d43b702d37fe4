"""A heuristic for Syndicate: one-move lookahead on progress, mobility and sacrifices.

First members: the triple of left-over cards that gives rank 5 the most fitting
(member, replacement) pairs among its candidates. Then each promotion is judged by the position
it leads to: members and candidates weighted by how high they stand, the number of distinct
promotions still open (being stuck loses), and the sacrifices made (the score).
"""

from __future__ import annotations

from itertools import combinations

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng

from .rules import DIGIT, FIRST_MEMBERS, FITS, MEMBER_LIMIT, RANKS, SyndicateState

MEMBER_WEIGHT = 10  # per member, times the square of the rank's height (rank 5: 1 ... rank 1: 5)
CANDIDATE_WEIGHT = 1  # per candidate, times the rank's height
MOBILITY_WEIGHT = 10  # per distinct promotion still possible
SACRIFICE_WEIGHT = 15
WIN = 1_000_000.0


def choose(state: SyndicateState, rng: Rng) -> Action:
    moves = state.legal_actions()
    if state.choosing:
        return _choose_member(state, moves, rng)
    best, best_value = moves[0], float("-inf")
    for move in moves:
        after = state.clone()
        after.apply(move)
        value = evaluate(after) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = move, value
    return best


def evaluate(state: SyndicateState) -> float:
    """How promising a position is (higher is better); a win or a dead end dominate."""
    if state.won:
        return WIN - SACRIFICE_WEIGHT * len(state.sacrificed)
    progress = 0.0
    for rank in RANKS:
        height = 6 - rank
        progress += MEMBER_WEIGHT * height * height * len(state.members[rank])
        progress += CANDIDATE_WEIGHT * height * len(state.candidates[rank])
    moves = state.legal_actions()
    if not moves:
        return -WIN + progress
    distinct = len({move.cards[:2] for move in moves})
    return progress + MOBILITY_WEIGHT * distinct - SACRIFICE_WEIGHT * len(state.sacrificed)


def _choose_member(state: SyndicateState, moves: list[Action], rng: Rng) -> Action:
    chosen = tuple(state.members[5])
    need = FIRST_MEMBERS - len(chosen)
    best_triple = max(
        combinations(state.leftover, need),
        key=lambda extra: _openings(state, chosen + extra) + rng.random() * 1e-6,
    )
    return next(m for m in moves if m.cards[0] == best_triple[0])


def _openings(state: SyndicateState, triple: tuple[Card, ...]) -> int:
    """How many (member, replacement) promotions rank 5 would offer with these members."""
    digits = [DIGIT[c] for c in triple]
    total = 0
    for i in range(MEMBER_LIMIT):
        a, b = (digits[j] for j in range(MEMBER_LIMIT) if j != i)
        mask = FITS[a * 10 + b]
        total += sum(1 for c in state.candidates[5] if mask >> DIGIT[c] & 1)
    return total
