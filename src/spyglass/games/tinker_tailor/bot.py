"""A heuristic for Tinker Tailor: value a hand, then value every move by what it does to it.

**A hand's worth** (to its holder, with a fraction ``t`` of the game still to come) is its score
now (sets and collections) plus what it promises: for each kind, the growth of the next card's
value over this one's (the charts are convex, so a growing set is worth more than its points),
plus progress toward the next collection, both scaled by ``t``; money counts its end value
(half) plus, while there is time to spend it, part of its buying power.

**Moves.** Takes, keeps, swaps, purchases and change are judged by the worth they add; giving a
card away (the Preacher's gift, the Jailor's due) picks the card whose loss hurts least and the
player it helps least; robbing and the Witch pick the player and kind with the best expected
haul, counting the victim's loss a little too.

**Roles** (the draft and the Actor) are judged by reading the edition's effects against the
market and hands as they are now: the best cards a take could get, the average of a draw, the
best of a look, a test's branch as it would go today, and so on, discounted a little for roles
the rhyme calls late (the market will have been picked over). The bot keeps the role worth most
to itself; with two players, the card it discards is the one worth most to the other player.

The bot sees only what its seat sees: it runs on a determinization, where every hidden card has
been resampled from what the seat knows.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING

from spyglass.engine import Action, Rng

from .cards import GOODS_CARDS, MONEY_CARDS, ROLE_CARDS, Card
from .draft import DISCARD, PICK
from .edition import EDITION, Effect
from .perform import (
    BUY,
    CASH,
    EXCHANGE,
    GIFT,
    KEEP,
    NAME,
    PERFORM,
    ROB,
    SELL,
    SURRENDER,
    TAKE,
)
from .scoring import CHARTS, money_total, total

if TYPE_CHECKING:
    from .perform import Pending
    from .rules import TinkerTailorState

CONVEXITY = 0.6  # weight of a set's growing next-card value, times the time left
COLLECTING = 0.5  # weight of progress toward the next collection, times the time left
SPEND_RATE = 1.0  # buying power of a coin beyond its end value, times the time left
HARM = 0.5  # a point taken from one opponent, relative to a point for oneself (2 players)
LATE = 0.012  # discount per rhyme position for takes from the market
MARGIN = 1e-6


def _chart(kind: int, count: int) -> int:
    return CHARTS[kind][min(count, 8) - 1] if count > 0 else 0


def worth(hand: Sequence[int], t: float) -> float:
    """What a hand is worth to its holder with a fraction ``t`` of the game left."""
    value = float(total(hand))
    if t > 0:
        counts = [hand[g] for g in GOODS_CARDS]
        promise = 0.0
        for kind, c in enumerate(counts):
            if c < 8:
                promise += (_chart(kind, c + 2) - _chart(kind, c + 1)) - (
                    _chart(kind, c + 1) - _chart(kind, c)
                )
        low = min(counts)
        progress = sum(1 for c in counts if c > low) / len(counts)
        value += t * (CONVEXITY * promise + COLLECTING * EDITION.collection_points * progress)
        value += t * SPEND_RATE * money_total(hand)
    return value


def gain(hand: Sequence[int], card: Card, t: float) -> float:
    """The worth one more ``card`` adds to ``hand``."""
    before = worth(hand, t)
    hand = list(hand)
    hand[card] += 1
    return worth(hand, t) - before


def loss(hand: Sequence[int], card: Card, t: float) -> float:
    """The worth losing one ``card`` takes from ``hand`` (which holds it)."""
    before = worth(hand, t)
    hand = list(hand)
    hand[card] -= 1
    return before - worth(hand, t)


class Reader:
    """The table as the bot's seat judges it."""

    def __init__(self, state: TinkerTailorState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.hand = state.hands[seat]
        done = (state.round - 1) / state.rounds
        if state.phase != "draft":
            done += max(state.rhyme, 0) / len(ROLE_CARDS) / state.rounds
        self.t = max(0.0, 1.0 - done)
        self.harm = HARM / max(1, state.players - 1)

    # ---------------------------------------------------------------- cards

    def gain(self, card: Card) -> float:
        return gain(self.hand, card, self.t)

    def loss(self, card: Card) -> float:
        return loss(self.hand, card, self.t)

    def their_gain(self, seat: int, card: Card) -> float:
        return gain(self.state.hands[seat], card, self.t)

    def market(
        self, source: str, max_cost: int | None = None, values: Sequence[int] = ()
    ) -> list[Card]:
        state = self.state
        cards: list[Card] = []
        if source != "money":
            cards += [
                g
                for g in state.market_cards(state.goods_market)
                if max_cost is None or g.cost <= max_cost
            ]
        if source != "goods":
            cards += [
                m for m in state.market_cards(state.money_market) if not values or m.value in values
            ]
        return cards

    def change_value(self, credit: int, coins: Sequence[Card] | None = None) -> int:
        """The most that money in the market worth no more than ``credit`` adds up to."""
        if coins is None:
            coins = self.state.market_cards(self.state.money_market)
        reachable = 1
        for coin in coins:
            reachable |= reachable << coin.value
        reachable &= (1 << (credit + 1)) - 1
        return reachable.bit_length() - 1

    def steal_value(self, victim: int, goods: bool) -> float:
        hand = self.state.hands[victim]
        kinds = GOODS_CARDS if goods else MONEY_CARDS
        held = sum(hand[c] for c in kinds)
        if not held:
            return 0.0
        return (
            sum(
                hand[c] * (self.gain(c) + self.harm * loss(hand, c, self.t))
                for c in kinds
                if hand[c]
            )
            / held
        )

    # ---------------------------------------------------------------- roles

    def role_value(self, role: Card, draft_hand: Sequence[Card] = ()) -> float:
        late = 1.0 - LATE * max(0, role.index - max(self.state.rhyme, 0))
        return self.effects_value(role.role.effects, late, role, draft_hand)

    def effects_value(
        self, effects: Sequence[Effect], late: float, role: Card, draft_hand: Sequence[Card]
    ) -> float:
        value = 0.0
        taken: list[float] = []
        for effect in effects:
            op = effect.op
            if op == "take":
                cards = self.market(effect.source, effect.max_cost, effect.values)
                gains = sorted((self.gain(c) for c in cards), reverse=True)[: effect.count]
                if effect.optional:
                    gains = [g for g in gains if g > 0]
                taken += gains
                value += late * sum(gains)
            elif op == "gift":
                giving = min(effect.count, len(taken) - 1)
                holder = self.state.holder[_role(effect.to).index]
                if giving > 0 and holder != self.seat:
                    value -= late * sum(sorted(taken)[:giving])
            elif op == "draw":
                value += effect.count * self.draw_value()
            elif op == "look":
                value += self.look_value(effect.count)
            elif op == "exchange":
                value += late * self.exchange_value(effect.count)
            elif op == "steal":
                goods = effect.source == "goods"
                others = [s for s in range(self.state.players) if s != self.seat]
                value += max(self.steal_value(s, goods) for s in others)
            elif op == "collect":
                value += self.collect_value(effect.from_roles)
            elif op == "sell":
                value += max(0.0, self.sell_value(effect.count))
            elif op == "demand":
                value += max(
                    (
                        self.demand_value(s, g)
                        for s in range(self.state.players)
                        for g in GOODS_CARDS
                        if s != self.seat
                    ),
                    default=0.0,
                )
            elif op == "act":
                value += self.act_value(role, draft_hand)
            elif op == "if":
                branch = effect.then if self.test(effect.test) else effect.otherwise
                value += self.effects_value(branch, late, role, draft_hand)
        return value

    def test(self, test: str | None) -> bool:
        state = self.state
        goods = test is not None and test.endswith("goods")
        counts = [
            state.goods_count(s) if goods else state.money_count(s) for s in range(state.players)
        ]
        mine = counts[self.seat] + (1 if test == "most_money" else 0)  # after the first take
        others = [c for s, c in enumerate(counts) if s != self.seat]
        if test is not None and test.startswith("most"):
            return all(mine > c for c in others)
        return all(mine <= c for c in others)

    def draw_value(self) -> float:
        deck = self.state.goods_deck
        if not deck:
            return 0.0
        counts = [0] * len(GOODS_CARDS)
        for card in deck:
            counts[card] += 1
        return sum(n * self.gain(GOODS_CARDS[k]) for k, n in enumerate(counts)) / len(deck)

    def look_value(self, count: int) -> float:
        """The expected best of ``count`` cards from the goods deck (by kind, exactly)."""
        deck = self.state.goods_deck
        n = len(deck)
        if not n:
            return 0.0
        count = min(count, n)
        tally = [0] * len(GOODS_CARDS)
        for card in deck:
            tally[card] += 1
        ranked = sorted(GOODS_CARDS, key=self.gain, reverse=True)
        value, better = 0.0, 0
        for kind in ranked:
            none_better = comb(n - better, count) / comb(n, count)
            better += tally[kind]
            none_either = comb(n - better, count) / comb(n, count)
            value += (none_better - none_either) * self.gain(kind)
        return value

    def exchange_value(self, count: int) -> float:
        hand = list(self.hand)
        market = list(self.market("goods"))
        value = 0.0
        for _ in range(count):
            best, swap = 0.0, None
            for give in GOODS_CARDS:
                if not hand[give]:
                    continue
                without = list(hand)
                without[give] -= 1
                base = worth(hand, self.t)
                for get in set(market):
                    if get == give:
                        continue
                    without[get] += 1
                    delta = worth(without, self.t) - base
                    without[get] -= 1
                    if delta > best:
                        best, swap = delta, (give, get)
            if swap is None:
                break
            give, get = swap
            hand[give] -= 1
            hand[get] += 1
            market.remove(get)
            market.append(give)
            value += best
        return value

    def collect_value(self, roles: Sequence[str]) -> float:
        state = self.state
        value = 0.0
        for name in roles:
            holder = state.holder[_role(name).index]
            if state.phase == "draft":
                chance = (state.players - 1) / (len(ROLE_CARDS) - 1)
                value += chance * 2.0
            elif holder >= 0 and holder != self.seat:
                hand = state.hands[holder]
                if any(hand[c] for c in (*GOODS_CARDS, *MONEY_CARDS)):
                    cheapest = min(self.gain(c) for c in (*GOODS_CARDS, *MONEY_CARDS) if hand[c])
                    value += cheapest
        return value

    def sell_value(self, count: int) -> float:
        coins = self.state.market_cards(self.state.money_market)
        rate = 0.5 + SPEND_RATE * self.t
        best = 0.0
        goods = [g for g in GOODS_CARDS for _ in range(min(self.hand[g], count))]
        for i, first in enumerate(goods):
            for second in [None, *goods[i + 1 :]]:
                sold = [first] if second is None else [first, second]
                hand = list(self.hand)
                for g in sold:
                    hand[g] -= 1
                lost = worth(self.hand, self.t) - worth(hand, self.t)
                price = self.change_value(sum(g.cost for g in sold), coins)
                best = max(best, rate * price - lost)
        return best

    def demand_value(self, seat: int, kind: Card) -> float:
        hand = self.state.hands[seat]
        if not hand[kind]:
            return 0.0
        return self.gain(kind) + self.harm * loss(hand, kind, self.t)

    def act_value(self, role: Card, draft_hand: Sequence[Card]) -> float:
        state = self.state
        if state.phase == "draft":
            others = [r for r in draft_hand if r != role]
            if not others:
                return 0.0
            values = sorted(self.role_value(r) for r in others)
            return values[len(values) // 2] * 0.8  # the weaker ones tend to be left over
        options = [r for r in state.draft.leftover() if all(e.op != "act" for e in r.role.effects)]
        return max((self.role_value(r) for r in options), default=0.0)


def _role(name: str | None) -> Card:
    return next(r for r in ROLE_CARDS if r.role.name == name)


# -------------------------------------------------------------------- choosing a move


def choose(state: TinkerTailorState, rng: Rng) -> Action:
    moves = state.legal_actions()
    if len(moves) == 1:
        return moves[0]
    p = state.pending
    assert p is not None  # the game goes on: a decision is waited for
    reader = Reader(state, p.seat)
    score = SCORERS.get(p.kind, _first)
    return max(moves, key=lambda m: score(reader, p, m) + rng.random() * MARGIN)


def _first(reader: Reader, p: Pending, move: Action) -> float:
    return 0.0


def _pick(reader: Reader, p: Pending, move: Action) -> float:
    hand = reader.state.draft.hand()
    return reader.role_value(move.cards[0], hand)


def _discard(reader: Reader, p: Pending, move: Action) -> float:
    """Two players: discard the card the other player (who gets the other one) wants most."""
    state = reader.state
    role = move.cards[0]
    back = next(c for c in state.draft.hand() if c != role)
    other = Reader(state, state.draft.start)
    return other.role_value(role) - other.role_value(back)


def _take(reader: Reader, p: Pending, move: Action) -> float:
    return 0.0 if move.kind == "done" else reader.gain(move.cards[0])


def _swap(reader: Reader, p: Pending, move: Action) -> float:
    if move.kind == "done":
        return 0.0
    give, get = move.cards
    hand = list(reader.hand)
    before = worth(hand, reader.t)
    hand[give] -= 1
    hand[get] += 1
    return worth(hand, reader.t) - before


def _gift(reader: Reader, p: Pending, move: Action) -> float:
    """Give away the card that costs least to lose and helps its receiver least."""
    card, receiver = move.cards[0], move.target
    return -reader.loss(card) - reader.harm * reader.their_gain(receiver, card)


def _keep(reader: Reader, p: Pending, move: Action) -> float:
    return reader.gain(move.cards[0])


def _rob(reader: Reader, p: Pending, move: Action) -> float:
    return reader.steal_value(move.target, p.running.source == "goods")


def _surrender(reader: Reader, p: Pending, move: Action) -> float:
    card = move.cards[0]
    receiver = reader.state.performer
    assert receiver is not None  # the Jailor's due goes to the one performing it
    return -reader.loss(card) - reader.harm * reader.their_gain(receiver, card)


def _sell(reader: Reader, p: Pending, move: Action) -> float:
    if move.kind == "done":
        return 0.0
    card = move.cards[0]
    rate = 0.5 + SPEND_RATE * reader.t
    credit = p.credit + card.cost
    price = reader.change_value(credit) - reader.change_value(p.credit)
    return rate * price - reader.loss(card)


def _name(reader: Reader, p: Pending, move: Action) -> float:
    return reader.demand_value(move.target, move.cards[0])


def _perform(reader: Reader, p: Pending, move: Action) -> float:
    return reader.role_value(move.cards[0])


def _buy(reader: Reader, p: Pending, move: Action) -> float:
    """The worth of the hand after the move, counting credit left at what change it can bring."""
    hand = list(reader.hand)
    credit = p.credit
    kind = move.kind
    penalty = 0.0
    if kind == "done":
        return worth(hand, reader.t)
    if kind == "buy":
        good, paid = move.cards[0], move.cards[1:]
        for coin in paid:
            hand[coin] -= 1
            credit += coin.value
        credit -= good.cost
        hand[good] += 1
        coins = list(reader.state.market_cards(reader.state.money_market))
    elif kind == "change":
        coin = move.cards[0]
        hand[coin] += 1
        credit -= coin.value
        coins = list(reader.state.market_cards(reader.state.money_market))
        coins.remove(coin)
    else:  # pay: only ever useful for bigger change, which the bot does not seek
        coin = move.cards[0]
        hand[coin] -= 1
        credit += coin.value
        coins = list(reader.state.market_cards(reader.state.money_market))
        penalty = 0.5
    rate = 0.5 + SPEND_RATE * reader.t
    return worth(hand, reader.t) + rate * reader.change_value(credit, coins) - penalty


SCORERS = {
    PICK: _pick,
    DISCARD: _discard,
    TAKE: _take,
    CASH: _take,
    EXCHANGE: _swap,
    GIFT: _gift,
    KEEP: _keep,
    ROB: _rob,
    SURRENDER: _surrender,
    SELL: _sell,
    NAME: _name,
    PERFORM: _perform,
    BUY: _buy,
}
