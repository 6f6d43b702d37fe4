"""The Emissary for learning libraries: eight kingdoms, a hand, advisors and supporters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Number,
    Scoring,
    Zone,
    sets_of,
    singles,
    vocabulary,
)

from .rules import JACKS, KINGDOMS, EmissaryState

PHASES = ("choose", "gap", "respond", "discard", "over")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    decks = EmissaryState.deck_contents(options, players)
    # The jacks are the advisors: they are dealt out of no deck, yet they are cards.
    cards = vocabulary(decks, *JACKS)
    kingdoms = tuple(range(1, KINGDOMS + 1))
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("visit", targets=kingdoms),
            ActionKind("debate"),
            ActionKind("ability", singles([*decks["rulers"], *JACKS]), (None, *kingdoms)),
            ActionKind("answer", singles(decks["deck"])),
            ActionKind("discard", sets_of(decks["deck"], [2])),
        ),
        observation=(
            Category("phase", PHASES),
            Each(
                "kingdoms",
                KINGDOMS,
                (Zone("cards"), Category("state", ("unvisited", "visiting", "won"))),
            ),
            Category("visiting", kingdoms),
            Category("trump", ("S", "H", "C", "D")),
            Number("wins", 8),
            Zone("topic"),
            Zone("hand"),
            Each("allies", 2, (Zone("cards"),)),
            Zone("advisors_ready"),
            Zone("supporters_ready"),
            Zone("supporters_spent"),
            Zone("won_here"),
            Number("deck", 32),
            Zone("deck_contents"),
            Zone("discard"),
            Number("score", 8, bounds=(0, 2)),
        ),
        # Kingdoms won plus supporters unused: a win has all eight kingdoms.
        scoring=Scoring(won=(8, 16), lost=(0, 15), text="kingdoms won plus supporters unused"),
    )
