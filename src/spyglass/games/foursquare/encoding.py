"""Foursquare for learning libraries: piles on a fixed 7x7 frame, A1 to G7."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Encoding,
    Keys,
    Number,
    Scoring,
    Zone,
    grid_names,
    singles,
    vocabulary,
)

from .rules import FoursquareState

SPACES = grid_names("ABCDEFG", range(1, 8))


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(FoursquareState.deck_contents(options, players))
    return Encoding(
        cards=cards,
        actions=(ActionKind("place", singles(cards), SPACES),),
        observation=(
            Zone("card"),
            # A face-down pile shows its named card: the pile's cards are all known to the player.
            Keys("piles", SPACES, (Zone("cards"), Number("face_down"))),
            Number("face_down_tops", 4),
            Number("closed", 4),
            Number("deck", 40),
            Zone("deck_contents"),
        ),
        # A win scores the cards left in the deck.
        scoring=Scoring(won=(0, 40), text="cards left in the deck"),
    )
