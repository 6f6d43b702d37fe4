"""The Sandwich Guy for learning libraries: any three cards of the deck make a sandwich."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
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
    """The observation straight from the state (the view's features, without the view)."""
    hand, deck, contents, discard = (
        encoder.at(p) for p in ("hand", "deck", "deck_contents", "discard")
    )
    limit, done = encoder.at("hand_limit"), encoder.at("deck_done")
    tallies = [(encoder.at(f"sandwiches.{kind}"), kind) for kind in KINDS]
    slot = encoder.card_slots
    put = encoder.put_ones

    def observe(state: SandwichGuyState, seat: int, out: Any) -> None:
        ones = [hand + slot[c] for c in state.hand]
        ones += [contents + slot[c] for c in state.deck]
        ones += [discard + slot[c] for c in state.discard]
        put(out, ones)
        out[limit] = HAND_LIMIT / 8
        out[deck] = len(state.deck) / 52
        out[done] = 1.0 if state.deck_done else 0.0
        for at, kind in tallies:
            out[at] = state.tally[kind] / 8

    return observe
