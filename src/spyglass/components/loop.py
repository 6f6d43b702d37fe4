"""A loop deck: a circular deck of cards, each face up or face down, read from the top.

Some games treat a deck as a place rather than a supply: the top card is where you stand, you
move by sending cards from the top to the bottom, and cards are turned face up as they are
seen. :class:`Loop` keeps the cards top first and, beside them, what a player sees of each (the
card itself when face up, ``None`` when face down). Keeping both lists side by side makes the
visible stretch of a view, or the key of an arrangement as a player sees it, cost one copy.

Positions count from the top (0 is the top card) and wrap around the loop, so position
``len(loop)`` is the top card again. The loop knows nothing of any game's rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")


class Loop(Generic[T]):
    """A circular deck. ``cards`` and ``shown`` are read-only views for fast access: change the
    loop only through its methods, which keep ``shown[i]`` equal to ``cards[i]`` or ``None``."""

    __slots__ = ("cards", "shown")

    cards: list[T]  # top first
    shown: list[T | None]  # what a player sees: the card when face up, None when face down

    def __init__(self, cards: Iterable[T] = (), face_up: bool = False) -> None:
        self.cards = list(cards)
        self.shown = list(self.cards) if face_up else [None] * len(self.cards)

    @classmethod
    def arranged(cls, cards: Sequence[T], up: Sequence[bool]) -> Loop[T]:
        """A loop with the given cards (top first), each face up where ``up`` says so."""
        if len(cards) != len(up):
            raise ValueError("arranged() needs one facing per card")
        loop = cls(cards)
        loop.shown = [c if u else None for c, u in zip(cards, up, strict=True)]
        return loop

    def copy(self) -> Loop[T]:
        new = object.__new__(type(self))
        new.cards = self.cards[:]
        new.shown = self.shown[:]
        return new

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[T]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def card(self, position: int) -> T:
        """The card at ``position`` from the top, whatever its facing (wraps around)."""
        return self.cards[position % len(self.cards)]

    def seen(self, position: int) -> T | None:
        """What a player sees at ``position``: the card if face up, else None (wraps)."""
        return self.shown[position % len(self.shown)]

    def is_face_up(self, position: int) -> bool:
        return self.shown[position % len(self.shown)] is not None

    def position(self, card: T) -> int:
        """Where ``card`` lies, counted from the top (ValueError if it is not in the loop)."""
        return self.cards.index(card)

    def stretch(self, count: int | None = None) -> list[T | None]:
        """The top ``count`` cards as a player sees them (all of them by default)."""
        return self.shown[:] if count is None else self.shown[:count]

    def key(self) -> tuple[T | None, ...]:
        """The arrangement as a player sees it (hashable): equal keys look the same."""
        return tuple(self.shown)

    def key_after_moving(self, count: int) -> tuple[T | None, ...]:
        """The key the loop would have after :meth:`move_to_bottom` (count)."""
        shown = self.shown
        count %= len(shown)
        return tuple(shown[count:] + shown[:count])

    def face_up_count(self) -> int:
        return len(self.shown) - self.shown.count(None)

    def face_down_count(self) -> int:
        return self.shown.count(None)

    def hidden(self) -> list[T]:
        """The face-down cards, top first."""
        return [c for c, s in zip(self.cards, self.shown, strict=True) if s is None]

    # ------------------------------------------------------------------ changing

    def move_to_bottom(self, count: int) -> None:
        """Send ``count`` cards from the top to the bottom one at a time, keeping their order
        (more cards than the loop holds go round it again)."""
        if not self.cards:
            return
        count %= len(self.cards)
        if count:
            cards, shown = self.cards, self.shown
            self.cards = cards[count:] + cards[:count]
            self.shown = shown[count:] + shown[:count]

    def turn_up(self, position: int = 0) -> T:
        """Turn the card at ``position`` face up (it may already be); return it."""
        position %= len(self.cards)
        card = self.shown[position] = self.cards[position]
        return card

    def turn_down(self, position: int = 0) -> None:
        self.shown[position % len(self.cards)] = None

    def flip(self, position: int = 0) -> None:
        """Turn the card at ``position`` over."""
        position %= len(self.cards)
        self.shown[position] = None if self.shown[position] is not None else self.cards[position]

    def take_top(self) -> T:
        """Remove the top card from the loop and return it (IndexError if the loop is empty)."""
        del self.shown[0]
        return self.cards.pop(0)

    def put_on_top(self, card: T, face_up: bool = True) -> None:
        self.cards.insert(0, card)
        self.shown.insert(0, card if face_up else None)

    def replace_hidden(self, cards: Sequence[T]) -> None:
        """Put ``cards`` into the face-down places, top first (as many as there are places)."""
        shown = self.shown
        places = [i for i, s in enumerate(shown) if s is None]
        if len(places) != len(cards):
            raise ValueError(f"{len(cards)} cards for {len(places)} face-down places")
        for place, card in zip(places, cards, strict=True):
            self.cards[place] = card

    def __repr__(self) -> str:
        body = " ".join("▒▒" if s is None else str(s) for s in self.shown)
        return f"Loop({body})"
