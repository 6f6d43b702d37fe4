"""What a seat knows for certain about another seat's hand: a multiset of cards.

Knowledge is kept as a tuple of counts by card code (immutable, so clones share it). It only
ever holds cards the other seat surely has: a card seen entering the hand is added, a card seen
leaving is removed, and when an unseen card leaves (a theft or a gift face down), every kind of
that type loses one card, since the card that left may have been any of them.
"""

from __future__ import annotations

from collections.abc import Sequence

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


def counts_of(cards: Sequence[int]) -> Counts:
    counts = [0] * HAND_SIZE
    for card in cards:
        counts[card] += 1
    return tuple(counts)


# ------------------------------------------------------------------- cards lent out unseen
#
# ``degrade`` alone forgets where an unseen card went. A seat that watches seat A hand a card
# face down to seat B (a theft, the Jailor) knows more: A's hand *together with that card*
# still holds everything it knew A held, and that card is now in B's hand. The same goes for
# the decks when a card is drawn face down (the Sailor, the Old Man). Each seat keeps these
# facts as *regions*, one per place that lent cards: the place's cards plus the cards it lent
# surely include ``region``, and ``dests`` says where each lent card is (by type: goods or
# money). A lent card's fact lasts until the card could have left where it went: when that
# place loses a card of its type, the fact falls back to ``degrade`` (one fewer of every kind).

#: Places besides seats: the two decks, and the cards the Sailor is looking at.
GOODS_DECK, MONEY_DECK, LOOKING = -1, -2, -3

Dest = tuple[int, bool]  # (place, goods?)
Entry = tuple[int, Counts, tuple[Dest, ...]]  # (source place, region, where its lent cards are)
Row = tuple[Entry, ...]


def deck_of(goods: bool) -> int:
    return GOODS_DECK if goods else MONEY_DECK


def entry_of(row: Row, source: int) -> Entry | None:
    for entry in row:
        if entry[0] == source:
            return entry
    return None


def _replace(row: Row, old: Entry | None, new: Entry | None) -> Row:
    kept = tuple(e for e in row if e is not old)
    return kept if new is None else (*kept, new)


def lend(row: Row, source: int, dest: int, goods: bool, known_before: Counts) -> Row:
    """``source`` handed one card of this type, unseen, to ``dest`` (``known_before``: what
    was known of ``source`` before, used when it had lent nothing yet)."""
    entry = entry_of(row, source)
    if entry is None:
        return (*row, (source, known_before, ((dest, goods),)))
    return _replace(row, entry, (source, entry[1], (*entry[2], (dest, goods))))


def seen_move(row: Row, source: int, card: int, gained: bool) -> Row:
    """A card seen entering or leaving ``source``: its region gains or loses that card."""
    entry = entry_of(row, source)
    if entry is None:
        return row
    region = plus(entry[1], card) if gained else minus(entry[1], card)
    return _replace(row, entry, (source, region, entry[2]))


def settle(row: Row, place: int, goods: bool) -> Row:
    """``place`` gave up a card of this type: any card lent to it may be the one that left."""
    for entry in row:
        if (place, goods) not in entry[2]:
            continue
        dests, region = list(entry[2]), entry[1]
        while (place, goods) in dests:
            dests.remove((place, goods))
            region = degrade(region, goods)
        new = (entry[0], region, tuple(dests)) if dests else None
        return settle(_replace(row, entry, new), place, goods)
    return row


def redirect(row: Row, old: int, new: int, goods: bool) -> Row:
    """One card lent to ``old`` moved on, unseen but surely, to ``new`` (the Sailor keeping
    one of the cards he looks at: both came from the deck)."""
    for entry in row:
        if (old, goods) in entry[2]:
            dests = list(entry[2])
            dests[dests.index((old, goods))] = (new, goods)
            return _replace(row, entry, (entry[0], entry[1], tuple(dests)))
    return row


def returned(row: Row, place: int, card: int) -> Row:
    """A card lent to ``place`` is shown leaving it (the Sailor's discard): its source's region
    loses that card, and nothing is lent there any more."""
    goods = card < MONEY_START
    for entry in row:
        if (place, goods) in entry[2]:
            dests = list(entry[2])
            dests.remove((place, goods))
            return _replace(row, entry, (entry[0], minus(entry[1], card), tuple(dests)))
    return row


def forget(row: Row, source: int) -> Row:
    """Drop what is known of ``source``'s region (a deck made afresh from its discard pile)."""
    return _replace(row, entry_of(row, source), None)
