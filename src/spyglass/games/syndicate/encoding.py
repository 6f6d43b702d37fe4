"""The Syndicate for learning libraries: five ranks of members and candidates."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Each,
    Encoding,
    Scoring,
    Zone,
    singles,
    unique,
    vocabulary,
)

from .rules import RANKS, SyndicateState


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(SyndicateState.deck_contents(options, players))
    pool = unique(cards)
    # A promotion names the member, its replacement and, when one is sacrificed, the victim.
    promotions = tuple(
        (member, replacement, *victim)
        for member in pool
        for replacement in pool
        if replacement != member
        for victim in ((), *((v,) for v in pool))
    )
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("pick", singles(cards)),
            ActionKind("promote", promotions, ("c", "m", "out"), ordered=3),
        ),
        observation=(
            Zone("leftover"),
            Each("ranks", 5, (Zone("members"), Zone("candidates"))),
            Zone("sacrificed"),
            Zone("removed"),
            Zone("promoted_out"),
        ),
        # A win scores the members sacrificed (fewer is better); 25 is far beyond good play.
        scoring=Scoring(won=(0, 25), text="members sacrificed"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[SyndicateState, int, Any], None]:
    """The observation straight from the state (every card is face up)."""
    leftover, ranks, sacrificed, removed, out_at = (
        encoder.at(p) for p in ("leftover", "ranks", "sacrificed", "removed", "promoted_out")
    )
    zone = len(encoder.cards) + 2
    slot = encoder.card_slots
    # Each rank's two zones: (rank, members' start, candidates' start).
    columns = tuple(
        (rank, ranks + 2 * zone * i, ranks + 2 * zone * i + zone) for i, rank in enumerate(RANKS)
    )

    def observe(state: SyndicateState, seat: int, out: Any) -> None:
        # Straight into ``out`` (a memoryview): one store per entry, no list in between, and
        # no call per zone (a dozen zones of a few cards each: the calls cost what the stores do).
        for c in state.leftover:
            out[leftover + slot[c]] = 1.0
        members, candidates = state.members, state.candidates
        for rank, at, beside in columns:
            for c in members[rank]:
                out[at + slot[c]] = 1.0
            for c in candidates[rank]:
                out[beside + slot[c]] = 1.0
        for c in state.sacrificed:
            out[sacrificed + slot[c]] = 1.0
        for c in state.removed:
            out[removed + slot[c]] = 1.0
        if state.promoted_out is not None:
            out[out_at + slot[state.promoted_out]] = 1.0

    return observe
