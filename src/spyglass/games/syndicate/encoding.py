"""The Syndicate for learning libraries: five ranks of members and candidates."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.encoding import (
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
    """The observation straight from the state (every card is face up), kept between steps:
    each rank and pile is rewritten only when it changes."""
    zone = len(encoder.cards) + 2
    slot = encoder.card_slots

    def ranks(state: SyndicateState, seat: int) -> tuple[Any, ...]:
        members, candidates = state.members, state.candidates
        return tuple((tuple(members[r]), tuple(candidates[r])) for r in RANKS)

    def write_rank(value: tuple[tuple[Any, ...], tuple[Any, ...]]) -> list[int]:
        members, candidates = value
        return [slot[c] for c in members] + [zone + slot[c] for c in candidates]

    def out(state: SyndicateState, seat: int) -> tuple[Any, ...]:
        return () if state.promoted_out is None else (state.promoted_out,)

    return encoder.incremental(
        encoder.zone("leftover", lambda state, seat: tuple(state.leftover)),
        encoder.items("ranks", ranks, write_rank),
        encoder.zone("sacrificed", lambda state, seat: tuple(state.sacrificed)),
        encoder.zone("removed", lambda state, seat: tuple(state.removed)),
        encoder.zone("promoted_out", out),
    )
