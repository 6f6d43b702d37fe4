"""Exact-bid odds for The Emissary, by dynamic programming over the subsets of a hand.

``odds(hand, trump, pool, limit)`` gives, for every subset of the hand and every number of wins
still needed (up to ``limit``), the best chance of winning exactly that many debates with
exactly those cards, when each topic is drawn from the pool (taken with replacement) and every
answer is chosen well. Topics of one suit that fall between the same two cards of the hand lead
to the same choices, so they are grouped. The subsets of one size are solved together, in numpy
(``benchmarks/emissary_odds.py`` times it: about ten times the speed of a subset-by-subset loop
for hands of ten cards and more, half of it for hands of one to three). ``solve_many`` builds
the tables of several hands of one size in one batch, as the bot's sampled draws need them: a
dozen hands of up to five cards cost about what two or three built alone do.

Of the abilities only the hearts advisor enters the model (``hearts=True``: once, at any pause,
the trumps in hand may be discarded), as its effect is certain; it doubles the arrays. The others
draw unknown cards or change the trump, and the bot weighs them outside the tables.

A subset's chances depend only on its own cards, the trump and the pool, so a table built for a
hand also answers every smaller hand drawn from it: the cache looks for such a table first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import accumulate

import numpy as np

from spyglass.components.cards import Card

from .rules import RANK, SUIT

Table = np.ndarray  # table[mask, need]: a mask over the hand's cards

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
        return float(table[self._mask(cards), need])

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
    """The chances tables of a sorted hand, uncached (for one-off hands): the best, hearing
    the next topic first, and with no hearts ability (the three are one table without
    ``hearts``). ``table[mask, need]`` for need 0..limit."""
    tables = _solve([hand], trump, [pool], max(0, min(limit, len(hand))), hearts)
    return tables[0][0], tables[1][0], tables[2][0]


def solve_many(
    hands: Sequence[tuple[Card, ...]],
    trump: int,
    pools: Sequence[Sequence[Card]],
    limit: int,
    hearts: bool = False,
) -> tuple[Table, Table, Table]:
    """``solve`` for several sorted hands of one size, each with its own pool (the sampled
    draws of an ability), in one pass: ``table[b, mask, need]``, the same to the last bit as
    ``solve`` gives for hand b. Small hands cost numpy's calls more than its arithmetic, so a
    dozen of up to five cards cost about what two or three built alone do."""
    if len({len(hand) for hand in hands}) != 1:
        raise ValueError("solve_many needs one or more hands, all of one size")
    return _solve(hands, trump, pools, max(0, min(limit, len(hands[0]))), hearts)


def _card_bits(cards: Iterable[Card]) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << card
    return bits


def best_kept(table: Table, keep: int, need: int) -> float | list[float]:
    """The best chance of ``need`` wins over every part of ``keep`` cards of the table's hand
    (for each hand, as a list, of a table of ``solve_many``)."""
    layer = _layers(table.shape[-2].bit_length() - 1)[keep]
    return table[..., layer, need].max(axis=-1).tolist()


def _layers(n: int) -> list[np.ndarray]:
    """The masks over n cards, by how many cards they hold (memoised: a pure function)."""
    layers = _LAYERS.get(n)
    if layers is None:
        masks = np.arange(1 << n)
        held = np.array([mask.bit_count() for mask in range(1 << n)])
        layers = _LAYERS[n] = [masks[held == k] for k in range(n + 1)]
    return layers


_LAYERS: dict[int, list[np.ndarray]] = {}


def _solve(
    hands: Sequence[tuple[Card, ...]],
    trump: int,
    pools: Sequence[Sequence[Card]],
    limit: int,
    hearts: bool,
) -> tuple[Table, Table, Table]:
    """The tables of a batch of hands of one size, filled by the number of cards held: a part
    of k cards reads only parts of k - 1, so every part of one size is worked at once, in array
    operations over the hands and the parts, the suits side by side (each padded to the longest
    suit held in the batch). With ``hearts``, a second sheet next to the plain one keeps the
    hearts ability open.

    Each chance is one sum of share times chance, added in a fixed order: the topics of each
    suit held, suit by suit and from the highest interval down, then the trump topics and the
    plain topics the part cannot follow. Terms that weigh nothing (padding, empty intervals, a
    suit another hand of the batch holds) add exact zeros, so the tables are the same to the
    last bit however the work is batched, and on every Python (whose ``sum`` of floats changed
    in 3.12)."""
    batch, n = len(hands), len(hands[0])
    width = limit + 1
    sheets = 2 if hearts else 1
    below = [_below(pool) for pool in pools]  # below[b][s][r]: suit s ranked under r
    totals = [len(pool) for pool in pools]
    # The hands are sorted: each suit's cards are consecutive, in rising rank.
    first, count = [[0] * 4 for _ in hands], [[0] * 4 for _ in hands]
    for b, hand in enumerate(hands):
        for i in reversed(range(n)):
            first[b][SUIT[hand[i]]] = i
            count[b][SUIT[hand[i]]] += 1
    held = [s for s in range(4) if any(row[s] for row in count)]
    pad = max(max(row) for row in count)
    # The share of the topics behind each term of the sum, for every hand and part.
    weights = np.zeros((batch, 1 << n, len(held) * (pad + 1) + 2))
    in_suit = (  # in_suit[b, mask, s]: the mask's cards of suit s, as a mask over the suit
        np.arange(1 << n)[None, :, None] >> np.array(first)[:, None, :]
        & (1 << np.array(count)[:, None, :]) - 1
    )
    lacking = in_suit == 0
    void = np.array(
        [[row[s][15] / total for s in range(4)] for row, total in zip(below, totals, strict=True)]
    )
    weights[:, :, -2] = np.where(lacking[:, :, trump], void[:, trump, None], 0.0)
    void_other = np.zeros((batch, 1 << n))
    for s in range(4):
        if s != trump:  # added up suit by suit, as the topics are met
            void_other = void_other + np.where(lacking[:, :, s], void[:, s, None], 0.0)
    weights[:, :, -1] = void_other
    slots = np.zeros((batch, len(held), pad), dtype=np.int64)  # each held suit's card bits
    for b, hand in enumerate(hands):
        for row, s in enumerate(held):
            if count[b][s]:
                start, stop = first[b][s], first[b][s] + count[b][s]
                slots[b, row, : count[b][s]] = [1 << i for i in range(start, stop)]
                columns = slice(row * (pad + 1), (row + 1) * (pad + 1))
                shares = _shares(hand[start:stop], below[b][s], totals[b], pad)
                weights[b, :, columns] = shares[in_suit[b, :, s]]
    trump_row = held.index(trump) if trump in held else None
    other_rows = [r for r, s in enumerate(held) if s != trump]
    trump_bits = np.array([(1 << row[trump]) - 1 << first[b][trump] for b, row in enumerate(count)])

    # Terms no part ever weighs are left out: they add exact zeros.
    live = [(t, *divmod(t, pad + 1)) for t in np.flatnonzero(weights.any(axis=(0, 1))).tolist()]
    suited = len(held) * (pad + 1)
    each = np.arange(batch)
    tables = np.zeros((batch, 1 << n, sheets, width))  # tables[hand, mask, sheet, need]
    tables[:, 0, :, 0] = 1.0
    debates = np.zeros((batch, 1 << n, width)) if hearts else tables[:, :, 0]
    debates[:, 0, 0] = 1.0
    for part in _layers(n)[1:]:
        # Answering with a held card leaves the part without it, the debate lost or won (one
        # fewer to win). Arrays run [hand, suit, card, part, sheet, need].
        holds = (part & slots[..., None]) != 0
        lose = np.where(
            holds[..., None, None], tables[each[:, None, None, None], part ^ slots[..., None]], 0.0
        )
        win = np.zeros_like(lose)
        win[..., 1:] = lose[..., :-1]
        # For topics between card j - 1 and card j of a suit: the best loser below, or the
        # best winner from card j up.
        below_best = np.zeros((batch, len(held), pad + 1, *lose.shape[3:]))
        above_best = np.zeros_like(below_best)
        for j in range(pad):
            np.maximum(below_best[:, :, j], lose[:, :, j], out=below_best[:, :, j + 1])
        for j in reversed(range(pad)):
            np.maximum(above_best[:, :, j + 1], win[:, :, j], out=above_best[:, :, j])
        values = np.maximum(below_best, above_best)
        # Topics of a suit the part lacks: a trump topic is lost whatever the answer; a plain
        # one is won by a trump and lost by anything else.
        best = below_best[:, :, pad]
        zero = np.zeros((batch, *best.shape[2:]))
        best_trump = zero if trump_row is None else best[:, trump_row]
        best_other = best[:, other_rows].max(axis=1) if other_rows else zero
        trumped = np.zeros_like(best_trump)
        trumped[..., 1:] = best_trump[..., :-1]
        voids = (np.maximum(best_other, best_trump), np.maximum(best_other, trumped))
        shares = weights[:, part]
        chances = np.zeros(zero.shape)
        for t, row, column in live:  # in order, as a plain sum adds
            value = values[:, row, pad - column] if t < suited else voids[t - suited]
            chances += value * shares[:, :, t, None, None]
        if hearts:
            debates[:, part] = chances[:, :, 1]
            # At the pause before this debate the trumps in hand may be discarded instead.
            trumps = (part & trump_bits[:, None]) != 0
            kept = tables[each[:, None], part & ~trump_bits[:, None], 0]
            chances[:, :, 1] = np.where(
                trumps[..., None], np.maximum(chances[:, :, 1], kept), chances[:, :, 1]
            )
        tables[:, part] = chances
    plain = tables[:, :, 0]
    if not hearts:
        return plain, plain, plain
    return tables[:, :, 1], debates, plain


def _below(pool: Iterable[Card]) -> tuple[tuple[int, ...], ...]:
    """``below[s][r]``: how many cards of the pool are of suit s and ranked under r."""
    counts = [[0] * 16 for _ in range(4)]
    for card in pool:
        counts[SUIT[card]][RANK[card] + 1] += 1
    return tuple(tuple(accumulate(row)) for row in counts)


@lru_cache(maxsize=4096)  # a pure function, met again at every visit of the same position
def _shares(suit: tuple[Card, ...], below: tuple[int, ...], total: int, pad: int) -> np.ndarray:
    """For every part of one suit's cards (a mask over them), the share of topics in each
    interval between its cards, filed under the card just above the interval (or ``pad`` for
    the top one) and listed from the top down."""
    count = len(suit)
    shares = np.zeros((1 << count, pad + 1))
    for part in range(1, 1 << count):
        run = [i for i in range(count) if part >> i & 1]
        ranks = [0, *(RANK[suit[i]] for i in run), 15]
        for j, slot in enumerate([*run, pad]):
            portion = below[ranks[j + 1]] - below[ranks[j] + 1]
            if portion > 0:
                shares[part, slot] = portion / total
    return shares[:, ::-1]
