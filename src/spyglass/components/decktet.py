"""The Decktet: 45 cards (the extended deck) in six suits, read from ``decktet.csv``.

The card table is data (name, rank, suits, interpretive types), validated when it is loaded,
with errors that name the file and the line. A :class:`DecktetCard` is an ``int`` (its row in
the table) so that comparing, hashing and sorting cost nothing; instances are interned.

Notation: a card is written by its name without "the", as a slug (``merchant``,
``chance-meeting``, ``ace-of-moons``, ``excuse``); reading also accepts the full name in any
case (``the Merchant``, ``Chance Meeting``) and a short code of rank and suit letters (``9LK``:
the 9 of Leaves and Knots; suit letters M S V L Y K for Moons, Suns, waVes, Leaves, wYrms,
Knots; ranks A 2-9, P pawn, C court, R crown, X the Excuse).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from spyglass.engine import RulesError

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
SUIT_SYMBOLS = {"Moons": "☾", "Suns": "☼", "Waves": "≈", "Leaves": "❦", "Wyrms": "∿", "Knots": "⌘"}
SUIT_LETTERS = {"Moons": "M", "Suns": "S", "Waves": "V", "Leaves": "L", "Wyrms": "Y", "Knots": "K"}
TYPES = ("Personality", "Event", "Location")

#: Payment value of each rank (Excuse 0, Ace 1, numbers, Pawn 10, Court 11, Crown 12).
RANK_VALUES = {
    "Excuse": 0,
    "Ace": 1,
    **{str(n): n for n in range(2, 10)},
    "Pawn": 10,
    "Court": 11,
    "Crown": 12,
}
RANK_CODES = {
    "Excuse": "X",
    "Ace": "A",
    **{str(n): str(n) for n in range(2, 10)},
    "Pawn": "P",
    "Court": "C",
    "Crown": "R",
}
DECK_SIZE = 45
TABLE_FILE = "decktet.csv"


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of the card table."""

    name: str
    rank: str
    suits: tuple[str, ...]
    types: frozenset[str]

    @property
    def value(self) -> int:
        return RANK_VALUES[self.rank]

    @property
    def title(self) -> str:
        """The name without a leading "the": Merchant, Ace of Moons, Excuse."""
        return self.name[4:] if self.name.startswith("the ") else self.name

    @property
    def slug(self) -> str:
        return self.title.lower().replace(" ", "-")

    @property
    def code(self) -> str:
        return RANK_CODES[self.rank] + "".join(SUIT_LETTERS[s] for s in self.suits)

    @property
    def symbols(self) -> str:
        return "".join(SUIT_SYMBOLS[s] for s in self.suits)


