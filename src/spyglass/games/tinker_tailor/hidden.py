"""Resampling the goods and money cards a seat cannot see.

What a seat sees or knows for certain stays put: its own hand, both markets, both discard piles,
and how many goods and money cards each seat holds (every card movement is public in number and
type, even when the card itself is not). Each hidden place (another seat's hand, a deck, the
Sailor's cards when someone else looks at them) is dealt what the seat knows is there, and
every card the seat cannot place is dealt at random, from a sorted pool, among the unknown
places.

A place that handed cards on unseen (a theft, the Jailor, a face-down draw from a deck) is dealt
as its *region* (knowledge.py): its cards and the cards it lent together hold what the seat knew
it held; which of them were lent is chosen at random, and each lent card goes where the seat saw
it go. So a seat that watched a hand of wine, wine and fish lose a card to the Outlaw's holder
guesses the Outlaw took a wine or the fish, never a gem from nowhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.engine import Rng

from .cards import CARDS, Card, goods_deck, money_deck
from .knowledge import LOOKING, Counts, Row, codes_of, counts_of, deck_of, entry_of

if TYPE_CHECKING:
    from .table import Table

#: How many cards of each goods kind and money value the game has.
TOTALS: Counts = counts_of(goods_deck() + money_deck())


def resample_cards(state: Table, observer: int | None, rng: Rng, hands_shown: bool) -> None:
    """Redeal every goods and money card ``observer`` cannot place (in place).

    ``hands_shown``: at the end of the game every hand is laid open, so only the decks'
    orders remain unknown.
    """
    n = state.players
    knows: list[Counts] = list(state.known[observer]) if observer is not None else state.public
    row = () if hands_shown else state.lent[n if observer is None else observer]
    others = [] if hands_shown else [s for s in range(n) if s != observer]
    for goods in (True, False):
        _deal_type(state, goods, observer=observer, others=others, knows=knows, row=row, rng=rng)
    # Other seats' private knowledge is hidden from the observer: guess only what is public.
    for p in range(n):
        if p != observer:
            state.known[p] = list(state.public)
            state.lent[p] = state.lent[n]


def _deal_type(
    state: Table,
    goods: bool,
    *,
    observer: int | None,
    others: list[int],
    knows: list[Counts],
    row: Row,
    rng: Rng,
) -> None:
    """Deal the unplaced cards of one type (goods or money)."""
    codes = codes_of(goods)
    lo, hi = codes.start, codes.stop
    deck = state.goods_deck if goods else state.money_deck
    looking_hidden = goods and bool(state.looking) and observer != state.performer
    # The cards in plain sight, and those known to be in a hidden place.
    unplaced = list(TOTALS)
    for s in range(state.players):
        if s not in others:
            hand = state.hands[s]
            for c in codes:
                unplaced[c] -= hand[c]
    for slot in state.goods_market if goods else state.money_market:
        if slot is not None and slot >= 0:
            unplaced[slot] -= 1
    for card in state.goods_discard if goods else state.money_discard:
        unplaced[card] -= 1
    if goods and not looking_hidden:
        for card in state.looking:
            unplaced[card] -= 1
    # The hidden places: (place, what is known there, its own cards, where its lent cards are).
    lent_in: dict[int, int] = {}
    for _, _, dests in row:
        for place, kind in dests:
            if kind == goods:
                lent_in[place] = lent_in.get(place, 0) + 1
    deck_place = deck_of(goods)
    places: list[tuple[int, Counts, int, list[int]]] = []
    for place in (*others, deck_place):
        entry = entry_of(row, place) if row else None
        if entry is not None:
            known = entry[1]
            outs = [d for d, kind in entry[2] if kind == goods]
        else:
            known = knows[place] if place >= 0 else _deck_known(state, goods)
            outs = []
        own = sum(state.hands[place][lo:hi]) if place >= 0 else len(deck)
        places.append((place, known, own - lent_in.get(place, 0) + len(outs), outs))
        for c in codes:
            unplaced[c] -= known[c]
    pool: list[Card] = []
    for c in codes:
        pool.extend([CARDS[c]] * unplaced[c])
    rng.shuffle(pool)
    dealt: dict[int, list[Card]] = {LOOKING: []}
    for place, known, region, outs in places:
        unknown = region - sum(known[lo:hi])
        assert 0 <= unknown <= len(pool), f"knowledge of place {place} is unsound"
        cards = []
        for c in codes:
            if known[c]:
                cards.extend([CARDS[c]] * known[c])
        if unknown:
            cards.extend(pool[-unknown:])
            del pool[-unknown:]
        # Which of the region's cards were the ones lent: any of them, as far as we know.
        for dest in outs:
            i = rng.below(len(cards))
            cards[i], cards[-1] = cards[-1], cards[i]
            dealt.setdefault(dest, []).append(cards.pop())
        dealt.setdefault(place, []).extend(cards)
    if looking_hidden:
        unknown = len(state.looking) - lent_in.get(LOOKING, 0)
        dealt[LOOKING].extend(pool[len(pool) - unknown :])
        del pool[len(pool) - unknown :]
    assert not pool, "the unseen cards do not fill the unknown places"
    for place, cards in dealt.items():
        if place == LOOKING:
            if looking_hidden:
                state.looking = sorted(cards)
        elif place == deck_place:
            assert len(cards) == len(deck), "the unseen cards do not fill the deck"
            deck[:] = rng.shuffled(cards)
        else:
            hand = state.hands[place]
            hand[lo:hi] = [0] * (hi - lo)
            for card in cards:
                hand[card] += 1


def _deck_known(state: Table, goods: bool) -> Counts:
    return state.goods_deck_known if goods else state.money_deck_known
