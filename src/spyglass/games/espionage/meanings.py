"""What cards mean in Espionage: roles (the first card dealt) and played cards."""

from __future__ import annotations

from enum import StrEnum

from spyglass.components.cards import MAX_DECKS, PER_DECK, Card

#: Points needed to end the game, by number of players (before the long/short option).
THRESHOLDS = {3: 240, 4: 160, 5: 300, 6: 240, 7: 180}


class Role(StrEnum):
    SPY = "spy"
    SPY_MASTER = "spy master"
    COUNTER_ESPIONAGE = "counter-espionage agent"
    DOUBLE_AGENT = "double agent"
    CIVILIAN = "innocent civilian"


def role_of(card: Card) -> Role:
    """The role a card deals: red number card spy, red face card spy master, any spade
    counter-espionage agent, club face card double agent, club number card innocent civilian.
    Aces count as number cards (they are not face cards)."""
    if card.suit == "S":
        return Role.COUNTER_ESPIONAGE
    if card.is_red:
        return Role.SPY_MASTER if card.is_face else Role.SPY
    return Role.DOUBLE_AGENT if card.is_face else Role.CIVILIAN


def is_rejection(card: Card) -> bool:
    """An Ace or a 2 of either colour: a rejection, and nothing else."""
    return card.rank in (1, 2)


def is_police(card: Card) -> bool:
    """A black face card or a black 10."""
    return card.is_black and card.rank >= 10


def secret_value(card: Card) -> int:
    """A red card other than an Ace or a 2 is a secret worth its face value (J 11, Q 12,
    K 13); anything else is worth 0 as a secret."""
    return card.rank if card.is_red and card.rank >= 3 else 0


def can_arrest(card: Card, role: Role) -> bool:
    """Whether a counter-espionage agent's police card arrests a player of this role: a black
    face card arrests anyone but another agent; a black 10 cannot arrest a spy master."""
    if not is_police(card) or role is Role.COUNTER_ESPIONAGE:
        return False
    return card.rank > 10 or role is not Role.SPY_MASTER


def round_away(value: float) -> int:
    """Round away from zero (for splitting arrest bonuses and penalties)."""
    whole = int(value)
    if whole == value:
        return whole
    return whole + (1 if value > 0 else -1)


# Hot-path tables by card code (moves are generated and scored on every play).
SECRET = tuple(secret_value(Card(code)) for code in range(PER_DECK * MAX_DECKS))
POLICE = tuple(is_police(Card(code)) for code in range(PER_DECK * MAX_DECKS))
REJECTION = tuple(is_rejection(Card(code)) for code in range(PER_DECK * MAX_DECKS))
