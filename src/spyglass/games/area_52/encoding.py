"""Area 52 for learning libraries: defenders fight alone, in pairs, or are sacrificed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.encoding import (
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
    """The observation straight from the state (the view's features, without the view), kept
    between steps: each zone and the counters are rewritten only when they change."""
    wave, squad, aliens = (encoder.at(p) for p in ("wave", "defender_deck", "alien_deck"))

    def known(state: Area52State, seat: int) -> tuple[Any, ...]:
        deck, known = state.alien_deck, state.known_back
        return tuple(deck[len(deck) - known :]) if known else ()

    def counters(state: Area52State, seat: int) -> tuple[int, int, int]:
        return state.wave, len(state.defender_deck), len(state.alien_deck)

    def write_counters(value: tuple[int, int, int]) -> dict[int, float]:
        return {wave: value[0], squad: value[1] / 26, aliens: value[2] / 26}

    return encoder.incremental(
        encoder.zone("attackers", lambda state, seat: tuple(state.attackers)),
        encoder.zone("defenders", lambda state, seat: tuple(state.defenders)),
        encoder.zone("alien_deck_back", known),
        encoder.zone("discard", lambda state, seat: tuple(state.discard)),
        encoder.part(counters, write_counters, "wave", "defender_deck", "alien_deck"),
    )
