"""Espionage for learning libraries: each seat's hand and role, and every play of the city."""

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
    """The observation straight from the state (the view's features, without the view): the
    plays of the city, most of the entries, are kept per seat and extended play by play."""
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
    plays = encoder.segment("plays")
    giver, receiver, card_at = 1, 1 + players, 1 + 2 * players
    put = encoder.put_values

    def observe(state: EspionageState, seat: int, out: Any) -> None:
        visible = state.visible

        def play(segment: Any, offset: int, seat: int, p: Any) -> None:
            segment[offset] = p.turn / 10
            segment[offset + giver + p.giver] = 1.0
            segment[offset + receiver + p.receiver] = 1.0
            if visible(p, seat):
                segment[offset + card_at + slot[p.card]] = 1.0

        plays.write(state, seat, state.plays, play, out)
        # Gathered in a dict and stored at once: cheaper than one numpy store per entry.
        values = {
            city: state.city / 10,
            turn: state.turn / 10,
            threshold: state.threshold / 100,
            draw: len(state.draw) / 52,
            first + state.first: 1.0,
        }
        for i, points in enumerate(state.scores[:players]):
            values[scores + i] = points / 100
        for i, cards in enumerate(state.hands[:players]):
            values[sizes + i] = len(cards) / HAND
        for c in state.hands[seat]:
            at = hand + slot[c]
            values[at] = values.get(at, 0.0) + 1.0  # two decks: a card may be held twice
        card = state.role_cards[seat]
        values[role + role_at[card]] = 1.0
        for i in role_text[card]:
            values[role_card + i] = 1.0
        owed = state.obligations.get(seat, ())
        for i, x in enumerate(owed[:players]):
            values[must + i * players + x] = 1.0
        rejected = state.rejected
        for i, r in enumerate(sorted(r for r, x in rejected if x == seat)[:players]):
            values[rejected_by + i * players + r] = 1.0
        for i, x in enumerate(sorted(x for r, x in rejected if r == seat)[:players]):
            values[you_rejected + i * players + x] = 1.0
        if state.reports:
            report = state.reports[-1]
            for i, c in enumerate(report.roles[:players]):
                values[last_roles + i * len(ROLES) + role_at[c]] = 1.0
            for i, points in enumerate(report.after[:players]):
                values[last_after + i] = points / 100
        put(out, values)

    return observe
