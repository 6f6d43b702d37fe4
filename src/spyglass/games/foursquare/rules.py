"""Foursquare: place each card in a grid of at most 4x4 piles; extremes flip their row and column.

The state keeps the piles by frame index (see ``frame.py``) and the set of piles whose top card
is face down as a bitmask, so a legal placement is found with a few integer operations.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from spyglass.components.bits import set_bits
from spyglass.components.cards import (
    PER_DECK,
    RANK_LABELS,
    Card,
    by_rank,
    card_list,
    parse_card,
    standard_deck,
)
from spyglass.engine import Action, Result, RulesError, State, plural

from .frame import (
    BOX,
    COL,
    COL_MASK,
    FRAME,
    INDEX_OF_LABEL,
    LABEL,
    NEIGHBOURS,
    ROW,
    ROW_MASK,
    SIDE,
    SPACES,
    START,
    index_of,
    normal_label,
)

PILE_LIMIT = 4  # cards in one pile
CLOSED_LIMIT = 4  # piles that may show a face-down top
GRID_PILES = SIDE * SIDE

KEY = "+ this card may start a pile here · ▒▒ face down (card named) · (n) cards in pile"

NUMBER_CARDS = tuple(c for c in standard_deck() if c.rank <= 10)
DECK_SIZE = len(NUMBER_CARDS)
RANK = tuple(Card(code).rank for code in range(PER_DECK))

#: The action placing a card on a space, at ``card * SPACES + index`` (built once: immutable).
PLACE = tuple(
    Action("place", (Card(code),), LABEL[index], LABEL[index])
    if code < PER_DECK and Card(code).rank <= 10
    else None
    for code in range(PER_DECK)
    for index in range(SPACES)
)

# A line's face-up tops are counted per rank in one integer, three bits per rank (at most four
# tops share a line), so "is any other top at least / at most this rank" is a shift or a mask.
RANK_BITS = 3
ONE_OF = (0, *(1 << (RANK_BITS * rank) for rank in range(1, 11)))  # rank 0: no top
AT_MOST = tuple((1 << (RANK_BITS * (rank + 1))) - 1 for rank in range(11))


def line_counts(piles: Mapping[int, tuple[Card, ...]], down: int) -> tuple[tuple[int, ...], ...]:
    """The face-up tops of every row and every column, counted per rank (see ``RANK_BITS``)."""
    rows = [0] * FRAME
    cols = [0] * FRAME
    for index, pile in piles.items():
        if not down >> index & 1:
            one = ONE_OF[RANK[pile[-1]]]
            rows[ROW[index]] += one
            cols[COL[index]] += one
    return tuple(rows), tuple(cols)


def flip_mask(
    index: int, value: int, occupied: int, own: int, counts: tuple[tuple[int, ...], ...]
) -> int:
    """The piles whose top flips when a card of rank ``value`` is placed on ``index``.

    ``counts`` are the face-up tops per line before the placement (``line_counts``) and ``own``
    the rank of the face-up top being covered (0 if none). The placed card flips the other piles
    of its row (column) when no other face-up top there is at least as high, or none is at
    least as low: it is then uniquely highest or lowest, or the only face-up card.
    """
    bit = 1 << index
    flips = 0
    row, col = ROW[index], COL[index]
    others = occupied & ROW_MASK[row] & ~bit
    if others:
        tops = counts[0][row] - ONE_OF[own]
        if not tops >> (RANK_BITS * value) or not tops & AT_MOST[value]:
            flips = others
    others = occupied & COL_MASK[col] & ~bit
    if others:
        tops = counts[1][col] - ONE_OF[own]
        if not tops >> (RANK_BITS * value) or not tops & AT_MOST[value]:
            flips |= others
    return flips


class FoursquareState(State):
    DECK = NUMBER_CARDS  # the deck (engine State.deck_contents)
    UNSEEN = ("deck",)  # determinize shuffles the draw pile (engine State._resample)
    parse_card = staticmethod(parse_card)
    notation_help = (
        "a move is the space for the drawn card, column letter then row number, like E5"
        " (the card may come first: 6D E5)"
    )

    deck: list[Card]  # the top card is the last element
    card: Card | None  # the card drawn and waiting to be placed
    piles: dict[int, tuple[Card, ...]]  # frame index -> cards, bottom first
    occupied: int  # bitmask of spaces holding a pile
    down: int  # bitmask of piles whose top card is face down
    full: int  # bitmask of piles of four cards
    reach: int  # bitmask of spaces next to a pile
    face_up_tops: tuple[tuple[int, ...], ...]  # per row and column, see line_counts
    top: int
    bottom: int
    left: int
    right: int
    won: bool
    _moves: list[Action]

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        return DECK_SIZE - 1  # the first card is placed at set-up; each turn places one more

    def _setup(self) -> None:
        self.deck = list(reversed(self._deck("deck")))
        self.piles = {}
        self.occupied = self.down = self.full = self.reach = 0
        self.top = self.bottom = ROW[START]
        self.left = self.right = COL[START]
        self.won = False
        first = self.deck.pop()
        self._put(first, START)
        self.face_up_tops = line_counts(self.piles, self.down)
        self._say(f"the first card, {first}, starts the grid on {LABEL[START]}")
        self._draw()

    # ---------------------------------------------------------------- rules

    @property
    def is_over(self) -> bool:
        return not self._moves

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def _put(self, card: Card, index: int) -> None:
        bit = 1 << index
        pile = (*self.piles.get(index, ()), card)
        self.piles[index] = pile
        if len(pile) == PILE_LIMIT:
            self.full |= bit
        if not self.occupied & bit:
            self.occupied |= bit
            self.reach |= NEIGHBOURS[index]
            row, col = ROW[index], COL[index]
            self.top, self.bottom = min(self.top, row), max(self.bottom, row)
            self.left, self.right = min(self.left, col), max(self.right, col)
        self.down &= ~bit

    def _draw(self) -> None:
        if not self.deck:
            self.card = None
            self._moves = []
            self._say("no card left to place: the game is lost")
            return
        self.card = self.deck.pop()
        self._say(f"drew {self.card}")
        self._moves = self._find_moves()
        if not self._moves:
            self._say(f"{self.card} cannot be placed anywhere: the game is lost")

    def _window(self) -> int:
        """The spaces a card could go to without the grid growing past four in either direction."""
        top, bottom, left, right = self.top, self.bottom, self.left, self.right
        return BOX[max(top - 1, bottom - SIDE + 1)][min(bottom + 1, top + SIDE - 1)][
            max(left - 1, right - SIDE + 1)
        ][min(right + 1, left + SIDE - 1)]

    def _find_moves(self) -> list[Action]:
        card = self.card
        assert card is not None
        value = RANK[card]
        occupied, down, piles = self.occupied, self.down, self.piles
        rows, cols = self.face_up_tops
        top, bottom, left, right = self.top, self.bottom, self.left, self.right
        high = RANK_BITS * value
        low_mask = AT_MOST[value]
        # What each line flips when the card goes on a space that hides no face-up top of that
        # line; only a placement on a face-up pile needs its own count (see flip_mask).
        row_flips = [0] * FRAME
        for row in range(top, bottom + 1):
            tops = rows[row]
            if not tops >> high or not tops & low_mask:
                row_flips[row] = occupied & ROW_MASK[row]
        col_flips = [0] * FRAME
        for col in range(left, right + 1):
            tops = cols[col]
            if not tops >> high or not tops & low_mask:
                col_flips[col] = occupied & COL_MASK[col]
        candidates = ((self.reach & ~occupied) | (occupied & ~self.full)) & self._window()
        face_up = occupied & ~down
        base = card * SPACES
        moves: list[Action | None] = []
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            index = bit.bit_length() - 1
            if face_up & bit:
                # flip_mask, inlined: the covered top no longer counts in its lines.
                own = ONE_OF[RANK[piles[index][-1]]]
                row, col = ROW[index], COL[index]
                tops = rows[row] - own
                if not tops >> high or not tops & low_mask:
                    flips = occupied & ROW_MASK[row] & ~bit
                else:
                    flips = 0
                tops = cols[col] - own
                if not tops >> high or not tops & low_mask:
                    flips |= occupied & COL_MASK[col] & ~bit
            else:
                flips = (row_flips[ROW[index]] | col_flips[COL[index]]) & ~bit
            if ((down & ~bit) ^ flips).bit_count() <= CLOSED_LIMIT:
                moves.append(PLACE[base + index])
        # PLACE is None only for cards never placed (above 10): the card drawn is one placed.
        return cast(list[Action], moves)

    def _flips_for(self, index: int) -> int:
        assert self.card is not None
        bit = 1 << index
        own = RANK[self.piles[index][-1]] if self.occupied & ~self.down & bit else 0
        return flip_mask(index, RANK[self.card], self.occupied, own, self.face_up_tops)

    def _apply(self, action: Action) -> None:
        card = self.card
        assert card is not None
        index = INDEX_OF_LABEL[action.target]
        bit = 1 << index
        covered = self.piles.get(index, ())
        own = RANK[covered[-1]] if self.occupied & ~self.down & bit else 0
        flips = flip_mask(index, RANK[card], self.occupied, own, self.face_up_tops)
        self._put(card, index)
        self.down ^= flips
        # Update the face-up counts of the lines touched, and say what flipped.
        rows, cols = list(self.face_up_tops[0]), list(self.face_up_tops[1])
        change = ONE_OF[RANK[card]] - ONE_OF[own]
        rows[ROW[index]] += change
        cols[COL[index]] += change
        closing, opening = [], []
        down = self.down
        while flips:
            low = flips & -flips
            flips ^= low
            flipped = low.bit_length() - 1
            top = self.piles[flipped][-1]
            one = ONE_OF[RANK[top]]
            if down & low:
                rows[ROW[flipped]] -= one
                cols[COL[flipped]] -= one
                closing.append(f"{top} on {LABEL[flipped]}")
            else:
                rows[ROW[flipped]] += one
                cols[COL[flipped]] += one
                opening.append(f"{top} on {LABEL[flipped]}")
        self.face_up_tops = (tuple(rows), tuple(cols))
        where = f"a pile of {len(covered)}" if covered else "a new pile"
        self._say(f"placed {card} on {LABEL[index]} ({where}): {_flipped(closing, opening)}")
        if self.occupied.bit_count() == GRID_PILES and not down:
            self.won = True
            self.card = None
            self._moves = []
            self._say(
                "a 4x4 grid with every top face up: the game is won,"
                f" {plural(len(self.deck), 'card')}"
                " left in the deck"
            )
            return
        self._draw()

    def _flip_text(self, flips: int) -> str:
        """What a placement with these flips would do, in words (before it happens)."""
        closing: list[str] = []
        opening: list[str] = []
        for index in set_bits(flips):
            top = f"{self.piles[index][-1]} on {LABEL[index]}"
            (opening if self.down >> index & 1 else closing).append(top)
        return _flipped(closing, opening, "flips")

    def _result(self) -> Result:
        piles = self.occupied.bit_count()
        closed = self.down.bit_count()
        left = len(self.deck)
        detail: dict[str, Any] = {
            "cards_left_in_deck": left,
            "piles": piles,
            "face_down_tops": closed,
            "cards_placed": sum(len(p) for p in self.piles.values()),
        }
        if self.card is not None:
            detail["unplaced_card"] = str(self.card)
        if self.won:
            summary = f"Won: sixteen open restaurants with {plural(left, 'card')} left in the deck"
            return Result.solo(True, left, detail, summary + " (score, higher is better)")
        if self.card is not None:
            summary = (
                f"Lost: {self.card} cannot be placed ({plural(left, 'card')} left in the deck)"
            )
        else:
            summary = f"Lost: the deck ran out with {piles} piles and {closed} face-down tops"
        return Result.solo(False, None, detail, summary)

    # ---------------------------------------------------------------- views

    def _cell(self, index: int, legal: int) -> Any:
        pile = self.piles.get(index)
        if pile is None:
            return "+" if legal >> index & 1 else None
        note = f"({len(pile)})" if len(pile) > 1 else ""
        if self.down >> index & 1:
            # The player placed this card face up and knows it: the note names it.
            return {"cards": [None], "note": f"{pile[-1]} {note}".rstrip()}
        return {"cards": [str(pile[-1])], "note": note}

    def _grid_view(self) -> dict[str, Any]:
        if self.is_over:
            rows = range(self.top, self.bottom + 1)
            cols = range(self.left, self.right + 1)
            legal = 0
        else:
            window = self._window()
            spaces = set_bits(window)
            rows = range(ROW[spaces[0]], ROW[spaces[-1]] + 1)
            cols = range(COL[spaces[0]], COL[spaces[-1]] + 1)
            legal = 0
            for move in self._moves:
                legal |= 1 << INDEX_OF_LABEL[move.target]
        return {
            "cells": [[self._cell(r * FRAME + c, legal) for c in cols] for r in rows],
            "col_labels": [chr(ord("A") + c) for c in cols],
            "row_labels": [str(r + 1) for r in rows],
        }

    def _view(self, observer: int | None) -> dict[str, Any]:
        # Every card on the table was placed face up in the player's sight, so the view names
        # face-down cards too; only the order of the deck is hidden.
        closed = self.down.bit_count()
        return {
            "card": [] if self.card is None else [str(self.card)],
            "grid": self._grid_view(),
            "piles": {
                LABEL[index]: {
                    "cards": card_list(pile),
                    "face_down": bool(self.down >> index & 1),
                }
                for index, pile in sorted(self.piles.items())
            },
            "face_down_tops": closed,
            "closed": f"{closed} of at most {CLOSED_LIMIT}",
            "key": KEY,
            "deck": len(self.deck),
            "deck_contents": card_list(sorted(self.deck, key=by_rank)),
            "remaining": _rank_counts(self.deck),
        }

    def _snapshot(self) -> dict[str, Any]:
        return {
            "deck_top_first": card_list(reversed(self.deck)),
            "card": None if self.card is None else str(self.card),
            "piles": {LABEL[i]: card_list(p) for i, p in sorted(self.piles.items())},
            "face_down": [LABEL[i] for i in set_bits(self.down)],
            "won": self.won,
        }

    def _copy_containers(self) -> None:
        self.deck = list(self.deck)
        self.piles = dict(self.piles)  # the piles themselves are tuples

    def _cards(self) -> list[Card]:
        cards = list(self.deck)
        if self.card is not None:
            cards.append(self.card)
        for pile in self.piles.values():
            cards.extend(pile)
        return cards

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        tokens = [t for t in text.replace(",", " ").split() if t.lower() not in ("on", "at")]
        if not tokens or len(tokens) > 2:
            return None
        cards, spaces = [], []
        for token in tokens:
            try:
                spaces.append(normal_label(token))
                continue
            except RulesError:
                pass
            try:
                cards.append(parse_card(token))
            except RulesError:
                return None
        if len(spaces) != 1 or len(cards) > 1:
            return None
        card = cards[0] if cards else self.card
        space = spaces[0]
        if card is None:
            return None
        return Action("place", (card,), space, " ".join(tokens))

    def _why_illegal(self, action: Action) -> str:
        card = self.card
        if action.kind != "place":
            return "the only move is placing the drawn card on a space, like E5"
        if not isinstance(action.cards, tuple) or len(action.cards) != 1:
            return f"a placement is exactly one card: the card you drew, {card}"
        if action.cards[0] != card:
            return f"{action.cards[0]} is not the card you drew: place {card}"
        index = index_of(action.target)
        if index is None:
            if isinstance(action.target, str) and _readable(action.target):
                return (
                    f"{action.target} is off the grid: no 4x4 grid holding the first card"
                    f" ({LABEL[START]}) reaches it"
                )
            return "name the space as its column letter and row number, like E5"
        bit = 1 << index
        label = LABEL[index]
        if self.full & bit:
            return f"the pile on {label} already holds four cards, the most a pile may hold"
        if not self.occupied & bit and not self.reach & bit:
            return f"{label} does not touch any pile: a new pile goes orthogonally next to one"
        if not self._window() & bit:
            row, col = ROW[index], COL[index]
            height = max(self.bottom, row) - min(self.top, row) + 1
            width = max(self.right, col) - min(self.left, col) + 1
            if width > SIDE:
                return f"a pile on {label} would make the grid {width} cards wide; at most 4"
            return f"a pile on {label} would make the grid {height} cards high; at most 4"
        flips = self._flips_for(index)
        closed = ((self.down & ~bit) ^ flips).bit_count()
        if closed > CLOSED_LIMIT:
            return (
                f"placing {card} on {label} would leave {closed} piles with a face-down top;"
                f" at most {CLOSED_LIMIT} may be closed"
            )
        return "write the space as the move list does, like E5"

    def _describe(self, action: Action) -> str:
        card = self.card
        assert card is not None
        index = INDEX_OF_LABEL[action.target]
        pile = self.piles.get(index)
        if pile is None:
            where = f"Start a new pile on {LABEL[index]} with {card}"
        elif self.down >> index & 1:
            where = f"Place {card} on {LABEL[index]}, covering the face-down {pile[-1]}"
        else:
            where = f"Place {card} on {pile[-1]} on {LABEL[index]}"
        flips = self._flips_for(index)
        closed = ((self.down & ~(1 << index)) ^ flips).bit_count()
        tops = "1 face-down top" if closed == 1 else f"{closed} face-down tops"
        return f"{where}: {self._flip_text(flips)} ({tops})."


def _readable(text: str) -> bool:
    try:
        normal_label(text)
    except RulesError:
        return False
    return True


def _flipped(closing: list[str], opening: list[str], verb: str = "flipped") -> str:
    parts = []
    if closing:
        parts.append(f"{_and(closing)} face down")
    if opening:
        parts.append(f"{_and(opening)} face up")
    return f"{verb} {' and '.join(parts)}" if parts else "nothing flips"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _rank_counts(deck: list[Card]) -> str:
    counts = [0] * 11
    for card in deck:
        counts[RANK[card]] += 1
    shown = [f"{RANK_LABELS.get(r, str(r))}×{counts[r]}" for r in range(1, 11) if counts[r]]
    return "  ".join(shown) if shown else "—"
