"""Boba Tea for learning libraries: four queues of customers and the place chosen in them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Keys,
    Number,
    Scoring,
    Zone,
    singles,
    vocabulary,
)

from .rules import QUEUES, RANK, BobaTeaState

PHASES = ("choose a target", "rude customer", "over")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: A position in a queue of k cards is 0..k; no queue can hold more than the whole deck.
POSITIONS = 53


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(BobaTeaState.deck_contents(options, players))
    queues = tuple(range(1, QUEUES + 1))
    return Encoding(
        cards=cards,
        actions=(
            # The cards of a target are its neighbours in the queue: the place decides them.
            ActionKind(
                "target",
                targets=tuple((q, p) for q in queues for p in range(POSITIONS)),
                by_target=True,
            ),
            ActionKind("stay", singles(cards), queues),
            ActionKind("kick", singles(cards), queues),
        ),
        observation=(
            Category("phase", PHASES),
            # A queue's note names the cards beside the chosen place; "target" names its queue.
            Each("queues", QUEUES, (Zone("cards"), Zone("note"))),
            Number("target", bounds=(0, 4)),
            Zone("drawn"),
            Number("customers", 13, (0, 4)),
            Number("deck", 52),
            Zone("deck_contents"),
            Zone("discard"),
            Each("discard_rows", 4, (Zone("cards"),)),
            Keys("discarded_by_rank", RANKS, (Number("", 4),)),
        ),
        # A win scores the customers in the queues.
        scoring=Scoring(won=(0, 52), text="customers in the queues"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[BobaTeaState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view)."""
    at = encoder.at
    phase, queues, target, drawn, customers, deck, contents, discard, rows, by_rank = (
        at(p)
        for p in (
            "phase",
            "queues",
            "target",
            "drawn",
            "customers",
            "deck",
            "deck_contents",
            "discard",
            "discard_rows",
            "discarded_by_rank",
        )
    )
    zone = len(encoder.cards) + 2
    phases = {p: phase + i for i, p in enumerate(PHASES)}
    slot = encoder.card_slots
    cards = encoder.put_cards
    # The discard pile only grows, face up: its zone, its rows and its counts by rank (three
    # features side by side, the last of the vector) are kept per pile and extended card by
    # card, then copied in at once; the memo holds how many of each rank came before.
    rows_at, by_rank_at = rows - discard, by_rank - discard

    def discarded(entries: Any, card: Any, seen: list[int]) -> None:
        if not seen:
            seen.extend([0] * 14)
        rank, at = RANK[card], slot[card]
        entries[at] = 1.0
        entries[rows_at + seen[rank] * zone + at] = 1.0  # the nth of its rank in row n
        seen[rank] += 1
        entries[by_rank_at + rank - 1] = seen[rank] / 4

    pile = encoder.growing("discard", "discarded_by_rank", discarded)

    def observe(state: BobaTeaState, seat: int, out: Any) -> None:
        # Straight into ``out`` (a memoryview): one store per entry, no list in between.
        name = "over" if state.is_over else state.phase
        if name in phases:
            out[phases[name]] = 1.0
        for index, queue in enumerate(state.queues):
            base = queues + 2 * zone * index
            for c in queue:
                out[base + slot[c]] = 1.0
        if state.target is not None:
            index, position = state.target
            queue = state.queues[index]
            # The target's note names the cards beside the chosen place.
            note = queues + 2 * zone * index + zone
            for c in queue[max(0, position - 1) : position + 1]:
                out[note + slot[c]] = 1.0
            out[target] = index + 1
        if state.held is not None:
            out[drawn + slot[state.held]] = 1.0
        cards(out, contents, state.deck)
        pile.write(state.discard, out)
        out[customers] = state.customers / 13
        out[deck] = len(state.deck) / 52

    return observe
