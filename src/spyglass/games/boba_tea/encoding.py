"""Boba Tea for learning libraries: four queues of customers and the place chosen in them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.encoding import (
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
    """The observation straight from the state (the view's features, without the view), kept
    between steps: each queue, the deck, the discards and the counters are rewritten only
    when they change."""
    at = encoder.at
    phase, target, customers, deck, rows, by_rank = (
        at(p) for p in ("phase", "target", "customers", "deck", "discard_rows", "discarded_by_rank")
    )
    zone = len(encoder.cards) + 2
    phases = {p: phase + i for i, p in enumerate(PHASES)}
    discard = at("discard")
    slot = encoder.card_slots

    def queues(state: BobaTeaState, seat: int) -> tuple[Any, ...]:
        aimed = state.target
        return tuple(
            (tuple(queue), None if aimed is None or aimed[0] != i else aimed[1])
            for i, queue in enumerate(state.queues)
        )

    def write_queue(value: tuple[tuple[Any, ...], int | None]) -> list[int]:
        cards, position = value
        ones = [slot[c] for c in cards]
        if position is not None:  # the target's note names the cards beside the place
            ones += [zone + slot[c] for c in cards[max(0, position - 1) : position + 1]]
        return ones

    def write_discards(value: tuple[tuple[Any, ...], tuple[int, ...]]) -> dict[int, float]:
        cards, counts = value
        out = {discard + slot[c]: 1.0 for c in cards}  # one deck: each card once
        seen = [0] * 14
        for card in cards:  # the nth of its rank in row n, as the view sorts them
            rank = RANK[card]
            out[rows + seen[rank] * zone + slot[card]] = 1.0
            seen[rank] += 1
        for k in range(13):
            out[by_rank + k] = counts[k + 1] / 4
        return out

    def counters(state: BobaTeaState, seat: int) -> tuple[str, int, int, int]:
        name = "over" if state.is_over else state.phase
        aimed = 0 if state.target is None else state.target[0] + 1
        return name, aimed, state.customers, len(state.deck)

    def write_counters(value: tuple[str, int, int, int]) -> dict[int, float]:
        name, aimed, served, left = value
        out = {target: float(aimed), customers: served / 13, deck: left / 52}
        if name in phases:
            out[phases[name]] = 1.0
        return out

    return encoder.incremental(
        encoder.items("queues", queues, write_queue),
        encoder.zone("drawn", lambda state, seat: () if state.held is None else (state.held,)),
        encoder.zone("deck_contents", lambda state, seat: tuple(state.deck)),
        encoder.part(
            lambda state, seat: (tuple(state.discard), tuple(state.discarded)),
            write_discards,
            "discard",
            "discard_rows",
            "discarded_by_rank",
        ),
        encoder.part(counters, write_counters, "phase", "target", "customers", "deck"),
    )
