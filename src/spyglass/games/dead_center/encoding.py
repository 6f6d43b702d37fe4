"""Dead Center for learning libraries: the 5x5 board, its cabin piles and its zombies."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Category,
    Encoding,
    Keys,
    Number,
    Scoring,
    Zone,
    grid_zones,
    singles,
    vocabulary,
)

from .cabin import FRAME, PILE_LABELS, PILES, SPACE_LABELS, SPACES
from .rules import DeadCenterState

CABIN = ("B2", "C2", "D2", "B3", "C3", "D3", "B4", "C4", "D4")
OUTSIDE = ("B1", "C1", "D1", "A2", "E2", "A3", "E3", "A4", "E4", "B5", "C5", "D5")
PHASES = ("reveal", "play", "kill", "over")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    decks = DeadCenterState.deck_contents(options, players)
    cards = vocabulary(decks)
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("reveal", targets=OUTSIDE),
            ActionKind("play", singles(decks["deck"]), CABIN),
            ActionKind("kill", singles(decks["zombies"]), OUTSIDE),
            ActionKind("pass"),
        ),
        observation=(
            grid_zones("board", 5, 5),
            Keys("cabin", CABIN, (Zone(""),)),
            Keys("zombies", OUTSIDE, (Zone(""),)),
            Category("phase", PHASES),
            Category("played", CABIN),
            Number("turn", 50),
            Zone("drawn"),
            Number("deck", 54),
            Zone("face_down"),
            Zone("killed"),
        ),
        # A win scores the cards left in the deck: 54 less the 9 cabin cards and the 12 zombies.
        scoring=Scoring(won=(0, 33), text="cards left in the deck"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[DeadCenterState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view)."""
    at = encoder.at
    board, cabin, zombies, phase, played, turn, drawn, deck, face_down, killed = (
        at(p)
        for p in (
            "board.cells",
            "cabin",
            "zombies",
            "phase",
            "played",
            "turn",
            "drawn",
            "deck",
            "face_down",
            "killed",
        )
    )
    n = len(encoder.cards)
    zone = n + 2
    pile_cell = [board + (r * FRAME + c) * zone for r, c in PILES]
    space_cell = [board + (r * FRAME + c) * zone for r, c in SPACES]
    pile_key = [cabin + CABIN.index(label) * zone for label in PILE_LABELS]
    space_key = [zombies + OUTSIDE.index(label) * zone for label in SPACE_LABELS]
    phases = {p: phase + i for i, p in enumerate(PHASES)}
    slot = encoder.card_slots
    cards = encoder.put_cards

    def observe(state: DeadCenterState, seat: int, out: Any) -> None:
        # Straight into ``out`` (a memoryview): one store per entry, no list in between.
        for i, pile in enumerate(state.piles):
            out[pile_cell[i] + slot[pile[-1]]] = 1.0
            key = pile_key[i]
            for c in pile:
                out[key + slot[c]] = 1.0
        alive, down, ring = state.alive, state.face_down, state.ring
        for j in range(len(SPACES)):
            if not alive >> j & 1:
                out[space_key[j] + n + 1] = 1.0  # "killed": a mark
            elif down >> j & 1:
                out[space_cell[j] + n] = 1.0  # face down on the board, absent from the keys
                out[face_down + slot[ring[j]]] = 1.0
            else:
                card = slot[ring[j]]
                out[space_cell[j] + card] = 1.0
                out[space_key[j] + card] = 1.0
        cards(out, killed, state.killed)
        if state.drawn is not None:
            out[drawn + slot[state.drawn]] = 1.0
        if state.phase in phases:
            out[phases[state.phase]] = 1.0
        if state.played is not None:
            out[played + CABIN.index(PILE_LABELS[state.played])] = 1.0
        out[turn] = state.turn / 50
        out[deck] = len(state.deck) / 54

    return observe
