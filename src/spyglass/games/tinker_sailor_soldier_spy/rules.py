"""Tinker, Sailor, Soldier, Spy: a Decktet deck-builder in two rounds.

Round 1 recruits Personalities and Events into the deck; round 2 must pay for every Location in
turn. A fight draws a free card, then a card per suit chip placed, until the cards and chips
matching the challenger's suits reach its rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyglass.components.decktet import (
    SUIT_MASKS,
    SUITS,
    DecktetCard,
    full_deck,
    labels,
    parse_decktet,
)
from spyglass.engine import Action, Result, Rng, RulesError, State

CHIPS_PER_SUIT = 6
STARTING_DECK = ("excuse", "soldier", "sailor", "diplomat")  # the Tinker and his three friends
#: Cards that carry two types go to one pile only (rulebook 000): the Market is an Event, the
#: Origin and the End are Locations.
EVENT_ONLY = ("market",)
LOCATION_ONLY = ("origin", "end")
ORIGIN, END = "origin", "end"

CHOOSE, FIGHT, OVER = "choose", "fight", "over"


def _piles() -> dict[str, list[DecktetCard]]:
    """The five piles of the set-up, from the card table's types."""
    deck = [parse_decktet(n) for n in STARTING_DECK]
    piles: dict[str, list[DecktetCard]] = {
        "deck": deck,
        "aces": [],
        "personalities": [],
        "events": [],
        "locations": [],
    }
    for card in full_deck():
        if card in deck:
            continue
        if card.rank == "Ace":
            piles["aces"].append(card)
        elif str(card) in LOCATION_ONLY or (
            "Location" in card.types and str(card) not in EVENT_ONLY
        ):
            piles["locations"].append(card)
        elif "Event" in card.types:
            piles["events"].append(card)
        elif "Personality" in card.types:
            piles["personalities"].append(card)
        else:
            raise RulesError(f"{card.name} has no pile in Tinker, Sailor, Soldier, Spy")
    return piles


PILES = _piles()
SUIT_WORDS = {s.lower(): s for s in SUITS} | {s.lower()[:-1]: s for s in SUITS} | {"leaf": "Leaves"}

_ACTIONS: dict[tuple[str, Any], Action] = {}  # memo of a pure function: same key, same Action


def _action(kind: str, card: DecktetCard | None = None, suit: str | None = None) -> Action:
    key = (kind, card if card is not None else suit)
    action = _ACTIONS.get(key)
    if action is None:
        if kind == "fight":
            action = Action("fight", (card,), None, f"fight {card}")
        elif kind == "chip":
            assert suit is not None  # a chip is of a suit
            action = Action("chip", (), suit, f"chip {suit.lower()}")
        else:
            action = Action("give-up", (), None, "give up")
        _ACTIONS[key] = action
    return action


