"""Words for people: what a move does, why a move is not allowed, and reading typed moves."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from spyglass.engine import Action, RulesError

from . import notation as move
from .cards import Card, names, parse_card
from .draft import DISCARD, PICK
from .perform import (
    ACT_ROLES,
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
    Pending,
)

if TYPE_CHECKING:
    from .rules import TinkerTailorState

#: The kinds of move each decision accepts, and an example of each decision's notation.
EXPECTED = {
    PICK: ({"pick"}, "keep a role card: 'pick tailor'"),
    DISCARD: ({"discard"}, "discard a role card: 'discard thief'"),
    TAKE: ({"take", "done"}, "take from the market: 'take wine' or 'take 3'"),
    EXCHANGE: ({"swap", "done"}, "swap goods with the market: 'swap bread for wine', or 'done'"),
    GIFT: ({"give"}, "give one of the goods taken: 'give wine to 2'"),
    KEEP: ({"keep"}, "keep one of the cards looked at: 'keep wine'"),
    ROB: ({"rob"}, "choose whom to rob: 'rob 2'"),
    SURRENDER: ({"give"}, "give the Jailor a card of your choice: 'give wine' or 'give 3'"),
    SELL: ({"sell", "done"}, "sell goods: 'sell wine', or 'done'"),
    CASH: ({"take", "done"}, "take money for the goods sold: 'take 3', or 'done'"),
    NAME: ({"name"}, "name a player and a kind of goods: 'name 2 gems'"),
    PERFORM: ({"perform"}, "perform a left-over role: 'perform jailor'"),
    BUY: (
        {"buy", "pay", "change", "done"},
        "buy: 'buy wine with 4 1', 'pay 3', 'change 1', or 'done'",
    ),
}


def _role(state: TinkerTailorState) -> str:
    """The role being performed, by name."""
    return state.acting.title if state.acting is not None else "role"


def _words(card: Card) -> str:
    if card.is_money:
        return f"a {card.value}"
    if card.is_goods:
        return f"a {card.title}" if card.title != "Gems" else "a Gems card"
    return f"the {card.title}"


# ---------------------------------------------------------------- describing a legal move


def describe(state: TinkerTailorState, action: Action) -> str:
    p = state.pending
    assert p is not None
    kind = action.kind
    if kind == "pick":
        return _describe_pick(state, action.cards[0])
    if kind == "discard":
        role = action.cards[0]
        back = next(c for c in state.draft.hand() if c != role)
        return (
            f"Discard the {role.title} face down and hand the {back.title} back to seat"
            f" {state.draft.start}."
        )
    if kind == "done":
        return _describe_done(p)
    if kind == "rob":
        what = "goods" if p.effect is not None and p.effect.source == "goods" else "money"
        return f"Take one {what} card at random from seat {action.target}'s hand."
    if not action.cards:
        return str(action)
    card = action.cards[0]
    if kind == "take":
        text = f"Take {_words(card)} from the {card.type} market"
        if p.kind == CASH:
            return text + f" ({p.credit - card.value} of the sale price left after)."
        if p.effect is not None and p.effect.pirate:
            text += "; a pirate card blocks its place until the Pirate is called next round"
        return text + "."
    if kind == "swap":
        give, get = action.cards
        return f"Put your {give.title} in the market in place of its {get.title}, which you take."
    if kind == "give" and p.kind == GIFT:
        return f"Give the {card.title} you took to seat {action.target}; keep the other."
    if kind == "give":
        return f"Give {_words(card)} from your hand to seat {action.target} (the {_role(state)})."
    if kind == "keep":
        return f"Keep the {card.title}; the rest is discarded face up."
    if kind == "sell":
        return (
            f"Discard {_words(card)} (cost {card.cost}): you may then take money worth up to"
            f" {p.credit + card.cost} in all."
        )
    if kind == "name":
        return (
            f"Name seat {action.target} and {card.title}: if they hold any, they must give you one."
        )
    if kind == "perform":
        return f"Perform the left-over {card.title}: {card.role.text}"
    if kind == "buy":
        paid = action.cards[1:]
        total = sum(c.value for c in paid)
        left = p.credit + total - card.cost
        how = f"paying {' '.join(names(paid))}" if paid else "from your credit"
        text = f"Buy {_words(card)} (cost {card.cost}) {how}"
        if left:
            text += f"; {left} credit left for more goods or change from the market"
        return text + "."
    if kind == "pay":
        return (
            f"Pay {_words(card)} toward the next good ({p.credit + card.value} credit): it must"
            " buy a good before you take change or stop; paying more than the good costs gives"
            " bigger change from the money market."
        )
    if kind == "change":
        return (
            f"Take {_words(card)} from the money market as change"
            f" ({p.credit - card.value} credit left)."
        )
    return str(action)


def _describe_pick(state: TinkerTailorState, role: Card) -> str:
    draft = state.draft
    text = f"Keep the {role.title} ({role.role.text})"
    m, n = len(draft.choices), draft.players
    rest = len(draft.hand()) - 1
    if n == 2:
        other = 1 - draft.start
        tail = {
            0: f" and hand the other {rest} to seat {other}",
            1: "; then discard one of the other two and hand the last back",
            3: f" and hand the other {rest} to seat {other}",
            4: "; the other two are discarded face down",
        }[m]
    elif m == n - 1:
        tail = "; the other two go back face down"
    else:
        tail = f" and pass the other {rest} to seat {(draft.start + m + 1) % n}"
    return text + tail + "."


def _describe_done(p: Pending) -> str:
    if p.kind == TAKE:
        return "Take nothing more."
    if p.kind == EXCHANGE:
        return "Stop exchanging goods."
    if p.kind == SELL:
        return f"Stop selling; then take money worth up to {p.credit}."
    if p.kind == CASH:
        return f"Take no more money ({p.credit} of the sale price is lost)."
    lost = f" ({p.credit} of credit is lost)" if p.credit else ""
    return f"Stop buying{lost}."


# ---------------------------------------------------------------- why a move is not allowed


def why_illegal(state: TinkerTailorState, action: Action) -> str:
    p = state.pending
    if p is None:
        return "no decision is waiting"
    kinds, example = EXPECTED.get(p.kind, (set(), "decide"))
    cards = action.cards
    if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
        return "a move's cards are Tinker Tailor cards (wine, 3, tailor, ...)"
    if action.kind not in kinds:
        return f"seat {p.seat} must now {example}"
    if action.kind == "done":
        if p.kind == TAKE:
            return "this role's takes are not optional: take a card"
        if p.kind == BUY and (p.owing or (p.credit and not p.done)):
            return "money paid must buy goods: buy one with it before you stop"
        return f"seat {p.seat} must now {example}"
    target = action.target
    if action.kind in ("rob", "name") or (action.kind == "give" and p.kind == GIFT):
        if isinstance(target, bool) or not isinstance(target, int):
            return "name a seat by its number"
        if not 0 <= target < state.players:
            return f"there is no seat {target}"
        if target == p.seat:
            return "you must choose another player"
    if len(cards) != (2 if action.kind == "swap" else 1) and action.kind != "buy":
        return f"seat {p.seat} must now {example}"
    if not cards:
        return f"seat {p.seat} must now {example}"
    card = cards[0]
    reason = _card_reason(state, p, action, card)
    return reason or "it is not one of the legal moves in this position"


def _card_reason(state: TinkerTailorState, p: Pending, action: Action, card: Card) -> str:
    kind = action.kind
    hand = state.hands[p.seat]
    if kind in ("pick", "discard", "perform") and not card.is_role:
        return f"{card} is not a role card"
    if kind in ("pick", "discard"):
        return f"the {card.title} is not among the role cards you are choosing from"
    if kind == "perform":
        if card in ACT_ROLES:
            return "a role that performs left-over roles cannot itself be performed that way"
        return f"the {card.title} is not one of the role cards left over this round"
    if kind == "take":
        return _take_reason(state, p, card)
    if kind == "swap":
        give, get = action.cards
        if not (give.is_goods and get.is_goods):
            return f"the {_role(state)} swaps goods for goods"
        if not hand[give]:
            return f"you hold no {give}"
        if give == get:
            return "swap for a different kind of goods"
        return f"there is no {get} in the goods market"
    if kind == "give" and p.kind == GIFT:
        if card not in state.taken:
            return f"you give one of the goods you just took ({' '.join(names(state.taken))})"
        recipients = state._gift_recipients(p)
        return f"the gift goes to seat {recipients[0]}, who holds the {p.running.to}"
    if kind == "give":
        if card.is_role or not hand[card]:
            return f"you hold no {card}"
        return f"the card goes to seat {state.performer}, the {_role(state)}"
    if kind == "keep":
        return f"{card} is not among the cards you looked at"
    if kind == "sell":
        if not card.is_goods:
            return f"the {_role(state)} sells goods"
        if not hand[card]:
            return f"you hold no {card}"
        return f"you may sell at most {p.running.count} goods"
    if kind == "name":
        return "name a kind of goods: bread, fish, cloth, wine or gems"
    if kind == "buy":
        return _buy_reason(state, p, action)
    if kind == "pay":
        if not card.is_money:
            return "pay with a money card"
        if not hand[card]:
            return f"you hold no {card}"
        return "you cannot afford any goods in the market"
    if kind == "change":
        if not card.is_money:
            return "change is a money card"
        if not p.done or p.owing:
            return (
                "change is only the excess of money paid over the goods it bought: the money"
                " paid since your last purchase must buy a good first"
            )
        if card.value > p.credit:
            return f"change may not exceed your credit ({p.credit})"
        return f"there is no {card} in the money market"
    return ""


def _take_reason(state: TinkerTailorState, p: Pending, card: Card) -> str:
    if p.kind == CASH:
        if not card.is_money:
            return f"the {_role(state)} takes money for the goods sold"
        if card.value > p.credit:
            return f"the money taken may be worth at most {p.credit} more"
        return f"there is no {card} in the money market"
    effect = p.running
    role = state.acting.title if state.acting is not None else "this role"
    if card.is_role:
        return f"{card} is a role card, not in the market"
    if effect.source == "goods" and not card.is_goods:
        return f"the {role} takes goods"
    if effect.source == "money" and not card.is_money:
        return f"the {role} takes money"
    if effect.max_cost is not None and card.is_goods and card.cost > effect.max_cost:
        return f"the {role} takes goods costing {effect.max_cost} or less"
    if effect.values and card.is_money and card.value not in effect.values:
        allowed = " or ".join(str(v) for v in effect.values)
        return f"the {role} takes money of value {allowed}"
    return f"there is no {card} in the {card.type} market (a pirate card blocks no card)"


def _buy_reason(state: TinkerTailorState, p: Pending, action: Action) -> str:
    good, paid = action.cards[0], action.cards[1:]
    hand = state.hands[p.seat]
    if not good.is_goods or not all(c.is_money for c in paid):
        return "buy a goods card with money cards: 'buy wine with 4 1'"
    if good not in state.market_cards(state.goods_market):
        return f"there is no {good} in the goods market"
    for coin, count in Counter(paid).items():
        if hand[coin] < count:
            return (
                f"you do not hold {'that many ' + str(coin) + 's' if count > 1 else _words(coin)}"
            )
    total = p.credit + sum(c.value for c in paid)
    if total < good.cost:
        return f"{good} costs {good.cost}: you pay {total} with your credit"
    return (
        "a purchase names only the cards it needs; to pay more (for change), 'pay' the extra"
        " cards first, then 'buy' from the credit"
    )


# ---------------------------------------------------------------- reading typed moves


def parse(state: TinkerTailorState, text: str) -> Action | None:
    """A typed move in any reasonable form, or None if it cannot be read at all."""
    key = move.canonical(text)
    legal = state.legal_actions()
    for action in legal:
        if move.canonical(str(action)) == key:
            return action
    tokens = key.split()
    if not tokens:
        return None
    try:
        return _build(state, tokens)
    except (RulesError, ValueError, IndexError):
        return None


def _build(state: TinkerTailorState, tokens: list[str]) -> Action | None:
    head, rest = tokens[0], tokens[1:]
    if head == "done" and not rest:
        return move.DONE
    one = ("pick", "discard", "take", "keep", "sell", "perform", "pay", "change")
    if head in one and len(rest) == 1:
        card = parse_card(rest[0])
        return {
            "pick": move.pick,
            "discard": move.discard,
            "take": move.take,
            "keep": move.keep,
            "sell": move.sell,
            "perform": move.perform,
            "pay": move.pay,
            "change": move.change,
        }[head](card)
    if head == "swap" and len(rest) == 3 and rest[1] == "for":
        return move.swap(parse_card(rest[0]), parse_card(rest[2]))
    if head == "give" and len(rest) == 3 and rest[1] == "to":
        return move.give_to(parse_card(rest[0]), int(rest[2]))
    if head == "give" and len(rest) == 1:
        receiver = state.performer if state.performer is not None else -1
        return move.hand_over(parse_card(rest[0]), receiver)
    if head == "rob" and len(rest) == 1:
        return move.rob(int(rest[0]))
    if head == "name" and len(rest) == 2:
        return move.name(int(rest[0]), parse_card(rest[1]))
    if head == "buy" and rest:
        good = parse_card(rest[0])
        if len(rest) == 1:
            return move.buy(good, ())
        if rest[1] != "with":
            return None
        paid = tuple(sorted((parse_card(t) for t in rest[2:]), reverse=True))
        return move.buy(good, paid)
    return None
