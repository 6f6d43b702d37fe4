"""The moves of Tinker Tailor as Actions, and reading what people type.

Notation (cards as words and numbers, seats as numbers):

- draft: ``pick tailor``; two players, the second player's discard: ``discard thief``
- taking from the market: ``take wine``, ``take 3``; ``done`` ends an "up to" choice
- Tinker: ``swap bread for wine``; Sailor: ``keep wine``; Merchant: ``sell wine``
- Preacher: ``give wine to 2``; Jailor (the giver chooses): ``give wine``, ``give 3``
- Thief, Outlaw: ``rob 2``; Witch: ``name 2 wine``; Actor: ``perform jailor``
- buying: ``buy wine with 4 1`` (the money cards paid), ``buy bread`` (from credit),
  ``pay 3`` (a money card paid toward purchases beyond what they need, for change),
  ``change 2`` (a money card taken as change), ``done``
"""

from __future__ import annotations

from functools import cache

from spyglass.engine import Action, RulesError

from .cards import ROLE_CARDS, Card, parse_card
from .edition import EDITION

DONE = Action("done", (), None, "done")


@cache
def pick(role: Card) -> Action:
    return Action("pick", (role,), None, f"pick {role}")


@cache
def discard(role: Card) -> Action:
    return Action("discard", (role,), None, f"discard {role}")


@cache
def take(card: Card) -> Action:
    return Action("take", (card,), None, f"take {card}")


@cache
def swap(give: Card, get: Card) -> Action:
    return Action("swap", (give, get), None, f"swap {give} for {get}")


@cache
def give_to(card: Card, seat: int) -> Action:
    return Action("give", (card,), seat, f"give {card} to {seat}")


@cache
def hand_over(card: Card, seat: int) -> Action:
    """The Jailor's due: the giver chooses the card; the receiver is the performer."""
    return Action("give", (card,), seat, f"give {card}")


@cache
def keep(card: Card) -> Action:
    return Action("keep", (card,), None, f"keep {card}")


@cache
def rob(seat: int) -> Action:
    return Action("rob", (), seat, f"rob {seat}")


@cache
def sell(card: Card) -> Action:
    return Action("sell", (card,), None, f"sell {card}")


@cache
def name(seat: int, kind: Card) -> Action:
    return Action("name", (kind,), seat, f"name {seat} {kind}")


@cache
def perform(role: Card) -> Action:
    return Action("perform", (role,), None, f"perform {role}")


@cache
def buy(good: Card, paid: tuple[Card, ...]) -> Action:
    text = f"buy {good}" + (f" with {' '.join(str(m) for m in paid)}" if paid else "")
    return Action("buy", (good, *paid), None, text)


@cache
def pay(money: Card) -> Action:
    return Action("pay", (money,), None, f"pay {money}")


@cache
def change(money: Card) -> Action:
    return Action("change", (money,), None, f"change {money}")


# Role names of several words are written joined ("rich man" -> "rich-man").
_PHRASES = sorted(
    ((r.name.lower(), str(ROLE_CARDS[i])) for i, r in enumerate(EDITION.roles) if " " in r.name),
    key=lambda p: -len(p[0]),
)


def canonical(text: str) -> str:
    """A normal form of typed notation: lower case, role names joined, filler words dropped,
    card words in their notation ("Gem" -> "gems"), payments sorted highest first."""
    words = " ".join(text.lower().replace(",", " ").replace("+", " ").split())
    for phrase, slug in _PHRASES:
        words = words.replace(phrase, slug)
    tokens = [w for w in words.split() if w not in ("seat", "the", "a", "an", "and")]
    out = []
    for token in tokens:
        try:
            out.append(str(parse_card(token)))
        except RulesError:  # not a card: a keyword or a seat, kept as typed
            out.append(token)
    if len(out) >= 4 and out[0] == "buy" and out[2] == "with":
        paid = sorted(out[3:], key=lambda t: (not t.isdigit(), -int(t) if t.isdigit() else 0))
        out = out[:3] + paid
    if len(out) == 3 and out[0] == "name" and not out[1].isdigit() and out[2].isdigit():
        out = [out[0], out[2], out[1]]  # "name wine 2"
    if len(out) == 3 and out[0] == "give" and out[1].isdigit() is False and out[2].isdigit():
        out = [out[0], out[1], "to", out[2]]  # "give wine 2"
    return " ".join(out)
