"""Skyway for learning libraries: blueprints drafted onto a 3x3 play area."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
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
from .scoring import SPACES as CELLS

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
    """The observation straight from the state (the view's features, without the view)."""
    rounds, market, area, run, deck, contents, discard, last = (
        encoder.at(p)
        for p in (
            "round",
            "market",
            "play_area.cells",
            "runs",
            "deck",
            "deck_contents",
            "discard",
            "last_turn",
        )
    )
    zone = len(encoder.cards) + 2
    bases = (market, market + zone, market + 2 * zone)
    # The play area's cells row by row, as the view's grid lists them.
    cells = tuple(area + (i // COLS * 3 + i % COLS) * zone for i in range(CELLS))
    slot = encoder.card_slots
    cards = encoder.put_cards

    def observe(state: SkywayState, seat: int, out: Any) -> None:
        # Straight into ``out`` (a memoryview): one store per entry, no list in between.
        for base, blueprint in zip(bases, state.market, strict=False):
            for c in blueprint:
                out[base + slot[c]] = 1.0
        for at, stack in zip(cells, state.grid, strict=True):
            for c in stack:
                out[at + slot[c]] = 1.0
        cards(out, contents, state.deck)
        cards(out, discard, state.discard)
        out[rounds] = state.round / 3
        # Kept by the state as cards are placed (only the suits a placement changed are
        # counted again).
        spades, hearts, clubs, diamonds = state.run_lengths
        out[run] = spades / 10
        out[run + 1] = hearts / 10
        out[run + 2] = clubs / 10
        out[run + 3] = diamonds / 10
        out[deck] = len(state.deck) / 40
        out[last] = 1.0 if state.last_turn else 0.0

    return observe
