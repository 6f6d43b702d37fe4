"""Dead Center for learning libraries: the 5x5 board, its cabin piles and its zombies."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.encoding import (
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
    """The observation straight from the state (the view's features, without the view), kept
    between steps: a pile, the ring of zombies, the killed, the card drawn and the counters
    are each rewritten only when they change."""
    at = encoder.at
    board, cabin, zombies, phase, face_down = (
        at(p) for p in ("board.cells", "cabin", "zombies", "phase", "face_down")
    )
    n = len(encoder.cards)
    zone = n + 2

    def cell(r: int, c: int) -> int:
        return board + (r * FRAME + c) * zone

    pile_key = [cabin + CABIN.index(label) * zone for label in PILE_LABELS]
    space_cell = [cell(*pos) for pos in SPACES]
    space_key = [zombies + OUTSIDE.index(label) * zone for label in SPACE_LABELS]
    corners = [
        (cell(r, c), cell(r, c) + zone)
        for r in range(FRAME)
        for c in range(FRAME)
        if (r, c) not in PILES and (r, c) not in SPACES
    ]
    phases = {p: phase + i for i, p in enumerate(PHASES)}
    played_at = {i: at("played") + CABIN.index(label) for i, label in enumerate(PILE_LABELS)}
    turn, deck = at("turn"), at("deck")
    slot = encoder.card_slots

    pile_top = [cell(*pos) for pos in PILES]

    def write_pile(value: tuple[int, tuple[Any, ...]]) -> list[int]:
        i, cards = value
        key = pile_key[i]
        return [pile_top[i] + slot[cards[-1]], *(key + slot[c] for c in cards)]

    def write_ring(value: tuple[int, int, tuple[Any, ...]]) -> list[int]:
        alive, down, ring = value
        ones: list[int] = []
        for j in range(len(SPACES)):
            if not alive >> j & 1:
                ones.append(space_key[j] + n + 1)  # "killed": a mark
            elif down >> j & 1:
                ones.append(space_cell[j] + n)  # face down on the board, absent from the keys
            else:
                card = slot[ring[j]]
                ones += [space_cell[j] + card, space_key[j] + card]
        ones += [face_down + slot[ring[j]] for j in range(len(SPACES)) if down >> j & 1]
        return ones

    def write_counters(value: tuple[str, int | None, int, int]) -> dict[int, float]:
        name, played, turns, left = value
        out = {turn: turns / 50, deck: left / 54}
        if name in phases:
            out[phases[name]] = 1.0
        if played is not None:
            out[played_at[played]] = 1.0
        return out

    return encoder.incremental(
        # Each pile with its place, rewritten when a card lands on it.
        encoder.each(
            lambda state, seat: tuple(enumerate(state.piles)),
            write_pile,
            len(PILES),
            *((at, at + zone) for at in pile_top),
            "cabin",
        ),
        encoder.part(
            lambda state, seat: (state.alive, state.face_down, state.ring),
            write_ring,
            *((c, c + zone) for c in space_cell),
            "zombies",
            "face_down",
            *corners,  # always empty
        ),
        encoder.zone("killed", lambda state, seat: state.killed),
        encoder.zone("drawn", lambda state, seat: () if state.drawn is None else (state.drawn,)),
        encoder.part(
            lambda state, seat: (state.phase, state.played, state.turn, len(state.deck)),
            write_counters,
            "phase",
            "played",
            "turn",
            "deck",
        ),
    )
