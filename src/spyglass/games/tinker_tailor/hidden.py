"""Resampling the goods and money cards a seat cannot see.

What a seat sees or knows for certain stays put: its own hand, both markets, both discard piles,
the cards everyone knows are in each deck, the cards it knows each other seat holds, and how many
goods and money cards each seat holds (every card movement is public in number and type, even
when the card itself is not). Every other card of each type is dealt at random, from a sorted
pool, among the unknown places: the unknown part of each other hand, the unknown part of the
deck, and the Sailor's cards when someone else is looking at them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.engine import Rng

from .cards import CARDS, Card, goods_deck, money_deck
from .knowledge import Counts, codes_of, counts_of

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
    others = [] if hands_shown else [s for s in range(n) if s != observer]
    for goods in (True, False):
        codes = codes_of(goods)
        deck = state.goods_deck if goods else state.money_deck
        deck_known = state.goods_deck_known if goods else state.money_deck_known
        seen = [0] * len(TOTALS)
        places = [state.hands[s] for s in range(n) if s not in others]
        for hand in places:
            for c in codes:
                seen[c] += hand[c]
        market = state.goods_market if goods else state.money_market
        for slot in market:
            if slot is not None and slot >= 0:
                seen[slot] += 1
        for card in state.goods_discard if goods else state.money_discard:
            seen[card] += 1
        for c in codes:
            seen[c] += deck_known[c]
        for s in others:
            for c in codes:
                seen[c] += knows[s][c]
        looking_hidden = goods and bool(state.looking) and observer != state.performer
        if goods and not looking_hidden:
            for card in state.looking:
                seen[card] += 1
        pool: list[Card] = []
        for c in codes:
            pool.extend([CARDS[c]] * (TOTALS[c] - seen[c]))
        rng.shuffle(pool)
        for s in others:
            hand = state.hands[s]
            unknown = sum(hand[c] for c in codes) - sum(knows[s][c] for c in codes)
            for c in codes:
                hand[c] = knows[s][c]
            for _ in range(unknown):
                hand[pool.pop()] += 1
        if looking_hidden:
            size = len(state.looking)
            state.looking = sorted(pool.pop() for _ in range(size))
        new_deck = [CARDS[c] for c in codes for _ in range(deck_known[c])] + pool
        assert len(new_deck) == len(deck), "the unseen cards do not fill the unknown places"
        new_deck.sort()
        rng.shuffle(new_deck)
        deck[:] = new_deck
    # Other seats' private knowledge is hidden from the observer: guess only what is public.
    for p in range(n):
        if p != observer:
            state.known[p] = list(state.public)
