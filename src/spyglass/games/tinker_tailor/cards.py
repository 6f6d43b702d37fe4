"""The cards of Tinker Tailor as small interned ints, built from the edition.

Codes: the goods kinds first (in the edition's order), then the money values (ascending), then
the role cards in rhyme order. Cards of one kind (or one value) are identical, so a hand is a
vector of counts indexed by code, and the deck contents hold repeated cards.

Notation: goods by kind (``bread``, ``fish``, ``cloth``, ``wine``, ``gems``; ``gem`` and any
case also read), money by value (``1`` .. ``5``; ``$3`` also reads), roles by name as one word
(``tinker``, ``rich-man``, ``beggar-man``; ``Rich Man`` also reads).
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Sequence

from spyglass.engine import RulesError

from .edition import EDITION, KINDS, Role

GOODS = "goods"
MONEY = "money"
ROLE = "role"


class Card(int):
    """One card: a goods card of a kind, a money card of a value, or a role card."""

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        return CARDS[code]

    @property
    def type(self) -> str:
        return TYPES[self]

    @property
    def is_goods(self) -> bool:
        return self < MONEY_START

    @property
    def is_money(self) -> bool:
        return MONEY_START <= self < ROLE_START

    @property
    def is_role(self) -> bool:
        return self >= ROLE_START

    @property
    def cost(self) -> int:
        """A goods card's buying cost (0 for other cards)."""
        return COSTS[self]

    @property
    def value(self) -> int:
        """A money card's face value (0 for other cards)."""
        return VALUES[self]

    @property
    def role(self) -> Role:
        return EDITION.roles[self - ROLE_START]

    @property
    def index(self) -> int:
        """Position within its type: the kind, the money value's rank, the rhyme position."""
        if self < MONEY_START:
            return int(self)
        if self < ROLE_START:
            return self - MONEY_START
        return self - ROLE_START

    @property
    def title(self) -> str:
        """For people: Wine, 3 coins, Rich Man."""
        return TITLES[self]

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return f"Card({NAMES[self]!r})"

    # builtins.type: the class's own ``type`` property would shadow it in this annotation
    def __reduce__(self) -> tuple[builtins.type[Card], tuple[int]]:
        return (Card, (int(self),))


GOODS_COUNT = len(EDITION.goods)
MONEY_START = GOODS_COUNT
ROLE_START = MONEY_START + len(EDITION.money)
CODES = ROLE_START + len(EDITION.roles)
#: Hands count goods and money by code: this many counters.
HAND_SIZE = ROLE_START

CARDS: tuple[Card, ...] = tuple(int.__new__(Card, code) for code in range(CODES))
GOODS_CARDS: tuple[Card, ...] = CARDS[:MONEY_START]
MONEY_CARDS: tuple[Card, ...] = CARDS[MONEY_START:ROLE_START]
ROLE_CARDS: tuple[Card, ...] = CARDS[ROLE_START:]

NAMES = tuple(
    [g.kind.lower() for g in EDITION.goods]
    + [str(m.value) for m in EDITION.money]
    + [r.slug for r in EDITION.roles]
)
TITLES = tuple(
    [g.kind for g in EDITION.goods]
    + [f"{m.value} coin{'s' if m.value != 1 else ''}" for m in EDITION.money]
    + [r.name for r in EDITION.roles]
)
TYPES = tuple([GOODS] * GOODS_COUNT + [MONEY] * len(EDITION.money) + [ROLE] * len(EDITION.roles))
COSTS = tuple([g.cost for g in EDITION.goods] + [0] * (CODES - GOODS_COUNT))
VALUES = tuple([0] * GOODS_COUNT + [m.value for m in EDITION.money] + [0] * len(EDITION.roles))
#: Goods by name, in the order ties are broken (most Gems first, then Wine, ...).
TIE_BREAK: tuple[Card, ...] = tuple(
    GOODS_CARDS[[g.kind for g in EDITION.goods].index(kind)] for kind in reversed(KINDS)
)


def _keys() -> dict[str, Card]:
    keys: dict[str, Card] = {}
    for card in CARDS:
        name = NAMES[card]
        keys[name] = card
        keys[TITLES[card].lower()] = card
        if card.is_goods:
            keys[name.rstrip("s")] = card  # gem, breads
            keys[name + "s"] = card
        elif card.is_money:
            keys["$" + name] = card
        else:
            keys[name.replace("-", "")] = card
            keys[name.replace("-", "_")] = card
    return keys


_BY_KEY = _keys()


def parse_card(token: str | Card) -> Card:
    """Read one card: ``wine``, ``Gems``, ``3``, ``$3``, ``rich-man``, ``Rich Man``."""
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise RulesError(f"cannot read {token!r} as a Tinker Tailor card")
    key = " ".join(token.strip().lower().split())
    card = _BY_KEY.get(key) or _BY_KEY.get(key.replace(" ", "-"))
    if card is None:
        raise RulesError(
            f"cannot read {token!r} as a Tinker Tailor card: goods by kind (wine), money by"
            " value (3), roles by name (rich-man)"
        )
    return card


def role_card(name: str) -> Card:
    """The role card of a role named in the edition."""
    return parse_card(name)


def names(cards: Iterable[Card]) -> list[str]:
    return [NAMES[c] for c in cards]


def expand(counts: Sequence[int]) -> list[Card]:
    """A hand's counts as its cards, in code order."""
    cards: list[Card] = []
    for code, n in enumerate(counts):
        if n:
            cards.extend([CARDS[code]] * n)
    return cards


def goods_deck() -> list[Card]:
    return [GOODS_CARDS[i] for i, g in enumerate(EDITION.goods) for _ in range(g.cards)]


def money_deck() -> list[Card]:
    return [MONEY_CARDS[i] for i, m in enumerate(EDITION.money) for _ in range(m.cards)]


def role_deck() -> list[Card]:
    return list(ROLE_CARDS)
