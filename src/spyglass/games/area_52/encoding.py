"""Area 52 for learning libraries: defenders fight alone, in pairs, or are sacrificed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Encoding,
    Number,
    Scoring,
    Zone,
    sets_of,
    singles,
    vocabulary,
)

from .rules import Area52State


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    decks = Area52State.deck_contents(options, players)
    cards = vocabulary(decks)
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("single", singles(cards)),  # the colours swap roles in wave 2
            ActionKind("sacrifice", singles(cards)),
            ActionKind("dual", sets_of(cards, [2])),
        ),
        observation=(
            Number("wave", bounds=(1, 2)),
            Zone("attackers"),
            Zone("defenders"),
            Number("defender_deck", 26),
            Number("alien_deck", 26, (0, 2)),
            Zone("alien_deck_back"),
            Zone("discard"),
        ),
        # A win scores the defenders left (26 at most); a loss the aliens still to come, 50 more
        # off in wave 1.
        scoring=Scoring(
            won=(0, 26),
            lost=(-76, -1),
            text="won: defenders left; lost: minus the aliens to come, 50 more off in wave 1",
        ),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[Area52State, int, Any], None]:
    """The observation straight from the state (the view's features, without the view)."""
    wave, attackers, defenders, squad, aliens, back, discard = (
        encoder.at(p)
        for p in (
            "wave",
            "attackers",
            "defenders",
            "defender_deck",
            "alien_deck",
            "alien_deck_back",
            "discard",
        )
    )
    cards = encoder.put_cards

    def observe(state: Area52State, seat: int, out: Any) -> None:
        # Straight into ``out`` (a memoryview): one store per entry, no list in between.
        deck = state.alien_deck
        known = state.known_back
        cards(out, attackers, state.attackers)
        cards(out, defenders, state.defenders)
        if known:
            cards(out, back, deck[len(deck) - known :])
        cards(out, discard, state.discard)
        out[wave] = state.wave
        out[squad] = len(state.defender_deck) / 26
        out[aliens] = len(deck) / 26

    return observe
