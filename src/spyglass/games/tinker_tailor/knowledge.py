"""What a seat knows for certain about another seat's hand: a multiset of cards.

Knowledge is kept as a tuple of counts by card code (immutable, so clones share it). It only
ever holds cards the other seat surely has: a card seen entering the hand is added, a card seen
leaving is removed, and when an unseen card leaves (a theft or a gift face down), every kind of
that type loses one card, since the card that left may have been any of them.
"""

from __future__ import annotations

from .cards import HAND_SIZE, MONEY_START

Counts = tuple[int, ...]

NOTHING: Counts = (0,) * HAND_SIZE
GOODS_CODES = range(MONEY_START)
MONEY_CODES = range(MONEY_START, HAND_SIZE)


def codes_of(goods: bool) -> range:
    return GOODS_CODES if goods else MONEY_CODES


def plus(known: Counts, code: int) -> Counts:
    return (*known[:code], known[code] + 1, *known[code + 1 :])


def minus(known: Counts, code: int) -> Counts:
    """One card fewer of ``code``, if it was known (else it left from the unknown part)."""
    if not known[code]:
        return known
    return (*known[:code], known[code] - 1, *known[code + 1 :])


def degrade(known: Counts, goods: bool) -> Counts:
    """After an unseen card of this type left: one fewer of every kind of it that was known."""
    span = codes_of(goods)
    if not any(known[c] for c in span):
        return known
    return tuple(n - 1 if n and c in span else n for c, n in enumerate(known))


def size(counts: Counts | list[int], goods: bool) -> int:
    return sum(counts[c] for c in codes_of(goods))


def counts_of(cards: list[int]) -> Counts:
    counts = [0] * HAND_SIZE
    for card in cards:
        counts[card] += 1
    return tuple(counts)
