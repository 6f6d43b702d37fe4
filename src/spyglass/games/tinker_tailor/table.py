"""The cards on the table: hands, the two markets, decks and discard piles, pirate cards, and
what every seat knows of the others' hands.

Every movement of a goods or money card goes through :meth:`Table._gain` and :meth:`Table._lose`
so that knowledge follows it: a public movement (a card taken from the face-up market, paid,
sold, named by the Witch) is known to all; a private one (a card drawn from the deck, stolen at
random, given face down to the Jailor) only to the seats that see it. The type of a card that
moves face down is still public: goods and money cards have different backs.
"""

from __future__ import annotations

from collections.abc import Sequence

from spyglass.engine import State

from . import knowledge as kn
from .cards import GOODS_CARDS, HAND_SIZE, MONEY_CARDS, Card, expand, names
from .draft import Draft
from .edition import EDITION, Effect
from .knowledge import Counts, Row, counts_of, degrade, minus, plus, size

#: A market slot holds a card code, None (empty: both deck and discard pile ran out), or a pirate
#: card, written as minus the round in which it was placed.
Slot = int | None

GOODS_MARKET, MONEY_MARKET = "goods", "money"


def places_pirates(effects: Sequence[Effect]) -> bool:
    for effect in effects:
        if effect.op == "take" and effect.pirate:
            return True
        if effect.op == "if" and (places_pirates(effect.then) or places_pirates(effect.otherwise)):
            return True
    return False


#: Roles whose call removes the pirate cards placed in earlier rounds (the Pirate).
PIRATE_ROLES = frozenset(i for i, role in enumerate(EDITION.roles) if places_pirates(role.effects))


