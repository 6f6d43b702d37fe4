"""Hide and Seek for learning libraries: a 6x5 playground with hiders inside and seekers out."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
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
    """The observation straight from the state (the view's features, without the view)."""
    ground, deck, discard, pile = (
        encoder.at(p) for p in ("playground.cells", "deck", "discard", "score_pile")
    )
    score, needed, face_down = (encoder.at(f"status.{p}") for p in ("score", "needed", "face_down"))
    n = len(encoder.cards)
    zone = n + 2

    def frame_at(row: int, col: int) -> int:
        return ground + (row * FRAME_COLUMNS + col) * zone

    corners = [frame_at(r, c) + n + 1 for r, c in CORNER_FRAMES]  # a mark, not a space
    cells = [frame_at(*cell_frame(k)) for k in range(CELLS)]
    spaces = [(space.index, frame_at(*space.frame)) for space in SPACES]
    slot = encoder.card_slots
    cards = encoder.put_cards

    def observe(state: HideAndSeekState, seat: int, out: Any) -> None:
        # Straight into ``out`` (a memoryview): one store per entry, no list in between.
        for at in corners:
            out[at] = 1.0
        revealed = state.revealed
        for k, card in enumerate(state.cells):
            out[cells[k] + slot[card] if revealed >> k & 1 else cells[k] + n] = 1.0
        guesses = state.guesses
        for i, at in spaces:
            if guesses[i] is not None:
                out[at + slot[guesses[i]]] = 1.0
        if state.deck:
            out[deck + slot[state.deck[-1]]] = 1.0
        cards(out, discard, state.discard)
        cards(out, pile, state.score_pile)
        out[deck + n] = max(0, len(state.deck) - 1)
        out[score] = len(state.score_pile) / 20
        out[needed] = WINNING_SCORE / 20
        out[face_down] = (CELLS - revealed.bit_count()) / 12

    return observe
