"""Loot the Loop: walk a temple that is a loop of cards, nab the four jewels, leave by the exit.

The deck is a :class:`~spyglass.components.loop.Loop`: its top card is where the adventurer
stands, exploring sends cards from the top to the bottom, and cards turn face up as they are
seen. Face-down cards have never been seen: they are the only hidden information.

When the game is lost, and the one device that keeps every game finite (repeats of an
arrangement between two progress moves are allowed only on a shortest way onward), are in
:mod:`.wandering`; RULES.md says the same for players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.components.cards import Card, card_list, cards_text, standard_deck
from spyglass.components.cards import parse_card as _parse_card
from spyglass.components.loop import Loop
from spyglass.engine import Action, Result, RulesError, State

from . import wandering
from .rooms import (
    DECK_SIZE,
    EXIT,
    EXIT_CARD,
    IS_TRAP,
    IS_TRINKET,
    JEWEL,
    JEWELS_NEEDED,
    KIND,
    NOTE_ORDER,
    NOTES_LIMIT,
    RANK,
    TRAP,
    TRINKET,
    kind_of,
)

__all__ = [
    "DECK_SIZE",
    "EXIT",
    "EXIT_CARD",
    "IS_TRINKET",
    "JEWEL",
    "JEWELS_NEEDED",
    "KIND",
    "NOTES_LIMIT",
    "RANK",
    "TRAP",
    "TRINKET",
    "LootTheLoopState",
    "kind_of",
]

REACH = 11  # the top card and the ten after it: every card one Explore can land on

#: How a game ended.
ESCAPED, TRAPPED, STUCK, CORNERED = "escaped", "trapped", "stuck", "cornered"

# ------------------------------------------------------------------------------ the bound
#
# Why every game ends, and how soon (the conformance suite holds us to MAX_ACTIONS). Words as in
# .wandering: progress (a Look Around, or an Explore that nabs a card) and wandering (Marks,
# Returns, and walks: Explores that only move you).
#
# Stretches. A Look Around turns at least one of the 53 face-down cards up and none ever turns
# back; a nab removes one of the 40 jewels and trinkets for good. So a game has at most 53 + 40
# progress moves, 94 stretches of wandering between them, and one final Explore (onto a trap or
# out of the exit).
#
# Arrangements one stretch can pass through. Marks and Returns reach at most 16 arrangements of
# one cluster (three cards shared between the notes and the top of the temple: 1 + 3 + 6 + 6
# orders). Once a stretch has walked, the top card is the card landed on (face down, or the
# exit), which cannot be marked, so only returned notes are ever marked again, and a walk with
# returned notes on top sends them into the temple for good (coming back to one would nab it):
# the temple's order then changes at most three more times. For each of those at most four
# orders the top is one of at most 53 landing places with one of 16 stacks of returned notes.
# So at most 16 + 4 x 53 x 16 arrangements are new to a stretch.
#
# Repeats. A repeat must take one step along a shortest way to progress or to a loss. A shortest
# way crosses at most three clusters (15 steps each at most) and three walks (into a cluster with
# the exit on top; out of it again only with two or more returned notes, which go into the
# temple; and a last walk onto a face-down card, where a Look Around is on offer): at most 48
# steps. So after each new arrangement come at most 48 repeats in a row.
STRETCHES = DECK_SIZE + 40 + 1
CLUSTER = 16
NEW_PER_STRETCH = CLUSTER + (NOTES_LIMIT + 1) * DECK_SIZE * CLUSTER
REPEATS_IN_A_ROW = 3 * (CLUSTER - 1) + 3
WANDERING_PER_STRETCH = NEW_PER_STRETCH * (1 + REPEATS_IN_A_ROW)
MAX_ACTIONS = STRETCHES * (WANDERING_PER_STRETCH + 1)

# ------------------------------------------------------------------------------ actions

LOOK = Action("look", (), None, "look")
# Memo of pure functions: the same cards always make the same immutable Action.
_ACTIONS: dict[tuple[Any, ...], Action] = {}


def explore_action(value: int, cards: tuple[Card, ...]) -> Action:
    """Explore ``value`` cards, offered by the face-up trinkets ``cards`` (top first)."""
    key = ("explore", value, cards)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action("explore", cards, value, f"explore {value}")
    return action


def mark_action(card: Card) -> Action:
    key = ("mark", card)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action("mark", (card,), None, f"mark {card}")
    return action


def return_action(card: Card) -> Action:
    key = ("return", card)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action("return", (card,), None, f"return {card}")
    return action


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


Key = wandering.Key
Glance = tuple[int, int, Card | None, Card | None, Card | None]

REPEAT = (
    "would bring back an arrangement you have had since your last look around or nab, and it"
    " is no step on the shortest way onward (our no-repeat ruling)"
)


class LootTheLoopState(State):
    parse_card = staticmethod(_parse_card)
    notation_help = (
        "the moves are 'look', 'explore N' (N the value of a face-up trinket among the top two"
        " cards), 'mark CARD' (the top card) and 'return CARD' (a card of your notes)"
    )

    loop: Loop[Card]  # the temple, top card first: the top card is where you stand
    notes: list[Card]  # marked paths, in the order they were marked
    notes_mask: int  # the notes as a bit set of card codes (part of an arrangement's key)
    score_pile: list[Card]
    jewels: int
    outcome: str | None
    ended_on: Card | None  # the trap or the exit the last Explore landed on
    # The arrangements had since the last progress, by a glance at them (size, notes and the
    # top three cards): most candidates differ at a glance, so few whole keys are compared.
    seen: dict[Glance, tuple[Key, ...]]
    _moves: list[Action]

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Card]]:
        return {"deck": standard_deck(jokers=1)}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        return MAX_ACTIONS  # derived beside its definition above

    def _setup(self) -> None:
        self.loop = Loop(self._deck("deck"))
        self.notes = []
        self.notes_mask = 0
        self.score_pile = []
        self.jewels = 0
        self.outcome = None
        self.ended_on = None
        self._forget()
        self._say("the temple: 53 cards face down, you stand on the top one")
        self._settle()

    # ---------------------------------------------------------------- rules

    def _key(self) -> Key:
        return (tuple(self.loop.shown), self.notes_mask)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def won(self) -> bool:
        return self.outcome == ESCAPED

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def explores(self) -> list[tuple[int, tuple[Card, ...]]]:
        """The Explore distances the top two cards offer: (value, the face-up trinkets showing
        it, top first), by increasing value."""
        shown = self.loop.shown
        offers = [c for c in shown[:2] if c is not None and IS_TRINKET[c]]
        if len(offers) == 2:
            first, second = offers
            if RANK[first] == RANK[second]:
                return [(RANK[first], (first, second))]
            return sorted([(RANK[first], (first,)), (RANK[second], (second,))])
        return [(RANK[card], (card,)) for card in offers]

    def landing(self, value: int) -> Card | None:
        """What an Explore of ``value`` would land on as the player sees it (None: face down)."""
        shown = self.loop.shown
        return shown[value % len(shown)]

    def _node(self) -> wandering.Node:
        return (tuple(self.loop.shown), tuple(self.notes), self.notes_mask)

    def _find_moves(self) -> tuple[list[Action], bool]:
        """The legal moves, and whether the rulebook still lets the game go on here."""
        loop_shown = self.loop.shown
        size = len(loop_shown)
        top = loop_shown[0]
        second = loop_shown[1] if size > 1 else None
        # With only the present arrangement had since the last progress, no wandering move can
        # repeat one: every Mark and Return changes the notes, and a walk turns the temple,
        # whose face-up cards are all different, by 2 to 10 of its 13 or more cards.
        check = len(self.seen) > 1 or len(next(iter(self.seen.values()))) > 1
        mask = self.notes_mask
        jewels = self.jewels
        # Every move in order, a wandering one with a glance at the arrangement it leads to
        # (when repeats must be checked) and how to build that arrangement if needed.
        offered: list[tuple[Action, Glance | None, int, Card | None]] = []
        progress = top is None  # a Look Around, a nab or the escape is on offer here
        safe = progress
        if progress:
            offered.append((LOOK, None, 0, None))
        top_trinket = top is not None and IS_TRINKET[top]
        if top_trinket or (second is not None and IS_TRINKET[second]):
            for value, cards in self.explores():
                shift = value % size
                landed = loop_shown[shift]
                glance: Glance | None = None
                if landed is None or (landed == EXIT_CARD and jewels < JEWELS_NEEDED):
                    safe = True  # a walk: safe, whether or not a repeat forbids it here
                    if check:
                        after = loop_shown[(shift + 1) % size], loop_shown[(shift + 2) % size]
                        glance = (size, mask, landed, *after)
                elif not IS_TRAP[landed]:
                    safe = progress = True
                offered.append((explore_action(value, cards), glance, shift, None))
        notes = self.notes
        if top_trinket and top is not None and len(notes) < NOTES_LIMIT:
            marked = mask | 1 << top
            glance = (size - 1, marked, second, loop_shown[2], loop_shown[3]) if check else None
            offered.append((mark_action(top), glance, -1, None))
        for card in sorted(notes, key=NOTE_ORDER.__getitem__) if len(notes) > 1 else notes:
            glance = (size + 1, mask & ~(1 << card), card, top, second) if check else None
            offered.append((return_action(card), glance, -2, card))
        moves = self._unrepeated(offered, progress) if check else [o[0] for o in offered]
        if not safe and ((top_trinket and len(notes) < NOTES_LIMIT) or notes):
            # Nothing safe here, but Marks and Returns lead elsewhere: the rulebook's loss
            # conditions are judged over every arrangement they reach.
            safe = not wandering.lost(tuple(loop_shown), tuple(notes), mask, jewels)
        return moves, safe

    def _unrepeated(
        self, offered: list[tuple[Action, Glance | None, int, Card | None]], progress: bool
    ) -> list[Action]:
        """The moves allowed: all but the wandering ones that repeat an arrangement had since
        the last progress without being a step on a shortest way onward (see .wandering)."""
        seen = self.seen
        shown: wandering.Shown | None = None
        downhill: frozenset[Key] | None = None
        allowed = []
        for action, glance, how, card in offered:
            if glance is None or (keys := seen.get(glance)) is None:
                allowed.append(action)
                continue
            if shown is None:
                shown = tuple(self.loop.shown)
            if how >= 0:
                after = shown[how:] + shown[:how]
            elif how == -1:
                after = shown[1:]
            else:
                after = (card, *shown)
            key = (after, glance[1])
            if key not in keys:
                allowed.append(action)
            elif progress:
                continue  # progress is on offer here: no repeat brings it nearer
            elif wandering.progress(after, self.jewels):
                allowed.append(action)  # one step from progress: the shortest way onward
            else:
                if downhill is None:
                    notes = tuple(sorted(self.notes))  # a set: one cache entry for any order
                    downhill = wandering.downhill(shown, notes, self.notes_mask, self.jewels)
                if key in downhill:
                    allowed.append(action)
        return allowed

    def _remember(self, key: Key | None = None) -> None:
        """Add the present arrangement (or ``key``) to those had since the last progress."""
        shown, mask = key if key is not None else (tuple(self.loop.shown), self.notes_mask)
        size = len(shown)
        glance = (size, mask, shown[0], shown[1 % size], shown[2 % size])
        self.seen[glance] = (*self.seen.get(glance, ()), (shown, mask))

    def _forget(self) -> None:
        """Progress: only the present arrangement is remembered."""
        self.seen = {}
        self._remember()

    def _settle(self) -> None:
        if self.outcome is not None:
            self._moves = []
            return
        moves, safe = self._find_moves()
        if not moves:
            self.outcome = STUCK
            self._say("no action is allowed: stuck in the temple, the game is lost")
        elif not safe:
            self.outcome = CORNERED
            self._say(
                "every way onward lands on a trap, whatever you mark or return: cornered,"
                " the game is lost"
            )
            moves = []
        self._moves = moves

    def _apply(self, action: Action) -> None:
        kind = action.kind
        if kind == "explore":
            self._explore(action.target)
        elif kind == "look":
            self._look_around()
        elif kind == "mark":
            card = self.loop.take_top()
            self.notes.append(card)
            self.notes_mask |= 1 << card
            self._remember()
            self._say(f"marked {card}: notes {cards_text(self.notes)}")
        else:
            card = action.cards[0]
            self.notes.remove(card)
            self.notes_mask &= ~(1 << card)
            self.loop.put_on_top(card)
            self._remember()
            self._say(f"returned {card} to the top of the deck")
        self._settle()

    def _look_around(self) -> None:
        loop = self.loop
        first = loop.turn_up(0)
        if len(loop) > 1 and loop.shown[1] is None:
            second = loop.turn_up(1)
            self._say(f"looked around: {first} {second}")
        else:
            self._say(f"looked around: {first}")
        self._forget()

    def _explore(self, value: int) -> None:
        loop = self.loop
        loop.move_to_bottom(value)
        landed = loop.shown[0]
        if landed is None:
            self._remember()
            self._say(f"explored {value}: landed on a face-down card")
            return
        kind = KIND[landed]
        if kind == TRAP:
            self.outcome = TRAPPED
            self.ended_on = landed
            self._say(f"explored {value}: landed on the trap {landed}, the game is lost")
        elif kind == EXIT:
            if self.jewels >= JEWELS_NEEDED:
                self.outcome = ESCAPED
                self.ended_on = landed
                self._say(f"explored {value}: reached the exit with all four jewels and escaped")
            else:
                self._remember()
                self._say(
                    f"explored {value}: reached the exit with {self.jewels} of 4 jewels,"
                    " not yet time to leave"
                )
        else:
            loop.take_top()
            self.score_pile.append(landed)
            if kind == JEWEL:
                self.jewels += 1
            self._forget()
            what = f"the jewel {landed} ({self.jewels} of 4)" if kind == JEWEL else landed
            self._say(f"explored {value}: landed on {what} and nabbed it")

    def _result(self) -> Result:
        trinkets = len(self.score_pile) - self.jewels
        detail = {
            "outcome": self.outcome,
            "jewels": self.jewels,
            "trinkets": trinkets,
            "cards_nabbed": len(self.score_pile),
            "score_pile": [str(c) for c in self.score_pile],
            "cards_left_in_temple": len(self.loop),
            "face_down_left": self.loop.face_down_count(),
        }
        n = len(self.score_pile)
        loot = f"{self.jewels} of 4 jewels, {n} card{'s' * (n != 1)} nabbed"
        if self.outcome == ESCAPED:
            summary = f"Won: escaped with all four jewels and {n} cards in the score pile"
            return Result.solo(True, n, detail, summary + " (score, higher is better)")
        if self.outcome == TRAPPED:
            summary = f"Lost: landed on the trap {self.ended_on} ({loot})"
        elif self.outcome == CORNERED:
            summary = f"Lost: every way onward lands on a trap ({loot})"
        else:
            summary = f"Lost: stuck, no action allowed ({loot})"
        return Result.solo(False, None, detail, summary)

    # ---------------------------------------------------------------- views

    def _view(self, observer: int | None) -> dict[str, Any]:
        loop = self.loop
        shown = card_list(loop.shown)
        rows = [
            {"title": f"{i + 1}–{min(i + 10, len(shown))}", "cards": shown[i : i + 10]}
            for i in range(0, len(shown), 10)
        ]
        reach = shown[:REACH]
        return {
            # Column n holds the card an Explore of n lands on ("you": where you stand).
            "reach": {
                "cells": [[[card] for card in reach]],
                "col_labels": ["you", *(str(n) for n in range(1, len(reach)))],
            },
            "loop": rows,
            "deck": len(loop),
            "face_down": loop.face_down_count(),
            "notes": [str(c) for c in self.notes],
            "notes_limit": NOTES_LIMIT,
            "score_pile": [str(c) for c in self.score_pile],
            "jewels": self.jewels,
            "status": self._status(),
        }

    def _status(self) -> str:
        loop = self.loop
        shown = loop.shown
        # The exit never leaves the temple: either it is face up somewhere or still unseen.
        if EXIT_CARD in shown:
            exit_at = f"exit face up, {ordinal(shown.index(EXIT_CARD) + 1)} card"
        else:
            exit_at = "exit not found yet"
        return (
            f"jewels {self.jewels} of 4 · {exit_at} · notes {len(self.notes)} of {NOTES_LIMIT}"
            f" · {len(loop)} cards in the temple, {loop.face_down_count()} face down"
        )

    def _snapshot(self) -> dict[str, Any]:
        return {
            "loop_top_first": [str(c) for c in self.loop.cards],
            "face_up": [s is not None for s in self.loop.shown],
            "notes": [str(c) for c in self.notes],
            "score_pile": [str(c) for c in self.score_pile],
            "jewels": self.jewels,
            "outcome": self.outcome,
            "ended_on": None if self.ended_on is None else str(self.ended_on),
            "seen": [
                [" ".join("?" if c is None else str(c) for c in shown), mask]
                for keys in self.seen.values()
                for shown, mask in keys
            ],
        }

    def _resample(self, observer: int | None, rng: Any) -> None:
        # Face-down cards have never been seen: any of them may be in any face-down place.
        unseen = sorted(self.loop.hidden())
        rng.shuffle(unseen)
        self.loop.replace_hidden(unseen)

    def _copy_containers(self) -> None:
        self.loop = self.loop.copy()
        self.notes = list(self.notes)
        self.score_pile = list(self.score_pile)
        self.seen = dict(self.seen)

    def _cards(self) -> list[Card]:
        return [*self.loop.cards, *self.notes, *self.score_pile]

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        words = text.replace(",", " ").lower().split()
        if not words:
            return None
        verb, rest = words[0], words[1:]
        if verb in ("look", "l") and (not rest or rest == ["around"]):
            return LOOK
        if verb in ("explore", "e", "x") and len(rest) == 1:
            return self._parse_explore(rest[0])
        if verb.isdecimal() and not rest:
            return self._parse_explore(verb)
        if verb in ("mark", "m") and len(rest) <= 1:
            return self._parse_card_move("mark", rest)
        if verb in ("return", "r") and len(rest) <= 1:
            return self._parse_card_move("return", rest)
        return None

    def _parse_explore(self, word: str) -> Action | None:
        if word.isdecimal():
            value = int(word)
            offered = dict(self.explores())
            return (
                explore_action(value, offered[value])
                if value in offered
                else (Action("explore", (), value, f"explore {value}"))
            )
        try:
            card = _parse_card(word)
        except RulesError:
            return None
        for move in self._moves:
            if move.kind == "explore" and card in move.cards:
                return move
        return Action("explore", (card,), card.rank, f"explore {card}")

    def _parse_card_move(self, kind: str, rest: list[str]) -> Action | None:
        if not rest:
            options = [m for m in self._moves if m.kind == kind]
            if len(options) == 1:
                return options[0]
            return Action(kind, (), None, kind)
        try:
            card = _parse_card(rest[0])
        except RulesError:
            return None
        return Action(kind, (card,), None, f"{kind} {card}")

    def _why_illegal(self, action: Action) -> str:
        cards = action.cards if isinstance(action.cards, tuple) else ()
        kind = action.kind
        if kind == "look":
            if self.loop.shown[0] is not None:
                return "you can look around only while the top card of the deck is face down"
            return "look around takes no cards: write it 'look'"
        if kind == "explore":
            return self._why_not_explore(action.target, cards)
        if kind == "mark":
            return self._why_not_mark(cards)
        if kind == "return":
            return self._why_not_return(cards)
        return "a move is 'look', 'explore N', 'mark CARD' or 'return CARD'"

    def _why_not_explore(self, target: Any, cards: tuple[Any, ...]) -> str:
        offered = self.explores()
        if not offered:
            return "neither of the top two cards of the deck is a face-up trinket (2 to 10)"
        values = " or ".join(str(v) for v, _ in offered)
        if isinstance(target, bool) or not isinstance(target, int):
            return f"explore takes a distance: here {values}"
        match = next((c for v, c in offered if v == target), None)
        if match is None:
            return (
                f"only a face-up trinket among the top two cards gives a distance: here {values},"
                f" not {target}"
            )
        if cards != match:
            return f"explore {target} is offered by {cards_text(match)}, the top cards showing it"
        return f"exploring {target} {REPEAT}"

    def _why_not_mark(self, cards: tuple[Any, ...]) -> str:
        top = self.loop.shown[0]
        if top is None or not IS_TRINKET[top]:
            return "you can mark a path only when the top card is a face-up trinket (2 to 10)"
        if len(self.notes) >= NOTES_LIMIT:
            return "your notes are full: three marked paths at most (return one first)"
        if cards != (top,):
            return f"the card you mark is the top card of the deck, {top}"
        return f"marking {top} {REPEAT}"

    def _why_not_return(self, cards: tuple[Any, ...]) -> str:
        if not self.notes:
            return "your notes are empty: there is no marked path to return to"
        if len(cards) != 1:
            return "return names one card of your notes, like 'return 7♣'"
        card = cards[0]
        if not isinstance(card, Card) or card not in self.notes:
            return f"{card} is not in your notes ({cards_text(self.notes)})"
        return f"returning {card} {REPEAT}"

    def _describe(self, action: Action) -> str:
        kind = action.kind
        if kind == "look":
            if len(self.loop) > 1 and self.loop.shown[1] is None:
                return "Look around: turn the top two cards of the deck face up."
            return "Look around: turn the top card face up (the next one is already face up)."
        if kind == "mark":
            card = action.cards[0]
            return (
                f"Mark a path: move {card} from the top of the deck to your notes"
                f" ({len(self.notes) + 1} of {NOTES_LIMIT})."
            )
        if kind == "return":
            card = action.cards[0]
            return f"Return to a marked path: put {card} from your notes face up on the deck."
        value = action.target
        landed = self.landing(value)
        where = f"send the top {value} cards to the bottom and land on the"
        where += f" {ordinal(value % len(self.loop) + 1)} card"
        if landed is None:
            return f"Explore {value}: {where}, face down: nothing happens."
        kind_landed = KIND[landed]
        if kind_landed == TRAP:
            return f"Explore {value}: {where}, {landed}, a trap: you lose."
        if kind_landed == EXIT:
            if self.jewels >= JEWELS_NEEDED:
                return (
                    f"Explore {value}: {where}, the exit, with all four jewels: you escape and win."
                )
            stay = f"Explore {value}: {where}, the exit; with {self.jewels} of 4 jewels you stay"
            shown = tuple(self.loop.shown)
            shift = value % len(shown)
            after = shown[shift:] + shown[:shift]
            if wandering.lost(after, tuple(self.notes), self.notes_mask, self.jewels):
                return stay + ", and every way on from there lands on a trap: you lose."
            return stay + "."
        what = "the jewel" if kind_landed == JEWEL else "the trinket"
        return f"Explore {value}: {where}, {what} {landed}: you nab it."
