"""Foursquare for learning libraries: piles on a fixed 7x7 frame, A1 to G7."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
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

from .frame import LABEL
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
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[FoursquareState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view)."""
    card, piles, tops, closed, deck, contents = (
        encoder.at(p)
        for p in ("card", "piles", "face_down_tops", "closed", "deck", "deck_contents")
    )
    zone = len(encoder.cards) + 2
    stride = zone + 1  # a pile's cards, then whether its top is face down
    place = {index: piles + SPACES.index(label) * stride for index, label in enumerate(LABEL)}
    slot = encoder.card_slots
    put = encoder.put_ones

    def observe(state: FoursquareState, seat: int, out: Any) -> None:
        ones = [card + slot[state.card]] if state.card is not None else []
        down = state.down
        for index, pile in state.piles.items():
            at = place[index]
            ones += [at + slot[c] for c in pile]
            if down >> index & 1:
                ones.append(at + zone)
        ones += [contents + slot[c] for c in state.deck]
        put(out, ones)
        count = down.bit_count()
        out[tops] = count / 4
        out[closed] = count / 4
        out[deck] = len(state.deck) / 40

    return observe
