"""Espionage for learning libraries: each seat's hand and role, and every play of the city."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Number,
    Zone,
    singles,
    vocabulary,
)

from .rules import HAND, EspionageState, decks_for

#: Longest names first: "spy master (K♦)" must not read as "spy".
ROLES = ("counter-espionage agent", "double agent", "innocent civilian", "spy master", "spy")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(EspionageState.deck_contents(options, players))
    seats = tuple(range(players))
    # Every card a city deals but the roles and the opening hands is played at most once, and
    # each hand is played out: at most the whole deck less one role card per seat.
    plays = 52 * decks_for(players) - players
    one_seat = (Category("", seats),)
    return Encoding(
        cards=cards,
        actions=(ActionKind("play", singles(cards), seats),),
        observation=(
            Number("city", 10),
            Number("turn", 10),
            Category("first_player", seats),
            Each("scores", players, (Number("", 100),)),
            Number("threshold", 100),
            Number("draw", 52),
            Each("hand_sizes", players, (Number("", HAND),)),
            # A play: its turn, the seat playing, the seat it was played to, the card if seen.
            Each(
                "plays",
                plays,
                (Number("0", 10), Category("1", seats), Category("2", seats), Zone("3")),
            ),
            Category("role", ROLES, prefix=True),
            Zone("role"),
            Zone("hand"),
            Each("must_answer", players, one_seat),
            Each("rejected_by", players, one_seat),
            Each("you_rejected", players, one_seat),
            Each("last_city.roles", players, (Category("role", ROLES),)),
            Each("last_city.after", players, (Number("", 100),)),
        ),
    )
