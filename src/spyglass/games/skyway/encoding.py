"""Skyway for learning libraries: blueprints drafted onto a 3x3 play area."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Each,
    Encoding,
    Keys,
    Number,
    Scoring,
    Zone,
    grid_names,
    grid_zones,
    sets_of,
    vocabulary,
)

from .rules import SkywayState

SPACES = grid_names("ABC", range(1, 4))
SUITS = ("♠", "♥", "♣", "♦")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(SkywayState.deck_contents(options, players))
    return Encoding(
        cards=cards,
        actions=(ActionKind("draft", sets_of(cards, [1, 2]), SPACES),),
        observation=(
            Number("round", 3),
            Each("market", 3, (Zone("cards"),)),
            grid_zones("play_area", 3, 3),
            Keys("runs", SUITS, (Number("", 10),)),
            Number("deck", 40),
            Zone("deck_contents"),
            Zone("discard"),
            Number("last_turn"),
        ),
        # A win needs a run of 5 in each of the four suits; a run holds at most its suit's 10 cards.
        scoring=Scoring(won=(20, 40), text="the four suits' longest runs, added"),
    )
