"""The Sandwich Guy with every card known: can the deal be won, and with how few cards left?

Once the deck's order is known, a position is just the hand and how many cards have been
drawn: the discard pile is everything else, and the order the sandwiches were made in does not
matter. So positions are keyed by (hand as a bitmask of cards, cards drawn), and a hand reached
by two orders of the same sandwiches is searched once.

The score is proved, not just found: 52 cards minus three per sandwich always leaves one more
than a multiple of three, so every finished game ends with 1, 4 or 7 cards, and a line ending
with one card cannot be beaten. The search for the best score stops at the first such line.
"""

from __future__ import annotations

import sys

from spyglass.components.cards import Card
from spyglass.engine import RulesError, State
from spyglass.games.sandwich_guy.rules import (
    COMPLETES,
    DRAWS,
    HAND_LIMIT,
    SandwichGuyState,
    quality,
    sandwich_action,
)

from .base import Allowance, Bound, OutOfTime, ended

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 1

LOST = 99  # the value of a position that cannot be won (far above any hand size)
BEST_POSSIBLE = 1  # 52 = 3 x 17 + 1: no finished game holds fewer cards


class Solver:
    """Memoised depth-first search over (hand, cards drawn)."""

    def __init__(self, state: SandwichGuyState, allowance: Allowance) -> None:
        self.deck = list(reversed(state.deck))  # top card first
        self.allowance = allowance
        self.lost: set[tuple[int, int]] = set()
        self.values: dict[tuple[int, int], tuple[int, tuple[int, int, int] | None]] = {}

    def moves(self, hand: int, drawn: int) -> list[tuple[tuple[int, int, int], int, int]]:
        """Every sandwich of the hand: (its three cards, the hand after it, cards drawn after),
        the sandwiches that draw most first (they move through the deck fastest)."""
        cards = [c for c in range(52) if hand >> c & 1]
        ranks = [c % 13 + 1 for c in cards]
        n = len(cards)
        left = len(self.deck) - drawn
        found = []
        for i in range(n - 2):
            ri = ranks[i] * 14
            for j in range(i + 1, n - 1):
                wanted = COMPLETES[ri + ranks[j]]
                if not wanted:
                    continue
                for k in range(j + 1, n):
                    if wanted >> ranks[k] & 1:
                        triple = (cards[i], cards[j], cards[k])
                        after = hand & ~((1 << cards[i]) | (1 << cards[j]) | (1 << cards[k]))
                        # card codes as plain ints (the search's bitmasks), read like Cards
                        want = DRAWS[quality(triple)]  # type: ignore[arg-type]
                        room = min(want, HAND_LIMIT - (n - 3), left)
                        for card in self.deck[drawn : drawn + room]:
                            after |= 1 << card
                        found.append((want, triple, after, drawn + room))
        found.sort(key=lambda m: -m[0])
        return [(t, a, d) for _, t, a, d in found]

    def can_win(self, hand: int, drawn: int, line: list[tuple[int, int, int]]) -> bool:
        """Whether the deck can be got through; ``line`` receives the sandwiches that do it."""
        self.allowance.tick()
        if drawn == len(self.deck):
            return True  # the last card is drawn: the game is won whatever follows
        key = (hand, drawn)
        if key in self.lost:
            return False
        for triple, after, now in self.moves(hand, drawn):
            line.append(triple)
            if self.can_win(after, now, line):
                return True
            line.pop()
        self.lost.add(key)
        return False

    def best(self, hand: int, drawn: int) -> int:
        """The fewest cards a won game can end with from here (LOST if none)."""
        key = (hand, drawn)
        known = self.values.get(key)
        if known is not None:
            return known[0]
        if key in self.lost:
            return LOST
        self.allowance.tick()
        moves = self.moves(hand, drawn)
        if not moves:
            value = hand.bit_count() if drawn == len(self.deck) else LOST
            self.values[key] = (value, None)
            return value
        value, chosen = LOST, None
        for triple, after, now in moves:
            child = self.best(after, now)
            if child < value:
                value, chosen = child, triple
                if value == BEST_POSSIBLE:
                    break  # nothing ends with fewer cards: this value is exact
        self.values[key] = (value, chosen)
        if value == LOST:
            self.lost.add(key)
        return value

    def line(self, hand: int, drawn: int) -> list[tuple[int, int, int]]:
        out: list[tuple[int, int, int]] = []
        while True:
            chosen = self.values[hand, drawn][1]
            if chosen is None:
                return out
            out.append(chosen)
            after, now = next((a, d) for t, a, d in self.moves(hand, drawn) if t == chosen)
            hand, drawn = after, now


def _notation(triple: tuple[int, int, int]) -> str:
    return sandwich_action(*(Card(c) for c in triple)).text


def _finish(state: SandwichGuyState, line: list[str]) -> float:
    """Play the deck-done endgame (no draws: a small search) and give the final hand size;
    ``line`` receives its moves."""
    solver = Solver(state, Allowance(float("inf")))
    hand = 0
    for card in state.hand:
        hand |= 1 << card
    value = solver.best(hand, 0)
    for triple in solver.line(hand, 0):
        line.append(_notation(triple))
    return float(value)


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of a Sandwich Guy position, with a proof of the best score."""
    if not isinstance(state, SandwichGuyState):
        raise RulesError("this solver solves The Sandwich Guy")
    allowance = Allowance(seconds, max_nodes)
    if state.is_over:
        result = ended(state)
        return Bound(bool(result.won), result.score, True, (), 0, 0.0)
    solver = Solver(state, allowance)
    hand = 0
    for card in state.hand:
        hand |= 1 << card
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 5_000))
    try:
        found: list[tuple[int, int, int]] = []
        try:
            won = solver.can_win(hand, 0, found)
        except OutOfTime:
            return Bound(None, None, False, (), allowance.nodes, allowance.spent)
        if not won:
            return Bound(False, None, True, (), allowance.nodes, allowance.spent)
        # The line that got through the deck, finished as well as the hand allows.
        after = state.clone()
        for triple in found:
            after.apply(_notation(triple))
        first = [_notation(t) for t in found]
        score, exact = _finish(after, first), False
        if optimise_score:
            try:
                value = solver.best(hand, 0)
                first = [_notation(t) for t in solver.line(hand, 0)]
                score, exact = float(value), True
            except OutOfTime:
                pass
        return Bound(True, score, exact, tuple(first), allowance.nodes, allowance.spent)
    finally:
        sys.setrecursionlimit(limit)
