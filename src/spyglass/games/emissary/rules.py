"""The Emissary: win exactly k debates in the k-th kingdom, eight kingdoms in a row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.components.cards import (
    PER_DECK,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    card_list,
    cards_text,
    parse_card,
    parse_cards,
    standard_deck,
)
from spyglass.engine import Action, Result, RulesError, State, plural

KINGDOMS = 8
ALL_VISITED = (1 << KINGDOMS) - 1
HAND = 8  # cards drawn before choosing each kingdom
JACKS = tuple(Card.of(11, suit) for suit in SUITS)  # the advisors, in suit order S H C D
RULER_CARDS = tuple(c for c in standard_deck() if c.rank >= 12)  # kings and queens
DEBATE_CARDS = tuple(c for c in standard_deck() if c.rank <= 8)  # Ace to Eight: the deck

# Suit indices follow components.cards.SUITS: spades, hearts, clubs, diamonds.
SPADES, HEARTS, CLUBS, DIAMONDS = range(4)
SUIT = tuple(code // 13 if code < 52 else -1 for code in range(PER_DECK))
RANK = tuple(code % 13 + 1 if code < 52 else 0 for code in range(PER_DECK))
SUIT_BIT = tuple(1 << s if s >= 0 else 0 for s in SUIT)
SYMBOL = tuple(SUIT_SYMBOLS[s] for s in SUITS)
ABILITY = ("politics", "diplomacy", "military", "commerce")  # by suit index

# Phases of play.
CHOOSE = "choose"  # a fresh hand: choose the kingdom to visit
GAP = "gap"  # before a debate: use abilities, or let the ruler raise a topic
RESPOND = "respond"  # a topic is on the table: answer it with a card
DISCARD = "discard"  # the diamonds ability drew two cards: discard two
OVER = "over"

# Cards that can enter the hand in one game bound the number of debates: eight per kingdom,
# up to eight per clubs ability (a hand holds at most the eight clubs Ace to Eight), two per
# diamonds ability. Jacks act once per kingdom; each supporter once per game (at most two
# supporters share a suit).
_ENTRIES = KINGDOMS * HAND + KINGDOMS * 8 + 2 * 8 + KINGDOMS * 2 + 2 * 2
MAX_ACTIONS = (
    KINGDOMS  # visits
    + 2 * _ENTRIES  # each debate: "debate", then the answer
    + 2 * 4 * KINGDOMS  # advisors, each followed at most by a discard (diamonds)
    + 2 * KINGDOMS  # supporters, likewise
)


def beats(answer: Card, topic: Card, trump: int) -> bool:
    """Whether an answer wins the debate: a higher card of the topic's suit, or a trump
    played on a topic that is not trump. A tie of rank in the same suit loses."""
    suit = SUIT[answer]
    if suit == SUIT[topic]:
        return RANK[answer] > RANK[topic]
    return suit == trump


def answers(hand: list[Card], topic: Card) -> list[Card]:
    """The cards that may answer a topic: its suit if the hand holds any, else any card."""
    suit = SUIT[topic]
    follow = [c for c in hand if SUIT[c] == suit]
    return follow or hand


# Memo of pure functions: the same choice always makes the same immutable Action.
_VISITS = tuple(Action("visit", (), k, f"visit {k}") for k in range(1, KINGDOMS + 1))
DEBATE = Action("debate", (), None, "debate")
_ANSWERS = {c: Action("answer", (c,), None, str(c)) for c in DEBATE_CARDS}
_ACTIONS: dict[Any, Action] = {}


def visit_action(number: int) -> Action:
    return _VISITS[number - 1]


def ability_action(source: Card, target: int | None = None) -> Action:
    key = (source, target)
    action = _ACTIONS.get(key)
    if action is None:
        text = f"use {source}" if target is None else f"use {source} {target}"
        action = _ACTIONS[key] = Action("ability", (source,), target, text)
    return action


def _discard_move(cards: tuple[Card, ...]) -> Action:
    return Action("discard", cards, None, "discard " + cards_text(cards))


# Discards after the diamonds ability, by pair in sorted (hand) order.
_PAIRS = {
    (a, b): _discard_move((a, b)) for i, a in enumerate(DEBATE_CARDS) for b in DEBATE_CARDS[i + 1 :]
}


class EmissaryState(State):
    UNSEEN = ("deck",)  # determinize shuffles the draw pile (engine State._resample)
    parse_card = staticmethod(parse_card)
    notation_help = (
        "'visit 4' chooses a kingdom; 'debate' lets the ruler raise a topic; a card ('8D')"
        " answers it; 'use JH' turns an advisor or supporter face down ('use JS 6' swaps with"
        " kingdom 6's ruler); 'discard 3S 5H' after the diamonds ability"
    )

    rulers: list[Card]  # rulers[i]: the ruler of kingdom i + 1 (supporters stay listed)
    won: list[int]  # kingdom indices won, in order: their rulers are the supporters
    visited: int  # bitmask over kingdom indices: won or being visited
    spent: int  # bitmask over kingdom indices: supporters turned face down
    jacks_used: int  # bitmask over suits: advisors face down in this kingdom
    visiting: int | None  # kingdom index being visited
    deck: list[Card]  # the top card is the last element
    hand: list[Card]  # kept sorted (suit, then rank)
    discard: list[Card]  # the topic being debated is its last card
    scoring: list[Card]  # debates won in this kingdom
    topic: Card | None
    phase: str
    lost: str | None  # why the game was lost
    _moves: list[Action]

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Card]]:
        # The kingdom placeholders (nines and tens) and the Jacks never move: they are the
        # table's fixed furniture, not part of any shuffled deck.
        return {"rulers": list(RULER_CARDS), "deck": list(DEBATE_CARDS)}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        return MAX_ACTIONS

    def _setup(self) -> None:
        self.rulers = list(self._deck("rulers"))
        self.deck = list(reversed(self._deck("deck")))
        self.won = []
        self.visited = 0
        self.spent = 0
        self.jacks_used = 0
        self.visiting = None
        self.hand = []
        self.discard = []
        self.scoring = []
        self.topic = None
        self.lost = None
        self._say("rulers, left to right: " + cards_text(self.rulers))
        self._new_hand()

    # ---------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def trump(self) -> int:
        """The suit index of the visited kingdom's ruler."""
        assert self.visiting is not None
        return SUIT[self.rulers[self.visiting]]

    @property
    def target(self) -> int:
        """How many debates the visited kingdom needs (its position, 1 to 8)."""
        assert self.visiting is not None
        return self.visiting + 1

    @property
    def wins(self) -> int:
        return len(self.scoring)

    def unvisited(self) -> list[int]:
        """Kingdom indices not yet visited (the one being visited excluded)."""
        visited = self.visited
        return [k for k in range(KINGDOMS) if not visited >> k & 1]

    def supporters(self) -> list[tuple[int, Card]]:
        """(kingdom index, ruler) of each supporter, in the order they were won."""
        return [(k, self.rulers[k]) for k in self.won]

    def ready_supporters(self) -> list[Card]:
        return [self.rulers[k] for k in self.won if not self.spent >> k & 1]

    def score(self) -> int:
        return len(self.won) + len(self.ready_supporters())

    # ---------------------------------------------------------------- flow

    def _take(self) -> Card | None:
        """The top card of the deck, shuffling the discard pile into a new deck if needed."""
        if not self.deck:
            if not self.discard:
                return None
            order = sorted(self.discard)
            self.rng.shuffle(order)
            self.deck = order
            self.discard = []
            self._say(f"the deck ran out: the discard pile ({len(order)}) is shuffled into a deck")
        return self.deck.pop()

    def _draw(self, count: int) -> list[Card]:
        drawn = []
        for _ in range(count):
            card = self._take()
            if card is None:
                break
            drawn.append(card)
        self.hand.extend(drawn)
        self.hand.sort()
        return drawn

    def _new_hand(self) -> None:
        drawn = self._draw(HAND)
        self._say(f"drew {cards_text(sorted(drawn))}")
        self.phase = CHOOSE
        self._moves = [visit_action(k + 1) for k in self.unvisited()]

    def _lose(self, why: str) -> None:
        self.lost = why
        self.phase = OVER
        self._moves = []
        self._say(f"{why}: the game is lost")

    def _between_debates(self) -> None:
        """Settle after a visit, a debate or an ability: the kingdom may end, the game may be
        lost, or the player uses abilities or hears the next topic."""
        if not self.hand:
            self._end_kingdom()
            return
        target, wins = self.target, self.wins
        if wins > target:
            self._lose(f"{wins} debates won in kingdom {target}, which needs exactly {target}")
            return
        if wins + len(self.hand) < target and not self._clubs_left():
            self._lose(
                f"{wins} won and {len(self.hand)} card{'s' * (len(self.hand) != 1)} left in"
                f" kingdom {target}, which needs {target}, and no clubs ability to draw more"
            )
            return
        moves = self._ability_moves()
        can_debate = bool(self.deck or self.discard)
        if moves:
            self.phase = GAP
            self._moves = [DEBATE, *moves] if can_debate else moves
        elif can_debate:
            self._reveal()
        else:
            self._lose(f"no card is left for the ruler of kingdom {target} to raise")

    def _clubs_left(self) -> bool:
        if not self.jacks_used >> CLUBS & 1:
            return True
        return any(SUIT[c] == CLUBS for c in self.ready_supporters())

    def _ability_moves(self) -> list[Action]:
        """The abilities that would change something (a no-op ability is not offered)."""
        suits = 0
        for card in self.hand:
            suits |= SUIT_BIT[card]
        useful = 1 << DIAMONDS
        if suits >> self.trump & 1:
            useful |= 1 << HEARTS
        if suits >> CLUBS & 1 and (self.deck or self.discard):
            useful |= 1 << CLUBS
        if self.visited != ALL_VISITED:
            useful |= 1 << SPADES
        moves: list[Action] = []
        used = self.jacks_used
        for suit in range(4):
            if useful >> suit & 1 and not used >> suit & 1:
                moves.extend(self._uses(JACKS[suit]))
        if self.won:
            for source in self.ready_supporters():
                if useful >> SUIT[source] & 1:
                    moves.extend(self._uses(source))
        return moves

    def _uses(self, source: Card) -> list[Action]:
        if SUIT[source] == SPADES:
            return [ability_action(source, k + 1) for k in self.unvisited()]
        return [ability_action(source)]

    def _reveal(self) -> None:
        card = self._take()
        assert card is not None
        self.discard.append(card)
        self.topic = card
        self.phase = RESPOND
        self._moves = [_ANSWERS[c] for c in answers(self.hand, card)]

    def _end_kingdom(self) -> None:
        target, wins = self.target, self.wins
        if wins != target:
            self._lose(f"kingdom {target} ends with {wins} debates won instead of {target}")
            return
        assert self.visiting is not None
        ruler = self.rulers[self.visiting]
        self.won.append(self.visiting)
        self.visiting = None
        self._say(f"kingdom {target} won with exactly {wins} debates: {ruler} supports you")
        if len(self.won) == KINGDOMS:
            self.phase = OVER
            self._moves = []
            self._say("all eight kingdoms support you: the game is won")
            return
        # Everything but the (empty) hand goes back into one shuffled deck.
        order = sorted(self.deck + self.discard + self.scoring)
        self.rng.shuffle(order)
        self.deck = order
        self.discard = []
        self.scoring = []
        self.jacks_used = 0
        self._say("the deck, discard and won cards are shuffled together; advisors face up")
        self._new_hand()

    # ---------------------------------------------------------------- rule hooks

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def _apply(self, action: Action) -> None:
        kind = action.kind
        if kind == "answer":
            self._answer(action.cards[0])
        elif kind == "debate":
            self._reveal()
        elif kind == "visit":
            self._visit(action.target - 1)
        elif kind == "ability":
            self._ability(action.cards[0], action.target)
        else:
            self._discard(action.cards)

    def _visit(self, k: int) -> None:
        self.visiting = k
        self.visited |= 1 << k
        ruler = self.rulers[k]
        self._say(
            f"visit kingdom {k + 1}: {ruler} rules, {SYMBOL[SUIT[ruler]]} is trump,"
            f" exactly {k + 1} win{'s' * (k > 0)} needed"
        )
        self._between_debates()

    def _answer(self, card: Card) -> None:
        topic = self.topic
        assert topic is not None
        self.hand.remove(card)
        self.topic = None
        if beats(card, topic, self.trump):
            self.scoring.append(card)
            outcome = "won"
        else:
            self.discard.append(card)
            outcome = "lost"
        self._say(
            f"the ruler raised {topic}, you answered {card}: debate {outcome}"
            f" ({self.wins} of {self.target} won)"
        )
        self._between_debates()

    def _ability(self, source: Card, target: int | None) -> None:
        suit = SUIT[source]
        if RANK[source] == 11:
            self.jacks_used |= 1 << suit
            who = f"advisor {source}"
        else:
            self.spent |= 1 << self.rulers.index(source)
            who = f"supporter {source} (spent for the rest of the game)"
        if suit == HEARTS:
            trump = self.trump
            gone = [c for c in self.hand if SUIT[c] == trump]
            self.hand = [c for c in self.hand if SUIT[c] != trump]
            self.discard.extend(gone)
            self._say(f"{who}: discard every {SYMBOL[trump]} in hand, {cards_text(gone)}")
        elif suit == CLUBS:
            clubs = sum(1 for c in self.hand if SUIT[c] == CLUBS)
            drawn = self._draw(clubs)
            self._say(f"{who}: {clubs} club{'s' * (clubs != 1)} in hand, drew {_text(drawn)}")
        elif suit == SPADES:
            assert self.visiting is not None and target is not None
            here, there = self.visiting, target - 1
            self.rulers[here], self.rulers[there] = self.rulers[there], self.rulers[here]
            self._say(
                f"{who}: {self.rulers[here]} now rules kingdom {here + 1}"
                f" ({SYMBOL[SUIT[self.rulers[here]]]} is trump), {self.rulers[there]} kingdom"
                f" {there + 1}"
            )
        else:
            drawn = self._draw(2)
            self._say(f"{who}: drew {_text(drawn)}; now discard two")
            if len(self.hand) > 2:
                self.phase = DISCARD
                self._moves = self._discard_moves()
                return
            # Two cards or fewer (the deck and discard pile ran dry): they all go.
            self._discard(tuple(self.hand))
            return
        self._between_debates()

    def _discard_moves(self) -> list[Action]:
        hand = self.hand  # sorted, so each pair is already in notation order
        pairs = _PAIRS
        return [pairs[a, b] for i, a in enumerate(hand) for b in hand[i + 1 :]]

    def _discard(self, cards: tuple[Card, ...]) -> None:
        for card in cards:
            self.hand.remove(card)
        self.discard.extend(cards)
        self._say(f"discarded {cards_text(cards)}")
        self._between_debates()

    def _result(self) -> Result:
        kingdoms, ready = len(self.won), len(self.ready_supporters())
        detail: dict[str, Any] = {
            "kingdoms_won": kingdoms,
            "supporters_unused": ready,
            "supporters_used": kingdoms - ready,
            "supporters": card_list(r for _, r in self.supporters()),
        }
        score = kingdoms + ready
        if self.lost is None:
            summary = f"Won: all eight kingdoms support you; score {score} of 16"
            return Result.solo(True, score, detail, summary)
        detail["lost_in_kingdom"] = self.target if self.visiting is not None else None
        detail["debates_won_there"] = self.wins
        summary = f"Lost: {self.lost}; score {score} of 16"
        return Result.solo(False, score, detail, summary)

    # ---------------------------------------------------------------- views

    def _kingdom_rows(self) -> list[dict[str, Any]]:
        rows = []
        for k, ruler in enumerate(self.rulers):
            trump = SYMBOL[SUIT[ruler]]
            need = f"{k + 1} win{'s' * (k > 0)}"
            cards: list[str | None]  # None: a won ruler's card, face down
            if k in self.won:
                state, cards = "won", [None]
                note = f"won: {ruler} supports you"
            elif k == self.visiting:
                state, cards = "visiting", [str(ruler)]
                note = f"needs {need}, trump {trump} · visiting: {self.wins} won ◂ advisors"
            else:
                state, cards = "unvisited", [str(ruler)]
                note = f"needs {need}, trump {trump}"
            rows.append(
                {
                    "title": f"K{k + 1}",
                    "cards": cards,
                    "note": note,
                    "kingdom": k + 1,
                    "ruler": str(ruler),
                    "state": state,
                }
            )
        return rows

    def _allies(self) -> list[dict[str, Any]]:
        used = self.jacks_used
        jacks = [None if used >> i & 1 else str(j) for i, j in enumerate(JACKS)]
        supporters = [None if self.spent >> k & 1 else str(r) for k, r in self.supporters()]
        return [
            {"title": "Advisors", "cards": jacks, "note": "each once per kingdom"},
            {
                "title": "Supporters",
                "cards": supporters,
                "note": "each once per game; a face-up one scores a point",
            },
        ]

    def _status(self) -> str:
        if self.phase == OVER:
            return "The game is over."
        if self.phase == CHOOSE:
            return f"Choose the kingdom to visit ({len(self.won)} of 8 won so far)."
        where = (
            f"Kingdom {self.target}, trump {SYMBOL[self.trump]}:"
            f" {self.wins} of {self.target} debates won, {plural(len(self.hand), 'card')} in hand."
        )
        if self.phase == RESPOND:
            return f"{where} Answer {self.topic}."
        if self.phase == DISCARD:
            return f"{where} Discard two cards."
        return f"{where} Use an ability, or debate."

    def _view(self, observer: int | None) -> dict[str, Any]:
        used = self.jacks_used
        return {
            "status": self._status(),
            "phase": self.phase,
            "kingdoms": self._kingdom_rows(),
            "visiting": None if self.visiting is None else self.visiting + 1,
            "trump": None if self.visiting is None else SUITS[self.trump],
            "wins": self.wins,
            "topic": [] if self.topic is None else [str(self.topic)],
            "hand": card_list(self.hand),
            "allies": self._allies(),
            "advisors_ready": [str(j) for i, j in enumerate(JACKS) if not used >> i & 1],
            "supporters_ready": card_list(self.ready_supporters()),
            "supporters_spent": [str(r) for k, r in self.supporters() if self.spent >> k & 1],
            "won_here": card_list(self.scoring),
            "deck": len(self.deck),
            # Every card that left the deck was seen, so its contents are known; not its order.
            "deck_contents": card_list(sorted(self.deck)),
            "discard": card_list(self.discard),
            "score": self.score(),
        }

    def _snapshot(self) -> dict[str, Any]:
        return {
            "rulers": card_list(self.rulers),
            "won": list(self.won),
            "visited": self.visited,
            "spent": self.spent,
            "jacks_used": self.jacks_used,
            "visiting": self.visiting,
            "deck_top_first": card_list(reversed(self.deck)),
            "hand": card_list(self.hand),
            "discard": card_list(self.discard),
            "scoring": card_list(self.scoring),
            "topic": None if self.topic is None else str(self.topic),
            "phase": self.phase,
            "lost": self.lost,
        }

    def _copy_containers(self) -> None:
        self.rulers = list(self.rulers)
        self.won = list(self.won)
        self.deck = list(self.deck)
        self.hand = list(self.hand)
        self.discard = list(self.discard)
        self.scoring = list(self.scoring)

    def _cards(self) -> list[Card]:
        return self.rulers + self.deck + self.hand + self.discard + self.scoring

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        tokens = text.replace(",", " ").lower().split()
        if not tokens:
            return None
        word = tokens[0]
        if word == "debate":
            return DEBATE if len(tokens) == 1 else None
        if word == "visit" and len(tokens) == 2:
            number = tokens[1].removeprefix("k")
            if number.isdigit():
                return Action("visit", (), int(number), f"visit {number}")
            return None
        if word == "play":
            tokens = tokens[1:]
        elif word == "use":
            return self._parse_ability(tokens[1:])
        elif word == "discard":
            cards = _cards_of(tokens[1:])
            if cards is None:
                return None
            for move in self._moves:
                if move.kind == "discard" and sorted(move.cards) == sorted(cards):
                    return move
            return Action("discard", tuple(cards), None, text.strip())
        first = _cards_of(tokens[:1])
        if first is not None and RANK[first[0]] >= 11:
            return self._parse_ability(tokens)  # an ability without the word "use"
        cards = _cards_of(tokens)
        if cards is None:
            return None
        return Action("answer", tuple(cards), None, text.strip())

    def _parse_ability(self, tokens: list[str]) -> Action | None:
        if not 1 <= len(tokens) <= 2:
            return None
        cards = _cards_of(tokens[:1])
        if cards is None:
            return None
        target = None
        if len(tokens) == 2:
            number = tokens[1].removeprefix("k")
            if not number.isdigit():
                return None
            target = int(number)
        return Action("ability", (cards[0],), target, " ".join(["use", *tokens]))

    def _why_illegal(self, action: Action) -> str:
        kind = action.kind
        cards = action.cards
        if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
            return "a move names cards of the deck, like 8D or JH"
        if any(c.is_joker or c.deck for c in cards):
            return "The Emissary uses one 52-card deck without jokers"
        if kind not in ("visit", "debate", "answer", "ability", "discard"):
            return (
                "a move is 'visit K', 'debate', a card answering the topic, 'use CARD' or"
                " 'discard CARD CARD'"
            )
        phase = self.phase
        if kind == "visit":
            return self._why_not_visit(action)
        if phase == CHOOSE:
            return "first choose the kingdom to visit ('visit K'), after looking at your hand"
        if kind == "discard":
            return self._why_not_discard(cards)
        if phase == DISCARD:
            return "the diamonds ability drew two cards: first discard two ('discard CARD CARD')"
        if kind == "answer":
            return self._why_not_answer(cards)
        if phase == RESPOND:
            return (
                f"the ruler has raised {self.topic}: answer it with a card; abilities are used"
                " before the topic is raised, never in response"
            )
        if kind == "debate":
            if not (self.deck or self.discard):
                return "the deck and the discard pile are empty: there is no topic to raise"
            return "it is not one of the legal moves in this position"
        return self._why_not_ability(action)

    def _why_not_visit(self, action: Action) -> str:
        if self.phase != CHOOSE:
            return "you choose a kingdom only with a fresh hand, before its debates"
        if action.cards:
            return "a visit names a kingdom number, 1 to 8 ('visit 4')"
        number = action.target
        if type(number) is not int or not 1 <= number <= KINGDOMS:
            return "the kingdoms are numbered 1 to 8 from left to right"
        return f"kingdom {number} has already been visited: each is visited once"

    def _why_not_discard(self, cards: tuple[Card, ...]) -> str:
        if self.phase != DISCARD:
            return "you discard a chosen pair only after drawing with the diamonds ability"
        if len(cards) != 2 or len(set(cards)) != 2:
            return "discard exactly two different cards"
        missing = [c for c in cards if c not in self.hand]
        return f"{cards_text(missing)} not in your hand"

    def _why_not_answer(self, cards: tuple[Card, ...]) -> str:
        if self.phase != RESPOND:
            return "no topic is on the table yet: use an ability or 'debate' to hear one"
        if len(cards) != 1:
            return "answer a topic with exactly one card"
        card = cards[0]
        if card not in self.hand:
            return f"{card} is not in your hand"
        topic = self.topic
        assert topic is not None
        return f"you hold {SYMBOL[SUIT[topic]]} cards, so you must follow {topic}'s suit"

    def _why_not_ability(self, action: Action) -> str:
        cards = action.cards
        if len(cards) != 1:
            return "an ability names one advisor or supporter: 'use JH'"
        source = cards[0]
        suit = SUIT[source]
        if RANK[source] == 11:
            if self.jacks_used >> suit & 1:
                return f"{source} is face down: an advisor acts once per kingdom"
        elif RANK[source] >= 12:
            if source not in [r for _, r in self.supporters()]:
                return f"{source} does not support you: only rulers of won kingdoms do"
            if source not in self.ready_supporters():
                return f"{source} is face down: a supporter acts once per game"
        else:
            return f"{source} is neither an advisor (a Jack) nor a supporting King or Queen"
        target = action.target
        if suit == SPADES:
            if not self.unvisited():
                return "this is the last kingdom: there is no unvisited ruler to swap with"
            if type(target) is not int or not 1 <= target <= KINGDOMS:
                return "name the unvisited kingdom whose ruler to swap with ('use JS 6')"
            return f"kingdom {target} is not an unvisited kingdom"
        if target is not None:
            return "only the spades ability names a kingdom"
        if suit == HEARTS:
            return f"no card of the trump suit {SYMBOL[self.trump]} in hand: nothing to discard"
        if suit == CLUBS:
            if not any(SUIT[c] == CLUBS for c in self.hand):
                return "no club in hand: the clubs ability would draw nothing"
            return "the deck and the discard pile are empty: nothing to draw"
        return "it is not one of the legal moves in this position"

    def _describe(self, action: Action) -> str:
        kind = action.kind
        if kind == "visit":
            k = action.target
            ruler = self.rulers[k - 1]
            return (
                f"Visit kingdom {k}: {ruler} rules, {SYMBOL[SUIT[ruler]]} is trump; win exactly"
                f" {k} debate{'s' * (k > 1)} there."
            )
        if kind == "debate":
            return "Use no more abilities for now: the ruler raises the next topic."
        if kind == "answer":
            return self._describe_answer(action.cards[0])
        if kind == "discard":
            return f"Discard {cards_text(action.cards)}."
        return self._describe_ability(action.cards[0], action.target)

    def _describe_answer(self, card: Card) -> str:
        topic = self.topic
        assert topic is not None
        trump = self.trump
        if SUIT[card] == SUIT[topic]:
            how = "higher, wins" if RANK[card] > RANK[topic] else "lower, loses"
            return f"Follow {topic} with {card} ({how} the debate)."
        if SUIT[card] == trump:
            return f"Answer {topic} with the trump {card} (wins the debate)."
        return f"Answer {topic} with {card} (neither its suit nor trump: loses the debate)."

    def _describe_ability(self, source: Card, target: int | None) -> str:
        suit = SUIT[source]
        who = f"Turn {source} face down ({ABILITY[suit]}" + (
            ")" if RANK[source] == 11 else "; once per game, it stops scoring)"
        )
        if suit == HEARTS:
            trump = self.trump
            gone = [c for c in self.hand if SUIT[c] == trump]
            return f"{who}: discard every trump {SYMBOL[trump]} in hand ({cards_text(gone)})."
        if suit == CLUBS:
            clubs = sum(1 for c in self.hand if SUIT[c] == CLUBS)
            return f"{who}: draw {clubs} card{'s' * (clubs != 1)}, one per club in hand."
        if suit == SPADES:
            assert target is not None and self.visiting is not None
            here, there = self.rulers[self.visiting], self.rulers[target - 1]
            swap = f"{who}: swap {here} with {there}, the ruler of kingdom {target}"
            if SUIT[here] == SUIT[there]:
                return f"{swap}; both trumps stay {SYMBOL[SUIT[here]]}."
            return (
                f"{swap}; trump here becomes {SYMBOL[SUIT[there]]}, and {SYMBOL[SUIT[here]]} in"
                f" kingdom {target}."
            )
        return f"{who}: draw two cards, then discard two cards of your choice."


def _text(cards: list[Card]) -> str:
    return cards_text(cards) if cards else "nothing"


def _cards_of(tokens: list[str]) -> list[Card] | None:
    try:
        return parse_cards(tokens)
    except RulesError:
        return None
