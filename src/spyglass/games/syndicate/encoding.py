"""The Syndicate for learning libraries: five ranks of members and candidates."""

from __future__ import annotations

from collections.abc import Mapping
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

from .rules import SyndicateState


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
    )
