"""Actions as indices and views as float vectors: the machinery every adapter shares.

A game declares its action universe and observation features (``engine/learner_spec.py``); this
module turns the declaration into a :class:`GameEncoding` for one game, option set and player
count. Indices and vector layouts depend only on that triple, never on a state.

Observation layout (float32), in order:

- the header: one-hot of the observing seat (``players`` values), one-hot of the seat to move
  (all zero once the game is over), 1 if it is the observer's turn, 1 once the game is over, and
  the number of actions taken so far divided by the game's length bound;
- each declared feature of ``view["table"]`` in turn: a ``Zone`` is one count per vocabulary
  card, then face-down cards, then other marks; a ``Number`` one value; a ``Category`` one-hot;
  ``Each`` and ``Keys`` repeat their features per item.

Everything is read from ``state.view(seat)``: the observation holds exactly what that seat may
see.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np

import spyglass
from spyglass.engine import Action, Game, RulesError, State
from spyglass.engine.learner_spec import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Feature,
    Keys,
    Labelled,
    Number,
    Scoring,
    Tally,
    Zone,
)

from .incremental import (
    Entries,
    Group,
    Incremental,
    Items,
    Kept,
    Lists,
    Memo,
    Part,
    Reader,
    remembered,
)

ActionKey = tuple[str, tuple[str, ...], Any]
_INT = re.compile(r"-?\d+")
_SEATS = re.compile(r"\bseats? \d+")  # "seat 2" names a seat, never a card
_TOKENS = re.compile(r"[\s():,;→]+")
_MISSING = object()
_INT8 = np.dtype(np.int8)
_FIELDS = attrgetter("kind", "cards", "target")  # what Action's equality compares

#: What a direct observer writes into: a float32 memoryview of a zeroed vector (``out[i] = x``
#: and slices), or the vector itself. (Typeshed's memoryview holds ints unless told its item
#: type; ``memoryview[float]`` is not subscriptable at run time before Python 3.12.)
if TYPE_CHECKING:
    Out: TypeAlias = memoryview[float] | np.ndarray
else:
    Out = memoryview | np.ndarray


class EncodingError(ValueError):
    """A game's encoding does not cover something a state produced (a declaration bug)."""


@dataclass(frozen=True, slots=True)
class _Slot:
    """One declared feature: where it starts in the vector and how wide it is."""

    feature: Feature
    offset: int
    width: int


