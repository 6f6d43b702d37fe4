"""Skyway for learning libraries: blueprints drafted onto a 3x3 play area."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Each,
    Encoding,
    Keys,
    Number,
    Scoring,
    Zone,
    grid_names,
    grid_zones,
    sets_of,
    vocabulary,
)

from .rules import SkywayState
from .scoring import COLS

SPACES = grid_names("ABC", range(1, 4))
SUITS = ("♠", "♥", "♣", "♦")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(SkywayState.deck_contents(options, players))
    return Encoding(
        cards=cards,
        actions=(ActionKind("draft", sets_of(cards, [1, 2]), SPACES),),
        observation=(
            Number("round", 3),  # "2 of 3, last turn": the round's number
            Each("market", 3, (Zone("cards"),)),
            grid_zones("play_area", 3, 3),
            Keys("runs", SUITS, (Number("", 10),)),
            Number("deck", 40),
            Zone("deck_contents"),
            Zone("discard"),
            Number("last_turn"),
        ),
        # A win needs a run of 5 in each of the four suits; a run holds at most its suit's 10 cards.
        scoring=Scoring(won=(20, 40), text="the four suits' longest runs, added"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[SkywayState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view), kept
    between steps: each blueprint, each stack of the play area, the runs (which the state
    keeps as cards are placed), the piles and the counters are rewritten only when they
    change."""
    rounds, area, run, deck, last = (
        encoder.at(p) for p in ("round", "play_area.cells", "runs", "deck", "last_turn")
    )
    zone = len(encoder.cards) + 2
    slot = encoder.card_slots

    def cards(stack: tuple[Any, ...]) -> list[int]:
        return [slot[c] for c in stack]

    def write_runs(lengths: tuple[int, ...]) -> dict[int, float]:
        return {run + k: n / 10 for k, n in enumerate(lengths)}

    def counters(state: SkywayState, seat: int) -> tuple[int, int, bool]:
        return state.round, len(state.deck), state.last_turn

    def write_counters(value: tuple[int, int, bool]) -> dict[int, float]:
        passes, left, final = value
        return {rounds: passes / 3, deck: left / 40, last: 1.0 if final else 0.0}

    return encoder.incremental(
        encoder.items("market", lambda state, seat: tuple(state.market[:3]), cards),
        # The play area's cells row by row, as the view's grid lists them (three columns).
        encoder.items_at(
            area, zone, COLS * COLS, lambda state, seat: tuple(map(tuple, state.grid)), cards
        ),
        encoder.part(lambda state, seat: state.run_lengths, write_runs, "runs"),
        encoder.part(counters, write_counters, "round", "deck", "last_turn"),
        encoder.zone("deck_contents", lambda state, seat: tuple(state.deck)),
        encoder.zone("discard", lambda state, seat: tuple(state.discard)),
    )
