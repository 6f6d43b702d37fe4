"""The Emissary for learning libraries: eight kingdoms, a hand, advisors and supporters."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Number,
    Scoring,
    Zone,
    sets_of,
    singles,
    vocabulary,
)

from .rules import JACKS, KINGDOMS, SUITS, EmissaryState

TRUMPS = ("S", "H", "C", "D")
PHASES = ("choose", "gap", "respond", "discard", "over")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    decks = EmissaryState.deck_contents(options, players)
    # The jacks are the advisors: they are dealt out of no deck, yet they are cards.
    cards = vocabulary(decks, *JACKS)
    kingdoms = tuple(range(1, KINGDOMS + 1))
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("visit", targets=kingdoms),
            ActionKind("debate"),
            ActionKind("ability", singles([*decks["rulers"], *JACKS]), (None, *kingdoms)),
            ActionKind("answer", singles(decks["deck"])),
            ActionKind("discard", sets_of(decks["deck"], [2])),
        ),
        observation=(
            Category("phase", PHASES),
            Each(
                "kingdoms",
                KINGDOMS,
                (Zone("cards"), Category("state", ("unvisited", "visiting", "won"))),
            ),
            Category("visiting", kingdoms),
            Category("trump", TRUMPS),
            Number("wins", 8),
            Zone("topic"),
            Zone("hand"),
            Each("allies", 2, (Zone("cards"),)),
            Zone("advisors_ready"),
            Zone("supporters_ready"),
            Zone("supporters_spent"),
            Zone("won_here"),
            Number("deck", 32),
            Zone("deck_contents"),
            Zone("discard"),
            Number("score", 8, bounds=(0, 2)),
        ),
        # Kingdoms won plus supporters unused: a win has all eight kingdoms.
        scoring=Scoring(won=(8, 16), lost=(0, 15), text="kingdoms won plus supporters unused"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[EmissaryState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view)."""
    at = encoder.at
    names = (
        "phase",
        "kingdoms",
        "visiting",
        "trump",
        "wins",
        "topic",
        "hand",
        "allies",
        "advisors_ready",
        "supporters_ready",
        "supporters_spent",
        "won_here",
        "deck",
        "deck_contents",
        "discard",
        "score",
    )
    (
        phase,
        kingdoms,
        visiting,
        trump,
        wins,
        topic,
        hand,
        allies,
        advisors,
        ready,
        spent_at,
        won_here,
        deck,
        contents,
        discard,
        score,
    ) = (at(p) for p in names)
    n = len(encoder.cards)
    zone = n + 2
    row = zone + 3  # a kingdom's cards, then its state
    phases = {p: phase + i for i, p in enumerate(PHASES)}
    trumps = {t: trump + i for i, t in enumerate(TRUMPS)}
    jacks = [encoder.card_slot(j) for j in JACKS]
    slot = encoder.card_slots
    put, cards = encoder.put_ones, encoder.put_cards

    def observe(state: EmissaryState, seat: int, out: Any) -> None:
        ones: list[int] = []
        if state.phase in phases:
            ones.append(phases[state.phase])
        won = state.won
        for k, ruler in enumerate(state.rulers):
            start = kingdoms + k * row
            if k in won:
                ones += [start + n, start + zone + 2]
            else:
                ones += [start + slot[ruler], start + zone + (k == state.visiting)]
        if state.visiting is not None:
            ones.append(visiting + state.visiting)
            if SUITS[state.trump] in trumps:
                ones.append(trumps[SUITS[state.trump]])
        if state.topic is not None:
            ones.append(topic + slot[state.topic])
        ones += [hand + slot[c] for c in state.hand]
        used, spent = state.jacks_used, state.spent
        down = 0
        for i, j in enumerate(jacks):
            if used >> i & 1:
                down += 1
            else:
                ones += [allies + j, advisors + j]
        supporters = [(k, state.rulers[k]) for k in won]
        laid = 0
        for k, ruler in supporters:
            if spent >> k & 1:
                laid += 1
                ones.append(spent_at + slot[ruler])
            else:
                ones += [allies + zone + slot[ruler], ready + slot[ruler]]
        ones += [won_here + slot[c] for c in state.scoring]
        cards(out, contents, state.deck)
        cards(out, discard, state.discard)
        put(out, ones)
        out[allies + n] = down
        out[allies + zone + n] = laid
        out[wins] = state.wins / 8
        out[deck] = len(state.deck) / 32
        out[score] = (len(won) + len(supporters) - laid) / 8

    return observe
