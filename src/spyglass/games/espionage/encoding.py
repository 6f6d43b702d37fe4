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
    Scoring,
    Zone,
    singles,
    vocabulary,
)

from .rules import HAND, EspionageState, decks_for

#: Longest names first: "spy master (K♦)" must not read as "spy".
#: A seat's points over 100: they can go below zero, and past the threshold (at most 600 in a
#: long game for three) by what one city brings.
POINTS = (-6.0, 10.0)
ROLES = ("counter-espionage agent", "double agent", "innocent civilian", "spy master", "spy")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(EspionageState.deck_contents(options, players))
    seats = tuple(range(players))
    # Every card a city deals but the roles and the opening hands is played at most once, and
    # each hand is played out: at most the whole deck less one role card per seat.
    cards_dealt = 52 * decks_for(players)
    plays = cards_dealt - players
    turns = (0.0, 1 + cards_dealt / players / 10)
    one_seat = (Category("", seats),)
    return Encoding(
        cards=cards,
        actions=(ActionKind("play", singles(cards), seats),),
        observation=(
            Number("city", 10, (0, options["city_limit"] / 10)),
            Number("turn", 10, turns),
            Category("first_player", seats),
            Each("scores", players, (Number("", 100, POINTS),)),
            Number("threshold", 100, bounds=(0, 6)),
            Number("draw", 52, (0, decks_for(players))),
            Each("hand_sizes", players, (Number("", HAND),)),
            # A play: its turn, the seat playing, the seat it was played to, the card if seen.
            Each(
                "plays",
                plays,
                (
                    Number("0", 10, turns, name="turn"),
                    Category("1", seats, name="seat playing"),
                    Category("2", seats, name="seat played to"),
                    Zone("3", name="card"),
                ),
            ),
            Category("role", ROLES, prefix=True),
            Zone("role"),
            Zone("hand"),
            Each("must_answer", players, one_seat),
            Each("rejected_by", players, one_seat),
            Each("you_rejected", players, one_seat),
            Each("last_city.roles", players, (Category("role", ROLES),)),
            Each("last_city.after", players, (Number("", 100, POINTS),)),
        ),
        # A seat's points over the cities (they can be negative).
        scoring=Scoring(points=(-150, 350), text="points over the cities"),
    )
