"""The Sandwich Guy: discard three evenly spaced cards, draw two to four, get through the deck."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any, TypeVar

from spyglass.components.cards import (
    PER_DECK,
    Card,
    by_rank,
    card_list,
    cards_text,
    parse_cards,
    standard_deck,
)
from spyglass.components.cards import parse_card as _parse_card
from spyglass.engine import Action, Result, RulesError, State, plural

HAND_LIMIT = 8
OPENING_HAND = 8
DECK_SIZE = 52

#: How many cards a sandwich draws, by how alike its suits are.
SAME_SUIT, SAME_COLOUR, MIXED = "same suit", "same colour", "mixed colours"
DRAWS = {SAME_SUIT: 4, SAME_COLOUR: 3, MIXED: 2}

_RANK = tuple(Card(code).rank for code in range(PER_DECK))
_SUIT = tuple(Card(code).suit for code in range(PER_DECK))
_RED = tuple(Card(code).is_red for code in range(PER_DECK))


def _progressions() -> dict[tuple[int, ...], tuple[int, int]]:
    """Sorted rank triple -> (first rank, step) of the way it is evenly spaced mod 13."""
    table: dict[tuple[int, ...], tuple[int, int]] = {}
    for first in range(13):
        for step in range(7):
            ranks = tuple(sorted((first + k * step) % 13 + 1 for k in range(3)))
            table.setdefault(ranks, (first + 1, step))
    return table


PROGRESSIONS = _progressions()


def _completion_table() -> list[int]:
    """For ranks (a, b) at index a*14+b: the bitmask of ranks c making {a, b, c} a sandwich."""
    table = [0] * (14 * 14)
    for ranks in PROGRESSIONS:
        for a, b, c in permutations(ranks):
            table[a * 14 + b] |= 1 << c
    return table


COMPLETES = _completion_table()


def is_sandwich(cards: tuple[Card, ...] | list[Card]) -> bool:
    """Three cards form a sandwich when their ranks read x, x+d, x+2d (mod 13), 0 <= d <= 6."""
    if len(cards) != 3 or any(c.is_joker for c in cards):
        return False
    return tuple(sorted(c.rank for c in cards)) in PROGRESSIONS


def quality(cards: tuple[Card, ...]) -> str:
    suits = {_SUIT[c] for c in cards}
    if len(suits) == 1:
        return SAME_SUIT
    if len({_RED[c] for c in cards}) == 1:
        return SAME_COLOUR
    return MIXED


_C = TypeVar("_C", bound=int)  # a card, or its code


def sandwiches(hand: Sequence[_C]) -> list[tuple[_C, _C, _C]]:
    """Every sandwich in ``hand`` (cards or their codes), as triples in hand order."""
    ranks = [_RANK[c] for c in hand]
    n = len(hand)
    # later[j]: the ranks held after position j, as a bitmask, to skip hopeless pairs.
    later = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        later[j] = later[j + 1] | (1 << ranks[j])
    found = []
    completes = COMPLETES
    for i in range(n - 2):
        ri = ranks[i] * 14
        for j in range(i + 1, n - 1):
            wanted = completes[ri + ranks[j]]
            if wanted & later[j + 1]:
                for k in range(j + 1, n):
                    if wanted >> ranks[k] & 1:
                        found.append((hand[i], hand[j], hand[k]))
    return found


# Memo of a pure function (the same three cards always make the same immutable Action).
_ACTIONS: dict[int, Action] = {}


def sandwich_action(a: Card, b: Card, c: Card) -> Action:
    """The action discarding these three cards (a sandwich), its cards in notation order."""
    key = (1 << a) | (1 << b) | (1 << c)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = _make_sandwich(a, b, c)
    return action


def _make_sandwich(a: Card, b: Card, c: Card) -> Action:
    first, step = PROGRESSIONS[tuple(sorted((_RANK[a], _RANK[b], _RANK[c])))]
    if step == 0:
        ordered = tuple(sorted((a, b, c), key=by_rank))
    else:
        by = {_RANK[a]: a, _RANK[b]: b, _RANK[c]: c}
        ordered = tuple(by[(first - 1 + k * step) % 13 + 1] for k in range(3))
    return Action("sandwich", ordered, None, cards_text(ordered))


class SandwichGuyState(State):
    DECK = tuple(standard_deck())  # the deck (engine State.deck_contents)
    UNSEEN = ("deck",)  # determinize shuffles the draw pile (engine State._resample)
    parse_card = staticmethod(_parse_card)
    notation_help = "a sandwich is three cards of your hand, in any order, like 8S QS 3S"

    deck: list[Card]  # the top card is the last element
    hand: list[Card]
    discard: list[Card]
    deck_done: bool  # the last card has been drawn: the game is won
    tally: dict[str, int]
    _moves: list[Action]

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        return DECK_SIZE // 3  # every sandwich discards three of the 52 cards

    def _setup(self) -> None:
        self.deck = list(reversed(self._deck("deck")))
        self.hand = []
        self.discard = []
        self.deck_done = False
        self.tally = {SAME_SUIT: 0, SAME_COLOUR: 0, MIXED: 0}
        drawn = self._draw(OPENING_HAND)
        self._say(f"dealt {cards_text(drawn)}")
        self._settle()

    # ---------------------------------------------------------------- rules

    def _draw(self, wanted: int) -> list[Card]:
        room = min(wanted, HAND_LIMIT - len(self.hand), len(self.deck))
        drawn = [self.deck.pop() for _ in range(room)]
        self.hand.extend(drawn)
        if drawn and not self.deck:
            self.deck_done = True
        return drawn

    def _find_moves(self) -> list[Action]:
        return [sandwich_action(a, b, c) for a, b, c in sandwiches(self.hand)]

    def _settle(self) -> None:
        self._moves = self._find_moves()
        if self._moves:
            return
        if self.deck_done:
            self._say(f"no sandwich left: finished with {plural(len(self.hand), 'card')} in hand")
        else:
            self._say(
                f"no sandwich in hand: lost with {plural(len(self.deck), 'card')} left in the deck"
            )

    @property
    def is_over(self) -> bool:
        return not self._moves

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def _apply(self, action: Action) -> None:
        cards = action.cards
        for card in cards:
            self.hand.remove(card)
        self.discard.extend(cards)
        kind = quality(cards)
        self.tally[kind] += 1
        was_done = self.deck_done
        drawn = self._draw(DRAWS[kind])
        text = f"sandwich {action} ({kind})"
        if was_done:
            text += ": the deck is done, no draw"
        elif drawn:
            text += f": drew {cards_text(drawn)}"
            if len(drawn) < DRAWS[kind]:
                text += f" ({DRAWS[kind] - len(drawn)} not drawn: "
                text += "the deck ran out)" if not self.deck else "hand limit)"
        self._say(text)
        if self.deck_done and not was_done:
            self._say("drew the last card: the game is won; keep making sandwiches")
        self._settle()

    def _result(self) -> Result:
        made = sum(self.tally.values())
        detail = {
            "cards_in_hand": len(self.hand),
            "cards_left_in_deck": len(self.deck),
            "sandwiches": made,
            "same_suit": self.tally[SAME_SUIT],
            "same_colour": self.tally[SAME_COLOUR],
            "mixed_colours": self.tally[MIXED],
        }
        if self.deck_done:
            n = len(self.hand)
            summary = f"Won: through the whole deck, {n} card{'s' * (n != 1)} left in hand"
            return Result.solo(True, n, detail, summary + " (score, lower is better)")
        summary = (
            f"Lost: no sandwich in hand with {plural(len(self.deck), 'card')} still in the deck"
        )
        return Result.solo(False, None, detail, summary)

    # ---------------------------------------------------------------- views

    def _view(self, observer: int | None) -> dict[str, Any]:
        return {
            "hand": card_list(sorted(self.hand, key=by_rank)),
            "hand_limit": HAND_LIMIT,
            "deck": len(self.deck),
            # The rulebook lets the player look through the deck (then shuffle): its contents
            # are known, its order is not.
            "deck_contents": card_list(sorted(self.deck, key=by_rank)),
            "discard": card_list(self.discard),
            "deck_done": self.deck_done,
            "sandwiches": dict(self.tally),
        }

    def _snapshot(self) -> dict[str, Any]:
        return {
            "deck_top_first": card_list(reversed(self.deck)),
            "hand": card_list(self.hand),
            "discard": card_list(self.discard),
            "deck_done": self.deck_done,
            "sandwiches": dict(self.tally),
        }

    def _copy_containers(self) -> None:
        self.deck = list(self.deck)
        self.hand = list(self.hand)
        self.discard = list(self.discard)
        self.tally = dict(self.tally)

    def _cards(self) -> list[Card]:
        return self.deck + self.hand + self.discard

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        try:
            cards = parse_cards(text)
        except RulesError:
            return None
        wanted = frozenset(cards)
        for move in self._moves:
            if len(cards) == 3 and frozenset(move.cards) == wanted:
                return move
        return Action("sandwich", tuple(cards), None, cards_text(cards))

    def _why_illegal(self, action: Action) -> str:
        cards = action.cards
        if action.kind != "sandwich":
            return "the only move is a sandwich: three cards of your hand"
        if len(cards) != 3 or len(set(cards)) != 3:
            return "a sandwich is exactly three different cards"
        missing = [c for c in cards if c not in self.hand]
        if missing:
            return f"{cards_text(missing)} {'is' if len(missing) == 1 else 'are'} not in your hand"
        return (
            "these cards are not a sandwich: their ranks must be evenly spaced, x, x+d, x+2d,"
            " counting on from K to A (8 10 8 is not; 8 Q 3 is)"
        )

    def _describe(self, action: Action) -> str:
        kind = quality(action.cards)
        wanted = DRAWS[kind]
        step = PROGRESSIONS[tuple(sorted(c.rank for c in action.cards))][1]
        spacing = "three of a rank" if step == 0 else f"step {step}"
        sentence = f"Discard {action} ({spacing}, {kind})"
        if self.deck_done:
            return sentence + "; the deck is done, so nothing is drawn."
        room = min(wanted, HAND_LIMIT - (len(self.hand) - 3), len(self.deck))
        if room == wanted:
            return f"{sentence} and draw {wanted}."
        why = "the deck runs out" if room == len(self.deck) else "the hand limit is 8"
        return f"{sentence} and draw {room} of {wanted} ({why})."
