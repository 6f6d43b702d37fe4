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


class Written:
    """What a table's kept vector was written from (``GameEncoding.kept``)."""

    __slots__ = ("deck", "discard", "held", "note", "phase", "queues", "seen")

    def __init__(self) -> None:
        self.phase = -1  # the phase's entry; -1 none
        self.queues: list[list[Any]] = [[] for _ in range(QUEUES)]  # the cards of each zone
        self.note: list[int] = []  # the target note's entries
        self.held = -1  # the drawn customer's entry; -1 none
        self.deck: list[Any] = []  # the cards of the deck's contents
        self.discard: list[Any] = []  # the discard pile, in order
        self.seen = [0] * 14  # of it, how many of each rank


def _switch(out: Any, was: int, now: int) -> int:
    """Move a one-hot entry from ``was`` to ``now`` (-1: none) and return ``now``."""
    if was >= 0:
        out[was] = 0.0
    if now >= 0:
        out[now] = 1.0
    return now


def observer(encoder: Any) -> Callable[[BobaTeaState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view), kept
    per table: between two steps one queue gains a card or starts again, the deck loses one or
    two and the discard pile gains some, so only those entries are written again (each after
    comparing the state's list with the one it was written from)."""
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
    end = encoder.span("discarded_by_rank")[1]
    zone = len(encoder.cards) + 2
    phases = {p: phase + i for i, p in enumerate(PHASES)}
    slot = encoder.card_slots
    # Each queue's cards zone and its note zone, by the queue's index.
    zones = tuple(queues + 2 * zone * index for index in range(QUEUES))
    notes = tuple(base + zone for base in zones)
    # Zeros for the discard's three features at once (float32, as the vector is).
    cleared = memoryview(bytearray(4 * (end - discard))).cast("f")

    def update(state: BobaTeaState, seat: int, memo: Written, out: Any) -> None:
        name = "over" if state.is_over else state.phase
        entry = phases.get(name, -1)
        if entry != memo.phase:
            memo.phase = _switch(out, memo.phase, entry)
        # The queues: the one that changed is written again (a card came in, or it started
        # again with the rude customer).
        count = 0
        written = memo.queues
        for index, queue in enumerate(state.queues):
            count += len(queue)
            was = written[index]
            if queue != was:
                base = zones[index]
                for c in was:
                    out[base + slot[c]] = 0.0
                for c in queue:
                    out[base + slot[c]] = 1.0
                written[index] = queue[:]
        # The target's note names the cards beside the chosen place.
        note: list[int] = []
        if state.target is not None:
            index, position = state.target
            base, beside = notes[index], state.queues[index][max(0, position - 1) : position + 1]
            note = [base + slot[c] for c in beside]
            out[target] = index + 1
        else:
            out[target] = 0.0
        if note != memo.note:
            for i in memo.note:
                out[i] = 0.0
            for i in note:
                out[i] = 1.0
            memo.note = note
        held = -1 if state.held is None else drawn + slot[state.held]
        if held != memo.held:
            memo.held = _switch(out, memo.held, held)
        # The deck loses its top cards (the end of the list): those leave its contents.
        cards, kept = state.deck, memo.deck
        left = len(cards)
        if left < len(kept):
            for c in kept[left:]:
                out[contents + slot[c]] = 0.0
            del kept[left:]
        if cards != kept:  # another deck (a clone shuffled, another table): written afresh
            for c in kept:
                out[contents + slot[c]] = 0.0
            for c in cards:
                out[contents + slot[c]] = 1.0
            memo.deck = cards[:]
        # The discard pile only grows, face up: its zone, its rows (the nth of a rank in row
        # n) and its counts by rank are extended card by card.
        pile, kept = state.discard, memo.discard
        done = len(kept)
        if len(pile) != done or pile != kept:
            if len(pile) < done or pile[:done] != kept:
                out[discard:end] = cleared
                kept.clear()
                memo.seen = [0] * 14
                done = 0
            seen = memo.seen
            for card in pile[done:]:
                rank, at = RANK[card], slot[card]
                out[discard + at] = 1.0
                out[rows + seen[rank] * zone + at] = 1.0
                seen[rank] += 1
                out[by_rank + rank - 1] = seen[rank] / 4
            kept.extend(pile[done:])
        out[customers] = count / 13
        out[deck] = left / 52

    return encoder.kept(Written, update)
