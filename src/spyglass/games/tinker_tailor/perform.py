"""Performing roles and buying: the edition's effects run step by step, with every choice a
decision of the seat that makes it.

A role runs as a stack of effect lists (the Actor pushes the role it performs; a condition pushes
its branch). An effect that needs a choice sets ``pending``: the seat to decide and what is being
decided. A choice with a single possibility is made at once; a choice with none ends the effect.
"""

from __future__ import annotations

from typing import NamedTuple

from spyglass.engine import Action

from . import knowledge as kn
from . import notation as move
from .buying import payments
from .cards import (
    COSTS,
    GOODS_CARDS,
    MONEY_CARDS,
    MONEY_START,
    ROLE_CARDS,
    VALUES,
    Card,
    names,
    role_card,
)
from .edition import Effect
from .table import Table

MONEY_VALUES = tuple(VALUES[m] for m in MONEY_CARDS)
TAKE, EXCHANGE, GIFT, KEEP, ROB = "take", "exchange", "gift", "keep", "rob"
SURRENDER, SELL, CASH, NAME, PERFORM, BUY = "surrender", "sell", "cash", "name", "perform", "buy"
#: Roles performed through the Actor cannot themselves be Actors (that would never end).
ACT_ROLES = frozenset(r for r in ROLE_CARDS if any(e.op == "act" for e in r.role.effects))


class Pending(NamedTuple):
    """A decision being waited for: who decides, and where in which effect.

    ``done`` counts the steps of the effect already made (when buying: the goods bought so
    far); ``credit`` is the buying credit, the Merchant's sale price left, or how many cards
    the gift or the Sailor's look allows; ``queue`` holds the Jailor's givers still to come;
    ``owing`` (buying) says money has been paid since the last purchase: it must buy a good
    before change is taken or the buying stops, since change is only the excess of money paid
    over the goods it bought.
    (A NamedTuple: one is made for every decision, and tuples are the cheapest to make.)
    """

    kind: str
    seat: int
    effect: Effect | None = None
    done: int = 0
    credit: int = 0
    queue: tuple[int, ...] = ()
    owing: bool = False

    @property
    def running(self) -> Effect:
        """The effect this decision is a step of (every kind but those of the phases
        themselves, such as choosing a role to perform, has one)."""
        effect = self.effect
        assert effect is not None, f"a {self.kind} decision belongs to no effect"
        return effect


