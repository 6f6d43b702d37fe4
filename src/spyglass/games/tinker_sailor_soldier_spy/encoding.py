"""Tinker, Sailor, Soldier, Spy for learning libraries: challengers paid with suit chips."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Encoding,
    Keys,
    Number,
    Scoring,
    Tally,
    Zone,
    singles,
    vocabulary,
)

from .rules import TinkerSailorSoldierSpyState

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
PILES = ("aces", "personalities", "events", "locations")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(TinkerSailorSoldierSpyState.deck_contents(options, players))
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("fight", singles(cards)),
            ActionKind("chip", targets=SUITS),
            ActionKind("give-up"),
        ),
        observation=(
            Number("round", 2),
            Zone("revealed"),
            Zone("challenger"),
            Number("payment", 12),
            Zone("second_row"),
            # The chips laid in the second row this fight ("Moons chip"), by suit.
            Tally("second_row", tuple(f"{suit} chip" for suit in SUITS), 6),
            Keys("chips", SUITS, (Number("", 6),)),
            Number("deck", 45),
            Zone("deck_contents"),
            Zone("discard"),
            Zone("trash"),
            Keys("piles", PILES, (Number("", 13),)),
        ),
        # A win scores the suit chips left: six suits of six at most.
        scoring=Scoring(won=(0, 36)),
    )
