"""Loot the Loop for learning libraries: the loop of the temple, row by row of ten."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.encoding import (
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
    """The observation straight from the state (the view's features, without the view), kept
    between steps: the loop, the notes, the score pile and the counters are each rewritten
    only when they change."""
    at = encoder.at
    reach, loop, deck, face_down, limit, jewels = (
        at(p) for p in ("reach.cells.0", "loop", "deck", "face_down", "notes_limit", "jewels")
    )
    n = len(encoder.cards)
    zone = n + 2
    slot = encoder.card_slots

    def write_loop(shown: tuple[Any, ...]) -> list[int]:
        ones = [reach + k * zone + (n if card is None else slot[card]) for k, card in
                enumerate(shown[:REACH])]  # fmt: skip
        # The loop row by row of ten: a face-down card shows nothing there.
        ones += [loop + k * zone + slot[c] for k, c in enumerate(shown) if c is not None]
        return ones

    def counters(state: LootTheLoopState, seat: int) -> tuple[int, int, int]:
        return len(state.loop), state.loop.face_down_count(), state.jewels

    def write_counters(value: tuple[int, int, int]) -> dict[int, float]:
        cards, down, found = value
        return {deck: cards / 53, face_down: down / 53, limit: NOTES_LIMIT / 3, jewels: found / 4}

    return encoder.incremental(
        encoder.part(
            lambda state, seat: tuple(state.loop.shown), write_loop, "reach.cells.0", "loop"
        ),
        encoder.zone("notes", lambda state, seat: tuple(state.notes)),
        encoder.zone("score_pile", lambda state, seat: tuple(state.score_pile)),
        encoder.part(counters, write_counters, "deck", "face_down", "notes_limit", "jewels"),
    )
