"""Loot the Loop for learning libraries: the loop of the temple, row by row of ten."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Each,
    Encoding,
    Number,
    Scoring,
    Zone,
    singles,
    vocabulary,
)

from .rules import NOTES_LIMIT, REACH, LootTheLoopState


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(LootTheLoopState.deck_contents(options, players))
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("look"),
            # Exploring names a distance; the trinkets that offer it follow from the table.
            ActionKind("explore", targets=tuple(range(15)), by_target=True),
            ActionKind("mark", singles(cards)),
            ActionKind("return", singles(cards)),
        ),
        observation=(
            Each("reach.cells.0", 11, (Zone(""),)),
            Each("loop", 6, (Each("cards", 10, (Zone(""),)),)),
            Number("deck", 53),
            Number("face_down", 53),
            Zone("notes"),
            Number("notes_limit", 3),
            Zone("score_pile"),
            Number("jewels", 4),
        ),
        # A win scores the cards nabbed, the four jewels among them.
        scoring=Scoring(won=(4, 53), text="cards nabbed"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[LootTheLoopState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view)."""
    at = encoder.at
    reach, loop, deck, face_down, notes, limit, pile, jewels = (
        at(p)
        for p in (
            "reach.cells.0",
            "loop",
            "deck",
            "face_down",
            "notes",
            "notes_limit",
            "score_pile",
            "jewels",
        )
    )
    n = len(encoder.cards)
    zone = n + 2
    slot = encoder.card_slots
    put = encoder.put_ones

    def observe(state: LootTheLoopState, seat: int, out: Any) -> None:
        shown = state.loop.shown
        ones: list[int] = []
        for k, card in enumerate(shown[:REACH]):
            ones.append(reach + k * zone + (n if card is None else slot[card]))
        # The loop row by row of ten: a face-down card shows nothing there.
        ones += [loop + k * zone + slot[c] for k, c in enumerate(shown) if c is not None]
        ones += [notes + slot[c] for c in state.notes]
        ones += [pile + slot[c] for c in state.score_pile]
        put(out, ones)
        out[deck] = len(state.loop) / 53
        out[face_down] = state.loop.face_down_count() / 53
        out[limit] = NOTES_LIMIT / 3
        out[jewels] = state.jewels / 4

    return observe
