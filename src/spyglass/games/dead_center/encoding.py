"""Dead Center for learning libraries: the 5x5 board, its cabin piles and its zombies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Category,
    Encoding,
    Keys,
    Number,
    Scoring,
    Zone,
    grid_zones,
    singles,
    vocabulary,
)

from .rules import DeadCenterState

CABIN = ("B2", "C2", "D2", "B3", "C3", "D3", "B4", "C4", "D4")
OUTSIDE = ("B1", "C1", "D1", "A2", "E2", "A3", "E3", "A4", "E4", "B5", "C5", "D5")
PHASES = ("reveal", "play", "kill", "over")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    decks = DeadCenterState.deck_contents(options, players)
    cards = vocabulary(decks)
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("reveal", targets=OUTSIDE),
            ActionKind("play", singles(decks["deck"]), CABIN),
            ActionKind("kill", singles(decks["zombies"]), OUTSIDE),
            ActionKind("pass"),
        ),
        observation=(
            grid_zones("board", 5, 5),
            Keys("cabin", CABIN, (Zone(""),)),
            Keys("zombies", OUTSIDE, (Zone(""),)),
            Category("phase", PHASES),
            Category("played", CABIN),
            Number("turn", 50),
            Zone("drawn"),
            Number("deck", 54),
            Zone("face_down"),
            Zone("killed"),
        ),
        # A win scores the cards left in the deck: 54 less the 9 cabin cards and the 12 zombies.
        scoring=Scoring(won=(0, 33), text="cards left in the deck"),
    )
