"""Boba Tea for learning libraries: four queues of customers and the place chosen in them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Keys,
    Number,
    Scoring,
    Zone,
    singles,
    vocabulary,
)

from .rules import QUEUES, BobaTeaState

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: A position in a queue of k cards is 0..k; no queue can hold more than the whole deck.
POSITIONS = 53


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(BobaTeaState.deck_contents(options, players))
    queues = tuple(range(1, QUEUES + 1))
    return Encoding(
        cards=cards,
        actions=(
            # The cards of a target are its neighbours in the queue: the place decides them.
            ActionKind(
                "target",
                targets=tuple((q, p) for q in queues for p in range(POSITIONS)),
                by_target=True,
            ),
            ActionKind("stay", singles(cards), queues),
            ActionKind("kick", singles(cards), queues),
        ),
        observation=(
            Category("phase", ("choose a target", "rude customer", "over")),
            # A queue's note names the cards beside the chosen place; "target" names its queue.
            Each("queues", QUEUES, (Zone("cards"), Zone("note"))),
            Number("target", bounds=(0, 4)),
            Zone("drawn"),
            Number("customers", 13, (0, 4)),
            Number("deck", 52),
            Zone("deck_contents"),
            Zone("discard"),
            Each("discard_rows", 4, (Zone("cards"),)),
            Keys("discarded_by_rank", RANKS, (Number("", 4),)),
        ),
        # A win scores the customers in the queues.
        scoring=Scoring(won=(0, 52), text="customers in the queues"),
    )
