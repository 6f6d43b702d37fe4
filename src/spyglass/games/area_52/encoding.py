"""Area 52 for learning libraries: defenders fight alone, in pairs, or are sacrificed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Encoding,
    Number,
    Zone,
    sets_of,
    singles,
    vocabulary,
)

from .rules import Area52State


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    decks = Area52State.deck_contents(options, players)
    cards = vocabulary(decks)
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("single", singles(cards)),  # the colours swap roles in wave 2
            ActionKind("sacrifice", singles(cards)),
            ActionKind("dual", sets_of(cards, [2])),
        ),
        observation=(
            Number("wave"),
            Zone("attackers"),
            Zone("defenders"),
            Number("defender_deck", 26),
            Number("alien_deck", 26),
            Zone("alien_deck_back"),
            Zone("discard"),
        ),
    )
