"""The Emissary for learning libraries: eight kingdoms, a hand, advisors and supporters."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.encoding import (
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
    """The observation straight from the state (the view's features, without the view), kept
    between steps: the kingdoms, the hand, the allies, the piles and the counters are each
    rewritten only when they change."""
    at = encoder.at
    phase, kingdoms, visiting, trump, wins, deck = (
        at(p) for p in ("phase", "kingdoms", "visiting", "trump", "wins", "deck")
    )
    allies, advisors, ready, spent_at, score = (
        at(p) for p in ("allies", "advisors_ready", "supporters_ready", "supporters_spent", "score")
    )
    contents = encoder.zone_writer(at("deck_contents"))
    n = len(encoder.cards)
    zone = n + 2
    row = zone + 3  # a kingdom's cards, then its state
    phases = {p: phase + i for i, p in enumerate(PHASES)}
    trumps = {t: trump + i for i, t in enumerate(TRUMPS)}
    jacks = [encoder.card_slot(j) for j in JACKS]
    slot = encoder.card_slots

    def realm(state: EmissaryState, seat: int) -> tuple[tuple[Any, ...], tuple[int, ...], Any]:
        return tuple(state.rulers), tuple(state.won), state.visiting

    def write_realm(value: tuple[tuple[Any, ...], tuple[int, ...], Any]) -> list[int]:
        rulers, won, at_court = value
        ones: list[int] = []
        for k, ruler in enumerate(rulers):
            start = kingdoms + k * row
            if k in won:
                ones += [start + n, start + zone + 2]
            else:
                ones += [start + slot[ruler], start + zone + (k == at_court)]
        return ones

    def visit(state: EmissaryState, seat: int) -> tuple[Any, Any]:
        return state.visiting, None if state.visiting is None else state.trump

    def write_visit(value: tuple[Any, Any]) -> list[int]:
        at_court, suit = value
        if at_court is None:
            return []
        ones = [visiting + at_court]
        if SUITS[suit] in trumps:
            ones.append(trumps[SUITS[suit]])
        return ones

    def support(state: EmissaryState, seat: int) -> tuple[int, int, tuple[int, ...], Any]:
        return state.jacks_used, state.spent, tuple(state.won), tuple(state.rulers)

    def write_support(value: tuple[int, int, tuple[int, ...], Any]) -> dict[int, float]:
        used, spent, won, rulers = value
        out: dict[int, float] = {}
        down = 0
        for i, j in enumerate(jacks):
            if used >> i & 1:
                down += 1
            else:
                out[allies + j] = out[advisors + j] = 1.0
        laid = 0
        for k in won:
            ruler = slot[rulers[k]]
            if spent >> k & 1:
                laid += 1
                out[spent_at + ruler] = 1.0
            else:
                out[allies + zone + ruler] = out[ready + ruler] = 1.0
        out[allies + n] = down
        out[allies + zone + n] = laid
        out[score] = (2 * len(won) - laid) / 8
        return out

    def write_deck(cards: tuple[Any, ...]) -> Any:
        found = contents(cards)
        out = dict(found) if isinstance(found, dict) else dict.fromkeys(found, 1.0)
        out[deck] = len(cards) / 32
        return out

    def counters(state: EmissaryState, seat: int) -> tuple[str, int]:
        return state.phase, state.wins

    def write_counters(value: tuple[str, int]) -> dict[int, float]:
        out = {wins: value[1] / 8}
        if value[0] in phases:
            out[phases[value[0]]] = 1.0
        return out

    return encoder.incremental(
        encoder.part(realm, write_realm, "kingdoms"),
        encoder.part(visit, write_visit, "visiting", "trump"),
        encoder.zone("topic", lambda state, seat: () if state.topic is None else (state.topic,)),
        encoder.zone("hand", lambda state, seat: tuple(state.hand)),
        encoder.part(
            support,
            write_support,
            "allies",
            "advisors_ready",
            "supporters_ready",
            "supporters_spent",
            "score",
        ),
        encoder.zone("won_here", lambda state, seat: tuple(state.scoring)),
        encoder.part(lambda state, seat: tuple(state.deck), write_deck, "deck", "deck_contents"),
        encoder.zone("discard", lambda state, seat: tuple(state.discard)),
        encoder.part(counters, write_counters, "phase", "wins"),
    )
