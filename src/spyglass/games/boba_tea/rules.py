"""The First Boba Tea Shop in London: guess where the next customer fits in four polite queues.

A queue is stored top first: its highest card at index 0, its lowest last. Position ``p`` of a
queue of ``k`` cards is the gap just above the card at index ``p`` (``p == k``: below the
lowest card), so a queue has ``k + 1`` positions and a card enters position ``p`` with
``queue.insert(p, card)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from spyglass.components.cards import (
    PER_DECK,
    RANK_LABELS,
    Card,
    by_rank,
    card_list,
    cards_text,
    parse_card,
    standard_deck,
)
from spyglass.engine import Action, Result, RulesError, State, plural

QUEUES = 4
DECK_SIZE = 52
FOURTH = 4  # discarding the fourth card of a rank loses
TARGET, STAY, KICK = "target", "stay", "kick"
CHOOSING, RUDE = "choose a target", "rude customer"
ROW_TITLES = ("1st", "2nd", "3rd", "4th")

#: A card's rank by its code, so the hot paths avoid the property.
RANK = tuple(Card(code).rank for code in range(PER_DECK))


def rank_label(rank: int) -> str:
    return RANK_LABELS.get(rank, str(rank))


#: "A to 8" for the ranks 1 to 8, and "4" for 4 to 4: what a position takes.
RANGE_TEXT = {
    (low, high): rank_label(low) if low == high else f"{rank_label(low)} to {rank_label(high)}"
    for low in range(1, 14)
    for high in range(low, 14)
}


def window(queue: list[Card], position: int) -> tuple[int, int]:
    """The ranks (lowest, highest) that fit ``position``: between the neighbours, ties allowed."""
    high = RANK[queue[position - 1]] if position > 0 else 13
    low = RANK[queue[position]] if position < len(queue) else 1
    return low, high


def fits(queue: list[Card], position: int, card: Card) -> bool:
    """The politeness rule: not higher than the card above, not lower than the card below."""
    rank = RANK[card]
    if position > 0 and rank > RANK[queue[position - 1]]:
        return False
    return not (position < len(queue) and rank < RANK[queue[position]])


def position_words(queue: list[Card], position: int) -> str:
    """A position for people: above the top card, below the bottom card, or between two."""
    if position == 0:
        return f"at the top, above {queue[0]}"
    if position == len(queue):
        return f"at the bottom, below {queue[-1]}"
    return f"between {queue[position - 1]} and {queue[position]}"


def target_action(number: int, queue: list[Card], position: int) -> Action:
    """Choosing position ``position`` of queue ``number`` (1 to 4) before the draw."""
    above = queue[position - 1] if position > 0 else None
    below = queue[position] if position < len(queue) else None
    return _target_action(number, position, above, below)


# Memos of pure functions (the same arguments always make the same immutable Action), bounded
# because long simulations meet ever more (position, neighbours) combinations.
@lru_cache(maxsize=1 << 16)
def _target_action(number: int, position: int, above: Card | None, below: Card | None) -> Action:
    cards = tuple(c for c in (above, below) if c is not None)
    if above is None:
        where = "top"
    elif below is None:
        where = "bottom"
    else:
        where = f"{above} {below}"
    return Action(TARGET, cards, (number, position), f"q{number} {where}")


@lru_cache(maxsize=1 << 10)
def answer_action(kind: str, held: Card, number: int) -> Action:
    """Letting the rude customer ``held`` stay in queue ``number``, or kicking them out."""
    return Action(kind, (held,), number, kind)


class BobaTeaState(State):
    DECK = tuple(standard_deck())  # the deck (engine State.deck_contents)
    UNSEEN = ("deck",)  # determinize shuffles the draw pile (engine State._resample)
    parse_card = staticmethod(parse_card)
    notation_help = (
        "first choose a queue and a position: 'q2 top', 'q2 8s ah' (between those two cards)"
        " or 'q2 bottom'; when the customer drawn does not fit, answer 'stay' or 'kick'"
    )

    deck: list[Card]  # the top card is the last element
    queues: list[list[Card]]  # each top first: highest card at index 0
    discard: list[Card]  # in the order discarded
    discarded: list[int]  # cards discarded so far, by rank (index 1 to 13)
    held: Card | None  # the rude customer waiting for stay or kick
    target: tuple[int, int] | None  # (queue index 0-3, position) while a customer is drawn
    lost_rank: int  # the rank whose fourth card was discarded; 0 if none
    won: bool
    kicks: int
    stays: int
    _queue_moves: list[tuple[Action, ...]]  # each queue's target actions, rebuilt on change
    _moves: list[Action]

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # 48 cards can be drawn after the deal. Every target draws one; a kick draws one unless
        # it ends the game; a stay or a kick answers one drawn card. So at most 48 draws plus
        # 48 answers.
        return 2 * (DECK_SIZE - QUEUES)

    def _setup(self) -> None:
        self.deck = list(reversed(self._deck("deck")))
        self.queues = [[self.deck.pop()] for _ in range(QUEUES)]
        self.discard = []
        self.discarded = [0] * 14
        self.held = None
        self.target = None
        self.lost_rank = 0
        self.won = False
        self.kicks = 0
        self.stays = 0
        self._say(
            "queues start with " + ", ".join(f"Q{i + 1} {q[0]}" for i, q in enumerate(self.queues))
        )
        self._queue_moves = [()] * QUEUES
        for index in range(QUEUES):
            self._refresh(index)
        self._moves = self._find_moves()

    # ---------------------------------------------------------------- rules

    @property
    def is_over(self) -> bool:
        return self.won or self.lost_rank != 0

    @property
    def phase(self) -> str:
        return RUDE if self.held is not None else CHOOSING

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def _find_moves(self) -> list[Action]:
        if self.won or self.lost_rank:
            return []
        held = self.held
        if held is not None:
            assert self.target is not None  # a rude customer came for a target
            number = self.target[0] + 1
            return [answer_action(STAY, held, number), answer_action(KICK, held, number)]
        a, b, c, d = self._queue_moves
        return [*a, *b, *c, *d]

    def _refresh(self, index: int) -> None:
        """Rebuild the target actions of one queue after it changed."""
        queue = self.queues[index]
        number = index + 1
        self._queue_moves[index] = tuple(
            [target_action(number, queue, position) for position in range(len(queue) + 1)]
        )

    def _apply(self, action: Action) -> None:
        kind = action.kind
        if kind == TARGET:
            number, position = action.target
            self.target = (number - 1, position)
            where = position_words(self.queues[number - 1], position)
            self._say(f"target Q{number} {where}: {self._draw()}")
        elif kind == STAY:
            self._stay()
        else:
            self._kick()
        self._moves = self._find_moves()

    def _draw(self) -> str:
        """Draw the next customer for the chosen target: it joins the queue if it fits."""
        assert self.target is not None  # drawing follows choosing a target
        index, position = self.target
        queue = self.queues[index]
        card = self.deck.pop()
        rank = RANK[card]
        # fits(), inlined: this runs once per draw of every playout.
        if (position == 0 or rank <= RANK[queue[position - 1]]) and (
            position == len(queue) or rank >= RANK[queue[position]]
        ):
            queue.insert(position, card)
            self._refresh(index)
            self.target = None
            self._check_deck_done()
            return f"drew {card}, it fits"
        self.held = card
        low, high = window(queue, position)
        return f"drew {card}, a rude customer (the position takes {RANGE_TEXT[low, high]})"

    def _stay(self) -> None:
        held, target = self.held, self.target
        assert held is not None and target is not None  # the answer to a rude customer
        index = target[0]
        leaving = self.queues[index]
        self.queues[index] = [held]
        self._refresh(index)
        self.held = None
        self.target = None
        self.stays += 1
        self._say(f"{held} stays: Q{index + 1} ({cards_text(leaving)}) leaves in disgust")
        if self._discard(leaving):
            return
        self._check_deck_done()

    def _kick(self) -> None:
        held = self.held
        assert held is not None  # the answer to a rude customer
        self.held = None
        self.kicks += 1
        out = [held]
        if self.deck:
            out.append(self.deck.pop())
        text = f"kicked out {held}"
        if len(out) == 2:
            text += f" and discarded {out[1]} from the top of the deck"
        if self._discard(out, text):
            return
        if not self.deck:
            self._say(text)
            self.target = None
            self._check_deck_done()
            return
        self._say(f"{text}; {self._draw()}")

    def _discard(self, cards: list[Card], text: str = "") -> bool:
        """Discard face up; True if this makes a fourth card of a rank (the game is lost)."""
        self.discard.extend(cards)
        counts = self.discarded
        fourth = 0
        for card in cards:
            rank = RANK[card]
            counts[rank] += 1
            if counts[rank] == FOURTH:
                fourth = rank
        if fourth:
            self.lost_rank = fourth
            self.target = None
            lost = f"the fourth {rank_label(fourth)} is discarded: the game is lost"
            self._say(f"{text}: {lost}" if text else lost)
            return True
        return False

    def _check_deck_done(self) -> None:
        if not self.deck:
            self.won = True
            self._say(
                f"the deck is done without four of a rank discarded: the game is won with"
                f" {self.customers} customers in the queues"
            )

    @property
    def customers(self) -> int:
        """Cards in the queues: the score of a won game."""
        return sum(len(q) for q in self.queues)

    def _result(self) -> Result:
        detail = {
            "customers_in_queues": self.customers,
            # A text, not a list: the terminal prints list values as card notations.
            "queue_lengths": " ".join(f"Q{i + 1}:{len(q)}" for i, q in enumerate(self.queues)),
            "discarded": len(self.discard),
            "cards_left_in_deck": len(self.deck),
            "kick_outs": self.kicks,
            "stays": self.stays,
            "fourth_of_rank": rank_label(self.lost_rank) if self.lost_rank else None,
        }
        if self.won:
            n = self.customers
            summary = f"Won: through the whole deck with {n} customers in the queues (score)"
            return Result.solo(True, n, detail, summary)
        summary = (
            f"Lost: the fourth {rank_label(self.lost_rank)} was discarded with"
            f" {plural(len(self.deck), 'card')} left in the deck"
        )
        return Result.solo(False, None, detail, summary)

    # ---------------------------------------------------------------- views

    def _discard_rows(self) -> list[dict[str, Any]]:
        """The discards sorted the way the rulebook suggests: the nth of its rank in row n."""
        rows: list[list[Card]] = [[] for _ in range(FOURTH)]
        seen = [0] * 14
        for card in self.discard:
            rank = RANK[card]
            rows[seen[rank]].append(card)
            seen[rank] += 1
        shown = []
        for n, row in enumerate(rows):
            if n == FOURTH - 1 and not row:
                continue
            entry: dict[str, Any] = {
                "title": ROW_TITLES[n],
                "cards": card_list(sorted(row, key=by_rank)),
            }
            if n == FOURTH - 2:
                entry["note"] = "one more of these ranks loses"
            shown.append(entry)
        return shown

    def _queue_rows(self) -> list[dict[str, Any]]:
        rows = []
        for index, queue in enumerate(self.queues):
            row: dict[str, Any] = {"title": f"Q{index + 1}", "cards": card_list(queue)}
            if self.target is not None and self.target[0] == index:
                row["note"] = "◀ target " + position_words(queue, self.target[1])
            rows.append(row)
        return rows

    def _deck_ranks(self) -> str:
        counts = [0] * 14
        for card in self.deck:
            counts[RANK[card]] += 1
        return " ".join(f"{rank_label(r)}×{counts[r]}" for r in range(1, 14) if counts[r])

    def _view(self, observer: int | None) -> dict[str, Any]:
        target = None
        if self.target is not None:
            index, position = self.target
            target = f"Q{index + 1} {position_words(self.queues[index], position)}"
        return {
            "phase": "over" if self.is_over else self.phase,
            "queues": self._queue_rows(),
            "target": target,
            "drawn": [] if self.held is None else [str(self.held)],
            "deck": len(self.deck),
            # The player may look through the deck before any draw (then shuffle it): its
            # contents are known, its order is not.
            "deck_contents": card_list(sorted(self.deck, key=by_rank)),
            "deck_ranks": self._deck_ranks() or "empty",
            "discard": card_list(self.discard),
            "discard_rows": self._discard_rows(),
            "discarded_by_rank": {rank_label(r): self.discarded[r] for r in range(1, 14)},
            "customers": self.customers,
        }

    def _snapshot(self) -> dict[str, Any]:
        return {
            "deck_top_first": card_list(reversed(self.deck)),
            "queues": [card_list(q) for q in self.queues],
            "discard": card_list(self.discard),
            "held": None if self.held is None else str(self.held),
            "target": None if self.target is None else list(self.target),
            "lost_rank": self.lost_rank,
            "won": self.won,
            "kicks": self.kicks,
            "stays": self.stays,
        }

    def _copy_containers(self) -> None:
        self.deck = list(self.deck)
        self.queues = [list(q) for q in self.queues]
        self.discard = list(self.discard)
        self.discarded = list(self.discarded)
        self._queue_moves = list(self._queue_moves)

    def _cards(self) -> list[Card]:
        cards = self.deck + self.discard
        for queue in self.queues:
            cards += queue
        if self.held is not None:
            cards.append(self.held)
        return cards

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        words = text.replace(",", " ").lower().split()
        if words in (["stay"], ["let", "stay"], ["let", "them", "stay"]):
            return self._answer(STAY)
        if words in (["kick"], ["kick", "out"], ["kick", "them", "out"]):
            return self._answer(KICK)
        number = None
        if words and len(words[0]) == 2 and words[0][0] == "q" and words[0][1].isdecimal():
            number = int(words[0][1])
            words = words[1:]
        elif len(words) >= 2 and words[0] == "q" and words[1].isdecimal():
            number = int(words[1])
            words = words[2:]
        return self._parse_position(number, words)

    def _answer(self, kind: str) -> Action:
        if self.held is None or self.target is None:  # no rude customer: both are None
            return Action(kind, (), None, kind)
        return answer_action(kind, self.held, self.target[0] + 1)

    def _parse_position(self, number: int | None, words: list[str]) -> Action | None:
        if number is not None and len(words) == 1:
            word = words[0]
            if word == "top":
                return self._target_at(number, 0, word)
            if word == "bottom":
                size = len(self.queues[number - 1]) if 1 <= number <= QUEUES else 0
                return self._target_at(number, size, word)
            if word.removeprefix("p").isdecimal():
                return self._target_at(number, int(word.removeprefix("p")), word)
            return None
        if len(words) == 2 and words[0] in ("above", "below"):
            card = _card(words[1])
            if card is None:
                return None
            return self._beside(number, card, words[0] == "above")
        if len(words) == 2:
            above, below = _card(words[0]), _card(words[1])
            if above is None or below is None:
                return None
            return self._between(number, above, below)
        return None

    def _target_at(self, number: int, position: int, text: str) -> Action:
        if 1 <= number <= QUEUES and 0 <= position <= len(self.queues[number - 1]):
            return target_action(number, self.queues[number - 1], position)
        return Action(TARGET, (), (number, position), f"q{number} {text}")

    def _beside(self, number: int | None, card: Card, above: bool) -> Action:
        """The position just above (or below) a card of a queue."""
        where = self._locate(card)
        if where is None or (number is not None and where[0] + 1 != number):
            word = "above" if above else "below"
            return Action(TARGET, (card,), (number, None), _named(number, f"{word} {card}"))
        index, at = where
        return target_action(index + 1, self.queues[index], at if above else at + 1)

    def _between(self, number: int | None, above: Card, below: Card) -> Action:
        where = self._locate(above)
        if (
            where is not None
            and (number is None or where[0] + 1 == number)
            and where[1] + 1 < len(self.queues[where[0]])
            and self.queues[where[0]][where[1] + 1] == below
        ):
            index, at = where
            return target_action(index + 1, self.queues[index], at + 1)
        return Action(TARGET, (above, below), (number, None), _named(number, f"{above} {below}"))

    def _locate(self, card: Card) -> tuple[int, int] | None:
        for index, queue in enumerate(self.queues):
            if card in queue:
                return index, queue.index(card)
        return None

    def _why_illegal(self, action: Action) -> str:
        kind = action.kind
        if kind not in (TARGET, STAY, KICK):
            return (
                "a move is a target position ('q2 top', 'q2 8s ah', 'q2 bottom') or, for a rude"
                " customer, 'stay' or 'kick'"
            )
        if kind in (STAY, KICK):
            if self.held is None:
                return (
                    "no rude customer is waiting: first choose a queue and a target position,"
                    " then draw"
                )
            if action.cards != (self.held,):
                return f"the rude customer is {self.held}"
            assert self.target is not None  # a rude customer came for a target
            return f"the rude customer came for Q{self.target[0] + 1}"
        if self.held is not None:
            return (
                f"{self.held} does not fit and must stay or be kicked out; the target position"
                " cannot change until then"
            )
        return self._why_not_target(action)

    def _why_not_target(self, action: Action) -> str:
        target = action.target
        if not (isinstance(target, tuple) and len(target) == 2):
            return "a target names a queue (1 to 4) and a position in it"
        number, position = target
        given = action.cards if isinstance(action.cards, tuple) else ()
        names = [c for c in given if isinstance(c, Card)]
        if position is None and names and (number is None or number in range(1, QUEUES + 1)):
            # A position named by its neighbours that are not neighbours there.
            where = "any queue" if number is None else f"Q{number}"
            present = (
                [c for c in names if self._locate(c) is not None]
                if number is None
                else [c for c in names if c in self.queues[number - 1]]
            )
            missing = [c for c in names if c not in present]
            if missing:
                return f"{missing[0]} is not in {where}"
            return f"{names[0]} and {names[1]} are not next to each other in {where}"
        if not _is_int(number) or not 1 <= number <= QUEUES:
            return "there are four queues, Q1 to Q4"
        queue = self.queues[number - 1]
        if not _is_int(position) or not 0 <= position <= len(queue):
            k = len(queue)
            return (
                f"Q{number} has {k} customer{'s' * (k != 1)}, so its positions are 0 (top) to"
                f" {k} (bottom)"
            )
        expected = target_action(number, queue, position)
        if action.cards != expected.cards:
            return f"the cards beside that position of Q{number} are {cards_text(expected.cards)}"
        return "it is not one of the legal moves in this position"

    def _describe(self, action: Action) -> str:
        if action.kind == TARGET:
            return self._describe_target(action)
        held, target = self.held, self.target
        assert held is not None and target is not None  # the answers to a rude customer
        index, position = target
        queue = self.queues[index]
        if action.kind == STAY:
            text = (
                f"Let {held} stay: Q{index + 1} ({cards_text(queue)}) is discarded and {held}"
                f" starts it again"
            )
            counts = list(self.discarded)
            for card in queue:
                counts[RANK[card]] += 1
            fourth = sorted({rank_label(r) for r in range(1, 14) if counts[r] >= FOURTH})
            if fourth:
                text += f"; this discards the fourth {' and '.join(fourth)} and loses"
            return text + "."
        low, high = window(queue, position)
        if self.discarded[RANK[held]] == FOURTH - 1:
            return f"Kick {held} out: it is the fourth {rank_label(RANK[held])}, so this loses."
        if not self.deck:
            return f"Kick {held} out: the deck is empty, so the game ends."
        counts = list(self.discarded)
        counts[RANK[held]] += 1
        deadly = sum(1 for c in self.deck if counts[RANK[c]] == FOURTH - 1)
        risk = (
            f" ({deadly} of the {plural(len(self.deck), 'card')} in the deck would be a fourth of a"
            " rank)"
            if deadly
            else ""
        )
        if len(self.deck) == 1:
            return f"Kick {held} out with the last card of the deck; the game ends{risk}."
        return (
            f"Kick {held} out: discard it and the top card of the deck{risk}, then draw again"
            f" for Q{index + 1} {position_words(queue, position)} (takes {RANGE_TEXT[low, high]})."
        )

    def _describe_target(self, action: Action) -> str:
        number, position = action.target
        queue = self.queues[number - 1]
        low, high = window(queue, position)
        fitting = sum(1 for c in self.deck if low <= RANK[c] <= high)
        return (
            f"Target Q{number} {position_words(queue, position)}, then draw: it takes"
            f" {RANGE_TEXT[low, high]},"
            f" {fitting} of the {plural(len(self.deck), 'card')} in the deck."
        )


def _card(token: str) -> Card | None:
    try:
        return parse_card(token)
    except RulesError:
        return None


def _named(number: int | None, position: str) -> str:
    return position if number is None else f"q{number} {position}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
