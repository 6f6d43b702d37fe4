"""Actions as indices and views as float vectors: the machinery every adapter shares.

A game declares its action universe and observation features (``engine/encoding.py``); this
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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

import spyglass
from spyglass.engine import Action, Game, RulesError, State
from spyglass.engine.encoding import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Feature,
    Keys,
    Number,
    Zone,
)

ActionKey = tuple[str, tuple[str, ...], Any]
_INT = re.compile(r"-?\d+")
_TOKENS = re.compile(r"[\s():,;→]+")
_MISSING = object()


class EncodingError(ValueError):
    """A game's encoding does not cover something a state produced (a declaration bug)."""


@dataclass(frozen=True, slots=True)
class _Slot:
    """One compiled feature: where it starts in the vector and how wide it is."""

    feature: Feature
    offset: int
    width: int
    children: tuple[_Slot, ...] = ()
    stride: int = 0


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
        self._aliases = self._card_aliases()
        self.max_length = game.max_actions(self.players)
        self._build_actions()
        self._build_observation()

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
        if len(self._index) != len(keys):
            raise EncodingError(f"{self.game.info.id}: the action universe repeats an action")

    def _normalize(self, kind: ActionKind | str, cards: Iterable[Any]) -> tuple[str, ...]:
        ordered = kind.ordered if isinstance(kind, ActionKind) else self._ordered.get(kind, 0)
        names = tuple(str(c) for c in cards)
        rest = sorted(names[ordered:], key=lambda c: self._card_index.get(c, len(self.cards)))
        return names[:ordered] + tuple(rest)

    @property
    def num_actions(self) -> int:
        """How many distinct actions the game has (``num_distinct_actions``)."""
        return len(self._keys)

    def key(self, action: Action) -> ActionKey:
        if action.kind in self._by_target:
            return (action.kind, (), action.target)
        return (action.kind, self._normalize(action.kind, action.cards), action.target)

    def index(self, action: Action) -> int:
        """The index of an action (EncodingError if the declaration misses it)."""
        try:
            return self._index[self.key(action)]
        except KeyError:
            raise EncodingError(
                f"{self.game.info.id}: action {action} ({self.key(action)!r}) is not in the"
                " declared action universe"
            ) from None
        except TypeError:
            raise EncodingError(
                f"{self.game.info.id}: action {action} has an unhashable target"
            ) from None

    def describe_index(self, index: int) -> ActionKey:
        """The action an index stands for, as (kind, card notations, target)."""
        if not 0 <= index < len(self._keys):
            raise EncodingError(f"{self.game.info.id}: no action index {index}")
        return self._keys[index]

    def legal_indices(self, state: State) -> dict[int, Action]:
        """The legal actions of ``state`` by index, in index order."""
        found = {self.index(a): a for a in state.legal_actions()}
        if len(found) != len(state.legal_actions()):
            raise EncodingError(f"{self.game.info.id}: two legal actions share one index")
        return dict(sorted(found.items()))

    def action(self, state: State, index: int) -> Action:
        """The legal action of ``state`` with this index (RulesError if it is not legal)."""
        for action in state.legal_actions():
            if self._index.get(self.key(action)) == index:
                return action
        kind, cards, target = (
            self.describe_index(index) if 0 <= index < self.num_actions else ("?",) * 3
        )
        raise RulesError(f"action index {index} ({kind} {cards} {target}) is not legal here")

    def mask(self, legal: Iterable[int]) -> np.ndarray:
        out = np.zeros(self.num_actions, dtype=np.int8)
        out[list(legal)] = 1
        return out

    # ------------------------------------------------------------------ observation

    def _build_observation(self) -> None:
        n = self.players
        self.header_size = 2 * n + 3
        offset = self.header_size
        slots = []
        for feature in self.declaration.observation:
            slot = self._compile(feature, offset)
            slots.append(slot)
            offset += slot.width
        self._slots = tuple(slots)
        self.observation_size = offset

    def _compile(self, feature: Feature, offset: int) -> _Slot:
        if isinstance(feature, Zone):
            return _Slot(feature, offset, len(self.cards) + 2)
        if isinstance(feature, Number):
            return _Slot(feature, offset, 1)
        if isinstance(feature, Category):
            return _Slot(feature, offset, len(feature.values))
        if isinstance(feature, Each | Keys):
            count = feature.capacity if isinstance(feature, Each) else len(feature.keys)
            children, inner = [], 0
            for child in feature.features:
                slot = self._compile(child, inner)
                children.append(slot)
                inner += slot.width
            return _Slot(feature, offset, count * inner, tuple(children), inner)
        raise EncodingError(f"{self.game.info.id}: unknown feature {feature!r}")

    def observe(self, view: dict[str, Any]) -> np.ndarray:
        """The float32 observation of a view (``state.view(seat)``)."""
        out = np.zeros(self.observation_size, dtype=np.float32)
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
        table = view["table"]
        for slot in self._slots:
            self._write(slot, table, out, 0)
        return out

    def _write(self, slot: _Slot, value: Any, out: np.ndarray, base: int) -> None:
        feature = slot.feature
        here = _get(value, feature.path)
        start = base + slot.offset
        if isinstance(feature, Zone):
            self._write_zone(here, out, start)
        elif isinstance(feature, Number):
            out[start] = _number(here) / feature.scale
        elif isinstance(feature, Category):
            if here is None or here is _MISSING:
                return
            try:
                out[start + _position(feature, here)] = 1.0
            except ValueError:
                if self.strict:
                    raise EncodingError(
                        f"{self.game.info.id}: {feature.path} = {here!r} is not one of"
                        f" {feature.values!r}"
                    ) from None
        elif isinstance(feature, Each):
            items = here if isinstance(here, list) else []
            if len(items) > feature.capacity and self.strict:
                raise EncodingError(
                    f"{self.game.info.id}: {feature.path} holds {len(items)} items, more than"
                    f" its capacity {feature.capacity}"
                )
            for i, item in enumerate(items[: feature.capacity]):
                for child in slot.children:
                    self._write(child, item, out, start + i * slot.stride)
        elif isinstance(feature, Keys):
            mapping = here if isinstance(here, dict) else {}
            for i, key in enumerate(feature.keys):
                if key in mapping:
                    for child in slot.children:
                        self._write(child, mapping[key], out, start + i * slot.stride)

    def _write_zone(self, value: Any, out: np.ndarray, start: int) -> None:
        hidden = start + len(self.cards)
        for card in _cards_in(value):
            if card is None:
                out[hidden] += 1.0
                continue
            index = self.card(card)
            if index is not None:
                out[start + index] += 1.0
                continue
            named = [
                i for token in _TOKENS.split(card) if token and (i := self.card(token)) is not None
            ]
            for i in named:
                out[start + i] += 1.0
            if not named:
                out[hidden + 1] += 1.0

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


