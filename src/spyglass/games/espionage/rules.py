"""Espionage: cities of hidden roles, face-down cards passed between players, and a reckoning.

Each city deals every player a role card and a hand of five. Turn after turn every player plays
one card on another player and draws. When the draw pile runs out the city ends and is scored
row by row ("walking back the dog", see scoring.py); the game ends after the first city in which
someone passes the points needed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from spyglass.components.cards import Card, by_rank, card_list, parse_card, standard_deck
from spyglass.engine import Action, Result, Rng, RulesError, State, plural

from .meanings import (
    POLICE,
    REJECTION,
    SECRET,
    THRESHOLDS,
    Role,
    is_police,
    is_rejection,
    role_of,
    secret_value,
)
from .scoring import Change, Play, Walk, breakdown

HAND = 5
LENGTHS = {"normal": 1.0, "long": 2.0, "short": 0.5}


def city_cap(options: Mapping[str, Any]) -> int:
    """Our safety limit on cities: ``city_limit`` scaled like the points needed, so that a long
    game (twice the points) may also last twice as many cities and the rules, not the limit,
    end it."""
    return math.ceil(options["city_limit"] * LENGTHS[options["game_length"]])


def decks_for(players: int) -> int:
    return 1 if players <= 4 else 2


@dataclass(frozen=True)
class CityReport:
    """A scored city: who had which role, every play face up, every scoring change."""

    city: int
    first: int
    roles: tuple[Card, ...]
    plays: tuple[Play, ...]
    changes: tuple[Change, ...]
    before: tuple[int, ...]
    after: tuple[int, ...]

    @cached_property
    def json(self) -> dict[str, Any]:
        """The report as views show it (computed once: a report never changes)."""
        return self.to_json()

    def to_json(self) -> dict[str, Any]:
        players = len(self.roles)
        return {
            "city": self.city,
            "first_player": self.first,
            "roles": [
                {"seat": seat, "card": str(card), "role": str(role_of(card))}
                for seat, card in enumerate(self.roles)
            ],
            "plays": [[p.turn, p.giver, p.receiver, str(p.card)] for p in self.plays],
            "changes": [
                [c.turn, c.seat, c.clause, c.text, c.points, c.asked] for c in self.changes
            ],
            "breakdown": breakdown(list(self.changes), players),
            "before": list(self.before),
            "after": list(self.after),
        }

    @cached_property
    def story(self) -> dict[str, Any]:
        """The walk as steps (rows) for a step-through presentation."""
        report = self
        steps = []
        opening = [f"seat {c.seat}: {c.text} {c.points:+d}" for c in report.changes if not c.turn]
        roles = ", ".join(
            f"seat {s} {role_of(card)} ({card})" for s, card in enumerate(report.roles)
        )
        steps.append({"title": f"City {report.city}: the roles", "lines": [roles, *opening]})
        last_turn = max((p.turn for p in report.plays), default=0)
        for turn in range(1, last_turn + 1):
            lines = [
                f"seat {p.giver} → seat {p.receiver}: {p.card}"
                for p in report.plays
                if p.turn == turn
            ]
            lines += [
                f"   seat {c.seat} {c.points:+d}: {c.text}"
                + (f" (floor: {c.asked:+d} asked)" if c.points != c.asked else "")
                for c in report.changes
                if c.turn == turn
            ]
            steps.append({"title": f"Turn {turn}", "lines": lines})
        totals = ", ".join(
            f"seat {s} {report.after[s] - report.before[s]:+d} → {report.after[s]}"
            for s in range(len(report.roles))
        )
        steps.append({"title": "Scores", "lines": [totals]})
        return {
            "id": f"city-{report.city}",
            "title": f"Walking back the dog: city {report.city}",
            "steps": steps,
        }


_ACTIONS: dict[tuple[Card, int], Action] = {}  # memo of a pure function: same card and seat


def play_action(card: Card, seat: int) -> Action:
    key = (card, seat)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action("play", (card,), seat, f"{card} on {seat}")
    return action


class EspionageState(State):
    parse_card = staticmethod(parse_card)
    notation_help = "play a card of your hand on a seat: '7H on 2' (or '7♥ on 2')"

    scores: list[int]
    city: int
    first: int  # the first player of this city
    role_cards: list[Card]
    hands: list[list[Card]]
    draw: list[Card]  # top card last
    plays: list[Play]  # this city's plays, in order
    turn: int
    position: int  # how many players have played this turn
    obligations: dict[int, list[int]]  # seat -> seats that played police on it last turn
    rejected: set[tuple[int, int]]  # (rejecter, rejected) pairs of this city
    ran_out: bool  # the draw pile ran out this turn: the city ends with it
    reports: list[CityReport]
    over: bool

    # ---------------------------------------------------------------- set-up

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Card]]:
        return {"deck": standard_deck(decks=decks_for(players))}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # Every play but the last of each turn draws a card, so a city has fewer than
        # (cards - roles - hands) + players plays; the game lasts at most city_limit cities.
        cards = 52 * decks_for(players)
        per_city = cards - players * (1 + HAND) + players
        return per_city * city_cap(options)

    @property
    def unit(self) -> int:
        """The points needed to end the game for this player count: the rules' fractions."""
        return THRESHOLDS[self.players]

    @property
    def threshold(self) -> float:
        """The points to pass to end the game (the unit, doubled or halved by the option)."""
        return self.unit * LENGTHS[self.options["game_length"]]

    def _setup(self) -> None:
        self.scores = [0] * self.players
        self.city = 0
        self.reports = []
        self.over = False
        self.first = self.rng.below(self.players)
        self._say(f"seat {self.first} is chosen at random to go first")
        self._deal(list(self._deck("deck")))

    def _deal(self, order: list[Card]) -> None:
        """Start a city from a deck (top card first): a role card each, then five cards each,
        one at a time, starting with the first player."""
        n = self.players
        self.city += 1
        seats = [(self.first + k) % n for k in range(n)]
        self.role_cards = [order[0]] * n
        self.hands = [[] for _ in range(n)]
        for k, seat in enumerate(seats):
            self.role_cards[seat] = order[k]
        for k in range(HAND * n):
            self.hands[seats[k % n]].append(order[n + k])
        self.draw = list(reversed(order[n * (1 + HAND) :]))
        self.plays = []
        self.turn = 1
        self.position = 0
        self.obligations = {}
        self.rejected = set()
        self.ran_out = False
        self._say(f"city {self.city}: seat {self.first} goes first")
        for seat in range(n):
            role = role_of(self.role_cards[seat])
            self._say(
                f"seat {seat} is a {role} ({self.role_cards[seat]});"
                f" hand {' '.join(card_list(sorted(self.hands[seat], key=by_rank)))}",
                [seat],
                f"seat {seat} takes a role card and five cards",
            )

    # ---------------------------------------------------------------- the turn

    @property
    def is_over(self) -> bool:
        return self.over

    def _current(self) -> int:
        return (self.first + self.position) % self.players

    def role(self, seat: int) -> Role:
        return role_of(self.role_cards[seat])

    def _legal_actions(self) -> list[Action]:
        if self.over:
            return []
        seat = self._current()
        hand = sorted(set(self.hands[seat]))  # a stable order that reveals nothing
        owed = self.obligations.get(seat)
        if owed:
            # Police were played on this seat last turn: answer one of those players, with the
            # highest red card in hand if there is one (the obligation beats any rejection).
            top = max(SECRET[c] for c in hand)
            cards = [c for c in hand if SECRET[c] == top] if top else hand
            return [play_action(c, target) for target in owed for c in cards]
        rejected = self.rejected
        moves = []
        for target in range(self.players):
            if target == seat:
                continue
            barred = (target, seat) in rejected
            for card in hand:
                if not (barred and SECRET[card]):
                    moves.append(play_action(card, target))
        if not moves:
            # Rejected by every other player with only secrets in hand: play on oneself.
            moves = [play_action(card, seat) for card in hand]
        return moves

    def _apply(self, action: Action) -> None:
        seat = self._current()
        card, target = action.cards[0], action.target
        self.hands[seat].remove(card)
        self.plays.append(Play(self.turn, seat, target, card))
        if is_rejection(card) and target != seat:
            self.rejected.add((seat, target))
        shown = is_police(card) and self.options["police_face_up"]
        where = "on themselves" if target == seat else f"on seat {target}"
        public = f"seat {seat} plays {card if shown else 'a card'} {where}"
        self._say(f"seat {seat} plays {card} {where}", sorted({seat, target}), public)
        if self.draw:
            drawn = self.draw.pop()
            self.hands[seat].append(drawn)
            self._say(f"seat {seat} draws {drawn}", [seat], f"seat {seat} draws a card")
            if not self.draw:
                self.ran_out = True
                self._say("the draw pile is empty: this is the city's last turn")
        else:
            self.ran_out = True
        self.position += 1
        if self.position == self.players:
            self._end_turn()

    def _end_turn(self) -> None:
        if self.ran_out:
            self._walk_the_dog()
            return
        obligations: dict[int, list[int]] = {}
        for play in self.plays:
            if play.turn == self.turn and play.giver != play.receiver and POLICE[play.card]:
                owed = obligations.setdefault(play.receiver, [])
                if play.giver not in owed:
                    owed.append(play.giver)
        self.obligations = obligations
        self.turn += 1
        self.position = 0

    # ---------------------------------------------------------------- end of a city

    def _walk_the_dog(self) -> None:
        roles = [self.role(seat) for seat in range(self.players)]
        walk = Walk(roles, self.plays, self.scores, self.unit)
        before = tuple(self.scores)
        self.scores = walk.run()
        self.reports.append(
            CityReport(
                self.city,
                self.first,
                tuple(self.role_cards),
                tuple(self.plays),
                tuple(walk.changes),
                before,
                tuple(self.scores),
            )
        )
        for seat in range(self.players):
            self._say(f"seat {seat} was the {roles[seat]} ({self.role_cards[seat]})")
        gains = ", ".join(
            f"seat {s} {self.scores[s] - before[s]:+d} (now {self.scores[s]})"
            for s in range(self.players)
        )
        self._say(f"walking back the dog, city {self.city}: {gains}")
        if max(self.scores) > self.threshold:
            self.over = True
            return
        if self.city >= city_cap(self.options):
            self.over = True
            self._say(
                f"the city limit ({plural(self.city, 'city', 'cities')}) ends the game before"
                " anyone passed"
                f" {self.threshold:g} points"
            )
            return
        self.first = self._next_first()
        order = sorted(self._all_cards())
        self.rng.shuffle(order)
        self._deal(order)

    def _next_first(self) -> int:
        """Most points goes first; among tied leaders, the first to the left of the last city's
        first player (the last city's first player comes last)."""
        best = max(self.scores)
        for step in range(1, self.players + 1):
            seat = (self.first + step) % self.players
            if self.scores[seat] == best:
                return seat
        raise AssertionError("no leader")

    def _all_cards(self) -> list[Card]:
        return (
            self.role_cards
            + [c for hand in self.hands for c in hand]
            + self.draw
            + [p.card for p in self.plays]
        )

    def _result(self) -> Result:
        best = max(self.scores)
        winners = tuple(s for s in range(self.players) if self.scores[s] == best)
        limited = best <= self.threshold  # nobody passed the points needed: the limit ended it
        ended_by = "city limit" if limited else "points"
        detail = tuple(
            {
                "points": self.scores[seat],
                "cities": self.city,
                "roles": [str(role_of(r.roles[seat])) for r in self.reports],
                "ended_by": ended_by,
            }
            for seat in range(self.players)
        )
        names = " and ".join(f"seat {s}" for s in winners)
        verb = "tie" if len(winners) > 1 else "wins"
        summary = (
            f"{names} {verb} with {plural(best, 'point')} after"
            f" {plural(self.city, 'city', 'cities')}"
        )
        if limited:
            summary += (
                f" (ended by the city limit of {city_cap(self.options)}: nobody passed the"
                f" {self.threshold:g} points needed)"
            )
        return Result(
            scores=tuple(float(s) for s in self.scores),
            winners=winners,
            detail=detail,
            summary=summary,
        )

    # ---------------------------------------------------------------- views

    def visible(self, play: Play, observer: int | None) -> bool:
        """Whether ``observer`` has seen the card of ``play`` (its giver and receiver have, and
        everyone has seen police played face up)."""
        return observer in (play.giver, play.receiver) or (
            is_police(play.card) and self.options["police_face_up"]
        )

    def _view(self, observer: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "city": self.city,
            "turn": self.turn,
            "first_player": self.first,
            "scores": list(self.scores),
            "standings": {f"seat {s}": points for s, points in enumerate(self.scores)},
            "threshold": self.threshold,
            "city_limit": city_cap(self.options),
            "goal": self._goal(),
            "draw": len(self.draw),
            "hand_sizes": [len(h) for h in self.hands],
            "plays": [
                [p.turn, p.giver, p.receiver, str(p.card) if self.visible(p, observer) else None]
                for p in self.plays
            ],
            "mats": self._mats(observer),
            "last_city": self.reports[-1].json if self.reports else None,
            "walk": self.reports[-1].story if self.reports else None,
        }
        if observer is None:
            view.update(role=None, hand=[], must_answer=[], rejected_by=[], you_rejected=[])
            return view
        view.update(
            role=f"{self.role(observer)} ({self.role_cards[observer]})",
            hand=card_list(sorted(self.hands[observer], key=by_rank)),
            # The receiver saw the police cards played on it: it knows whom it must answer.
            must_answer=list(self.obligations.get(observer, [])),
            rejected_by=sorted(r for r, x in self.rejected if x == observer),
            you_rejected=sorted(x for r, x in self.rejected if r == observer),
        )
        return view

    def _goal(self) -> str:
        """The city being played and what ends the game: public, as at a real table."""
        length = self.options["game_length"]
        scaled = "" if length == "normal" else f" ({length} game)"
        return (
            f"city {self.city} · the game ends after the city in which someone passes"
            f" {self.threshold:g} points{scaled}, or after city {city_cap(self.options)}"
        )

    def _mats(self, observer: int | None) -> dict[str, Any]:
        """Every player's mat as one grid: a row per turn, a column per receiver; each cell
        lists who played on that player that turn, and the card where the observer may see it."""
        n = self.players
        cells: list[list[str | None]] = [[None] * n for _ in range(self.turn)]
        for play in self.plays:
            shown = str(play.card) if self.visible(play, observer) else "▒▒"
            cell = cells[play.turn - 1][play.receiver]
            entry = f"{play.giver}:{shown}"
            cells[play.turn - 1][play.receiver] = entry if cell is None else f"{cell} {entry}"
        labels = [f"seat {s}" + (" (you)" if s == observer else "") for s in range(n)]
        return {
            "cells": cells,
            "col_labels": labels,
            "row_labels": [f"turn {t + 1}" for t in range(self.turn)],
        }

    def _snapshot(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "city": self.city,
            "first": self.first,
            "roles": card_list(self.role_cards),
            "hands": [card_list(h) for h in self.hands],
            "draw_top_first": card_list(reversed(self.draw)),
            "plays": [[p.turn, p.giver, p.receiver, str(p.card)] for p in self.plays],
            "turn": self.turn,
            "position": self.position,
            "obligations": {str(k): v for k, v in sorted(self.obligations.items())},
            "rejected": sorted(self.rejected),
            "ran_out": self.ran_out,
            "reports": len(self.reports),
            "over": self.over,
        }

    # ---------------------------------------------------------------- hidden information

    def _resample(self, observer: int | None, rng: Rng) -> None:
        """Redeal what the observer has not seen: other players' roles and hands, the draw
        pile, and the face-down cards played between other players (keeping every size, and
        keeping face-up police visible: a hidden card is then known not to be police)."""
        others = [s for s in range(self.players) if s != observer]
        hidden_plays = [i for i, p in enumerate(self.plays) if not self.visible(p, observer)]
        pool = sorted(
            [self.role_cards[s] for s in others]
            + [c for s in others for c in self.hands[s]]
            + self.draw
            + [self.plays[i].card for i in hidden_plays]
        )
        count = len(hidden_plays)
        if self.options["police_face_up"] and hidden_plays:
            # Hidden played cards cannot be police: deal them from the non-police cards.
            not_police = [c for c in pool if not POLICE[c]]
            rng.shuffle(not_police)
            chosen = not_police[:count]
            pool = not_police[count:] + [c for c in pool if POLICE[c]]
            rng.shuffle(pool)
        else:
            rng.shuffle(pool)
            chosen, pool = pool[:count], pool[count:]
        for i, card in zip(hidden_plays, chosen, strict=True):
            old = self.plays[i]
            self.plays[i] = Play(old.turn, old.giver, old.receiver, card)
        for seat in others:
            self.role_cards[seat] = pool.pop()
            size = len(self.hands[seat])
            self.hands[seat] = pool[len(pool) - size :]
            del pool[len(pool) - size :]
        self.draw = pool
        # What follows from the hidden cards is rebuilt from them.
        self.rejected = {
            (p.giver, p.receiver) for p in self.plays if REJECTION[p.card] and p.giver != p.receiver
        }
        self._recompute_obligations()

    def _recompute_obligations(self) -> None:
        if self.turn == 1:
            self.obligations = {}
            return
        obligations: dict[int, list[int]] = {}
        for play in self.plays:
            if play.turn == self.turn - 1 and play.giver != play.receiver and POLICE[play.card]:
                owed = obligations.setdefault(play.receiver, [])
                if play.giver not in owed:
                    owed.append(play.giver)
        self.obligations = obligations

    def _copy_containers(self) -> None:
        self.scores = list(self.scores)
        self.role_cards = list(self.role_cards)
        self.hands = [list(h) for h in self.hands]
        self.draw = list(self.draw)
        self.plays = list(self.plays)
        self.obligations = {k: list(v) for k, v in self.obligations.items()}
        self.rejected = set(self.rejected)
        self.reports = list(self.reports)

    def _cards(self) -> list[Card]:
        return self._all_cards()

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        words = text.replace("→", " on ").replace(">", " on ").split()
        if len(words) == 3 and words[1].lower() in ("on", "to"):
            words = [words[0], words[2]]
        if len(words) != 2 or not words[1].isdigit():
            return None
        try:
            card = parse_card(words[0])
        except RulesError:
            return None
        return play_action(card, int(words[1]))

    def _why_illegal(self, action: Action) -> str:
        seat = self._current()
        if action.kind != "play" or len(action.cards) != 1:
            return "a move plays one card of your hand on a seat: '7H on 2'"
        card, target = action.cards[0], action.target
        if card not in self.hands[seat]:
            return f"{card} is not in your hand"
        if not isinstance(target, int) or not 0 <= target < self.players:
            return f"there is no seat {target}"
        owed = self.obligations.get(seat)
        if owed:
            names = " or ".join(f"seat {s}" for s in owed)
            if target not in owed:
                return f"police were played on you last turn: you must play on {names}"
            return "when you answer police you must play your highest red card"
        if target == seat:
            return "you may play on yourself only when every other player has rejected you"
        if secret_value(card) and (target, seat) in self.rejected:
            return f"seat {target} rejected you: you may not play red cards on them"
        return "it is not one of the legal moves in this position"

    def _describe(self, action: Action) -> str:
        card, target = action.cards[0], action.target
        seat = self._current()
        if target == seat:
            return f"Play {card} on yourself (everyone has rejected you)."
        if is_rejection(card):
            meaning = "a rejection"
        elif is_police(card):
            meaning = "police"
        elif secret_value(card):
            meaning = f"a secret worth {secret_value(card)}"
        else:
            meaning = "a harmless card"
        owed = " (your obligation)" if target in self.obligations.get(seat, []) else ""
        return f"Play {card} ({meaning}) face down on seat {target}{owed}."