class Table(State):
    """The card zones and the knowledge bookkeeping shared by the phases of a round."""

    hands: list[list[int]]  # per seat: counts by card code (goods then money)
    known: list[list[Counts]]  # known[p][q]: what seat p surely knows seat q holds
    public: list[Counts]  # what everyone surely knows each seat holds
    lent: list[Row]  # per seat, then the public's (last): cards lent out unseen (knowledge.py)
    goods_market: list[Slot]
    money_market: list[Slot]
    goods_deck: list[Card]  # top card last
    money_deck: list[Card]
    goods_discard: list[Card]  # face up, top card last
    money_discard: list[Card]
    goods_deck_known: Counts  # cards everyone knows are in the goods deck
    money_deck_known: Counts
    looking: list[Card]  # the Sailor's cards, seen by the performer only
    round: int
    draft: Draft
    role_deck: list[Card]  # undealt role cards, top card last
    performer: int | None

    # ---------------------------------------------------------------- hands and knowledge

    def _gain(self, seat: int, card: Card, seers: Sequence[int] | None = None) -> None:
        """``seat`` receives ``card``; everyone sees it unless ``seers`` says who does."""
        self.hands[seat][card] += 1
        if seers is None:
            self.public[seat] = plus(self.public[seat], card)
        for p in range(self.players):
            if p != seat and (seers is None or p in seers):
                self.known[p][seat] = plus(self.known[p][seat], card)
        self._seen_move(seat, card, seers, gained=True)

    def _lose(self, seat: int, card: Card, seers: Sequence[int] | None = None) -> None:
        """``seat`` gives up ``card``; everyone sees which unless ``seers`` says who does."""
        self.hands[seat][card] -= 1
        goods = card.is_goods
        if seers is None:
            self.public[seat] = minus(self.public[seat], card)
        else:
            self.public[seat] = degrade(self.public[seat], goods)
        for p in range(self.players):
            if p == seat:
                continue
            row = self.known[p]
            if seers is None or p in seers:
                row[seat] = minus(row[seat], card)
            else:
                row[seat] = degrade(row[seat], goods)
        if any(self.lent):
            # A card lent to this seat may be the one that left, whoever saw which it was.
            self.lent = [kn.settle(row, seat, goods) for row in self.lent]
            self._seen_move(seat, card, seers, gained=False)

    def _seen_move(self, place: int, card: Card, seers: Sequence[int] | None, gained: bool) -> None:
        """Regions (knowledge.py) follow a card seen entering or leaving their place."""
        lent = self.lent
        for p, row in enumerate(lent):
            if row and (seers is None or p in seers):
                lent[p] = kn.seen_move(row, place, card, gained)

    def _pass(self, giver: int, receiver: int, card: Card, public: bool) -> None:
        if public:
            self._lose(giver, card)
            self._gain(receiver, card)
            return
        seers = (giver, receiver)
        before = [self.known[p][giver] for p in range(self.players)] + [self.public[giver]]
        self._lose(giver, card, seers)
        goods = card.is_goods
        for p in range(len(self.lent)):
            if p not in seers:
                self.lent[p] = kn.lend(self.lent[p], giver, receiver, goods, before[p])
        self._gain(receiver, card, seers)

    def goods_count(self, seat: int) -> int:
        return size(self.hands[seat], True)

    def money_count(self, seat: int) -> int:
        return size(self.hands[seat], False)

    def goods_of(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        return [g for g in GOODS_CARDS if hand[g]]

    def money_of(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        return [m for m in MONEY_CARDS if hand[m]]

    # ---------------------------------------------------------------- markets

    def market(self, name: str) -> list[Slot]:
        return self.goods_market if name == GOODS_MARKET else self.money_market

    @staticmethod
    def market_cards(market: Sequence[Slot]) -> list[Card]:
        """The cards that can be taken (not pirate cards, not empty slots)."""
        return [Card(s) for s in market if s is not None and s >= 0]

    def _take_from_market(self, card: Card, pirate: bool = False) -> None:
        """Remove ``card`` from the leftmost slot holding it (its gap is filled later)."""
        market = self.goods_market if card.is_goods else self.money_market
        slot = market.index(card)
        market[slot] = -self.round if pirate and self.pirates_left() else None

    def pirates_left(self) -> int:
        placed = sum(1 for s in (*self.goods_market, *self.money_market) if s is not None and s < 0)
        return EDITION.pirate_cards - placed

    def _remove_pirates(self) -> int:
        """Take away the pirate cards placed in earlier rounds; returns how many."""
        removed = 0
        for market in (self.goods_market, self.money_market):
            for i, slot in enumerate(market):
                if slot is not None and slot < 0 and -slot < self.round:
                    market[i] = None
                    removed += 1
        return removed

    def _refill(self) -> None:
        """Fill every gap of both markets from the matching deck (pirate slots stay)."""
        for name, market in ((GOODS_MARKET, self.goods_market), (MONEY_MARKET, self.money_market)):
            if None not in market:
                continue
            new = []
            for i, slot in enumerate(market):
                if slot is None:
                    card = self._draw(name, public=True)
                    if card is None:
                        break
                    market[i] = card
                    new.append(card)
            if new:
                self._say(f"the {name} market is refilled with {' '.join(names(new))}")

    # ---------------------------------------------------------------- decks

    def _draw(self, name: str, public: bool, to: int = kn.LOOKING, seer: int = -1) -> Card | None:
        """The top card of a deck (the discard pile is shuffled in when it runs out). A card
        drawn face down goes ``to`` a seat (or the Sailor's look), seen only by ``seer``."""
        goods = name == GOODS_MARKET
        deck = self.goods_deck if goods else self.money_deck
        if not deck:
            discard = self.goods_discard if goods else self.money_discard
            if not discard:
                return None
            new = sorted(discard)
            self.rng.shuffle(new)
            deck.extend(new)
            discard.clear()
            if goods:
                self.goods_deck_known = counts_of(deck)
            else:
                self.money_deck_known = counts_of(deck)
            place = kn.deck_of(goods)
            self.lent = [kn.forget(row, place) for row in self.lent]
            self._say(f"the {name} deck ran out: its discard pile ({len(deck)}) is shuffled")
        card = deck.pop()
        place = kn.deck_of(goods)
        if public:
            self._seen_move(place, card, None, gained=False)
        else:
            before = self.goods_deck_known if goods else self.money_deck_known
            for p, row in enumerate(self.lent):
                if p == seer:
                    # The drawer knows which card left: what the deck surely holds loses it.
                    mine = row if kn.entry_of(row, place) else (*row, (place, before, ()))
                    self.lent[p] = kn.seen_move(mine, place, card, gained=False)
                else:
                    self.lent[p] = kn.lend(row, place, to, goods, before)
        # An unseen draw could have been any card of the deck: what is known to remain loses
        # one of every kind it held.
        if goods:
            known = self.goods_deck_known
            self.goods_deck_known = minus(known, card) if public else degrade(known, True)
        else:
            known = self.money_deck_known
            self.money_deck_known = minus(known, card) if public else degrade(known, False)
        return card

    # ---------------------------------------------------------------- bookkeeping

    def _copy_table(self) -> None:
        self.hands = [list(h) for h in self.hands]
        self.known = [list(row) for row in self.known]
        self.public = list(self.public)
        self.lent = list(self.lent)
        self.goods_market = list(self.goods_market)
        self.money_market = list(self.money_market)
        self.goods_deck = list(self.goods_deck)
        self.money_deck = list(self.money_deck)
        self.goods_discard = list(self.goods_discard)
        self.money_discard = list(self.money_discard)
        self.looking = list(self.looking)
        self.role_deck = list(self.role_deck)

    def _table_cards(self) -> list[Card]:
        cards: list[Card] = []
        for hand in self.hands:
            cards.extend(expand(hand))
        cards.extend(self.market_cards(self.goods_market))
        cards.extend(self.market_cards(self.money_market))
        cards.extend(self.goods_deck)
        cards.extend(self.money_deck)
        cards.extend(self.goods_discard)
        cards.extend(self.money_discard)
        cards.extend(self.looking)
        cards.extend(self.draft.cards())
        cards.extend(self.role_deck)
        return cards


def empty_hand() -> list[int]:
    return [0] * HAND_SIZE
