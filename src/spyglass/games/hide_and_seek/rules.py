"""Hide and Seek: guess the suits of twelve face-down playmates from the ends of their lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyglass.components.cards import (
    SUIT_NAMES,
    Card,
    card_list,
    cards_text,
    parse_card,
    standard_deck,
)
from spyglass.components.grid import label, parse_label
from spyglass.engine import Action, Result, Rng, RulesError, State, plural

from . import arrangements
from .playground import (
    ALL_REVEALED,
    CELL_BY_LABEL,
    CELL_LABELS,
    CELLS,
    CORNER_FRAMES,
    CORNERS,
    FRAME_COLUMNS,
    FRAME_ROWS,
    READING_ORDER,
    ROWS,
    SPACE_BY_LABEL,
    SPACE_COUNT,
    SPACES,
    SPACES_OF_CELL,
    cell_column,
    cell_frame,
    cell_row,
    line_name,
)

WINNING_SCORE = 20  # half of the 40 number cards
PLACE, REVEAL, WITHDRAW = "place", "reveal", "withdraw"
KINDS = (PLACE, REVEAL, WITHDRAW)
VERBS = {
    "place": PLACE,
    "guess": PLACE,
    "p": PLACE,
    "reveal": REVEAL,
    "flip": REVEAL,
    "r": REVEAL,
    "withdraw": WITHDRAW,
    "w": WITHDRAW,
}
NUMBER_CARDS = tuple(c for c in standard_deck() if c.rank <= 10)
SUIT = tuple(Card(code).suit for code in range(52))
SPACE_LIST = "B1–E1, B5–E5 (column ends), A2–A4, F2–F4 (row ends)"

# Memos of pure functions: the same move always makes the same immutable Action.
_ACTIONS: dict[tuple[str, Card | None, Card | None, str], Action] = {}
_PLACES: dict[Card, tuple[Action, ...]] = {}  # top card -> one place per space
_REVEAL_LISTS: dict[int, tuple[Action, ...]] = {}  # revealed mask -> reveals in reading order


def _action(kind: str, top: Card | None, guess: Card | None, where: str) -> Action:
    key = (kind, top, guess, where)
    action = _ACTIONS.get(key)
    if action is None:
        # A place carries the top card, a withdrawal the top card and the guess, a reveal none.
        cards = tuple(c for c in (top, guess) if c is not None)
        action = _ACTIONS[key] = Action(kind, cards, where, f"{kind} {where}")
    return action


def _places(top: Card) -> tuple[Action, ...]:
    row = _PLACES.get(top)
    if row is None:
        row = _PLACES[top] = tuple(_action(PLACE, top, None, s.label) for s in SPACES)
    return row


def _reveals(revealed: int) -> tuple[Action, ...]:
    found = _REVEAL_LISTS.get(revealed)
    if found is None:
        found = _REVEAL_LISTS[revealed] = tuple(
            _action(REVEAL, None, None, CELL_LABELS[cell])
            for cell in READING_ORDER
            if not revealed >> cell & 1
        )
    return found


def _suit_name(card: Card) -> str:
    return SUIT_NAMES[card.suit or "S"][:-1]  # "spade", "heart", ...


class HideAndSeekState(State):
    parse_card = staticmethod(parse_card)
    notation_help = (
        "place the deck's top card with 'place B1' (or just 'B1'), turn a playmate over with"
        " 'reveal C3', take a guess back with 'withdraw A2'; playmates are B2–E4, guess"
        f" spaces {SPACE_LIST}"
    )

    cells: tuple[Card, ...]  # the playground, column by column, top to bottom
    revealed: int  # bitmask over cells: face-up playmates
    guesses: list[Card | None]  # one per guess space, in SPACES order
    deck: list[Card]  # face up, the top card last: only that one is visible
    discard: list[Card]
    score_pile: list[Card]

    # ---------------------------------------------------------------- set-up

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Card]]:
        return {"playground": list(arrangements.FACE_CARDS), "deck": list(NUMBER_CARDS)}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # Placing and withdrawing each use up one deck card; every playmate is revealed once.
        return len(NUMBER_CARDS) + CELLS

    @classmethod
    def shuffle_deck(
        cls, name: str, cards: Sequence[Any], rng: Rng, options: Mapping[str, Any], players: int
    ) -> list[Any]:
        if name == "playground":
            return arrangements.draw(rng)
        return super().shuffle_deck(name, cards, rng, options, players)

    @classmethod
    def check_deck(
        cls, name: str, order: Sequence[Any], options: Mapping[str, Any], players: int
    ) -> None:
        if name != "playground":
            return
        for column in range(len(order) // ROWS):
            cards = order[column * ROWS : column * ROWS + ROWS]
            problem = arrangements.column_problem(cards)
            if problem is not None:
                where = " ".join(CELL_LABELS[column * ROWS : column * ROWS + ROWS])
                raise RulesError(
                    f"stacked deck 'playground': {line_name('column', column)} ({where}) would"
                    f" hold {cards_text(cards)}, {problem}; every column needs a Jack, a Queen"
                    " and a King of three different suits (the deck lists the playground"
                    " column by column, top to bottom)"
                )

    def _setup(self) -> None:
        self.cells = tuple(self._deck("playground"))
        self.revealed = 0
        self.guesses = [None] * SPACE_COUNT
        self.deck = list(reversed(self._deck("deck")))
        self.discard = []
        self.score_pile = []
        self._say(f"twelve playmates hide face down; the deck shows {self._top_text()}")

    # ---------------------------------------------------------------- rules

    @property
    def top(self) -> Card | None:
        """The deck's top card (face up), or None once the deck is empty."""
        return self.deck[-1] if self.deck else None

    @property
    def score(self) -> int:
        return len(self.score_pile)

    def is_revealed(self, cell: int) -> bool:
        return bool(self.revealed >> cell & 1)

    def seen_cells(self) -> tuple[Card | None, ...]:
        """The playground as the player sees it: a card where face up, None where face down."""
        revealed = self.revealed
        return tuple(c if revealed >> k & 1 else None for k, c in enumerate(self.cells))

    @property
    def is_over(self) -> bool:
        return self.revealed == ALL_REVEALED

    def _legal_actions(self) -> list[Action]:
        revealed = self.revealed
        if revealed == ALL_REVEALED:
            return []
        if not self.deck:
            return list(_reveals(revealed))
        top = self.deck[-1]
        guesses = self.guesses
        places = _places(top)
        moves = [places[i] for i, guess in enumerate(guesses) if guess is None]
        moves += _reveals(revealed)
        suit = SUIT[top]
        for i, guess in enumerate(guesses):
            if guess is not None and SUIT[guess] == suit:
                moves.append(_action(WITHDRAW, top, guess, SPACES[i].label))
        return moves

    def _apply(self, action: Action) -> None:
        if action.kind == PLACE:
            self._place(SPACE_BY_LABEL[action.target])
        elif action.kind == REVEAL:
            self._reveal(CELL_BY_LABEL[action.target])
        else:
            self._withdraw(SPACE_BY_LABEL[action.target])

    def _place(self, space: int) -> None:
        card = self.deck.pop()
        self.guesses[space] = card
        self._say(f"placed {card} at {SPACES[space].label}; the deck shows {self._top_text()}")

    def _reveal(self, cell: int) -> None:
        self.revealed |= 1 << cell
        card = self.cells[cell]
        suit = SUIT[card]
        scored = []
        for space in SPACES_OF_CELL[cell]:
            guess = self.guesses[space]
            if guess is not None and SUIT[guess] == suit:
                self.guesses[space] = None
                self.score_pile.append(guess)
                scored.append(f"{guess} ({SPACES[space].label})")
        text = f"revealed {card} at {CELL_LABELS[cell]}: "
        text += f"scored {', '.join(scored)}" if scored else "no guess scores"
        self._say(text)
        if self.is_over:
            verdict = "won" if self.score >= WINNING_SCORE else "lost"
            self._say(
                f"the last playmate is found: {plural(self.score, 'card')} in the score pile,"
                f" {verdict}"
                f" ({WINNING_SCORE} needed)"
            )

    def _withdraw(self, space: int) -> None:
        top = self.deck.pop()
        guess = self.guesses[space]
        self.guesses[space] = None
        assert guess is not None  # only legal withdrawals arrive here
        self.discard.extend((top, guess))
        self._say(
            f"withdrew {guess} from {SPACES[space].label} with {top} from the deck (both"
            f" discarded); the deck shows {self._top_text()}"
        )

    def _top_text(self) -> str:
        top = self.top
        return "nothing (it is empty)" if top is None else str(top)

    def _result(self) -> Result:
        score = self.score
        won = score >= WINNING_SCORE
        detail = {
            "score": score,
            "needed": WINNING_SCORE,
            "guesses_left": sum(g is not None for g in self.guesses),
            "discarded": len(self.discard),
            "left_in_deck": len(self.deck),
        }
        if won:
            summary = f"Won: {plural(score, 'card')} in the score pile ({WINNING_SCORE} needed)"
        else:
            summary = f"Lost: {plural(score, 'card')} in the score pile, {WINNING_SCORE} needed"
        return Result.solo(won, score, detail, summary)

    # ---------------------------------------------------------------- views

    def _grid(self, cells: Sequence[Any]) -> dict[str, Any]:
        frame: list[list[Any]] = [[None] * FRAME_COLUMNS for _ in range(FRAME_ROWS)]
        for row, col in CORNER_FRAMES:
            frame[row][col] = ""  # a marker: not a space
        for cell, shown in enumerate(cells):
            row, col = cell_frame(cell)
            frame[row][col] = shown
        for space in SPACES:
            guess = self.guesses[space.index]
            if guess is not None:
                row, col = space.frame
                frame[row][col] = [str(guess)]
        return {
            "cells": frame,
            "col_labels": [chr(ord("A") + c) for c in range(FRAME_COLUMNS)],
            "row_labels": [str(r + 1) for r in range(FRAME_ROWS)],
        }

    def _view(self, observer: int | None) -> dict[str, Any]:
        revealed = self.revealed
        shown = [[str(c)] if revealed >> k & 1 else [None] for k, c in enumerate(self.cells)]
        return {
            "playground": self._grid(shown),
            # Face up, but only the top card shows.
            "deck": {"size": len(self.deck), "top": str(self.deck[-1]) if self.deck else None},
            "discard": card_list(self.discard),
            "score_pile": card_list(self.score_pile),
            "status": {
                "score": self.score,
                "needed": WINNING_SCORE,
                "face_down": CELLS - revealed.bit_count(),
            },
        }

    def _snapshot(self) -> dict[str, Any]:
        return {
            "playground": card_list(self.cells),
            "revealed": [self.is_revealed(k) for k in range(CELLS)],
            "guesses": [None if g is None else str(g) for g in self.guesses],
            "deck_top_first": card_list(reversed(self.deck)),
            "discard": card_list(self.discard),
            "score_pile": card_list(self.score_pile),
        }

    def _resample(self, observer: int | None, rng: Rng) -> None:
        self.cells = arrangements.redraw_hidden(self.cells, self.revealed, rng)
        if len(self.deck) > 1:
            # The contents below the top card are known (every other number card is in
            # sight), their order is not.
            below = sorted(self.deck[:-1])
            rng.shuffle(below)
            self.deck = [*below, self.deck[-1]]

    def _copy_containers(self) -> None:
        # cells is a tuple and revealed an int: neither is ever changed in place.
        self.guesses = list(self.guesses)
        self.deck = list(self.deck)
        self.discard = list(self.discard)
        self.score_pile = list(self.score_pile)

    def _cards(self) -> list[Card]:
        return [
            *self.cells,
            *(g for g in self.guesses if g is not None),
            *self.deck,
            *self.discard,
            *self.score_pile,
        ]

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        tokens = text.replace(",", " ").split()
        if not tokens:
            return None
        kind = VERBS.get(tokens[0].lower())
        if kind is not None:
            tokens = tokens[1:]
        if not tokens:
            return None
        try:
            where = label(parse_label(tokens[-1]))  # "b01" is B1
        except RulesError:
            return None
        cards = []
        for token in tokens[:-1]:
            try:
                cards.append(parse_card(token))
            except RulesError:
                return None
        space = SPACE_BY_LABEL.get(where)
        if kind is None:
            if where in CELL_BY_LABEL:
                kind = REVEAL
            elif space is not None and self.guesses[space] is not None:
                kind = WITHDRAW
            else:
                kind = PLACE
        return self._typed(kind, cards, where)

    def _typed(self, kind: str, cards: list[Card], where: str) -> Action:
        """The move a player typed: the legal one when the cards typed fit it, else as typed
        (so that the reason it is illegal can be given)."""
        top = self.top
        space = SPACE_BY_LABEL.get(where)
        guess = self.guesses[space] if space is not None else None
        if kind == REVEAL:
            if cards or where not in CELL_BY_LABEL:
                return self._raw(kind, cards, where)
            return _action(REVEAL, None, None, where)
        if space is None:
            return self._raw(kind, cards, where)
        if kind == PLACE:
            if top is not None and all(c == top for c in cards) and len(cards) <= 1:
                return _action(PLACE, top, None, where)
            return self._raw(kind, cards, where)
        fits = all(c in (top, guess) for c in cards) and len(cards) <= 2
        if top is not None and guess is not None and fits:
            return _action(WITHDRAW, top, guess, where)
        return self._raw(kind, cards, where)

    @staticmethod
    def _raw(kind: str, cards: list[Card], where: str) -> Action:
        return Action(kind, tuple(cards), where, " ".join([kind, *map(str, cards), where]))

    def _why_illegal(self, action: Action) -> str:
        kind, target = action.kind, action.target
        if not isinstance(action.cards, tuple):
            return "an action's cards are a tuple of cards"
        if kind not in KINDS:
            return (
                "a move is 'place SPACE' (the deck's top card as a guess), 'reveal SPACE' (a"
                " face-down playmate) or 'withdraw SPACE' (a guess of the top card's suit)"
            )
        if not isinstance(target, str):
            return f"{target!r} is not a space: name it like B1 or C3"
        where = target.strip().upper()
        if where in CORNERS:
            return f"{where} is a corner of the playground, not a space: corners hold no guess"
        space = SPACE_BY_LABEL.get(where)
        cell = CELL_BY_LABEL.get(where)
        if space is None and cell is None:
            return f"there is no space {target}: playmates are B2–E4, guess spaces {SPACE_LIST}"
        if where != target:
            return f"a space is written as a capital letter and a number, like {where}"
        if kind == REVEAL:
            return self._why_not_reveal(action, where, cell)
        if cell is not None:
            return (
                f"{where} is a playmate, not a guess space: guesses go at the ends of the rows"
                f" and columns ({SPACE_LIST})"
            )
        assert space is not None
        top = self.top
        if top is None:
            return (
                "the deck is empty: there is no top card to place or to pay for a withdrawal;"
                " only reveals are left"
            )
        if kind == PLACE:
            return self._why_not_place(action, where, space, top)
        return self._why_not_withdraw(action, where, space, top)

    def _why_not_reveal(self, action: Action, where: str, cell: int | None) -> str:
        if cell is None:
            return f"{where} is a guess space: only playmates (B2–E4) are revealed"
        if self.is_revealed(cell):
            return f"the playmate at {where} ({self.cells[cell]}) is already face up"
        return "a reveal names only the playmate's space, like 'reveal C3'"

    def _why_not_place(self, action: Action, where: str, space: int, top: Card) -> str:
        guess = self.guesses[space]
        if guess is not None:
            return f"{where} already holds a guess ({guess}): a space takes one card"
        if len(action.cards) != 1:
            return f"a guess is exactly one card, the deck's top card {top}"
        return f"only the deck's top card ({top}) can be placed, not {action.cards[0]}"

    def _why_not_withdraw(self, action: Action, where: str, space: int, top: Card) -> str:
        guess = self.guesses[space]
        if guess is None:
            return f"there is no guess at {where} to withdraw"
        if SUIT[guess] != SUIT[top]:
            return (
                f"withdrawing {guess} costs a {_suit_name(guess)} from the top of the deck,"
                f" and the top card is {top}"
            )
        return (
            f"a withdrawal discards the deck's top card {top} with the guess {guess}: those are"
            " its two cards"
        )

    def _describe(self, action: Action) -> str:
        if action.kind == PLACE:
            space = SPACES[SPACE_BY_LABEL[action.target]]
            card = action.cards[0]
            return (
                f"Place {card} from the deck as a guess at {space.label}, {space.name}; it scores"
                f" when a {_suit_name(card)} in {line_name(space.line, space.line_index)} is"
                " revealed."
            )
        if action.kind == REVEAL:
            cell = CELL_BY_LABEL[action.target]
            waiting = [
                f"{guess} at {SPACES[s].label}"
                for s in SPACES_OF_CELL[cell]
                if (guess := self.guesses[s]) is not None
            ]
            lines = (
                f"{line_name('column', cell_column(cell))} and {line_name('row', cell_row(cell))}"
            )
            text = f"Turn over the playmate at {action.target}"
            if waiting:
                text += f"; the guesses of its suit among {', '.join(waiting)} score"
            else:
                text += f"; no guess waits in {lines}"
            if (self.revealed | 1 << cell) == ALL_REVEALED:
                text += " (the last one: the game ends)"
            return text + "."
        space = SPACES[SPACE_BY_LABEL[action.target]]
        top, guess = action.cards
        return (
            f"Withdraw the guess {guess} from {space.label}, paying with {top} from the deck;"
            f" both are discarded and {space.label} is free again."
        )
