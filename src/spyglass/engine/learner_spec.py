"""What a game declares so that learning libraries can use it: its action universe and the
parts of a seat's view that make up a fixed-shape numeric observation.

A game's ``encoding`` hook (``GameSpec.encoding``) returns an :class:`Encoding` for its options
and player count. The declaration is data only; ``spyglass.adapters.tensors`` turns it into
action indices and float vectors. Everything is keyed by card *notation* (``str(card)``), so
that two copies of one card (a multi-deck game) are counted together, as a seat sees them.

Paths name a place in ``view["table"]``: dot-separated keys, with whole numbers indexing lists
(``"ranks.0.members"``, ``"board.cells.2.3"``). Every feature may carry a ``name`` for people
(docs/rl.md shows it where the path says little, as in a list item's ``"0"``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Any

# ---------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class ActionKind:
    """Every action of one kind: each card tuple in ``cards`` with each target in ``targets``.

    ``ordered`` is how many leading cards keep their place; the cards after them are matched as
    a multiset (their order in the game's own action does not matter), so ``cards`` lists each
    such tuple once, in any order. ``by_target`` says the cards follow from the target in any
    state (the card on top of the place aimed at, say): the index then ignores them.
    """

    kind: str
    cards: tuple[tuple[str, ...], ...] = ((),)
    targets: tuple[Any, ...] = (None,)
    ordered: int = 0
    by_target: bool = False


def singles(cards: Iterable[object]) -> tuple[tuple[str, ...], ...]:
    """Each card (or notation: cards count by ``str``) alone, each once."""
    return tuple((c,) for c in unique(cards))


def sets_of(cards: Iterable[object], sizes: Iterable[int]) -> tuple[tuple[str, ...], ...]:
    """Every set of distinct cards of each size (no card twice)."""
    pool = unique(cards)
    return tuple(t for k in sizes for t in combinations(pool, k))


def multisets_of(cards: Iterable[object], sizes: Iterable[int]) -> tuple[tuple[str, ...], ...]:
    """Every multiset of each size (a card may appear several times: copies of one notation)."""
    pool = unique(cards)
    return tuple(t for k in sizes for t in combinations_with_replacement(pool, k))


def pairs_of(cards: Iterable[object]) -> tuple[tuple[str, ...], ...]:
    """Every ordered pair of different cards."""
    pool = unique(cards)
    return tuple((a, b) for a in pool for b in pool if a != b)


def unique(cards: Iterable[object]) -> tuple[str, ...]:
    """Notations (``str`` of each card) in first-seen order, each once."""
    return tuple(dict.fromkeys(str(c) for c in cards))


def grid_names(columns: str, rows: Iterable[int]) -> tuple[str, ...]:
    """Space names like "A1", column letter first, row-major (A1 B1 C1 A2 ...)."""
    return tuple(f"{c}{r}" for r in rows for c in columns)


# ---------------------------------------------------------------------- observation features


@dataclass(frozen=True, slots=True)
class Zone:
    """Cards at ``path``: one count per vocabulary card, then the face-down cards (None, or a
    pile's unseen cards under its top), then anything else written there (a marker). A string
    that is not a card counts the cards it names ("1:J♦" counts J♦; "seat 2" is never a card),
    or one marker if it names none. ``most`` is the most times one card can be counted there
    (by default the copies of it in the game: a text naming the same card again counts it
    again, as a list of the hands one has seen does)."""

    path: str
    most: float | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class Number:
    """A number at ``path`` divided by ``scale``: a bool is 0/1, a string gives its first whole
    number ("2 of 3" is 2), None or a missing path gives 0. ``bounds`` is the range of the
    divided value (the observation space's bounds; the conformance suite checks them)."""

    path: str
    scale: float = 1.0
    bounds: tuple[float, float] = (0.0, 1.0)
    name: str = ""


@dataclass(frozen=True, slots=True)
class Category:
    """One of ``values`` at ``path``, one-hot (all zero when absent). With ``prefix``, a string
    matches the first value it starts with ("spy (5♦)" is "spy"); with ``contains``, the first
    value it contains ("Merchant: seat 0 may sell goods" is "may sell goods")."""

    path: str
    values: tuple[Any, ...]
    prefix: bool = False
    contains: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class Tally:
    """How many items of the list at ``path`` equal each of ``values``, divided by ``scale``
    (the suit chips among the cards of a row, say)."""

    path: str
    values: tuple[str, ...]
    scale: float = 1.0
    name: str = ""


@dataclass(frozen=True, slots=True)
class Each:
    """The first ``capacity`` items of the list at ``path``, each encoded by ``features`` whose
    paths are relative to the item ("" is the item itself); missing items are all zero."""

    path: str
    capacity: int
    features: tuple[Feature, ...]
    name: str = ""


@dataclass(frozen=True, slots=True)
class Keys:
    """A dict at ``path`` with the given keys, each value encoded by ``features`` relative to it
    (e.g. one pile per grid space, keyed by the space's name)."""

    path: str
    keys: tuple[str, ...]
    features: tuple[Feature, ...]
    name: str = ""


@dataclass(frozen=True, slots=True)
class Labelled:
    """A text at ``path`` made of parts split by the regular expression ``separator``, each
    starting with a label ("seat 1 holds at least 1 2; seat 2 holds at least 5"): per label, 1
    if a part has it, then ``features`` applied to the rest of that part (path "")."""

    path: str
    separator: str
    labels: tuple[str, ...]
    features: tuple[Feature, ...]
    name: str = ""


Feature = Zone | Number | Category | Tally | Each | Keys | Labelled


def grid_zones(path: str, rows: int, columns: int) -> Each:
    """A ``grid`` region of fixed size: one zone per cell, row by row."""
    return Each(f"{path}.cells", rows, (Each("", columns, (Zone(""),)),))


@dataclass(frozen=True, slots=True)
class Scoring:
    """The range of the scores a finished game gives, so that a reward built from them keeps
    every loss below every win (``spyglass.adapters.rewards``).

    Solo games: ``won`` and ``lost`` are the lowest and highest rulebook score (``Result.score``)
    of a won and of a lost game, None where the rulebook gives that outcome no score; whether
    lower is better is the game's ``score_order``. Multiplayer games: ``points`` is the range of
    one seat's points (``Result.scores``). A score outside its range counts as the nearest end.
    """

    won: tuple[float, float] | None = None
    lost: tuple[float, float] | None = None
    points: tuple[float, float] | None = None
    text: str = ""  # what the score counts, for people (docs/rl.md)


@dataclass(frozen=True, slots=True)
class Encoding:
    """A game's declaration for one set of options and one player count.

    ``cards``: the card vocabulary (notations, each once; include cards that can appear though
    no deck holds them). ``actions``: the action universe, kind by kind; an action's index is
    its position in this universe. ``observation``: the features of ``view["table"]``.
    ``scoring``: the range of the game's scores (for score rewards). ``observer``: optionally, a
    faster way to the same observation (:data:`Observer`).
    """

    cards: tuple[str, ...]
    actions: tuple[ActionKind, ...]
    observation: tuple[Feature, ...]
    scoring: Scoring = Scoring()
    observer: ObserverFactory | None = None


EncodingHook = Callable[[Mapping[str, Any], int], Encoding]

#: A game's fast observation: given the finished encoder (which knows every feature's offset),
#: returns ``observe(state, seat, out)`` that writes into ``out`` (zeros on entry) exactly the
#: features the encoder would write for ``state.view(seat)["table"]``, reading the state
#: directly. Tests hold it equal to the encoding of the view at every step of many playouts.
ObserverFactory = Callable[[Any], Callable[[Any, int, Any], None]]


def vocabulary(decks: Mapping[str, Sequence[Any]], *extra: Any) -> tuple[str, ...]:
    """The notations of every card of every deck, in deck order, each once, then ``extra``."""
    return unique([*(c for cards in decks.values() for c in cards), *extra])
