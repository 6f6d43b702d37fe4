"""The Sandwich Guy for learning libraries: any three cards of the deck make a sandwich."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Encoding,
    Number,
    Scoring,
    Zone,
    sets_of,
    vocabulary,
)

from .rules import SandwichGuyState


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(SandwichGuyState.deck_contents(options, players))
    return Encoding(
        cards=cards,
        actions=(ActionKind("sandwich", sets_of(cards, [3])),),
        observation=(
            Zone("hand"),
            Number("hand_limit", 8),
            Number("deck", 52),
            Zone("deck_contents"),
            Zone("discard"),
            Number("deck_done"),
            Number("sandwiches.same suit", 8),
            Number("sandwiches.same colour", 8),
            Number("sandwiches.mixed colours", 8),
        ),
        # A win scores the cards left in hand (fewer is better): the hand holds at most 8.
        scoring=Scoring(won=(0, 8)),
    )