def load_table(text: str, source: str = TABLE_FILE) -> tuple[Entry, ...]:
    """Read and check the card table; errors name the file and the line."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [c.strip() for c in rows[0]] != ["name", "rank", "suits", "types"]:
        raise RulesError(f"{source}, line 1: the header must be name,rank,suits,types")
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 4:
            raise RulesError(f"{source}, line {line}: expected 4 fields, found {len(row)}")
        name, rank, suits_text, types_text = (cell.strip() for cell in row)
        if not name:
            raise RulesError(f"{source}, line {line}: the card has no name")
        if name.lower() in seen:
            raise RulesError(
                f"{source}, line {line}: {name!r} already appears on line {seen[name.lower()]}"
            )
        if rank not in RANK_VALUES:
            raise RulesError(f"{source}, line {line}: unknown rank {rank!r} for {name}")
        suits = tuple(s.strip() for s in suits_text.split(";") if s.strip())
        bad = [s for s in suits if s not in SUITS]
        if bad:
            raise RulesError(f"{source}, line {line}: unknown suit {bad[0]!r} for {name}")
        types = frozenset(t.strip() for t in types_text.split(";") if t.strip())
        bad = sorted(types - set(TYPES))
        if bad:
            raise RulesError(f"{source}, line {line}: unknown type {bad[0]!r} for {name}")
        seen[name.lower()] = line
        entries.append(Entry(name, rank, tuple(sorted(suits, key=SUITS.index)), types))
    if len(entries) != DECK_SIZE:
        raise RulesError(f"{source}: the extended deck has {DECK_SIZE} cards, not {len(entries)}")
    codes = [e.code for e in entries]
    if len(set(codes)) != len(codes):
        raise RulesError(f"{source}: two cards share a rank and suits")
    return tuple(entries)


TABLE = load_table(resources.files("spyglass.components").joinpath(TABLE_FILE).read_text("utf-8"))


class DecktetCard(int):
    """One Decktet card (its row in the table). Get one with :func:`parse_decktet` or
    :func:`decktet`."""

    __slots__ = ()

    def __new__(cls, index: int) -> DecktetCard:
        return _CARDS[index]

    @property
    def entry(self) -> Entry:
        return TABLE[self]

    @property
    def name(self) -> str:
        return TABLE[self].name

    @property
    def rank(self) -> str:
        return TABLE[self].rank

    @property
    def value(self) -> int:
        """Payment value: Excuse 0, Ace 1, numbers, Pawn 10, Court 11, Crown 12."""
        return _VALUES[self]

    @property
    def suits(self) -> tuple[str, ...]:
        return TABLE[self].suits

    @property
    def types(self) -> frozenset[str]:
        return TABLE[self].types

    @property
    def code(self) -> str:
        return TABLE[self].code

    @property
    def label(self) -> str:
        """For people: name, rank and suit symbols, e.g. ``Merchant 9❦⌘``."""
        return _LABELS[self]

    def __str__(self) -> str:
        return _SLUGS[self]

    def __repr__(self) -> str:
        return f"DecktetCard({_SLUGS[self]!r})"

    def __reduce__(self) -> tuple[type[DecktetCard], tuple[int]]:
        return (DecktetCard, (int(self),))


_CARDS: list[DecktetCard] = [int.__new__(DecktetCard, i) for i in range(len(TABLE))]
_VALUES = tuple(e.value for e in TABLE)
_SLUGS = tuple(e.slug for e in TABLE)
_LABELS = tuple(
    e.title
    if e.rank == "Excuse"
    else f"{e.title} {e.symbols}"
    if e.rank == "Ace"
    else f"{e.title} {RANK_CODES[e.rank] if e.value < 10 else e.rank} {e.symbols}"
    for e in TABLE
)


def _keys() -> dict[str, DecktetCard]:
    keys: dict[str, DecktetCard] = {}
    for card in _CARDS:
        entry = TABLE[card]
        for key in (entry.slug, entry.title.lower(), entry.name.lower(), entry.code.lower()):
            keys[key] = card
    return keys


_BY_KEY = _keys()


def parse_decktet(token: str | DecktetCard) -> DecktetCard:
    """Read one card: ``merchant``, ``the Merchant``, ``chance-meeting``, ``9LK``, ``Excuse``."""
    if isinstance(token, DecktetCard):
        return token
    if not isinstance(token, str):
        raise RulesError(f"cannot read {token!r} as a Decktet card")
    key = " ".join(token.strip().lower().split())
    card = _BY_KEY.get(key) or _BY_KEY.get(key.replace(" ", "-"))
    if card is None and key[:1].isalnum():
        card = _BY_KEY.get(_canonical_code(key))
    if card is None:
        raise RulesError(
            f"cannot read {token!r} as a Decktet card: write its name (merchant, the Merchant,"
            " chance-meeting) or its code (9LK)"
        )
    return card


def _canonical_code(text: str) -> str:
    """A code with its suit letters in table order, so 9KL reads like 9LK."""
    order = "".join(SUIT_LETTERS[s] for s in SUITS).lower()
    rank, letters = text[:1], text[1:]
    if not all(ch in order for ch in letters):
        return text
    return rank + "".join(sorted(letters, key=order.index))


def decktet(*names: str) -> list[DecktetCard]:
    return [parse_decktet(n) for n in names]


def full_deck() -> list[DecktetCard]:
    """All 45 cards, in table order."""
    return list(_CARDS)


def suit_mask(suits: Iterable[str]) -> int:
    """Suits as a bitmask (bit i for ``SUITS[i]``), for fast matching."""
    mask = 0
    for suit in suits:
        mask |= 1 << SUITS.index(suit)
    return mask


#: Each card's suits as a bitmask, by card.
SUIT_MASKS = tuple(suit_mask(e.suits) for e in TABLE)


def matches(card: DecktetCard, suits: Iterable[str]) -> bool:
    """Whether the card shares a suit with ``suits``."""
    return bool(SUIT_MASKS[card] & suit_mask(suits))


def labels(cards: Iterable[DecktetCard]) -> list[str]:
    """Cards as their labels (the form views use)."""
    return [_LABELS[c] for c in cards]