def _position(feature: Category, value: Any) -> int:
    if feature.prefix and isinstance(value, str):
        for i, option in enumerate(feature.values):
            if value.startswith(option):
                return i
        raise ValueError(value)
    return feature.values.index(value)


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        match = _INT.search(value)
        return float(match.group()) if match else 0.0
    return 0.0


def _cards_in(value: Any) -> Iterator[str | None]:
    """The cards a view writes at one place: a card, a list, a cell, a pile seen from above."""
    if value is _MISSING or value is None:
        return
    if isinstance(value, str):
        if value:
            yield value
    elif isinstance(value, list):
        for item in value:
            if item is None:
                yield None
            else:
                yield from _cards_in(item)
    elif isinstance(value, dict):
        if "cards" in value:
            yield from _cards_in(value["cards"])
        elif "size" in value:
            size = int(value.get("size") or 0)
            top = value.get("top")
            if top is not None and size:
                yield top
                size -= 1
            for _ in range(size):
                yield None


def _describe(feature: Feature) -> str:
    if isinstance(feature, Zone):
        return f"zone {feature.path or '(item)'}"
    if isinstance(feature, Number):
        scale = "" if feature.scale == 1 else f" / {feature.scale:g}"
        return f"number {feature.path or '(item)'}{scale}"
    if isinstance(feature, Category):
        return f"one of {len(feature.values)} at {feature.path or '(item)'}"
    inner = ", ".join(_describe(f) for f in feature.features)
    if isinstance(feature, Each):
        return f"each of {feature.capacity} items of {feature.path or '(item)'}: {inner}"
    return f"per key ({', '.join(feature.keys)}) of {feature.path}: {inner}"


@lru_cache(maxsize=256)
def _cached(game_id: str, options: tuple[tuple[str, Any], ...], players: int) -> GameEncoding:
    return GameEncoding(spyglass.load(game_id, **dict(options)), players)


def encoding_for(game: Game, players: int | None = None) -> GameEncoding:
    """The (shared, cached) encoding of a game's options and player count."""
    n = game.check_players(players)
    return _cached(game.info.id, tuple(sorted(game.options.items())), n)
