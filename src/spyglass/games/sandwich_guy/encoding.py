"""The Sandwich Guy for learning libraries: any three cards of the deck make a sandwich."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Encoding,
    Number,
    Scoring,
    Zone,
    sets_of,
    vocabulary,
)

from .rules import HAND_LIMIT, MIXED, SAME_COLOUR, SAME_SUIT, SandwichGuyState

KINDS = (SAME_SUIT, SAME_COLOUR, MIXED)


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(SandwichGuyState.deck_contents(options, players))
    return Encoding(
        cards=cards,
        actions=(ActionKind("sandwich", sets_of(cards, [3])),),
        observation=(
            Zone("hand"),
            Number("hand_limit", 8),
            Number("deck", 52),
            Zone("deck_contents"),
            Zone("discard"),
            Number("deck_done"),
            *(Number(f"sandwiches.{kind}", 8) for kind in KINDS),
        ),
        # A win scores the cards left in hand (fewer is better): the hand holds at most 8.
        scoring=Scoring(won=(0, 8), text="cards left in hand"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[SandwichGuyState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view), kept
    between steps: the hand, the deck, the discard and the counters are each rewritten only
    when they change."""
    limit, deck, done = encoder.at("hand_limit"), encoder.at("deck"), encoder.at("deck_done")
    tallies = [encoder.at(f"sandwiches.{kind}") for kind in KINDS]
    kinds = itemgetter(*KINDS)

    def counters(state: SandwichGuyState, seat: int) -> tuple[Any, ...]:
        return len(state.deck), state.deck_done, kinds(state.tally)

    def write_counters(value: tuple[Any, ...]) -> dict[int, float]:
        left, finished, made = value
        out = {limit: HAND_LIMIT / 8, deck: left / 52, done: 1.0 if finished else 0.0}
        for at, count in zip(tallies, made, strict=True):
            out[at] = count / 8
        return out

    return encoder.incremental(
        encoder.zone("hand", lambda state, seat: tuple(state.hand)),
        encoder.zone("deck_contents", lambda state, seat: tuple(state.deck)),
        encoder.zone("discard", lambda state, seat: tuple(state.discard)),
        encoder.part(
            counters,
            write_counters,
            "hand_limit",
            "deck",
            "deck_done",
            *(f"sandwiches.{kind}" for kind in KINDS),
        ),
    )
