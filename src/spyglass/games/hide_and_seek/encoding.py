"""Hide and Seek for learning libraries: a 6x5 playground with hiders inside and seekers out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Encoding,
    Number,
    Scoring,
    Zone,
    grid_names,
    grid_zones,
    vocabulary,
)

from .playground import CELLS, CORNER_FRAMES, FRAME_COLUMNS, SPACES, cell_frame
from .rules import WINNING_SCORE, HideAndSeekState

INSIDE = grid_names("BCDE", range(2, 5))
OUTSIDE = ("B1", "C1", "D1", "E1", "A2", "F2", "A3", "F3", "A4", "F4", "B5", "C5", "D5", "E5")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(HideAndSeekState.deck_contents(options, players))
    # Every action carries the cards of the places it names (the deck's top, the guess there).
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("place", targets=OUTSIDE, by_target=True),
            ActionKind("reveal", targets=INSIDE, by_target=True),
            ActionKind("withdraw", targets=OUTSIDE, by_target=True),
        ),
        observation=(
            grid_zones("playground", 5, 6),
            Zone("deck"),
            Zone("discard"),
            Zone("score_pile"),
            Number("status.score", 20, bounds=(0, 2)),
            Number("status.needed", 20),
            Number("status.face_down", 12),
        ),
        # The score pile: 20 of the 40 number cards win.
        scoring=Scoring(won=(20, 40), lost=(0, 19), text="cards in the score pile"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[HideAndSeekState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view), kept
    between steps: the playground's cells, its spaces, the piles and the status are each
    rewritten only when they change."""
    ground, deck = encoder.at("playground.cells"), encoder.at("deck")
    score, needed, face_down = (encoder.at(f"status.{p}") for p in ("score", "needed", "face_down"))
    n = len(encoder.cards)
    zone = n + 2

    def frame_at(row: int, col: int) -> int:
        return ground + (row * FRAME_COLUMNS + col) * zone

    corner_frames = [frame_at(r, c) for r, c in CORNER_FRAMES]
    corners = [at + n + 1 for at in corner_frames]  # a mark, not a space
    cells = [frame_at(*cell_frame(k)) for k in range(CELLS)]
    spaces = [(space.index, frame_at(*space.frame)) for space in SPACES]
    slot = encoder.card_slots

    def write_cells(value: tuple[int, tuple[Any, ...]]) -> list[int]:
        revealed, hidden = value
        ones = list(corners)
        for k, card in enumerate(hidden):
            ones.append(cells[k] + slot[card] if revealed >> k & 1 else cells[k] + n)
        return ones

    def write_spaces(guesses: tuple[Any, ...]) -> list[int]:
        return [at + slot[guesses[i]] for i, at in spaces if guesses[i] is not None]

    def top(state: HideAndSeekState, seat: int) -> tuple[Any, int]:
        cards = state.deck
        return (cards[-1], len(cards)) if cards else (None, 0)

    def write_deck(value: tuple[Any, int]) -> dict[int, float]:
        card, size = value
        out = {deck + n: float(max(0, size - 1))}
        if card is not None:
            out[deck + slot[card]] = 1.0
        return out

    def status(state: HideAndSeekState, seat: int) -> tuple[int, int]:
        return len(state.score_pile), state.revealed

    def write_status(value: tuple[int, int]) -> dict[int, float]:
        scored, revealed = value
        return {
            score: scored / 20,
            needed: WINNING_SCORE / 20,
            face_down: (CELLS - revealed.bit_count()) / 12,
        }

    return encoder.incremental(
        encoder.part(
            lambda state, seat: (state.revealed, state.cells),
            write_cells,
            *((at, at + zone) for at in cells + corner_frames),
        ),
        encoder.part(
            lambda state, seat: tuple(state.guesses),
            write_spaces,
            *((at, at + zone) for _, at in spaces),
        ),
        encoder.part(top, write_deck, "deck"),
        encoder.zone("discard", lambda state, seat: tuple(state.discard)),
        encoder.zone("score_pile", lambda state, seat: tuple(state.score_pile)),
        encoder.part(status, write_status, "status.score", "status.needed", "status.face_down"),
    )
