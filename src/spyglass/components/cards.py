"""The standard deck: 52 cards, up to two jokers, several decks shuffled together.

A :class:`Card` is an ``int`` (so comparing, hashing and sorting cost nothing) whose value
encodes deck index, suit and rank: ``deck * 54 + suit * 13 + rank - 1`` for the 52 suited
cards and ``deck * 54 + 52 / 53`` for the two jokers. Instances are interned.

Notation: rank (A 2-10 J Q K, also T or 1) then suit, as a letter (S H C D) or a symbol
(♠ ♥ ♣ ♦); jokers are ``JK`` and ``JK2``; a card of a second or later deck carries ``#n``
(``7♠#2``). Printing uses the suit symbols.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import overload

from spyglass.engine import RulesError

SUITS = ("S", "H", "C", "D")  # alternating colours, so sorted hands read well
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
RED_SUITS = frozenset({"H", "D"})
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAMES = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}
PER_DECK = 54
MAX_DECKS = 8

_SUIT_OF_TEXT = {
    "s": "S",
    "♠": "S",
    "♤": "S",
    "h": "H",
    "♥": "H",
    "♡": "H",
    "c": "C",
    "♣": "C",
    "♧": "C",
    "d": "D",
    "♦": "D",
    "♢": "D",
}
_RANK_OF_TEXT = {"a": 1, "1": 1, "t": 10, "10": 10, "j": 11, "q": 12, "k": 13}
_RANK_OF_TEXT.update({str(n): n for n in range(2, 10)})
_CARD_RE = re.compile(r"^(10|[2-9]|[1ajqkt])([shcd♠♤♥♡♣♧♦♢])(?:#(\d+))?$", re.IGNORECASE)
_JOKER_RE = re.compile(r"^(?:jk|joker|🃏)([12])?(?:#(\d+))?$", re.IGNORECASE)


class Card(int):
    """One physical card. Use :meth:`of`, :meth:`joker` or :func:`parse_card` to get one."""

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        return _CARDS[code]

    @classmethod
    def of(cls, rank: int, suit: str, deck: int = 0) -> Card:
        if not 1 <= rank <= 13 or suit not in SUITS or not 0 <= deck < MAX_DECKS:
            raise RulesError(f"no such card: rank {rank!r}, suit {suit!r}, deck {deck!r}")
        return _CARDS[deck * PER_DECK + SUITS.index(suit) * 13 + rank - 1]

    @classmethod
    def joker(cls, number: int = 1, deck: int = 0) -> Card:
        if number not in (1, 2) or not 0 <= deck < MAX_DECKS:
            raise RulesError(f"no such joker: number {number!r}, deck {deck!r}")
        return _CARDS[deck * PER_DECK + 51 + number]

    @property
    def deck(self) -> int:
        return self // PER_DECK

    @property
    def is_joker(self) -> bool:
        return self % PER_DECK >= 52

    @property
    def rank(self) -> int:
        """1 (Ace) to 13 (King); 0 for a joker."""
        local = self % PER_DECK
        return 0 if local >= 52 else local % 13 + 1

    @property
    def suit(self) -> str | None:
        local = self % PER_DECK
        return None if local >= 52 else SUITS[local // 13]

    @property
    def colour(self) -> str | None:
        suit = self.suit
        if suit is None:
            return None
        return "red" if suit in RED_SUITS else "black"

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def is_black(self) -> bool:
        suit = self.suit
        return suit is not None and suit not in RED_SUITS

    @property
    def is_face(self) -> bool:
        return self.rank >= 11

    @property
    def symbol(self) -> str:
        suit = self.suit
        return "" if suit is None else SUIT_SYMBOLS[suit]

    @property
    def rank_label(self) -> str:
        rank = self.rank
        return RANK_LABELS.get(rank, str(rank))

    @property
    def ascii(self) -> str:
        """The notation with suit letters (``10H``), for places that cannot show symbols."""
        return _text(self, symbols=False)

    @property
    def name(self) -> str:
        if self.is_joker:
            return "Joker" if self % PER_DECK == 52 else "second Joker"
        rank = self.rank
        return f"{RANK_NAMES.get(rank, str(rank))} of {SUIT_NAMES[self.suit or 'S']}"

    def __str__(self) -> str:
        return _STR[self]

    def __repr__(self) -> str:
        return f"Card({_STR[self]!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


def _text(card: int, symbols: bool) -> str:
    local = card % PER_DECK
    deck = card // PER_DECK
    suffix = f"#{deck + 1}" if deck else ""
    if local >= 52:
        return ("JK" if local == 52 else "JK2") + suffix
    suit = SUITS[local // 13]
    rank = local % 13 + 1
    return RANK_LABELS.get(rank, str(rank)) + (SUIT_SYMBOLS[suit] if symbols else suit) + suffix


_CARDS: list[Card] = [int.__new__(Card, code) for code in range(MAX_DECKS * PER_DECK)]
_STR: list[str] = [_text(code, symbols=True) for code in range(MAX_DECKS * PER_DECK)]


def parse_card(token: str | Card) -> Card:
    """Read one card: ``10H``, ``10♥``, ``qs``, ``A♣``, ``JK``, ``JK2``, ``7♠#2`` (a Card is
    returned as it is)."""
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise RulesError(f"cannot read {token!r} as a card: give its notation, like 10H or Q♠")
    text = token.strip()
    match = _CARD_RE.match(text)
    if match:
        rank = _RANK_OF_TEXT[match.group(1).lower()]
        suit = _SUIT_OF_TEXT[match.group(2).lower()]
        return Card.of(rank, suit, _deck_index(match.group(3), token))
    match = _JOKER_RE.match(text)
    if match:
        return Card.joker(int(match.group(1) or 1), _deck_index(match.group(2), token))
    raise RulesError(
        f"cannot read {token!r} as a card: write the rank then the suit, like 10H, QS, A♣,"
        " or JK for a joker"
    )


def _deck_index(text: str | None, token: str) -> int:
    if text is None:
        return 0
    number = int(text)
    if not 1 <= number <= MAX_DECKS:
        raise RulesError(f"cannot read {token!r} as a card: deck #{number} does not exist")
    return number - 1


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Read several cards, from one string (spaces or commas between) or an iterable."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else text
    return [parse_card(t) for t in tokens]


def standard_deck(jokers: int = 0, decks: int = 1) -> list[Card]:
    """``decks`` full 52-card decks, each with ``jokers`` (0–2) jokers, in a fixed order."""
    if jokers not in (0, 1, 2):
        raise RulesError(f"a deck has 0, 1 or 2 jokers, not {jokers!r}")
    if not 1 <= decks <= MAX_DECKS:
        raise RulesError(f"between 1 and {MAX_DECKS} decks, not {decks!r}")
    cards: list[Card] = []
    for deck in range(decks):
        base = deck * PER_DECK
        cards.extend(_CARDS[base : base + 52 + jokers])
    return cards


def stacked(top: str | Iterable[str | Card], contents: Sequence[Card]) -> list[Card]:
    """A full deck order: the ``top`` cards first, then the rest of ``contents`` in order.

    For tests and puzzles that only care about the first cards dealt.
    """
    head = parse_cards(top)
    twice = [c for i, c in enumerate(head) if c in head[:i]]
    if twice:
        raise RulesError(f"stacked(): {twice[0]} appears twice in the top cards")
    pool = set(contents)
    foreign = [c for c in head if c not in pool]
    if foreign:
        raise RulesError(f"stacked(): {foreign[0]} is not in this deck")
    chosen = set(head)
    return head + [c for c in contents if c not in chosen]


def by_rank(card: Card) -> tuple[int, int, int]:
    """Sort key: rank, then suit, then deck (jokers last)."""
    local = card % PER_DECK
    if local >= 52:
        return (14, local, card // PER_DECK)
    return (local % 13, local // 13, card // PER_DECK)


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join([_STR[c] for c in cards])


@overload
def card_list(cards: Iterable[Card]) -> list[str]: ...
@overload
def card_list(cards: Iterable[Card | None]) -> list[str | None]: ...
def card_list(cards: Iterable[Card | None]) -> list[str] | list[str | None]:
    """Cards as their notations (the form views use); None, a face-down card, stays None."""
    return [None if c is None else _STR[c] for c in cards]
