"""Exact-bid odds for The Emissary, by dynamic programming over the subsets of a hand.

``odds(hand, trump, pool, limit)`` gives, for every subset of the hand and every number of wins
still needed (up to ``limit``), the best chance of winning exactly that many debates with
exactly those cards, when each topic is drawn from the pool (taken with replacement) and every
answer is chosen well. Topics of one suit that fall between the same two cards of the hand lead
to the same choices, so they are grouped: a subset costs a few vector operations per card.

Of the abilities only the hearts advisor enters the model (``hearts=True``: once, at any pause,
the trumps in hand may be discarded), as its effect is certain; it doubles the cost. The others
draw unknown cards or change the trump, and the bot weighs them outside the tables.

A subset's chances depend only on its own cards, the trump and the pool, so a table built for a
hand also answers every smaller hand drawn from it: the cache looks for such a table first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from operator import mul
from typing import Any

from spyglass.components.cards import Card

from .rules import RANK, SUIT

Table = list[tuple[float, ...]]

_CACHE_LIMIT = 48


class Odds:
    """The chances tables of one hand (sorted cards) for one trump and one pool.

    With ``hearts``, the hearts advisor is still face up: at every pause between debates the
    player may discard the hand's trumps once. ``chance`` then counts that option, ``debate``
    is the chance when the next topic is heard first (keeping the advisor), and ``plain`` the
    chance without it (after using it, say).
    """

    __slots__ = ("bits", "debates", "hand", "hearts", "limit", "plains", "table")

    def __init__(
        self, hand: tuple[Card, ...], limit: int, hearts: bool, tables: tuple[Table, Table, Table]
    ) -> None:
        self.hand = hand
        self.limit = limit
        self.hearts = hearts
        self.table, self.debates, self.plains = tables
        self.bits = _card_bits(hand)

    def _mask(self, cards: Iterable[Card]) -> int:
        mask = 0
        hand = self.hand
        for card in cards:
            mask |= 1 << hand.index(card)
        return mask

    def _read(self, table: Table, cards: Sequence[Card], need: int) -> float:
        if not 0 <= need <= len(cards):
            return 0.0  # more wins than the cards can take (or fewer than none)
        # A table from the cache may be for a larger hand; its limit covers every read the
        # caller asked for, unless the caller slipped.
        assert need <= self.limit, "odds table built for a lower limit"
        return table[self._mask(cards)][need]

    def chance(self, cards: Sequence[Card], need: int) -> float:
        """The best chance that exactly these cards (a part of the hand) win ``need`` more."""
        return self._read(self.table, cards, need)

    def debate(self, cards: Sequence[Card], need: int) -> float:
        """The same, hearing the next topic before any ability."""
        return self._read(self.debates, cards, need)

    def plain(self, cards: Sequence[Card], need: int) -> float:
        """The same, with no hearts ability to come."""
        return self._read(self.plains, cards, need)


def odds(
    hand: Iterable[Card], trump: int, pool: Iterable[Card], limit: int, hearts: bool = False
) -> Odds:
    """The chances tables for ``hand`` and up to ``limit`` wins still needed (or tables built
    earlier for a larger hand and a higher limit: their entries are the same)."""
    cards = tuple(sorted(hand))
    pool = tuple(sorted(pool))
    limit = max(0, min(limit, len(cards)))
    key = (trump, _card_bits(pool), hearts)
    entries = _cache.get(key)
    if entries is None:
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        entries = _cache[key] = []
    wanted = _card_bits(cards)
    for entry in entries:
        if not wanted & ~entry.bits and entry.limit >= limit:
            return entry
    entry = Odds(cards, limit, hearts, solve(cards, trump, pool, limit, hearts))
    entries.append(entry)
    return entry


# Memo of a pure function (the tables are exact for the key), bounded in size.
_cache: dict[tuple[int, int, bool], list[Odds]] = {}


def solve(
    hand: tuple[Card, ...], trump: int, pool: tuple[Card, ...], limit: int, hearts: bool = False
) -> tuple[Table, Table, Table]:
    """The chances tables of a sorted hand, uncached (for one-off hands, such as sampled
    draws): the best, hearing the next topic first, and with no hearts ability (the three are
    one table without ``hearts``). ``table[mask][need]`` for need 0..limit."""
    limit = max(0, min(limit, len(hand)))
    plain = _solve(hand, trump, pool, limit)
    if not hearts:
        return plain, plain, plain
    table, debates = _solve(hand, trump, pool, limit, plain)
    return table, debates, plain


def _card_bits(cards: Iterable[Card]) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << card
    return bits


def _bits(n: int) -> list[tuple[int, ...]]:
    """For every mask over n cards, the indices of its set bits (memoised: a pure function)."""
    bits = _BITS.get(n)
    if bits is None:
        bits = _BITS[n] = [tuple(i for i in range(n) if m >> i & 1) for m in range(1 << n)]
    return bits


_BITS: dict[int, list[tuple[int, ...]]] = {}


def _submasks(mask: int) -> Iterator[int]:
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask


def _solve(
    hand: tuple[Card, ...],
    trump: int,
    pool: tuple[Card, ...],
    limit: int,
    plain: Table | None = None,
) -> Any:
    """The table of best chances; given ``plain`` (the table with no hearts ability), the
    hearts ability is open once, and the table of debating first comes with it."""
    n = len(hand)
    total = len(pool)
    counts = [[0] * 16 for _ in range(4)]
    for card in pool:
        row = counts[SUIT[card]]
        for r in range(RANK[card] + 1, 16):
            row[r] += 1
    suit_mask = [0, 0, 0, 0]
    for i, card in enumerate(hand):
        suit_mask[SUIT[card]] |= 1 << i
    # For each suit and each set of its cards still held: the bits of those cards (rank
    # order) and the topics' shares between them, (share, j): j cards below the topic.
    plans: list[tuple[int, int, dict[int, tuple[tuple[int, ...], tuple[float, ...]]], float]] = []
    void_share = [counts[s][15] / total for s in range(4)]
    for s in range(4):
        row = counts[s]
        plan: dict[int, tuple[tuple[int, ...], tuple[float, ...]]] = {}
        for sub in _submasks(suit_mask[s]):
            if not sub:
                continue
            run = [i for i in range(n) if sub >> i & 1]
            ranks = [0] + [RANK[hand[i]] for i in run] + [15]
            gaps = []
            for j in range(len(run), -1, -1):
                portion = row[ranks[j + 1]] - row[ranks[j] + 1]
                gaps.append(portion / total if portion > 0 else 0.0)
            plan[sub] = (tuple(1 << i for i in run), tuple(gaps))
        plans.append((s, suit_mask[s], plan, void_share[s]))
    zero = (0.0,)
    size = 1 << n
    # table[mask][need] for need 0..limit; won[mask] is the same shifted by one debate won.
    table: Table = [()] * size
    won: Table = [()] * size
    debates: Table = [()] * size if plain is not None else table
    trump_bits = suit_mask[trump]
    table[0] = debates[0] = (1.0,) + zero * limit
    won[0] = (0.0, 1.0) + zero * (limit - 1) if limit else zero
    for mask in range(1, size):
        weights: list[float] = []
        values: list[tuple[float, ...]] = []
        best_trump = best_other = None
        void_trump = void_other = 0.0
        for s, in_mask, plan, void in plans:
            in_suit = mask & in_mask
            if not in_suit:
                if s == trump:
                    void_trump = void
                else:
                    void_other += void
                continue
            run, gaps = plan[in_suit]
            subs = [table[mask ^ b] for b in run]
            m = len(run)
            losers = [subs[0]] * m
            for j in range(1, m):
                losers[j] = tuple(map(max, losers[j - 1], subs[j]))
            best = losers[-1]
            if s == trump:
                best_trump = best
            elif best_other is None:
                best_other = best
            else:
                best_other = tuple(map(max, best_other, best))
            # Topics of a held suit: its cards must answer, those ranked above the topic win.
            # The gaps run from the top interval (every card loses) to the bottom (all win).
            winner = None
            j = m
            for portion in gaps:
                if portion:
                    weights.append(portion)
                    if not j:
                        values.append(winner)
                    elif winner is None:
                        values.append(losers[j - 1])
                    else:
                        values.append(tuple(map(max, losers[j - 1], winner)))
                if j:
                    j -= 1
                    vec = won[mask ^ run[j]]
                    winner = vec if winner is None else tuple(map(max, winner, vec))
        if void_trump:
            # A trump topic the hand cannot follow: every answer loses.
            weights.append(void_trump)
            if best_trump is None:
                values.append(best_other)
            elif best_other is None:
                values.append(best_trump)
            else:
                values.append(tuple(map(max, best_other, best_trump)))
        if void_other:
            # A plain topic the hand cannot follow: a trump wins, anything else loses.
            weights.append(void_other)
            if best_trump is None:
                values.append(best_other)
            else:
                shifted = zero + best_trump[:-1]
                values.append(
                    shifted if best_other is None else tuple(map(max, best_other, shifted))
                )
        vector = tuple(sum(map(mul, weights, column)) for column in zip(*values, strict=True))
        if plain is not None:
            debates[mask] = vector
            if mask & trump_bits:
                vector = tuple(map(max, vector, plain[mask & ~trump_bits]))
        table[mask] = vector
        won[mask] = zero + vector[:-1]
    return table if plain is None else (table, debates)
