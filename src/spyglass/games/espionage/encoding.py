"""Espionage for learning libraries: each seat's hand and role, and every play of the city."""

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
    singles,
    vocabulary,
)

from .meanings import role_of
from .rules import HAND, EspionageState, decks_for

#: Longest names first: "spy master (K♦)" must not read as "spy".
#: A seat's points over 100: they can go below zero, and past the threshold (at most 600 in a
#: long game for three) by what one city brings.
POINTS = (-6.0, 10.0)
ROLES = ("counter-espionage agent", "double agent", "innocent civilian", "spy master", "spy")


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    cards = vocabulary(EspionageState.deck_contents(options, players))
    seats = tuple(range(players))
    # Every card a city deals but the roles and the opening hands is played at most once, and
    # each hand is played out: at most the whole deck less one role card per seat.
    cards_dealt = 52 * decks_for(players)
    plays = cards_dealt - players
    turns = (0.0, 1 + cards_dealt / players / 10)
    one_seat = (Category("", seats),)
    return Encoding(
        cards=cards,
        actions=(ActionKind("play", singles(cards), seats),),
        observation=(
            Number("city", 10, (0, options["city_limit"] / 10)),
            Number("turn", 10, turns),
            Category("first_player", seats),
            Each("scores", players, (Number("", 100, POINTS),)),
            Number("threshold", 100, bounds=(0, 6)),
            Number("draw", 52, (0, decks_for(players))),
            Each("hand_sizes", players, (Number("", HAND),)),
            # A play: its turn, the seat playing, the seat it was played to, the card if seen.
            Each(
                "plays",
                plays,
                (
                    Number("0", 10, turns, name="turn"),
                    Category("1", seats, name="seat playing"),
                    Category("2", seats, name="seat played to"),
                    Zone("3", name="card"),
                ),
            ),
            Category("role", ROLES, prefix=True),
            Zone("role", name="role card"),
            Zone("hand"),
            Each("must_answer", players, one_seat),
            Each("rejected_by", players, one_seat),
            Each("you_rejected", players, one_seat),
            Each("last_city.roles", players, (Category("role", ROLES),)),
            Each("last_city.after", players, (Number("", 100, POINTS),)),
        ),
        # A seat's points over the cities (they can be negative).
        scoring=Scoring(points=(-150, 350), text="points over the cities"),
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[EspionageState, int, Any], None]:
    """The observation straight from the state (the view's features, without the view), kept
    between steps: the plays of the city (most of the entries) are items written once each,
    and the counters, the scores, the seat's hand and role, what it owes and was refused, and
    the last city's report are each rewritten only when they change."""
    at = encoder.at
    city, turn, first, scores, threshold, draw, sizes = (
        at(p) for p in ("city", "turn", "first_player", "scores", "threshold", "draw", "hand_sizes")
    )
    role, role_card, hand = at("role"), at("role card"), at("hand")
    must, rejected_by, you_rejected = at("must_answer"), at("rejected_by"), at("you_rejected")
    last_roles, last_after = at("last_city.roles"), at("last_city.after")
    players = encoder.players
    slot = encoder.card_slots
    role_at = {c: ROLES.index(str(role_of(c))) for c in slot}
    # What a role text ("spy master (K♦)") counts in the role card's zone: the card it names.
    role_text = {c: encoder.text_entries(f"{role_of(c)} ({c})") for c in slot}
    giver, receiver, card_at = 1, 1 + players, 1 + 2 * players

    def write_play(value: tuple[Any, bool]) -> dict[int, float]:
        p, seen = value
        out = {0: p.turn / 10, giver + p.giver: 1.0, receiver + p.receiver: 1.0}
        if seen:
            out[card_at + slot[p.card]] = 1.0
        return out

    def counters(state: EspionageState, seat: int) -> tuple[Any, ...]:
        return state.city, state.turn, state.threshold, len(state.draw), state.first

    def write_counters(value: tuple[Any, ...]) -> dict[int, float]:
        cities, turns, goal, left, opener = value
        return {
            city: cities / 10,
            turn: turns / 10,
            threshold: goal / 100,
            draw: left / 52,
            first + opener: 1.0,
        }

    def table(state: EspionageState, seat: int) -> tuple[Any, ...]:
        return tuple(state.scores[:players]), tuple(map(len, state.hands[:players]))

    def write_table(value: tuple[Any, ...]) -> dict[int, float]:
        points, held = value
        out = {scores + i: p / 100 for i, p in enumerate(points)}
        for i, cards in enumerate(held):
            out[sizes + i] = cards / HAND
        return out

    def mine(state: EspionageState, seat: int) -> tuple[Any, ...]:
        return tuple(state.hands[seat]), state.role_cards[seat]

    def write_mine(value: tuple[Any, ...]) -> dict[int, float]:
        cards, card = value
        out: dict[int, float] = {}
        for c in cards:
            at = hand + slot[c]
            out[at] = out.get(at, 0.0) + 1.0  # two decks: a card may be held twice
        out[role + role_at[card]] = 1.0
        for i in role_text[card]:
            out[role_card + i] = 1.0
        return out

    def duties(state: EspionageState, seat: int) -> tuple[Any, ...]:
        refused = state.rejected
        return (
            tuple(state.obligations.get(seat, ())),
            tuple(sorted(r for r, x in refused if x == seat)),
            tuple(sorted(x for r, x in refused if r == seat)),
        )

    def write_duties(value: tuple[Any, ...]) -> list[int]:
        owed, by, refused = value
        ones = [must + i * players + x for i, x in enumerate(owed[:players])]
        ones += [rejected_by + i * players + r for i, r in enumerate(by[:players])]
        ones += [you_rejected + i * players + x for i, x in enumerate(refused[:players])]
        return ones

    def write_report(report: Any) -> dict[int, float]:
        if report is None:
            return {}
        out = {
            last_roles + i * len(ROLES) + role_at[c]: 1.0
            for i, c in enumerate(report.roles[:players])
        }
        for i, points in enumerate(report.after[:players]):
            out[last_after + i] = points / 100
        return out

    return encoder.incremental(
        # Who sees a play's card depends on the play and the seat alone (``_visible``): each
        # seat's marks are kept as the city's plays grow.
        encoder.items(
            "plays",
            encoder.marked(
                lambda state: state.plays, lambda state, seat, p: state._visible(p, seat)
            ),
            write_play,
        ),
        encoder.part(counters, write_counters, "city", "turn", "threshold", "draw", "first_player"),
        encoder.part(table, write_table, "scores", "hand_sizes"),
        encoder.part(mine, write_mine, "hand", "role", "role card"),
        encoder.part(duties, write_duties, "must_answer", "rejected_by", "you_rejected"),
        encoder.part(
            lambda state, seat: state.reports[-1] if state.reports else None,
            write_report,
            "last_city.roles",
            "last_city.after",
        ),
    )