class Performance(Table):
    """The perform and buy phases of a round."""

    pending: Pending | None
    offered: list[Action] | None  # the moves of ``pending``, once worked out
    frames: list[tuple[tuple[Effect, ...], int]]  # effect lists being run, and the next index
    acting: Card | None  # the role whose effects run (the Actor's choice while it acts)
    taken: list[Card]  # market cards taken by this role so far (the Preacher's gift)
    acted: Card | None  # the left-over role the Actor performed this round (public)
    reveal: tuple[str, str, tuple[int, ...]] | None  # (role, "goods"/"money", counts)
    holder: list[int]  # by rhyme position: the seat holding that role this round, or -1

    # ---------------------------------------------------------------- running effects

    def _step_effects(self) -> None:
        effects, pc = self.frames[-1]
        if pc >= len(effects):
            self.frames.pop()
            return
        self.frames[-1] = (effects, pc + 1)
        self._start(effects[pc])

    def _start(self, effect: Effect) -> None:
        seat = self.performer
        assert seat is not None
        op = effect.op
        if op == "take":
            self._offer(Pending(TAKE, seat, effect))
        elif op == "gift":
            self._start_gift(seat, effect)
        elif op == "draw":
            for _ in range(effect.count):
                self._draw_unseen(seat)
        elif op == "look":
            self._look(seat, effect)
        elif op == "exchange":
            self._offer(Pending(EXCHANGE, seat, effect))
        elif op == "steal":
            self._offer(Pending(ROB, seat, effect))
        elif op == "collect":
            self._start_collect(seat, effect)
        elif op == "sell":
            self._offer(Pending(SELL, seat, effect))
        elif op == "demand":
            self._offer(Pending(NAME, seat, effect))
        elif op == "act":
            self._offer(Pending(PERFORM, seat, effect))
        elif op == "if":
            self._test(seat, effect)

    def _offer(self, pending: Pending) -> None:
        """Wait for a decision, make it at once if there is only one, or end the step."""
        options = self._options(pending)
        if not options:
            self.pending = None
            self._finish(pending)
        elif len(options) == 1:
            self.pending = None
            self._decide(pending, options[0])
        else:
            self.pending = pending
            self.offered = options

    # ---------------------------------------------------------------- the choices

    def _options(self, p: Pending) -> list[Action]:
        kind = p.kind
        if kind == BUY:  # the most frequent decision first
            return self._buy_options(p)
        if kind == TAKE:
            return self._take_options(p)
        if kind == EXCHANGE:
            if p.done >= p.running.count:
                return []
            gets = sorted(set(self.market_cards(self.goods_market)))
            swaps = [move.swap(g, m) for g in self.goods_of(p.seat) for m in gets if g != m]
            return [*swaps, move.DONE] if swaps else []
        if kind == GIFT:
            if p.done >= p.credit:
                return []
            return [
                move.give_to(card, seat)
                for card in sorted(set(self.taken))
                for seat in self._gift_recipients(p)
            ]
        if kind == KEEP:
            if p.done >= p.credit or not self.looking:
                return []
            return [move.keep(card) for card in sorted(set(self.looking))]
        if kind == ROB:
            return [move.rob(seat) for seat in range(self.players) if seat != p.seat]
        if kind == SURRENDER:
            receiver = self.performer
            return [
                move.hand_over(c, receiver) for c in self.goods_of(p.seat) + self.money_of(p.seat)
            ]
        if kind == SELL:
            if p.done >= p.running.count:
                return []
            return [*(move.sell(g) for g in self.goods_of(p.seat)), move.DONE]
        if kind == CASH:
            takes = [
                move.take(m)
                for m in sorted(set(self.market_cards(self.money_market)))
                if m.value <= p.credit
            ]
            return [*takes, move.DONE] if takes else []
        if kind == NAME:
            others = [s for s in range(self.players) if s != p.seat]
            return [move.name(seat, g) for seat in others for g in GOODS_CARDS]
        if kind == PERFORM:
            return [move.perform(r) for r in self.draft.leftover() if r not in ACT_ROLES]
        return []

    def _take_options(self, p: Pending) -> list[Action]:
        effect = p.running
        if p.done >= effect.count:
            return []
        cards: list[Card] = []
        if effect.source != "money":
            for g in sorted(set(self.market_cards(self.goods_market))):
                if effect.max_cost is None or g.cost <= effect.max_cost:
                    cards.append(g)
        if effect.source != "goods":
            for m in sorted(set(self.market_cards(self.money_market))):
                if not effect.values or m.value in effect.values:
                    cards.append(m)
        options = [move.take(c) for c in cards]
        if effect.optional:
            options.append(move.DONE)
        return options

    def _buy_options(self, p: Pending) -> list[Action]:
        """Buying: each good with the fewest cards that pay for it (beside the credit), or one
        money card paid toward the next purchase (to pay more than it needs and take change),
        change from the excess of the goods bought, and stopping (not while money paid has
        bought nothing yet)."""
        hand = self.hands[p.seat]
        credit = p.credit
        money = tuple(hand[MONEY_START:])
        if not credit and not any(money):
            return []
        goods = sorted({s for s in self.goods_market if s is not None and s >= 0})
        if not goods:
            return []
        purse = credit + sum(n * v for n, v in zip(money, MONEY_VALUES, strict=True))
        options: list[Action] = []
        if purse >= min(COSTS[g] for g in goods):
            for good in goods:
                cost = COSTS[good]
                if cost <= purse:
                    options.extend(move.buy(good, paid) for paid in payments(money, credit, cost))
            options.extend(move.pay(m) for m in MONEY_CARDS if hand[m])
        if p.owing:
            return options  # money paid since the last purchase must buy a good first
        if p.done and credit:
            for coin in sorted(set(self.market_cards(self.money_market))):
                if coin.value <= credit:
                    options.append(move.change(coin))
        if options and (p.done or not credit):
            options.append(move.DONE)
        return options

    def _gift_recipients(self, p: Pending) -> list[int]:
        to = p.running.to
        assert to is not None  # a gift has its receiving role (checked at loading)
        holder = self.holder[role_card(to).index]
        if holder >= 0:
            return [holder]
        return [s for s in range(self.players) if s != p.seat]

    # ---------------------------------------------------------------- making a choice

    def _decide(self, p: Pending, action: Action) -> None:
        if action.kind == "done":
            self._finish(p)
            return
        kind, seat = p.kind, p.seat
        if kind == BUY:
            if action.kind == "buy":
                self._buy(p, action.cards[0], action.cards[1:])
            elif action.kind == "change":
                self._change(p, action.cards[0])
            else:
                self._pay(p, action.cards[0])
            return
        who = f"seat {seat}"
        if kind == TAKE:
            card = action.cards[0]
            self._take_from_market(card, pirate=p.running.pirate)
            self._gain(seat, card)
            self.taken.append(card)
            pirate = " (a pirate card takes its place)" if p.running.pirate else ""
            self._say(f"{who} takes {self._card_words(card)} from the market{pirate}")
            self._offer(p._replace(done=p.done + 1))
        elif kind == EXCHANGE:
            give, get = action.cards
            slot = self.goods_market.index(get)
            self.goods_market[slot] = give
            self._lose(seat, give)
            self._gain(seat, get)
            self._say(f"{who} swaps {give} for {get} from the market")
            self._offer(p._replace(done=p.done + 1))
        elif kind == GIFT:
            card, receiver = action.cards[0], action.target
            self._pass(seat, receiver, card, public=True)
            self.taken.remove(card)
            self._say(f"{who} gives {card} to seat {receiver}")
            self._offer(p._replace(done=p.done + 1))
        elif kind == KEEP:
            card = action.cards[0]
            self.looking.remove(card)
            # Others know it is one of the cards drawn from the deck, now in the Sailor's hand.
            self.lent = [kn.redirect(row, kn.LOOKING, seat, True) for row in self.lent]
            self._gain(seat, card, seers=(seat,))
            self._say(f"{who} keeps {card}", [seat], f"{who} keeps one of the cards")
            self._offer(p._replace(done=p.done + 1))
        elif kind == ROB:
            self._steal(seat, action.target, p.running.source == "goods")
        elif kind == SURRENDER:
            card, receiver = action.cards[0], self.performer
            assert receiver is not None  # the Jailor's due goes to the one performing it
            self._pass(seat, receiver, card, public=False)
            self._say(
                f"{who} gives {self._card_words(card)} to seat {receiver}",
                [seat, receiver],
                f"{who} gives seat {receiver} a {card.type} card",
            )
            self._next_giver(p.running, p.queue)
        elif kind == SELL:
            card = action.cards[0]
            self._lose(seat, card)
            self.goods_discard.append(card)
            self._say(f"{who} sells {card} for {card.cost}")
            self._offer(p._replace(done=p.done + 1, credit=p.credit + card.cost))
        elif kind == CASH:
            card = action.cards[0]
            self._take_from_market(card)
            self._gain(seat, card)
            self._say(f"{who} takes {self._card_words(card)} for the goods sold")
            self._offer(p._replace(credit=p.credit - card.value))
        elif kind == NAME:
            self._demand(seat, action.target, action.cards[0])
        elif kind == PERFORM:
            role = action.cards[0]
            self.acted = self.acting = role
            self.taken = []
            self.frames.append((role.role.effects, 0))
            self._say(f"{who}, the Actor, performs the {role.title} (a role left over)")

    def _finish(self, p: Pending) -> None:
        """A decision's step is over: go on to what follows it, if anything."""
        kind = p.kind
        if kind == KEEP and self.looking:
            rest = sorted(self.looking)
            for card in rest:
                self.lent = [kn.returned(row, kn.LOOKING, card) for row in self.lent]
            self.goods_discard.extend(rest)
            self.looking = []
            self._say(f"seat {p.seat} discards {' '.join(names(rest))} face up")
        elif kind == SELL:
            self._offer(Pending(CASH, p.seat, p.effect, credit=p.credit))
        elif kind == CASH and p.credit > 0:
            self._say(f"seat {p.seat} leaves {p.credit} of the sale price unclaimed")
        elif kind == BUY and p.credit > 0:
            self._say(f"seat {p.seat} leaves {p.credit} of credit unspent")

    # ---------------------------------------------------------------- effects in detail

    def _start_gift(self, seat: int, effect: Effect) -> None:
        giving = min(effect.count, len(self.taken) - 1)  # always keep at least one
        if giving <= 0:
            return
        assert effect.to is not None  # a gift has its receiving role (checked at loading)
        holder = self.holder[role_card(effect.to).index]
        if holder == seat:
            self._say(
                f"seat {seat} also holds the {effect.to} and keeps the gift"
                " (no harm to oneself between one's own roles)"
            )
            return
        self._offer(Pending(GIFT, seat, effect, credit=giving))

    def _draw_unseen(self, seat: int) -> None:
        card = self._draw("goods", public=False, to=seat, seer=seat)
        if card is None:
            self._say(f"seat {seat} cannot draw: no goods cards are left")
            return
        self._gain(seat, card, seers=(seat,))
        self._say(f"seat {seat} draws {card}", [seat], f"seat {seat} draws a goods card")

    def _look(self, seat: int, effect: Effect) -> None:
        for _ in range(effect.count):
            card = self._draw("goods", public=False, to=kn.LOOKING, seer=seat)
            if card is None:
                break
            self.looking.append(card)
        if not self.looking:
            self._say(f"seat {seat} finds no goods cards to look at")
            return
        self._say(
            f"seat {seat} looks at {' '.join(names(self.looking))}",
            [seat],
            f"seat {seat} looks at the top {len(self.looking)} goods cards",
        )
        self._offer(Pending(KEEP, seat, effect, credit=min(effect.keep, len(self.looking))))

    def _steal(self, thief: int, victim: int, goods: bool) -> None:
        hand = self.hands[victim]
        codes = GOODS_CARDS if goods else MONEY_CARDS
        total = sum(hand[c] for c in codes)
        what = "goods" if goods else "money"
        if not total:
            self._say(f"seat {thief} robs seat {victim}, who has no {what} cards")
            return
        pick = self.rng.below(total)
        for card in codes:
            pick -= hand[card]
            if pick < 0:
                break
        self._pass(victim, thief, card, public=False)
        self._say(
            f"seat {thief} steals {self._card_words(card)} from seat {victim}",
            [thief, victim],
            f"seat {thief} steals a {what} card at random from seat {victim}",
        )

    def _start_collect(self, seat: int, effect: Effect) -> None:
        queue = []
        for name in effect.from_roles:
            holder = self.holder[role_card(name).index]
            if holder == seat:
                self._say(f"seat {seat} holds the {name} too: it owes itself nothing")
            elif holder >= 0:
                queue.append(holder)
        self._next_giver(effect, tuple(queue))

    def _next_giver(self, effect: Effect, queue: tuple[int, ...]) -> None:
        for i, giver in enumerate(queue):
            if self.goods_count(giver) + self.money_count(giver):
                self._offer(Pending(SURRENDER, giver, effect, queue=queue[i + 1 :]))
                return
            self._say(f"seat {giver} has no card to give")

    def _demand(self, witch: int, target: int, kind: Card) -> None:
        if self.hands[target][kind]:
            self._pass(target, witch, kind, public=True)
            self._say(f"seat {witch} names seat {target} and {kind}: seat {target} gives one")
        else:
            self._say(f"seat {witch} names seat {target} and {kind}: seat {target} has none")

    def _test(self, seat: int, effect: Effect) -> None:
        test = effect.test
        assert test is not None  # an "if" effect has its test (checked when the edition loads)
        goods = test.endswith("goods")
        counts = tuple(
            self.goods_count(s) if goods else self.money_count(s) for s in range(self.players)
        )
        mine = counts[seat]
        others = [c for s, c in enumerate(counts) if s != seat]
        if test.startswith("most"):
            passed = all(mine > c for c in others)
        else:
            passed = all(mine <= c for c in others)
        what = "goods" if goods else "money"
        role = self.acting.title if self.acting is not None else "role"
        self.reveal = (role, what, counts)
        shown = ", ".join(f"seat {s} {c}" for s, c in enumerate(counts))
        self._say(f"{role}: everyone reveals how many {what} cards they hold: {shown}")
        branch = effect.then if passed else effect.otherwise
        if branch:
            self.frames.append((branch, 0))

    def _buy(self, p: Pending, good: Card, paid: tuple[Card, ...]) -> None:
        seat = p.seat
        credit = p.credit
        for coin in paid:
            self._lose(seat, coin)
            self.money_discard.append(coin)
            credit += coin.value
        credit -= good.cost
        self._take_from_market(good)
        self._gain(seat, good)
        with_ = f" with {' '.join(names(paid))}" if paid else " from credit"
        left = f" ({credit} credit left)" if credit else ""
        self._say(f"seat {seat} buys {good} for {good.cost}{with_}{left}")
        self._offer(p._replace(done=p.done + 1, credit=credit, owing=False))

    def _pay(self, p: Pending, coin: Card) -> None:
        self._lose(p.seat, coin)
        self.money_discard.append(coin)
        credit = p.credit + coin.value
        self._say(f"seat {p.seat} pays a {coin.value} toward goods ({credit} credit)")
        self._offer(p._replace(credit=credit, owing=True))

    def _change(self, p: Pending, coin: Card) -> None:
        self._take_from_market(coin)
        self._gain(p.seat, coin)
        self._say(f"seat {p.seat} takes {self._card_words(coin)} in change")
        self._offer(p._replace(credit=p.credit - coin.value))

    @staticmethod
    def _card_words(card: Card) -> str:
        return f"a {card.value}" if card.is_money else str(card)
