"""Tinker, Sailor, Soldier, Spy for learning libraries: challengers paid with suit chips."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any

from spyglass.engine.encoding import (
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
    """The observation straight from the state (the view's features, without the view), kept
    between steps: the fight, each pile and the counters are rewritten only when they
    change."""
    at = encoder.at
    rounds, payment, row, tally, chips, deck, piles = (
        at(p)
        for p in (
            "round",
            "payment",
            "second_row",
            "chips in the second row",
            "chips",
            "deck",
            "piles",
        )
    )
    marks = row + len(encoder.cards) + 1  # a chip in the second row is no card
    slot = encoder.card_slots
    suits = itemgetter(*SUITS)

    def fight(state: TinkerSailorSoldierSpyState, seat: int) -> tuple[Any, ...]:
        paid = None if state.challenger is None else state.paid
        return tuple(state.fight_cards), tuple(state.fight_chips), paid

    def write_fight(value: tuple[Any, ...]) -> dict[int, float]:
        cards, laid_chips, paid = value
        out = {row + slot[c]: 1.0 for c in cards}
        laid = laid_chips[: max(0, len(cards) - 1)]
        out[marks] = len(laid)
        for k, suit in enumerate(SUITS):
            out[tally + k] = laid.count(suit) / 6
        out[payment] = 0.0 if paid is None else paid / 12
        return out

    def counters(state: TinkerSailorSoldierSpyState, seat: int) -> tuple[Any, ...]:
        left = (state.aces, state.personalities, state.events, state.locations)
        return state.round, suits(state.chips), len(state.deck), *map(len, left)

    def write_counters(value: tuple[Any, ...]) -> dict[int, float]:
        out = {rounds: value[0] / 2, deck: value[2] / 45}
        for k, count in enumerate(value[1]):
            out[chips + k] = count / 6
        for k, count in enumerate(value[3:]):
            out[piles + k] = count / 13
        return out

    def card(state: TinkerSailorSoldierSpyState, seat: int) -> tuple[Any, ...]:
        return () if state.challenger is None else (state.challenger,)

    return encoder.incremental(
        encoder.zone("revealed", lambda state, seat: tuple(state.revealed)),
        encoder.zone("challenger", card),
        encoder.part(fight, write_fight, "payment", "second_row", "chips in the second row"),
        encoder.part(counters, write_counters, "round", "chips", "deck", "piles"),
        encoder.zone("deck_contents", lambda state, seat: tuple(state.deck)),
        encoder.zone("discard", lambda state, seat: tuple(state.discard)),
        encoder.zone("trash", lambda state, seat: tuple(state.trash)),
    )