class TinkerSailorSoldierSpyState(State):
    parse_card = staticmethod(parse_decktet)
    notation_help = "choose with 'fight merchant', pay with 'chip leaves', or 'give up'"

    deck: list[DecktetCard]  # top card last
    discard: list[DecktetCard]
    trash: list[DecktetCard]
    aces: list[DecktetCard]  # top card last
    personalities: list[DecktetCard]
    events: list[DecktetCard]
    locations: list[DecktetCard]
    chips: dict[str, int]  # chips left, by suit
    chips_trashed: int
    round: int
    phase: str
    revealed: list[DecktetCard]  # the card(s) turned up this turn, before one is chosen
    challenger: DecktetCard | None
    fight_cards: list[DecktetCard]  # the second row: cards drawn this fight
    fight_chips: list[str]
    paid: int  # what the second row pays for the challenger so far
    won: bool
    defeated: int  # Locations paid for
    recruited: int  # challengers bought in round 1

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Any]]:
        return {name: list(cards) for name, cards in PILES.items()}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # A round-1 turn is one choice and at most one give-up; every other move spends one of
        # the 36 chips; round 2 has no other decision.
        turns = max(len(PILES["personalities"]), len(PILES["events"]))
        return 2 * turns + CHIPS_PER_SUIT * len(SUITS)

    @classmethod
    def shuffle_deck(
        cls, name: str, cards: Sequence[Any], rng: Rng, options: Mapping[str, Any], players: int
    ) -> list[Any]:
        order = sorted(cards)
        rng.shuffle(order)
        if name == "locations" and options.get("fixed_locations"):
            ends = {parse_decktet(ORIGIN), parse_decktet(END)}
            middle = [c for c in order if c not in ends]
            return [parse_decktet(ORIGIN), *middle, parse_decktet(END)]
        return order

    @classmethod
    def check_deck(
        cls, name: str, order: Sequence[Any], options: Mapping[str, Any], players: int
    ) -> None:
        fixed = name == "locations" and options.get("fixed_locations")
        if fixed and (order[0] != parse_decktet(ORIGIN) or order[-1] != parse_decktet(END)):
            raise RulesError(
                "with fixed_locations the stacked Locations must start with the Origin and"
                " end with the End"
            )

    # ---------------------------------------------------------------- set-up

    @property
    def fought(self) -> DecktetCard:
        """The Location being fought (there is one from its reveal to the cleanup)."""
        challenger = self.challenger
        assert challenger is not None
        return challenger

    def _setup(self) -> None:
        # Piles are stored top card last, so pop() turns up the top card.
        self.deck = list(reversed(self._deck("deck")))
        self.aces = list(reversed(self._deck("aces")))
        self.personalities = list(reversed(self._deck("personalities")))
        self.events = list(reversed(self._deck("events")))
        self.locations = list(reversed(self._deck("locations")))
        self.discard = []
        self.trash = []
        self.chips = dict.fromkeys(SUITS, CHIPS_PER_SUIT)
        self.chips_trashed = 0
        self.round = 1
        self.phase = CHOOSE
        self.revealed = []
        self.challenger = None
        self.fight_cards = []
        self.fight_chips = []
        self.paid = 0
        self.won = False
        self.defeated = 0
        self.recruited = 0
        self._say(f"your deck: {', '.join(labels(sorted(self.deck)))}; 36 suit chips")
        self._next_turn()

    # ---------------------------------------------------------------- the flow of play

    def _next_turn(self) -> None:
        """Turn up the next challenger(s), or move on to round 2, or win."""
        if self.round == 1:
            self.revealed = [pile.pop() for pile in (self.personalities, self.events) if pile]
            if self.revealed:
                self.phase = CHOOSE
                self._say("challengers: " + " and ".join(labels(self.revealed)))
                return
            self.round = 2
            self._say(f"round 2: {len(self.locations)} Locations to defeat")
        if not self.locations:
            self.won = True
            self.phase = OVER
            self._say(f"every Location is defeated: the game is won with {self.chips_left} chips")
            return
        self.challenger = self.locations.pop()
        self._say(f"Location: {self.challenger.label}")
        self._begin_fight()

    def _begin_fight(self) -> None:
        self.fight_cards = []
        self.fight_chips = []
        self.paid = 0
        if self._draw_into_fight(free=True):
            self._after_draw()

    def _draw_into_fight(self, free: bool = False) -> bool:
        """Draw the next card into the second row; False (and the fight ends) if none can be."""
        if not self.deck:
            if not self.discard:
                self._say("no card left to draw: the fight cannot go on")
                self._fight_lost()
                return False
            self._reshuffle()
        card = self.deck.pop()
        self.fight_cards.append(card)
        # A matching card pays its value once, however many of its suits match.
        if SUIT_MASKS[card] & SUIT_MASKS[self.fought]:
            self.paid += card.value
        self._say(f"{'free card' if free else 'drew'} {card.label}")
        return True

    def _reshuffle(self) -> None:
        new = sorted(self.discard)
        self.discard = []
        text = f"deck exhausted: shuffled {len(new)} discarded cards"
        if self.aces:
            ace = self.aces.pop()
            new.append(ace)
            text += f" with {ace.label} from the Ace pile"
        self.rng.shuffle(new)
        self.deck = new
        self._say(text)

    def _after_draw(self) -> None:
        if self.paid >= self.fought.value:
            self._cleanup(bought=True)
        elif not self.deck and not self.discard:
            self._say("no card left to draw: the fight cannot go on")
            self._fight_lost()
        elif self.round == 2 and not self.chips_left:
            self._say(f"no suit chips left to pay for {self.fought.label}")
            self._lose()
        elif self.round == 1 and not self.chips_left:
            self._say("no suit chips left: the fight is given up")
            self._cleanup(bought=False)
        else:
            self.phase = FIGHT

    def _fight_lost(self) -> None:
        if self.round == 2:
            self._lose()
        else:
            self._cleanup(bought=False)

    def _lose(self) -> None:
        self.phase = OVER
        self._say(f"{self.fought.label} cannot be defeated: the game is lost")

    def _cleanup(self, bought: bool) -> None:
        challenger = self.fought
        paid = self.paid
        if bought and self.round == 1:
            self.discard.append(challenger)
            self.recruited += 1
            self._say(f"bought {challenger.label} for {challenger.value} (paid {paid})")
        elif bought:
            self.trash.append(challenger)
            self.defeated += 1
            self._say(f"defeated {challenger.label} for {challenger.value} (paid {paid})")
        else:
            self.trash.append(challenger)
            self._say(f"gave up on {challenger.label}")
        self.discard.extend(self.fight_cards)
        self.chips_trashed += len(self.fight_chips)
        self.fight_cards = []
        self.fight_chips = []
        self.paid = 0
        self.challenger = None
        self._next_turn()

    # ---------------------------------------------------------------- payment

    def payment_by_suit(self) -> dict[str, int]:
        """How the payment splits by suit (a card counts toward its first matching suit)."""
        split = dict.fromkeys(self.challenger.suits if self.challenger else (), 0)
        for card in self.fight_cards:
            suit = next((s for s in card.suits if s in split), None)
            if suit is not None:
                split[suit] += card.value
        for chip in self.fight_chips:
            if chip in split:
                split[chip] += 1
        return split

    @property
    def chips_left(self) -> int:
        return sum(self.chips.values())

    # ---------------------------------------------------------------- moves

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal_actions(self) -> list[Action]:
        if self.phase == CHOOSE:
            moves = [_action("fight", card) for card in self.revealed]
            if len(self.revealed) == 1:
                moves.append(_action("give-up"))
            return moves
        if self.phase == FIGHT:
            moves = [_action("chip", suit=s) for s in SUITS if self.chips[s]]
            if self.round == 1:
                moves.append(_action("give-up"))
            return moves
        return []

    def _apply(self, action: Action) -> None:
        if action.kind == "fight":
            chosen = action.cards[0]
            for card in self.revealed:
                if card != chosen:
                    self.trash.append(card)
                    self._say(f"trashed {card.label}")
            self.revealed = []
            self.challenger = chosen
            self._say(f"challenger: {chosen.label}")
            self._begin_fight()
        elif action.kind == "chip":
            suit = action.target
            self.chips[suit] -= 1
            self.fight_chips.append(suit)
            if suit in self.fought.suits:
                self.paid += 1
            self._say(f"placed a {suit} chip")
            if self._draw_into_fight():
                self._after_draw()
        elif self.phase == CHOOSE:  # give up a lone challenger before fighting it
            self.challenger = self.revealed.pop()
            self._cleanup(bought=False)
        else:
            self._cleanup(bought=False)

    def _result(self) -> Result:
        detail = {
            "round": self.round,
            "recruited": self.recruited,
            "locations_defeated": self.defeated,
            "locations_left": len(self.locations) + (0 if self.won else 1),
            "chips_left": self.chips_left,
        }
        if self.won:
            return Result.solo(
                True,
                self.chips_left,
                detail,
                f"Won: every Location defeated with {self.chips_left} suit chips left (score)",
            )
        return Result.solo(
            False,
            None,
            detail,
            f"Lost: {self.defeated} of 13 Locations defeated"
            f" ({self.challenger.label if self.challenger else 'a Location'} could not be paid)",
        )

    # ---------------------------------------------------------------- views

    def _view(self, observer: int | None) -> dict[str, Any]:
        challenger = self.challenger
        if challenger is None:
            payment = "-"
        else:
            split = ", ".join(f"{v} {s}" for s, v in self.payment_by_suit().items())
            payment = f"{self.paid} of {challenger.value} ({split})"
        return {
            "round": self.round,
            "revealed": labels(self.revealed),
            "challenger": [] if challenger is None else [challenger.label],
            "payment": payment,
            "second_row": self._second_row(),
            "chips": dict(self.chips),
            "deck": len(self.deck),
            # You built your deck: its contents are known, its order is not.
            "deck_contents": labels(sorted(self.deck)),
            "discard": labels(self.discard),
            "trash": labels(self.trash),
            "piles": {
                "aces": len(self.aces),
                "personalities": len(self.personalities),
                "events": len(self.events),
                "locations": len(self.locations),
            },
        }

    def _second_row(self) -> list[str]:
        """The second row in the order it was laid: the free card, then each chip and the card
        it drew."""
        row = labels(self.fight_cards[:1])
        for chip, card in zip(self.fight_chips, self.fight_cards[1:], strict=False):
            row += [f"{chip} chip", card.label]
        return row

    def _snapshot(self) -> dict[str, Any]:
        return {
            "deck_top_first": [str(c) for c in reversed(self.deck)],
            "aces_top_first": [str(c) for c in reversed(self.aces)],
            "personalities_top_first": [str(c) for c in reversed(self.personalities)],
            "events_top_first": [str(c) for c in reversed(self.events)],
            "locations_top_first": [str(c) for c in reversed(self.locations)],
            "discard": [str(c) for c in self.discard],
            "trash": [str(c) for c in self.trash],
            "revealed": [str(c) for c in self.revealed],
            "challenger": None if self.challenger is None else str(self.challenger),
            "second_row": [str(c) for c in self.fight_cards],
            "fight_chips": list(self.fight_chips),
            "chips": dict(self.chips),
            "chips_trashed": self.chips_trashed,
            "round": self.round,
            "phase": self.phase,
            "won": self.won,
        }

    def _resample(self, observer: int | None, rng: Rng) -> None:
        # Every face-down pile keeps its (known) contents and size; only orders are unknown.
        for name in ("deck", "aces", "personalities", "events", "locations"):
            order = sorted(getattr(self, name))
            rng.shuffle(order)
            setattr(self, name, order)
        if self.options.get("fixed_locations"):
            # The Origin is known to be on top and the End at the bottom while they remain.
            origin, end = parse_decktet(ORIGIN), parse_decktet(END)
            pile = self.locations
            middle = [c for c in pile if c not in (origin, end)]
            self.locations = [end] * (end in pile) + middle + [origin] * (origin in pile)

    def _copy_containers(self) -> None:
        self.deck = list(self.deck)
        self.aces = list(self.aces)
        self.personalities = list(self.personalities)
        self.events = list(self.events)
        self.locations = list(self.locations)
        self.discard = list(self.discard)
        self.trash = list(self.trash)
        self.chips = dict(self.chips)
        self.revealed = list(self.revealed)
        self.fight_cards = list(self.fight_cards)
        self.fight_chips = list(self.fight_chips)

    def _cards(self) -> list[DecktetCard]:
        cards = (
            self.deck
            + self.aces
            + self.personalities
            + self.events
            + self.locations
            + self.discard
            + self.trash
            + self.revealed
            + self.fight_cards
        )
        if self.challenger is not None:
            cards.append(self.challenger)
        return cards

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        words = text.strip().lower().split()
        if not words:
            return None
        if words[0] == "fight" and len(words) > 1:
            try:
                card = parse_decktet(" ".join(words[1:]).removeprefix("the "))
            except RulesError:
                return None
            return Action("fight", (card,), None, f"fight {card}")
        if words[0] == "chip" and len(words) == 2:
            suit = SUIT_WORDS.get(words[1])
            if suit is None:
                return None
            return Action("chip", (), suit, f"chip {suit.lower()}")
        if words in (["give", "up"], ["giveup"], ["give-up"]):
            return Action("give-up", (), None, "give up")
        return None

    def _why_illegal(self, action: Action) -> str:
        if action.kind == "fight":
            if self.phase != CHOOSE:
                return "a challenger is already being fought"
            return "choose one of the two cards just turned up"
        if action.kind == "chip":
            if self.phase != FIGHT:
                return "chips are placed during a fight, after the free card"
            if action.target not in SUITS:
                return f"there is no suit {action.target!r}"
            return f"you have no {action.target} chip left"
        if action.kind == "give-up":
            if self.round == 2:
                return "in round 2 a Location cannot be given up"
            return "there is no fight to give up"
        return "the moves are 'fight CARD', 'chip SUIT' and 'give up'"

    def _describe(self, action: Action) -> str:
        if action.kind == "fight":
            card = action.cards[0]
            others = [c for c in self.revealed if c != card]
            text = f"Fight {card.name} (cost {card.value}, {' or '.join(card.suits)})"
            return text + (f" and trash {others[0].name}." if others else ".")
        if action.kind == "chip":
            suit = action.target
            worth = 1 if self.challenger is not None and suit in self.challenger.suits else 0
            return (
                f"Place a {suit} chip (worth {worth} here) and draw a card;"
                f" paid {self.paid} of {self.fought.value} so far."
            )
        if self.phase == CHOOSE:
            return f"Give up {self.revealed[0].name} without fighting (it is trashed)."
        return f"Give up the fight: {self.fought.name} is trashed, the cards and chips spent."
