"""Loot the Loop for learning libraries: the loop of the temple, row by row of ten."""

from __future__ import annotations

from collections.abc import Mapping
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

from .rules import LootTheLoopState


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
    )
