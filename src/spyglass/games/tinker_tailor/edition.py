"""The card data of Tinker Tailor, read from ``edition.toml`` and checked when it is loaded.

The rulebook does not print the cards, so the game ships a reconstructed edition (see the data
file). Every number and every role effect comes from that file; a person holding the printed
cards can edit it. The loader holds the file to every fact the rulebook itself fixes (the 17
roles named and ordered as the rhyme calls them, 4 Pirate cards, money of values 1 to 5, Wine
costing 4, the chart points the rulebook quotes, 10 for a full collection) and accepts any value
of what the rulebook leaves open. Errors name the file, the line and the entry
("edition.toml line 94 (roles entry 5, Rich Man), effect 2: ...").
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise
from typing import Any

from spyglass.engine import RulesError
from spyglass.engine.datafile import with_line

EDITION_FILE = "edition.toml"
#: Facts of the rulebook that any edition must keep.
KINDS = ("Bread", "Fish", "Cloth", "Wine", "Gems")
GOODS_CARDS = 78
MONEY_CARDS = 20
ROLE_CARDS = 17
CHART_LENGTH = 8  # the charts stop at 8 cards of a kind
#: The roles, as the rhyme card calls them in order.
RHYME = (
    "Tinker", "Tailor", "Soldier", "Sailor", "Rich Man", "Poor Man", "Beggar Man", "Thief",
    "Preacher", "Pirate", "Outlaw", "Jailor", "Old Man", "Young Man", "Merchant", "Witch",
    "Actor",
)  # fmt: skip
PIRATE_CARDS = 4
MONEY_VALUES = (1, 2, 3, 4, 5)  # "divided into 1, 2, 3, 4 & 5 Coins"
COLLECTION_POINTS = 10
#: Costs and chart points the rulebook quotes: kind -> (cost or None, {cards: points}).
QUOTED: dict[str, tuple[int | None, dict[int, int]]] = {
    "Wine": (4, {}),  # the buying example: a Wine card costs 4
    "Bread": (None, {3: 3, 8: 18}),  # three Bread are worth 3 points, eight 18
    "Gems": (None, {8: 90}),  # eight Gems are worth 90
}

TESTS = ("most_money", "fewest_money", "most_goods", "fewest_goods")
SOURCES = ("goods", "money", "any")
#: Each effect's parameters and their defaults (see the data file's header).
PARAMETERS: dict[str, dict[str, Any]] = {
    "take": {
        "from": "goods",
        "count": 1,
        "optional": False,
        "max_cost": None,
        "values": (),
        "pirate": False,
    },
    "gift": {"count": 1, "to": None},
    "draw": {"count": 1},
    "look": {"count": 2, "keep": 1},
    "exchange": {"count": 1},
    "steal": {"from": "goods"},
    "collect": {"from_roles": ()},
    "sell": {"count": 1},
    "demand": {},
    "act": {},
    "if": {"test": None, "then": (), "else": ()},
}


@dataclass(frozen=True, slots=True)
class Goods:
    kind: str
    cards: int
    cost: int
    points: tuple[int, ...]  # points for 1..8 cards


@dataclass(frozen=True, slots=True)
class Money:
    value: int
    cards: int


@dataclass(frozen=True, slots=True)
class Effect:
    """One step of a role: ``op`` from the vocabulary, with its parameters."""

    op: str
    source: str = "goods"  # take, steal: goods, money or any
    count: int = 1
    optional: bool = False
    max_cost: int | None = None
    values: tuple[int, ...] = ()
    pirate: bool = False
    keep: int = 1
    to: str | None = None  # gift: the receiving role
    from_roles: tuple[str, ...] = ()
    test: str | None = None
    then: tuple[Effect, ...] = ()
    otherwise: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Role:
    name: str
    text: str
    effects: tuple[Effect, ...]

    @property
    def slug(self) -> str:
        return self.name.lower().replace(" ", "-")


@dataclass(frozen=True, slots=True)
class Edition:
    label: str
    goods: tuple[Goods, ...]
    money: tuple[Money, ...]
    pirate_cards: int
    collection_points: int
    roles: tuple[Role, ...]


def load_edition(text: str, source: str = EDITION_FILE) -> Edition:
    """Read and check an edition; every error names the file, the line and the entry."""
    try:
        return _load(text, source)
    except RulesError as error:
        raise with_line(error, text) from None


def _load(text: str, source: str) -> Edition:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{source}: not valid TOML ({error})") from None
    known = {"edition", "pirate_cards", "collection_points", "goods", "money", "roles"}
    _no_unknown(data, known, source)
    label = data.get("edition")
    if not isinstance(label, str) or not label.strip():
        raise RulesError(f"{source}: 'edition' must name the edition (a non-empty string)")
    pirates = _count(data.get("pirate_cards"), f"{source}: pirate_cards", minimum=0)
    if pirates != PIRATE_CARDS:
        raise RulesError(
            f"{source}: pirate_cards must be {PIRATE_CARDS} (the rulebook's contents: 4 Pirate"
            f" Cards), not {pirates}"
        )
    collection = _count(data.get("collection_points"), f"{source}: collection_points", minimum=0)
    if collection != COLLECTION_POINTS:
        raise RulesError(
            f"{source}: collection_points must be {COLLECTION_POINTS} (the rulebook: every"
            f" complete collection of the five goods is worth 10), not {collection}"
        )
    goods = _goods(data.get("goods"), source)
    money = _money(data.get("money"), source)
    roles = _roles(data.get("roles"), source)
    return Edition(label.strip(), goods, money, pirates, collection, roles)


def _goods(entries: Any, source: str) -> tuple[Goods, ...]:
    if not isinstance(entries, list):
        raise RulesError(f"{source}: [[goods]] entries are missing")
    goods: list[Goods] = []
    for i, entry in enumerate(entries, start=1):
        where = f"{source}, goods entry {i}"
        if not isinstance(entry, dict):
            raise RulesError(f"{where}: must be a table")
        _no_unknown(entry, {"kind", "cards", "cost", "points"}, where)
        kind = entry.get("kind")
        if kind not in KINDS:
            raise RulesError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
        where = f"{where} ({kind})"
        if any(g.kind == kind for g in goods):
            raise RulesError(f"{where}: {kind} is listed twice")
        cards = _count(entry.get("cards"), f"{where}: cards", minimum=1)
        cost = _count(entry.get("cost"), f"{where}: cost", minimum=1)
        points = entry.get("points")
        if (
            not isinstance(points, list)
            or len(points) != CHART_LENGTH
            or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in points)
        ):
            raise RulesError(
                f"{where}: points must list {CHART_LENGTH} whole numbers (for 1 to 8 cards)"
            )
        if any(b < a for a, b in pairwise(points)):
            raise RulesError(f"{where}: points must not fall as the set grows")
        quoted_cost, quoted_points = QUOTED.get(kind, (None, {}))
        if quoted_cost is not None and cost != quoted_cost:
            raise RulesError(
                f"{where}: cost must be {quoted_cost} (the rulebook's buying example:"
                f" {kind} costs {quoted_cost}), not {cost}"
            )
        for held, value in quoted_points.items():
            if points[held - 1] != value:
                raise RulesError(
                    f"{where}: points must give {held} {kind} {value} points, as the rulebook"
                    f" says, not {points[held - 1]}"
                )
        goods.append(Goods(kind, cards, cost, tuple(points)))
    missing = [k for k in KINDS if all(g.kind != k for g in goods)]
    if missing:
        raise RulesError(f"{source}: no goods entry for {', '.join(missing)}")
    total = sum(g.cards for g in goods)
    if total != GOODS_CARDS:
        raise RulesError(f"{source}: the goods entries hold {total} cards; the game has 78")
    return tuple(goods)


def _money(entries: Any, source: str) -> tuple[Money, ...]:
    if not isinstance(entries, list):
        raise RulesError(f"{source}: [[money]] entries are missing")
    money: list[Money] = []
    for i, entry in enumerate(entries, start=1):
        where = f"{source}, money entry {i}"
        if not isinstance(entry, dict):
            raise RulesError(f"{where}: must be a table")
        _no_unknown(entry, {"value", "cards"}, where)
        value = _count(entry.get("value"), f"{where}: value", minimum=1)
        if value not in MONEY_VALUES:
            raise RulesError(
                f"{where}: value must be 1 to 5 (the rulebook's coins are 1, 2, 3, 4 and 5),"
                f" not {value}"
            )
        where = f"{where} (value {value})"
        if any(m.value == value for m in money):
            raise RulesError(f"{where}: value {value} is listed twice")
        money.append(Money(value, _count(entry.get("cards"), f"{where}: cards", minimum=1)))
    missing = [v for v in MONEY_VALUES if all(m.value != v for m in money)]
    if missing:
        raise RulesError(
            f"{source}: money must have cards of every value 1 to 5 (the rulebook's coins);"
            f" none of value {', '.join(map(str, missing))}"
        )
    total = sum(m.cards for m in money)
    if total != MONEY_CARDS:
        raise RulesError(f"{source}: the money entries hold {total} cards; the game has 20")
    return tuple(sorted(money, key=lambda m: m.value))


def _roles(entries: Any, source: str) -> tuple[Role, ...]:
    if not isinstance(entries, list) or len(entries) != ROLE_CARDS:
        count = len(entries) if isinstance(entries, list) else 0
        raise RulesError(f"{source}: the game has {ROLE_CARDS} roles, found {count}")
    names: list[str] = []
    for i, entry in enumerate(entries, start=1):
        where = f"{source}, roles entry {i}"
        if not isinstance(entry, dict):
            raise RulesError(f"{where}: must be a table")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RulesError(f"{where}: the role has no name")
        if name.strip().lower() in (n.lower() for n in names):
            raise RulesError(f"{where} ({name}): the name is already used")
        if name.strip() != RHYME[i - 1]:
            raise RulesError(
                f"{where} ({name}): name must be {RHYME[i - 1]}, the role the rhyme calls here"
                f" (the roles are the rulebook's, named and in the rhyme's order:"
                f" {', '.join(RHYME)})"
            )
        names.append(name.strip())
    roles = []
    for i, (entry, name) in enumerate(zip(entries, names, strict=True), start=1):
        where = f"{source}, roles entry {i} ({name})"
        _no_unknown(entry, {"name", "text", "effects"}, where)
        text = entry.get("text")
        if not isinstance(text, str) or not text.strip():
            raise RulesError(f"{where}: the role has no text")
        effects = _effects(entry.get("effects"), where, names, depth=0)
        if not effects:
            raise RulesError(f"{where}: the role has no effects")
        roles.append(Role(name, text.strip(), effects))
    return tuple(roles)


def _effects(entries: Any, where: str, names: list[str], depth: int) -> tuple[Effect, ...]:
    if not isinstance(entries, list | tuple):
        raise RulesError(f"{where}: effects must be a list of tables")
    effects = []
    for i, entry in enumerate(entries, start=1):
        here = f"{where}, effect {i}" if depth == 0 else f"{where}.{i}"
        if not isinstance(entry, dict):
            raise RulesError(f'{here}: an effect is a table such as {{ do = "take" }}')
        op = entry.get("do")
        if op not in PARAMETERS:
            raise RulesError(
                f"{here}: unknown effect {op!r} (known: {', '.join(sorted(PARAMETERS))})"
            )
        _no_unknown(entry, {"do", *PARAMETERS[op]}, here)
        effects.append(_effect(op, entry, here, names, depth))
    return tuple(effects)


def _effect(op: str, entry: dict[str, Any], here: str, names: list[str], depth: int) -> Effect:
    params = {**PARAMETERS[op], **entry}
    count = _count(params.get("count", 1), f"{here}: count", minimum=1)
    source = params.get("from", "goods")
    if source not in SOURCES or (op == "steal" and source == "any"):
        allowed = "goods or money" if op == "steal" else "goods, money or any"
        raise RulesError(f"{here}: 'from' must be {allowed}, not {source!r}")
    if op == "take":
        max_cost = params["max_cost"]
        if max_cost is not None:
            max_cost = _count(max_cost, f"{here}: max_cost", minimum=1)
        values = params["values"]
        if not isinstance(values, list | tuple) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values
        ):
            raise RulesError(f"{here}: values must be a list of money values")
        for flag in ("optional", "pirate"):
            if not isinstance(params[flag], bool):
                raise RulesError(f"{here}: {flag} must be true or false")
        return Effect(
            op,
            source=source,
            count=count,
            optional=params["optional"],
            max_cost=max_cost,
            values=tuple(sorted(set(values))),
            pirate=params["pirate"],
        )
    if op == "gift":
        to = params["to"]
        if to not in names:
            raise RulesError(f"{here}: 'to' must name a role of this edition, not {to!r}")
        return Effect(op, count=count, to=to)
    if op == "look":
        keep = _count(params["keep"], f"{here}: keep", minimum=1)
        if keep > count:
            raise RulesError(f"{here}: cannot keep more cards than are looked at")
        return Effect(op, count=count, keep=keep)
    if op == "collect":
        roles = params["from_roles"]
        if not isinstance(roles, list) or not roles or any(r not in names for r in roles):
            raise RulesError(f"{here}: from_roles must list roles of this edition")
        return Effect(op, from_roles=tuple(roles))
    if op == "if":
        test = params["test"]
        if test not in TESTS:
            raise RulesError(f"{here}: test must be one of {', '.join(TESTS)}, not {test!r}")
        if depth >= 2:
            raise RulesError(f"{here}: conditions nest at most two deep")
        then = _effects(params["then"], f"{here} then", names, depth + 1)
        otherwise = _effects(params["else"], f"{here} else", names, depth + 1)
        return Effect(op, test=test, then=then, otherwise=otherwise)
    return Effect(op, source=source, count=count)


def _count(value: Any, where: str, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RulesError(f"{where} must be a whole number of at least {minimum}, not {value!r}")
    return value


def _no_unknown(table: dict[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise RulesError(f"{where}: unknown key {unknown[0]!r}")


EDITION = load_edition(
    resources.files(__package__).joinpath(EDITION_FILE).read_text("utf-8"), EDITION_FILE
)