class GameEncoding:
    """The action-index mapping and observation encoder of one game, options and player count.

    ``strict`` makes encoding raise :class:`EncodingError` when a view holds more list items than
    a feature's capacity or a value outside a category (the conformance suite uses it); by
    default such surplus is dropped.
    """

    def __init__(self, game: Game, players: int | None = None, *, strict: bool = False) -> None:
        hook = game.spec.encoding
        if hook is None:
            raise RulesError(f"{game.info.title} declares no encoding for learning libraries")
        self.game = game
        self.players = game.check_players(players)
        self.strict = strict
        self.declaration: Encoding = hook(game.options, self.players)
        self.cards: tuple[str, ...] = self.declaration.cards
        self._card_index = {c: i for i, c in enumerate(self.cards)}
        copies = Counter(
            str(c) for cards in game.deck_contents(self.players).values() for c in cards
        )
        self._copies = [float(max(1, copies[c])) for c in self.cards]
        self._names: dict[Any, str] = {}  # card object -> notation
        # Card objects -> vocabulary index, for direct observers (objects equal by value).
        self.card_slots: dict[Any, int] = {
            c: self._card_index[str(c)]
            for cards in game.deck_contents(self.players).values()
            for c in cards
            if str(c) in self._card_index
        }
        self._total = float(max(sum(copies.values()), len(self.cards)))
        self._aliases = self._card_aliases()
        self.max_length = game.max_actions(self.players)
        self._length = max(1, self.max_length)
        self._build_actions()
        self._build_observation()

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its game rather than copied: it holds compiled closures, and vector
        # environments in other processes receive it pickled.
        options = tuple(sorted(self.game.options.items()))
        return (_rebuild, (self.game.info.id, options, self.players, self.strict))

    # ------------------------------------------------------------------ actions

    def _build_actions(self) -> None:
        keys: list[ActionKey] = []
        self._ordered: dict[str, int] = {}
        self._by_target: set[str] = set()
        for kind in self.declaration.actions:
            if kind.kind in self._ordered:
                raise EncodingError(
                    f"{self.game.info.id}: action kind {kind.kind!r} declared twice"
                )
            self._ordered[kind.kind] = kind.ordered
            if kind.by_target:
                self._by_target.add(kind.kind)
            for cards in ((),) if kind.by_target else kind.cards:
                norm = self._normalize(kind, cards)
                keys.extend((kind.kind, norm, target) for target in kind.targets)
        self._keys = keys
        self._index = {key: i for i, key in enumerate(keys)}
        # (kind, cards, target) -> index: what Action's equality compares, as a plain tuple
        # (hashed in C, where the dataclass's __hash__ and __eq__ are Python calls).
        self._by_fields: dict[tuple[str, tuple[Any, ...], Any], int] = {}
        # Action object id -> index, for the objects in _alive: holding them keeps their ids
        # from being reused by other objects while they are in the table.
        self._by_id: dict[int, int] = {}
        self._alive: list[Action] = []
        if len(self._index) != len(keys):
            raise EncodingError(f"{self.game.info.id}: the action universe repeats an action")

    def _normalize(self, kind: ActionKind | str, cards: Iterable[Any]) -> tuple[str, ...]:
        ordered = kind.ordered if isinstance(kind, ActionKind) else self._ordered.get(kind, 0)
        names = self._names
        # str() of a card object is cached: actions are indexed by the thousand.
        named = tuple(names.get(c) or names.setdefault(c, str(c)) for c in cards)
        rest = sorted(named[ordered:], key=lambda c: self._card_index.get(c, len(self.cards)))
        return named[:ordered] + tuple(rest)

    @property
    def num_actions(self) -> int:
        """How many distinct actions the game has (``num_distinct_actions``)."""
        return len(self._keys)

    @property
    def num_distinct_actions(self) -> int:
        """OpenSpiel's name for :attr:`num_actions`."""
        return len(self._keys)

    def key(self, action: Action) -> ActionKey:
        if action.kind in self._by_target:
            return (action.kind, (), action.target)
        return (action.kind, self._normalize(action.kind, action.cards), action.target)

    def index(self, action: Action) -> int:
        """The index of an action (EncodingError if the declaration misses it)."""
        # Games hand out the same Action objects again: identity is the cheapest key.
        known = self._by_id.get(id(action))
        if known is not None:
            return known
        if action.kind in self._by_target:
            # The cards follow from the target: (kind, target) names the index, whatever
            # cards the action carries (Boba Tea's targets meet new neighbours every game).
            found = self._index.get((action.kind, (), action.target))
            if found is not None:
                self._remember(action, found)
                return found
        fields = _FIELDS(action)
        found = self._by_fields.get(fields)
        if found is not None:
            self._remember(action, found)
            return found
        try:
            found = self._index[self.key(action)]
        except KeyError:
            raise EncodingError(
                f"{self.game.info.id}: action {action} ({self.key(action)!r}) is not in the"
                " declared action universe"
            ) from None
        if len(self._by_fields) < 1 << 16:
            self._by_fields[fields] = found
        self._remember(action, found)
        return found

    def _remember(self, action: Action, index: int) -> None:
        by_id = self._by_id
        if len(by_id) >= 1 << 16:
            by_id.clear()  # old objects may be gone: start afresh
            self._alive.clear()
        by_id[id(action)] = index
        self._alive.append(action)

    def describe_index(self, index: int) -> ActionKey:
        """The action an index stands for, as (kind, card notations, target)."""
        if not 0 <= index < len(self._keys):
            raise EncodingError(f"{self.game.info.id}: no action index {index}")
        return self._keys[index]

    def legal_indices(self, state: State) -> dict[int, Action]:
        """The legal actions of ``state`` by index, in index order."""
        return dict(sorted(self.legal_map(state).items()))

    def legal_map(self, state: State) -> dict[int, Action]:
        """The legal actions of ``state`` by index, in the game's own order: what the adapters
        look up at every step (:meth:`legal_indices` sorts it)."""
        # The state's cached list, read only and never handed out: a copy per step is what
        # this hot path was measured to cost most (docs/rl.md, issue 30).
        legal = state._legal_list()  # noqa: SLF001
        # The common case in C: every action object has been seen before (games that hand
        # out the same objects again). A key None (an action not met before by identity) or
        # fewer keys than actions (None twice, or two actions on one index) take the long way.
        # (Not strict: both iterables come from one list.)
        found = dict(zip(map(self._by_id.get, map(id, legal)), legal, strict=False))
        if None in found or len(found) != len(legal):
            return self._legal_map_by_value(legal)
        return found  # type: ignore[return-value]  # no key None: checked above

    def _legal_map_by_value(self, legal: list[Action]) -> dict[int, Action]:
        """:meth:`legal_map` when some action is not known by identity: only those pay for a
        lookup by value (a game that caches its actions meets a new one now and then: one
        per step in some); index() remembers each by identity, so the next step finds it in
        the C pass of legal_map."""
        # Every action met before by value, found in C: a game that meets many action
        # objects for the first time (Skyway's memo gives nine new ones per new blueprint)
        # pays no Python call per action when their values are known. They are remembered by
        # identity as index() would do.
        fields = list(map(self._by_fields.get, map(_FIELDS, legal)))
        if None not in fields:
            indices = cast(list[int], fields)
            by_fields = dict(zip(indices, legal, strict=True))
            if len(by_fields) != len(legal):
                raise EncodingError(f"{self.game.info.id}: two legal actions share one index")
            if len(self._by_id) + len(legal) > 1 << 16:
                self._by_id.clear()  # old objects may be gone: start afresh
                self._alive.clear()
            self._by_id.update(zip(map(id, legal), indices, strict=True))
            self._alive += legal
            return by_fields
        by_id, index = self._by_id, self.index
        seen = [by_id.get(id(a)) for a in legal]
        seen = [i if i is not None else index(a) for i, a in zip(seen, legal, strict=True)]
        found = dict(zip(cast(list[int], seen), legal, strict=True))
        if len(found) != len(legal):
            raise EncodingError(f"{self.game.info.id}: two legal actions share one index")
        return found

    def action(self, state: State, index: int) -> Action:
        """The legal action of ``state`` with this index (RulesError if it is not legal)."""
        action = self.legal_indices(state).get(index)
        if action is not None:
            return action
        kind, cards, target = (
            self.describe_index(index) if 0 <= index < self.num_actions else ("?",) * 3
        )
        raise RulesError(f"action index {index} ({kind} {cards} {target}) is not legal here")

    def mask(self, legal: Collection[int]) -> np.ndarray:
        """The int8 mask with a 1 at each index of ``legal``."""
        size = self.num_actions
        if len(legal) < 64 and size <= 1 << 15:
            # A store per entry into a bytearray (cheaper than into a numpy array or a
            # memoryview of one), which the array then wraps, writable, without a copy.
            entries = bytearray(size)
            for i in legal:
                entries[i] = 1
            return np.frombuffer(entries, _INT8)
        out = np.zeros(size, _INT8)
        if len(legal) < 16:  # a store per entry beats building an index array
            stores = memoryview(out)  # type: ignore[arg-type]  # as in observe(); half a numpy store
            for i in legal:
                stores[i] = 1
        else:
            out[np.fromiter(legal, np.intp, len(legal))] = 1
        return out

    # ------------------------------------------------------------------ observation

    def _build_observation(self) -> None:
        n = self.players
        self.header_size = 2 * n + 3
        # The header's entries: seats to move from n, my turn, over, progress.
        self._header_at = (n, 2 * n + 1, 2 * n, 2 * n + 2)
        offset = self.header_size
        slots, writers = [], []
        for feature in self.declaration.observation:
            width, write = self._compile(feature)
            slots.append(_Slot(feature, offset, width))
            writers.append((offset, write))
            offset += width
        self._slots = tuple(slots)
        self._writers = tuple(writers)
        self.observation_size = offset
        self._named: dict[str, tuple[int, ...]] = {}  # text -> the cards it names
        low, high = [0.0] * self.header_size, [1.0] * self.header_size
        for feature in self.declaration.observation:
            lo, hi = self._bounds(feature)
            low += lo
            high += hi
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)
        # What a kept vector's header is cleared with (the seats to move, my turn, over).
        self._header_zeros = memoryview(np.zeros(n + 2, np.float32))  # type: ignore[arg-type]
        factory = self.declaration.observer
        self._direct = None if factory is None else factory(self)
        # An observer that hands out whole vectors (header included) rather than writing
        # into a fresh one: its bound observe, called straight at every step.
        self._whole: Callable[[State, int], np.ndarray] | None = (
            self._direct.observe if isinstance(self._direct, Incremental | Kept) else None
        )

    def _bounds(self, feature: Feature) -> tuple[list[float], list[float]]:
        """The lowest and highest value of each entry of a feature."""
        if isinstance(feature, Zone):
            # A card is counted once per copy in the game; face-down cards and marks (chips,
            # markers) are fewer than the cards of the whole game.
            copies = self._copies if feature.most is None else [feature.most] * len(self.cards)
            return [0.0] * (len(self.cards) + 2), [*copies, self._total, self._total]
        if isinstance(feature, Number):
            return [feature.bounds[0]], [feature.bounds[1]]
        if isinstance(feature, Category):
            return [0.0] * len(feature.values), [1.0] * len(feature.values)
        if isinstance(feature, Tally):
            most = self._total / feature.scale
            return [0.0] * len(feature.values), [most] * len(feature.values)
        low: list[float] = [0.0] if isinstance(feature, Labelled) else []
        high: list[float] = [1.0] if isinstance(feature, Labelled) else []
        for child in feature.features:
            lo, hi = self._bounds(child)
            low += lo
            high += hi
        repeat = (
            feature.capacity
            if isinstance(feature, Each)
            else len(feature.keys)
            if isinstance(feature, Keys)
            else len(feature.labels)
        )
        return low * repeat, high * repeat

    # ------------------------------------------------------------------ for direct observers

    def at(self, path: str) -> int:
        """The offset of the top-level feature at ``path`` (or with that name)."""
        for slot in self._slots:
            if path in (slot.feature.path, slot.feature.name):
                return slot.offset
        raise EncodingError(f"{self.game.info.id}: no observation feature at {path!r}")

    def card_slot(self, card: Any) -> int:
        """The vocabulary index of a card object (its notation's place)."""
        found = self.card_slots.get(card)
        if found is None:
            found = self.card_slots[card] = self._card_index[str(card)]
        return found

    # Direct observers write into ``out``, a float32 memoryview of the fresh vector: a store
    # through it costs half what a numpy scalar store does, and a Python loop of such stores
    # beats a numpy fancy-index call up to some dozens of entries (numpy's fixed cost per call,
    # and its slow conversion of ``Card`` objects, an int subclass, into an index array).

    @staticmethod
    def put_ones(out: Out, indices: Iterable[int]) -> None:
        """Set the entries at ``indices`` to 1."""
        for i in indices:
            out[i] = 1.0

    def put_cards(self, out: Out, start: int, cards: Iterable[Any]) -> None:
        """Set the entry of each card of ``cards`` in the zone at ``start`` to 1 (what
        ``put_ones`` does with ``start + card_slot(card)`` for each); a card outside the
        vocabulary raises EncodingError rather than landing on a wrong entry."""
        self._set_cards(out, start, cards, 1.0)

    def clear_cards(self, out: Out, start: int, cards: Iterable[Any]) -> None:
        """Set the entry of each card of ``cards`` in the zone at ``start`` to 0 (the
        opposite of :meth:`put_cards`, for kept vectors)."""
        self._set_cards(out, start, cards, 0.0)

    def _set_cards(self, out: Out, start: int, cards: Iterable[Any], value: float) -> None:
        """Set each card's entry in the zone at ``start`` to ``value``; the slow path names
        the card outside the vocabulary."""
        slot = self.card_slots
        try:
            for c in cards:
                out[start + slot[c]] = value
        except KeyError:
            for c in cards:
                out[start + self._known_slot(c)] = value

    # Kept observers (``GameEncoding.kept``) bring a table's vector up to date from what it
    # was written from: these compare in C and write only what changed.

    @staticmethod
    def switch(out: Out, was: int, now: int) -> int:
        """Move a one-hot entry from ``was`` to ``now`` (-1: none); returns ``now``."""
        if was != now:
            if was >= 0:
                out[was] = 0.0
            if now >= 0:
                out[now] = 1.0
        return now

    def keep_cards(self, out: Out, start: int, cards: list[Any], kept: list[Any]) -> None:
        """Bring the zone at ``start``, written (as :meth:`put_cards` writes, one entry set
        to 1 per card: the cards of such a zone are distinct) from ``kept``, to ``cards``,
        and ``kept`` with it (a copy of ``cards``; the caller's own list, never the state's).
        A list that lost cards at its end, or gained some there, has only those written; any
        other change writes the zone's cards afresh. Both are lists (a tuple never equals a
        list)."""
        done, now = len(kept), len(cards)
        slot = self.card_slots
        try:
            if now < done:
                if cards == kept[:now]:  # lost its end: drawn from the top, say
                    for c in kept[now:]:
                        out[start + slot[c]] = 0.0
                    del kept[now:]
                    return
            elif now > done:
                if cards[:done] == kept:  # gained at its end: a pile growing
                    for c in cards[done:]:
                        out[start + slot[c]] = 1.0
                    kept += cards[done:]
                    return
            elif cards == kept:
                return
            for c in kept:
                out[start + slot[c]] = 0.0
            for c in cards:
                out[start + slot[c]] = 1.0
        except KeyError:  # a card not in card_slots yet (or outside the vocabulary)
            self.clear_cards(out, start, kept)
            self.put_cards(out, start, cards)
        kept[:] = cards

    def _known_slot(self, card: Any) -> int:
        try:
            return self.card_slot(card)
        except KeyError:
            raise EncodingError(
                f"{self.game.info.id}: card {card!r} is not in the encoding's vocabulary"
            ) from None

    @staticmethod
    def put_values(out: Out, values: dict[int, float]) -> None:
        """Set each entry of ``values`` (entry -> value)."""
        for i, value in values.items():
            out[i] = value

    def span(self, path: str) -> tuple[int, int]:
        """The entries of the top-level feature at ``path`` (or with that name): (start, stop)."""
        for slot in self._slots:
            if path in (slot.feature.path, slot.feature.name):
                return slot.offset, slot.offset + slot.width
        raise EncodingError(f"{self.game.info.id}: no observation feature at {path!r}")

    def part(
        self, read: Reader, write: Callable[[Any], Entries], *spans: str | tuple[int, int]
    ) -> Part:
        """A part of an :meth:`incremental` observer: ``write(read(state, seat))`` gives the
        entries of ``spans`` (feature paths, or (start, stop) ranges of entries)."""
        owned: list[tuple[int, int]] = []
        for span in spans:
            if isinstance(span, str):
                found = self._spans(span)
                if not found:
                    raise EncodingError(f"{self.game.info.id}: no observation feature at {span!r}")
                owned += found
            else:
                owned.append(span)
        return Part(read, write, tuple(dict.fromkeys(owned)))

    def _spans(self, path: str) -> list[tuple[int, int]]:
        """The entries of every top-level feature at ``path`` or with that name (a text may be
        read by two features: its cards and its labelled parts)."""
        return [
            (slot.offset, slot.offset + slot.width)
            for slot in self._slots
            if path in (slot.feature.path, slot.feature.name)
        ]

    def items(
        self,
        path: str,
        read: Reader,
        write: Callable[[Any], Entries],
        *,
        width: int | None = None,
    ) -> Items:
        """A part over the ``Each`` or ``Keys`` feature at ``path``: ``read(state, seat)``
        gives its items in order, ``write(item)`` an item's entries from the item's start;
        with ``width``, each item owns only its first ``width`` entries (another part writes
        the rest)."""
        feature = self.feature_at(path)
        if not isinstance(feature, Each | Keys):
            raise EncodingError(f"{self.game.info.id}: {path!r} is no list of items")
        start, stop = self.span(path)
        count = feature.capacity if isinstance(feature, Each) else len(feature.keys)
        return self.items_at(start, (stop - start) // count, count, read, write, width=width)

    @staticmethod
    def group(read: Reader, *parts: Part) -> Group:
        """One part made of ``parts`` read together (see ``adapters.incremental.Group``):
        ``read(state, seat)`` gives the value of each part's own read, in their order (a
        test should hold them equal: the observer calls ``read`` alone)."""
        return Group(read, parts)

    def lists(self, read: Reader, *lists: tuple[str, Callable[[Any], Entries]]) -> Lists:
        """One part over several ``Each`` or ``Keys`` features whose items depend on the same
        reads (see ``adapters.incremental.Lists``): ``read(state, seat)`` gives a tuple of
        items per ``(path, write)`` of ``lists``, in their order; ``write(item)`` gives an
        item's entries from the item's start, as for :meth:`items`."""
        return Lists(
            read,
            tuple(self.items(path, _nth(read, j), write) for j, (path, write) in enumerate(lists)),
        )

    @staticmethod
    def remembered(write: Callable[[Any], Entries]) -> Callable[[Any], Entries]:
        """``adapters.incremental.remembered``: a writer whose entries are kept by value (for
        writers that build a piece of the table for the generic writers)."""
        return remembered(write)

    def items_at(
        self,
        start: int,
        stride: int,
        capacity: int,
        read: Reader,
        write: Callable[[Any], Entries],
        *,
        width: int | None = None,
    ) -> Items:
        """As :meth:`items`, for ``capacity`` items every ``stride`` entries from ``start``
        (the cells of a grid, row by row, say)."""
        bases = tuple(range(start, start + stride * capacity, stride))
        if width is None or width == stride:
            spans: tuple[tuple[int, int], ...] = ((start, start + stride * capacity),)
        else:
            spans = tuple((base, base + width) for base in bases)
        return Items(read, write, bases, spans)

    def table_writer(self, *paths: str) -> Callable[[dict[str, Any]], dict[int, float]]:
        """The entries of the top-level features at ``paths`` (or with those names), written
        by the encoder's own writers from a table holding them: for parts that build a small
        piece of a view's table (the same way the view does) and let the encoder encode it."""
        writers = [
            (slot.offset, write)
            for slot, (_, write) in zip(self._slots, self._writers, strict=True)
            if slot.feature.path in paths or slot.feature.name in paths
        ]
        missing = [p for p in paths if not self._spans(p)]
        if missing:
            raise EncodingError(f"{self.game.info.id}: no observation feature at {missing}")

        def write(table: dict[str, Any]) -> dict[int, float]:
            out: defaultdict[int, float] = defaultdict(float)
            for offset, writer in writers:
                writer(table, out, offset)
            return out

        return write

    def item_writer(self, path: str) -> Callable[[Any], dict[int, float]]:
        """``write(item)``: the entries of one item of the ``Each`` or ``Keys`` feature at
        ``path`` (an item as the view lists it), counted from the item's first entry, written
        by the encoder's own writers (for :meth:`items`)."""
        feature = self.feature_at(path)
        if not isinstance(feature, Each | Keys):
            raise EncodingError(f"{self.game.info.id}: {path!r} is no list of items")
        children, inner = [], 0
        for child in feature.features:
            width, writer = self._compile(child)
            children.append((inner, writer))
            inner += width

        def write(item: Any) -> dict[int, float]:
            out: defaultdict[int, float] = defaultdict(float)
            for offset, writer in children:
                writer(item, out, offset)
            return out

        return write

    def incremental(self, *parts: Part | Items | Group | Lists) -> Incremental:
        """An observer made of ``parts`` that together write every feature (see
        ``adapters.incremental``): kept per table and seat, and rewritten part by part; the
        header is written at every observation (its progress changes at every step)."""
        return Incremental(
            self.game.info.id,
            self.observation_size,
            self.header_size,
            parts,
            self.strict,
            put_header=self._put_header,
        )

    def kept(
        self, fresh: Callable[[], Memo], update: Callable[[Any, int, Memo, Out], None]
    ) -> Kept[Memo]:
        """An observer that keeps each table's vector and updates it itself (see
        ``adapters.incremental.Kept``): ``update(state, seat, memo, out)`` rewrites what
        changed since it wrote ``out`` from what ``memo`` holds (``fresh()`` at first); the
        header is written here."""
        return Kept(self.game.info.id, self.observation_size, fresh, update, self._put_header)

    def _put_header(self, state: State, seat: int, out: Out, kept: bool = True) -> None:
        """The header's entries, in a kept vector (the seats to move, my turn and over are
        cleared first; the observing seat's entry is the same for ever: it is kept per seat)
        or, with ``kept`` False, in a fresh one (all zero)."""
        n, over, turn, progress = self._header_at
        if kept:
            out[n:progress] = self._header_zeros
        out[seat] = 1.0
        mover = state.current_player
        if mover is None:
            out[over] = 1.0
        else:
            out[n + mover] = 1.0
            if mover == seat:
                out[turn] = 1.0
        out[progress] = state._step / self._length  # noqa: SLF001 - the step property's field

    def declaration_paths(self) -> list[str]:
        """The paths of the top-level features, in order."""
        return [slot.feature.path for slot in self._slots]

    def segment(self, path: str) -> Segment:
        """A :class:`Segment` over the ``Each`` feature at ``path`` (or with that name)."""
        for slot in self._slots:
            if path in (slot.feature.path, slot.feature.name) and isinstance(slot.feature, Each):
                return Segment(slot.offset, slot.width, slot.width // slot.feature.capacity)
        raise EncodingError(f"{self.game.info.id}: no list feature at {path!r}")

    def width(self, feature: Feature) -> int:
        """How many entries a feature takes."""
        return len(self._bounds(feature)[0])

    def feature_at(self, path: str) -> Feature:
        for slot in self._slots:
            if path in (slot.feature.path, slot.feature.name):
                return slot.feature
        raise EncodingError(f"{self.game.info.id}: no observation feature at {path!r}")

    @property
    def scoring(self) -> Scoring:
        return self.declaration.scoring

    def observe_state(self, state: State, seat: int) -> np.ndarray:
        """The observation of ``state`` for ``seat``: equal to ``observe(state.view(seat))``,
        without building what the observation does not read (the log, the result) and, where
        the game declares a direct observer, without building the view at all."""
        whole = self._whole
        direct = self._direct
        if whole is not None:
            vector = whole(state, seat)
        elif direct is None:
            # the view without the seat check and the log: the seat was checked by the adapter
            view = state._view(state._observer(seat))  # noqa: SLF001
            vector = self._vector(self._header(state, seat), view)
        else:
            # Every step of every client comes here: no call that is not needed (typing.cast
            # is one), the header's entries worked out once (_header_at).
            vector = np.zeros(self.observation_size, dtype=np.float32)
            # numpy's stubs give ndarray the buffer protocol only from Python 3.12 on
            out: memoryview[float] = memoryview(vector)  # type: ignore[arg-type]
            direct(state, seat, out)
            self._put_header(state, seat, out, False)
        if self.strict:
            self._check_bounds(vector)
        return vector

    def _header(self, state: State, seat: int | None) -> defaultdict[int, float]:
        out: defaultdict[int, float] = defaultdict(float)
        n = self.players
        if seat is not None:
            out[seat] = 1.0
        mover = state.current_player
        if mover is not None:
            out[n + mover] = 1.0
            out[2 * n] = 1.0 if mover == seat else 0.0
        else:
            out[2 * n + 1] = 1.0
        out[2 * n + 2] = state.step / max(1, self.max_length)
        return out

    def _check_bounds(self, vector: np.ndarray) -> None:
        outside = np.flatnonzero((vector < self.low) | (vector > self.high))
        if len(outside):
            at = int(outside[0])
            raise EncodingError(
                f"{self.game.info.id}: observation entry {at} ({self.entry_name(at)}) is"
                f" {vector[at]:g}, outside its bounds [{self.low[at]:g}, {self.high[at]:g}]"
            )

    def entry_name(self, index: int) -> str:
        """The feature an observation entry belongs to, for messages."""
        if index < self.header_size:
            return "header"
        for slot in self._slots:
            if slot.offset <= index < slot.offset + slot.width:
                return f"{_describe(slot.feature)}, entry {index - slot.offset}"
        return "beyond the observation"

    def _compile(self, feature: Feature) -> tuple[int, Writer]:
        """The width of a feature and a function writing it: (container, out, start)."""
        get = _getter(feature.path)
        if isinstance(feature, Zone):
            zone = self._write_zone

            def write_zone(container: Any, out: defaultdict[int, float], start: int) -> None:
                zone(get(container), out, start)

            return len(self.cards) + 2, write_zone
        if isinstance(feature, Number):
            scale = feature.scale

            def write_number(container: Any, out: defaultdict[int, float], start: int) -> None:
                out[start] = _number(get(container)) / scale

            return 1, write_number
        if isinstance(feature, Category):
            return len(feature.values), self._category(feature, get)
        if isinstance(feature, Tally):
            return len(feature.values), _tally(feature, get)
        children: list[tuple[int, Writer]] = []
        inner = 1 if isinstance(feature, Labelled) else 0
        for child in feature.features:
            width, write = self._compile(child)
            children.append((inner, write))
            inner += width
        if isinstance(feature, Each):
            return feature.capacity * inner, self._each(feature, get, tuple(children), inner)
        if isinstance(feature, Keys):
            return len(feature.keys) * inner, _keys(feature, get, tuple(children), inner)
        if isinstance(feature, Labelled):
            return len(feature.labels) * inner, _labelled(feature, get, tuple(children), inner)
        raise EncodingError(f"{self.game.info.id}: unknown feature {feature!r}")

    def _category(self, feature: Category, get: Callable[[Any], Any]) -> Writer:
        positions = {v: i for i, v in enumerate(feature.values) if _hashable(v)}
        strict, game_id = self.strict, self.game.info.id

        def write_category(container: Any, out: defaultdict[int, float], start: int) -> None:
            here = get(container)
            if here is None or here is _MISSING:
                return
            try:
                at = positions.get(here)
            except TypeError:  # a list or a dict is no category value
                at = None
            if at is None and feature.prefix and isinstance(here, str):
                at = next((i for i, v in enumerate(feature.values) if here.startswith(v)), None)
            if at is None and feature.contains and isinstance(here, str):
                at = next((i for i, v in enumerate(feature.values) if v in here), None)
            if at is not None:
                out[start + at] = 1.0
            elif strict and not feature.contains:  # a text may name none of the values
                raise EncodingError(
                    f"{game_id}: {feature.path} = {here!r} is not one of {feature.values!r}"
                )

        return write_category

    def _each(
        self,
        feature: Each,
        get: Callable[[Any], Any],
        children: tuple[tuple[int, Writer], ...],
        stride: int,
    ) -> Writer:
        capacity, strict, game_id = feature.capacity, self.strict, self.game.info.id

        def write_each(container: Any, out: defaultdict[int, float], start: int) -> None:
            items = get(container)
            if not isinstance(items, list):
                return
            if strict and len(items) > capacity:
                raise EncodingError(
                    f"{game_id}: {feature.path} holds {len(items)} items, more than its"
                    f" capacity {capacity}"
                )
            for i, item in enumerate(items[:capacity]):
                at = start + i * stride
                for offset, write in children:
                    write(item, out, at + offset)

        return write_each

    def observe(self, view: dict[str, Any]) -> np.ndarray:
        """The float32 observation of a view (``state.view(seat)``)."""
        # A view fills few of its entries: gather them sparsely, then write them at once.
        out: defaultdict[int, float] = defaultdict(float)
        n = self.players
        seat = view.get("seat")
        if seat is not None:
            out[seat] = 1.0
        mover = view.get("current_player")
        if mover is not None:
            out[n + mover] = 1.0
            out[2 * n] = 1.0 if mover == seat else 0.0
        out[2 * n + 1] = 1.0 if view.get("over") else 0.0
        out[2 * n + 2] = view.get("step", 0) / max(1, self.max_length)
        vector = self._vector(out, view["table"])
        if self.strict:
            self._check_bounds(vector)
        return vector

    def _vector(self, out: defaultdict[int, float], table: dict[str, Any]) -> np.ndarray:
        for offset, write in self._writers:
            write(table, out, offset)
        vector = np.zeros(self.observation_size, dtype=np.float32)
        vector[np.fromiter(out.keys(), np.intp, len(out))] = np.fromiter(
            out.values(), np.float32, len(out)
        )
        return vector

    def write_table(self, table: dict[str, Any], vector: np.ndarray) -> None:
        """Write every declared feature of ``table`` (a view's table, or the part of one that
        holds the features) into ``vector``: for direct observers that build a lean table."""
        out: defaultdict[int, float] = defaultdict(float)
        for offset, write in self._writers:
            write(table, out, offset)
        vector[np.fromiter(out.keys(), np.intp, len(out))] = np.fromiter(
            out.values(), np.float32, len(out)
        )

    def _write_zone(self, value: Any, out: defaultdict[int, float], start: int) -> None:
        if value is None or value is _MISSING:
            return
        if isinstance(value, list):
            for item in value:
                if item is None:
                    out[start + len(self.cards)] += 1.0
                elif isinstance(item, str):
                    self._count(item, out, start)
                else:
                    self._write_zone(item, out, start)
        elif isinstance(value, str):
            self._count(value, out, start)
        elif isinstance(value, dict):
            if "cards" in value:
                self._write_zone(value["cards"], out, start)
            elif "size" in value:
                size = int(value.get("size") or 0)
                top = value.get("top")
                if top is not None and size:
                    self._count(top, out, start)
                    size -= 1
                out[start + len(self.cards)] += size

    def _count(self, text: str, out: defaultdict[int, float], start: int) -> None:
        for i in self.text_entries(text):
            out[start + i] += 1.0

    def text_entries(self, text: str) -> tuple[int, ...]:
        """The entries of a zone (from its start) that a text counts: the cards it names, or
        the mark entry if it names none (for direct observers that write such texts)."""
        named = self._named.get(text)
        if named is None:
            index = self.card(text)
            if index is not None:
                named = (index,)
            else:
                words = _TOKENS.split(_SEATS.sub(" ", text))
                tokens = (self.card(t) for t in words if t)
                named = tuple(i for i in tokens if i is not None) or (len(self.cards) + 1,)
            if len(self._named) < 1 << 16:
                self._named[text] = named
        return named

    def card(self, text: str) -> int | None:
        """The vocabulary index of a card as a view writes it, None if it is not a card."""
        index = self._card_index.get(text)
        if index is not None:
            return index
        return self._aliases(text)

    def _card_aliases(self) -> Callable[[str], int | None]:
        labels: dict[str, int] = {}
        for cards in self.game.deck_contents(self.players).values():
            for card in cards:
                label = getattr(card, "label", None)
                if isinstance(label, str) and str(card) in self._card_index:
                    labels[label] = self._card_index[str(card)]
        parse = self.game.spec.state.parse_card
        index = self._card_index

        @lru_cache(maxsize=4096)
        def lookup(text: str) -> int | None:
            if text in labels:
                return labels[text]
            try:
                return index.get(str(parse(text)))
            except (RulesError, ValueError, TypeError, KeyError):
                return None

        return lookup

    def feature_table(self) -> list[tuple[str, int, int]]:
        """(feature, offset, width) rows, header first: the documented layout."""
        rows = [("header: seat, to move, my turn, over, progress", 0, self.header_size)]
        rows += [(_describe(s.feature), s.offset, s.width) for s in self._slots]
        return rows

    def markdown(self) -> str:
        """This encoding as the Markdown section docs/rl.md shows for its game."""
        info = self.game.info
        lines = [
            f"### {info.id} ({self.players} player{'s' if self.players > 1 else ''})",
            "",
            f"{len(self.cards)} cards; {self.num_actions} actions; observation of"
            f" {self.observation_size} floats.",
            "",
            "| actions | count | targets |",
            "| --- | ---: | --- |",
        ]
        for kind in self.declaration.actions:
            cards = 1 if kind.by_target else len(kind.cards)
            targets = ", ".join("-" if t is None else str(t) for t in kind.targets[:6])
            more = f" ... ({len(kind.targets)})" if len(kind.targets) > 6 else ""
            lines.append(f"| {kind.kind} | {cards * len(kind.targets)} | {targets}{more} |")
        lines += ["", "| offset | width | feature |", "| ---: | ---: | --- |"]
        lines += [f"| {o} | {w} | {d} |" for d, o, w in self.feature_table()]
        return "\n".join(lines) + "\n"


Writer = Callable[[Any, "defaultdict[int, float]", int], None]


#: Writes one list item into a segment: (segment, offset of the item, seat, item).
ItemWriter = Callable[[np.ndarray, int, int, Any], None]


class Segment:
    """The entries of an ``Each`` feature over a list that grows as a game goes on (the plays
    of a city), kept per table and seat between observations: a call writes only the items
    added since the last one, and rebuilds the whole segment when the list is not an extension
    of the list it saw (a new city, another table). What an item writes may depend only on the
    seat, the item and its place in the list; the items are compared by value, so a stale
    cache is never used."""

    __slots__ = ("_cache", "_last", "capacity", "start", "stride", "width")

    def __init__(self, start: int, width: int, stride: int) -> None:
        self.start, self.width, self.stride = start, width, stride
        self.capacity = width // stride if stride else 0
        # Per (table, seat), and per seat the latest of any table (a clone starts from it).
        self._cache: dict[tuple[int, int], tuple[tuple[Any, ...], np.ndarray]] = {}
        self._last: dict[int, tuple[tuple[Any, ...], np.ndarray]] = {}

    def write(
        self, table: object, seat: int, items: Sequence[Any], item: ItemWriter, out: np.ndarray
    ) -> None:
        """Write the segment of ``items`` as ``seat`` sees them into ``out``; ``table`` (the
        state) only picks the cache entry."""
        key = (id(table), seat)
        now = tuple(items[: self.capacity])
        cached = self._cache.get(key)
        if cached is not None and now[: len(cached[0])] == cached[0]:
            done, entries = len(cached[0]), cached[1]  # this table's own: extended in place
        else:
            cached = self._last.get(seat)
            if cached is not None and now[: len(cached[0])] == cached[0]:
                done, entries = len(cached[0]), cached[1].copy()
            else:
                done, entries = 0, np.zeros(self.width, np.float32)
            if len(self._cache) >= 256:
                self._cache.clear()  # tables come and go (searches clone them by the thousand)
        stride = self.stride
        for i in range(done, len(now)):
            item(entries, i * stride, seat, now[i])
        self._cache[key] = self._last[seat] = (now, entries)
        out[self.start : self.start + self.width] = entries


def _hashable(value: Any) -> bool:
    return isinstance(value, str | int | float | bool | tuple)


def _tally(feature: Tally, get: Callable[[Any], Any]) -> Writer:
    positions = {v: i for i, v in enumerate(feature.values)}
    scale = feature.scale

    def write_tally(container: Any, out: defaultdict[int, float], start: int) -> None:
        items = get(container)
        if not isinstance(items, list):
            return
        for item in items:
            at = positions.get(item) if isinstance(item, str) else None
            if at is not None:
                out[start + at] += 1.0 / scale

    return write_tally


def _keys(
    feature: Keys,
    get: Callable[[Any], Any],
    children: tuple[tuple[int, Writer], ...],
    stride: int,
) -> Writer:
    def write_keys(container: Any, out: defaultdict[int, float], start: int) -> None:
        mapping = get(container)
        if not isinstance(mapping, dict):
            return
        for i, key in enumerate(feature.keys):
            if key in mapping:
                for offset, write in children:
                    write(mapping[key], out, start + i * stride + offset)

    return write_keys


def _labelled(
    feature: Labelled,
    get: Callable[[Any], Any],
    children: tuple[tuple[int, Writer], ...],
    stride: int,
) -> Writer:
    separator = re.compile(feature.separator)
    labels: dict[str, list[int]] = {}
    for i, label in enumerate(feature.labels):
        labels.setdefault(label, []).append(i)

    def write_labelled(container: Any, out: defaultdict[int, float], start: int) -> None:
        text = get(container)
        if not isinstance(text, str) or not text:
            return
        # Each label's part is the first part that starts with it: looked up by the parts'
        # prefixes (a few short parts) rather than by scanning them for every label.
        found: dict[int, str] = {}
        for part in separator.split(text):
            for n in range(len(part) + 1):
                for i in labels.get(part[:n], ()):
                    found.setdefault(i, part)
        for i, part in found.items():
            at = start + i * stride
            out[at] = 1.0
            rest = part[len(feature.labels[i]) :].strip()
            for offset, write in children:
                write(rest, out, at + offset)

    return write_labelled


def _nth(read: Reader, j: int) -> Reader:
    """The ``j``-th of the values ``read`` gives."""
    return lambda state, seat: read(state, seat)[j]


def _getter(path: str) -> Callable[[Any], Any]:
    """A function reading ``path`` from a container (``_MISSING`` where it leads nowhere)."""
    if not path:
        return lambda value: value
    if "." not in path and not path.lstrip("-").isdigit():
        return lambda value: value.get(path, _MISSING) if isinstance(value, dict) else _MISSING
    return lambda value: _get(value, path)


def _get(value: Any, path: str) -> Any:
    if not path:
        return value
    for part in path.split("."):
        if isinstance(value, dict):
            value = value.get(part, _MISSING)
        elif isinstance(value, list) and part.lstrip("-").isdigit():
            i = int(part)
            value = value[i] if -len(value) <= i < len(value) else _MISSING
        else:
            return _MISSING
        if value is _MISSING:
            return _MISSING
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        match = _INT.search(value)
        return float(match.group()) if match else 0.0
    return 0.0


def _listed(values: tuple[Any, ...], most: int = 8) -> str:
    shown = ", ".join(str(v) for v in values[:most])
    return f"{shown}, ... ({len(values)})" if len(values) > most else shown


def _describe(feature: Feature) -> str:
    where = feature.name or feature.path or "(item)"
    if isinstance(feature, Zone):
        return f"zone {where}"
    if isinstance(feature, Number):
        scale = "" if feature.scale == 1 else f" / {feature.scale:g}"
        return f"number {where}{scale}"
    if isinstance(feature, Category):
        return f"one of {len(feature.values)} at {where} ({_listed(feature.values)})"
    if isinstance(feature, Tally):
        scale = "" if feature.scale == 1 else f" / {feature.scale:g}"
        return f"tally of {where} ({_listed(feature.values)}){scale}"
    inner = ", ".join(_describe(f) for f in feature.features)
    if isinstance(feature, Labelled):
        return f"per label ({', '.join(feature.labels)}) in the text {feature.path}: {inner}"
    if isinstance(feature, Each):
        return f"each of {feature.capacity} items of {where}: {inner}"
    return f"per key ({', '.join(feature.keys)}) of {feature.path}: {inner}"


def _rebuild(
    game_id: str, options: tuple[tuple[str, Any], ...], players: int, strict: bool
) -> GameEncoding:
    if not strict:
        return _cached(game_id, options, players)
    return GameEncoding(spyglass.load(game_id, **dict(options)), players, strict=True)


@lru_cache(maxsize=256)
def _cached(game_id: str, options: tuple[tuple[str, Any], ...], players: int) -> GameEncoding:
    return GameEncoding(spyglass.load(game_id, **dict(options)), players)


def encoding_for(game: Game, players: int | None = None) -> GameEncoding:
    """The (shared, cached) encoding of a game's options and player count."""
    n = game.check_players(players)
    return _cached(game.info.id, tuple(sorted(game.options.items())), n)
