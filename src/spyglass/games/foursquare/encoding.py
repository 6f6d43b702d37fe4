"""Foursquare for learning libraries: piles on a fixed 7x7 frame, A1 to G7."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    """The observation straight from the state (the view's features, without the view), kept
    between steps: a pile is rewritten only when a card lands on it."""
    piles, tops, closed, deck = (
        encoder.at(p) for p in ("piles", "face_down_tops", "closed", "deck")
    )
    zone = len(encoder.cards) + 2
    stride = zone + 1  # a pile's cards, then whether its top is face down
    # Pile indices in the order of the spaces (A1, B1, ...), and each flag's entry.
    order = [LABEL.index(space) for space in SPACES]
    flag = {index: piles + SPACES.index(label) * stride + zone for index, label in enumerate(LABEL)}
    slot = encoder.card_slots

    def pile_cards(pile: tuple[Any, ...] | None) -> list[int]:
        return [] if pile is None else [slot[c] for c in pile]

    def down(state: FoursquareState, seat: int) -> tuple[int, int]:
        return state.down, len(state.deck)

    def write_down(value: tuple[int, int]) -> dict[int, float]:
        bits, left = value
        out = {flag[i]: 1.0 for i in flag if bits >> i & 1}
        out[tops] = out[closed] = bits.bit_count() / 4
        out[deck] = left / 40
        return out

    return encoder.incremental(
        encoder.zone("card", lambda state, seat: () if state.card is None else (state.card,)),
        encoder.items(
            "piles", lambda state, seat: tuple(map(state.piles.get, order)), pile_cards, width=zone
        ),
        encoder.part(
            down,
            write_down,
            *((at, at + 1) for at in flag.values()),
            "face_down_tops",
            "closed",
            "deck",
        ),
        encoder.zone("deck_contents", lambda state, seat: tuple(state.deck)),
    )
