"""Tinker, Sailor, Soldier, Spy for learning libraries: challengers paid with suit chips."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Encoding,
    Keys,
    Number,
    Scoring,
    Tally,
    Zone,
    singles,
    vocabulary,
)

from .rules import TinkerSailorSoldierSpyState

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
CHIPS = tuple(f"{suit} chip" for suit in SUITS)
PILES = ("aces", "personalities", "events", "locations")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(TinkerSailorSoldierSpyState.deck_contents(options, players))
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("fight", singles(cards)),
            ActionKind("chip", targets=SUITS),
            ActionKind("give-up"),
        ),
        observation=(
            Number("round", 2),
            Zone("revealed"),
            Zone("challenger"),
            Number("payment", 12),
            Zone("second_row"),
            # The chips laid in the second row this fight ("Moons chip"), by suit.
            Tally("second_row", CHIPS, 6, name="chips in the second row"),
            Keys("chips", SUITS, (Number("", 6),)),
            Number("deck", 45),
            Zone("deck_contents"),
            Zone("discard"),
            Zone("trash"),
            Keys("piles", PILES, (Number("", 13),)),
        ),
        # A win scores the suit chips left: six suits of six at most.
        scoring=Scoring(won=(0, 36), text="suit chips left"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[TinkerSailorSoldierSpyState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view)."""
    at = encoder.at
    rounds, revealed, challenger, payment, row = (
        at(p) for p in ("round", "revealed", "challenger", "payment", "second_row")
    )
    tally = at("chips in the second row")
    chips, deck, contents, discard, trash, piles = (
        at(p) for p in ("chips", "deck", "deck_contents", "discard", "trash", "piles")
    )
    marks = row + len(encoder.cards) + 1  # a chip in the second row is no card
    slot = encoder.card_slots
    put = encoder.put_ones

    def observe(state: TinkerSailorSoldierSpyState, seat: int, out: Any) -> None:
        ones = [revealed + slot[c] for c in state.revealed]
        if state.challenger is not None:
            ones.append(challenger + slot[state.challenger])
        ones += [row + slot[c] for c in state.fight_cards]
        ones += [contents + slot[c] for c in state.deck]
        ones += [discard + slot[c] for c in state.discard]
        ones += [trash + slot[c] for c in state.trash]
        put(out, ones)
        out[rounds] = state.round / 2
        out[payment] = 0.0 if state.challenger is None else state.paid / 12
        laid = state.fight_chips[: max(0, len(state.fight_cards) - 1)]
        out[marks] = len(laid)
        for k, suit in enumerate(SUITS):
            out[chips + k] = state.chips[suit] / 6
            out[tally + k] = laid.count(suit) / 6
        out[deck] = len(state.deck) / 45
        for k, pile in enumerate((state.aces, state.personalities, state.events, state.locations)):
            out[piles + k] = len(pile) / 13

    return observe
