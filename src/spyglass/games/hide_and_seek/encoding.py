"""Hide and Seek for learning libraries: a 6x5 playground with hiders inside and seekers out."""

from __future__ import annotations

from collections.abc import Mapping
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

from .rules import HideAndSeekState

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
    )
