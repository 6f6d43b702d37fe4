"""Skyway: draft blueprints from a 2-2-1 market into a 3x3 grid of stacks at most three high."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.components.cards import (
    SUIT_SYMBOLS,
    SUITS,
    Card,
    by_rank,
    card_list,
    cards_text,
    parse_card,
    standard_deck,
)
from spyglass.components.grid import grid_view
from spyglass.engine import Action, Result, RulesError, State, plural

from .scoring import (
    COLS,
    LABELS,
    SPACE_OF_LABEL,
    SPACES,
    SUIT_NAMES,
    TOP_RANK,
    WIN_LENGTH,
    run_path,
    runs,
    suit_and_rank,
    suit_run,
)

NUMBER_CARDS = tuple(c for c in standard_deck() if c.rank <= 10)
BLUEPRINT_SIZES = (2, 2, 1)  # every market deal, in deal order
MARKET_SIZE = sum(BLUEPRINT_SIZES)
STACK_LIMIT = 3
PASSES = 3  # rounds: how many times the player goes through the deck
DRAFT = "draft"

# Memos of pure functions: the same blueprint always makes the same text and the same nine
# immutable Actions.
_TEXT: dict[tuple[Card, ...], str] = {}
_ACTIONS: dict[tuple[Card, ...], tuple[Action, ...]] = {}


def blueprint_text(blueprint: tuple[Card, ...]) -> str:
    text = _TEXT.get(blueprint)
    if text is None:
        text = _TEXT[blueprint] = cards_text(blueprint)
    return text


def draft_actions(blueprint: tuple[Card, ...]) -> tuple[Action, ...]:
    """Drafting ``blueprint`` (bottom card first) onto each space, A1 to C3 row by row."""
    actions = _ACTIONS.get(blueprint)
    if actions is None:
        text = blueprint_text(blueprint)
        actions = tuple(Action(DRAFT, blueprint, where, f"{text} {where}") for where in LABELS)
        _ACTIONS[blueprint] = actions
    return actions


def draft_action(blueprint: tuple[Card, ...], space: int) -> Action:
    """Drafting ``blueprint`` onto ``space`` (0..8, row by row from A1)."""
    return draft_actions(blueprint)[space]


def deal_market(cards: list[Card]) -> list[tuple[Card, ...]]:
    """Five cards in deal order -> the three blueprints: the first two, the next two, the last.

    Within a blueprint the later-dealt card lies on top, so it is written last.
    """
    market = []
    start = 0
    for size in BLUEPRINT_SIZES:
        market.append(tuple(cards[start : start + size]))
        start += size
    return market


class SkywayState(State):
    parse_card = staticmethod(parse_card)
    notation_help = (
        "draft a blueprint onto a space: its cards bottom first, then the space, like 7H 6C C2"
        " (or the blueprint's number and the space, like 1 C2)"
    )

    deck: list[Card]  # the top card is the last element
    discard: list[Card]  # the top card is the last element
    market: list[tuple[Card, ...]]  # the blueprints, bottom card first; empty once over
    grid: list[list[Card]]  # nine stacks, bottom card first, row by row from A1
    round: int  # which pass through the deck (1 to 3): the round markers turned
    last_shuffle: bool  # the third pass ran out mid-deal and the deal was finished
    over: bool
    _moves: list[Action]
    # Kept as cards are placed, for the runs: per suit (in the order of SUITS) the space of
    # each rank on the grid (-1: not there), each suit's longest run when last counted, and
    # the suits a placement changed since (a bit per suit), counted again when next asked.
    _places: list[list[int]]
    _lengths: tuple[int, int, int, int]
    _changed: int

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Card]]:
        return {"deck": list(NUMBER_CARDS)}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # One action per market. The first pass is the 40 cards; each later pass is the discard
        # pile, which lacks the grid's cards (at least 3 from the third turn on): at most 37.
        # One last shuffle finishes a third-pass deal with at most 4 cards. 40+37+37+4 = 118
        # cards dealt five at a time: 23 markets.
        first = len(NUMBER_CARDS)
        later = first - STACK_LIMIT
        return (first + 2 * later + MARKET_SIZE - 1) // MARKET_SIZE

    def _setup(self) -> None:
        self.deck = list(reversed(self._deck("deck")))
        self.discard = []
        self.market = []
        self.grid = [[] for _ in range(SPACES)]
        self._places = [[-1] * (TOP_RANK + 1) for _ in SUITS]
        self._lengths, self._changed = (0, 0, 0, 0), 0
        self.round = 1
        self.last_shuffle = False
        self.over = False
        self._say("round 1: the first round marker is turned")
        self._deal()
        self._moves = self._find_moves()

    # ---------------------------------------------------------------- rules

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def last_turn(self) -> bool:
        """The current market is the game's last (nothing more can be dealt after it)."""
        return not self.over and (self.last_shuffle or (self.round == PASSES and not self.deck))

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def _find_moves(self) -> list[Action]:
        moves: list[Action] = []
        if not self.over:
            for blueprint in self.market:
                moves.extend(draft_actions(blueprint))
        return moves

    def _deal(self) -> None:
        """Reset the market: five cards from the deck, as blueprints of 2, 2 and 1."""
        deck = self.deck
        if len(deck) >= MARKET_SIZE:
            dealt = deck[: -MARKET_SIZE - 1 : -1]  # the top five, in the order they are dealt
            del deck[-MARKET_SIZE:]
        else:
            dealt = self._deal_across_rounds()
            if self.over:
                return
        market = self.market = deal_market(dealt)
        self._say("market: " + " | ".join([blueprint_text(b) for b in market]))

    def _deal_across_rounds(self) -> list[Card]:
        """Five cards when the deck may run out: the discard pile is reshuffled whenever a card
        is needed and none is left. The third time the game ends, unless the deal had begun:
        then one last shuffle finishes it (the last turn)."""
        dealt: list[Card] = []
        while len(dealt) < MARKET_SIZE:
            if not self.deck:
                if self.round < PASSES:
                    self.round += 1
                    self._reshuffle(f"round {self.round}: the next round marker is turned")
                elif not dealt:
                    self.over = True
                    self._say("the deck ran out for the third time: the game is over")
                    self._say(self._final_text())
                    return dealt
                else:
                    self.last_shuffle = True
                    self._reshuffle("one last shuffle finishes this market: it is the last turn")
            dealt.append(self.deck.pop())
        return dealt

    def _reshuffle(self, why: str) -> None:
        # Sorted first so the new order depends only on the generator, not on how the pile grew.
        # The pile always holds at least 8 cards here: at most 27 are on the grid, 5 in a deal.
        pile = sorted(self.discard)
        self.rng.shuffle(pile)
        self.deck = pile
        self.discard = []
        self._say(
            f"the deck ran out: the discard pile ({plural(len(pile), 'card')}) is shuffled; {why}"
        )

    def _apply(self, action: Action) -> None:
        blueprint = action.cards
        space = SPACE_OF_LABEL[action.target]
        stack = self.grid[space]
        stack.extend(blueprint)
        places, changed = self._places, self._changed
        for card in blueprint:
            suit, rank = suit_and_rank(card)
            places[suit][rank] = space
            changed |= 1 << suit
        text = f"drafted {blueprint_text(blueprint)} onto {action.target}"
        if len(stack) > STACK_LIMIT:
            bottom = stack[: len(stack) - STACK_LIMIT]
            del stack[: len(stack) - STACK_LIMIT]
            self.discard.extend(bottom)
            for card in bottom:
                suit, rank = suit_and_rank(card)
                places[suit][rank] = -1
                changed |= 1 << suit
            text += f"; {cards_text(bottom)} discarded from the bottom"
        self._changed = changed
        rest = [b for b in self.market if b != blueprint]
        for other in rest:
            self.discard.extend(other)
        self.market = []
        text += f"; {cards_text(c for b in rest for c in b)} discarded from the market"
        self._say(text)
        if self.last_turn:
            self.over = True
            self._say("that was the last market: the game is over")
            self._say(self._final_text())
        else:
            self._deal()
        self._moves = self._find_moves()

    @property
    def run_lengths(self) -> tuple[int, int, int, int]:
        """The longest run of each suit on the grid now, in the order of SUITS: kept as cards
        are placed (only the suits a placement changed are counted again)."""
        changed = self._changed
        if changed:
            places = self._places
            spades, hearts, clubs, diamonds = self._lengths
            if changed & 1:
                spades = suit_run(places[0])
            if changed & 2:
                hearts = suit_run(places[1])
            if changed & 4:
                clubs = suit_run(places[2])
            if changed & 8:
                diamonds = suit_run(places[3])
            self._lengths = (spades, hearts, clubs, diamonds)
            self._changed = 0
        return self._lengths

    def runs(self) -> dict[str, int]:
        """The longest run of each suit on the grid now, by suit name."""
        return dict(zip(SUIT_NAMES, self.run_lengths, strict=True))

    @property
    def won(self) -> bool:
        return self.over and min(self.run_lengths) >= WIN_LENGTH

    def _final_text(self) -> str:
        lengths = self.runs()
        total = sum(lengths.values())
        each = ", ".join(f"{name} {n}" for name, n in lengths.items())
        verdict = "won" if min(lengths.values()) >= WIN_LENGTH else "lost"
        return f"final runs: {each} (total {total}): {verdict}"

    def _result(self) -> Result:
        lengths = self.runs()
        total = sum(lengths.values())
        detail: dict[str, Any] = dict(lengths)
        detail["total"] = total
        for suit, name, places in zip(SUITS, SUIT_NAMES, self._places, strict=True):
            path = run_path(places, suit)  # the state's places: the grid's, kept
            steps = ", ".join(f"{card} {LABELS[space]}" for card, space in path)
            detail[f"{name}_path"] = steps or "none"
        short = [name for name, n in lengths.items() if n < WIN_LENGTH]
        if not short:
            summary = f"Won: every suit has a run of 5 or more; score {total}"
            return Result.solo(True, total, detail, summary)
        need = ", ".join(f"{name} {lengths[name]}" for name in short)
        summary = f"Lost: runs shorter than {WIN_LENGTH} in {need} (total {total})"
        return Result.solo(False, None, detail, summary)

    # ---------------------------------------------------------------- views

    def _round_text(self) -> str:
        text = f"{self.round} of {PASSES}"
        if self.over:
            return text + ", game over"
        if self.last_shuffle:
            return text + ", last turn (dealt from one last shuffle)"
        if self.last_turn:
            return text + ", last turn (the deck is empty)"
        return text

    def _view(self, observer: int | None) -> dict[str, Any]:
        return {
            "round": self._round_text(),
            "market": [
                {"title": f"blueprint {i}", "cards": card_list(blueprint)}
                for i, blueprint in enumerate(self.market, start=1)
            ],
            "play_area": grid_view(
                {(i // COLS, i % COLS): stack for i, stack in enumerate(self.grid) if stack},
                top=0,
                left=0,
                rows=COLS,
                cols=COLS,
                show=card_list,
            ),
            "runs": {SUIT_SYMBOLS[s]: n for s, n in zip(SUITS, self.run_lengths, strict=True)},
            "deck": len(self.deck),
            # Every card not on the table is in the deck, so its contents are known (not its
            # order): sorted, they say nothing the player could not work out.
            "deck_contents": card_list(sorted(self.deck, key=by_rank)),
            "discard": card_list(self.discard),
            "last_turn": self.last_turn,
        }

    def _snapshot(self) -> dict[str, Any]:
        return {
            "deck_top_first": card_list(reversed(self.deck)),
            "discard": card_list(self.discard),
            "market": [card_list(b) for b in self.market],
            "grid": {LABELS[i]: card_list(stack) for i, stack in enumerate(self.grid)},
            "round": self.round,
            "last_shuffle": self.last_shuffle,
            "over": self.over,
        }

    def _resample(self, observer: int | None, rng: Any) -> None:
        self.deck = rng.shuffled(self.deck)

    def _copy_containers(self) -> None:
        self.deck = list(self.deck)
        self.discard = list(self.discard)
        self.market = list(self.market)
        self.grid = [list(stack) for stack in self.grid]
        self._places = [list(places) for places in self._places]

    def _cards(self) -> list[Card]:
        cards = self.deck + self.discard
        for blueprint in self.market:
            cards.extend(blueprint)
        for stack in self.grid:
            cards.extend(stack)
        return cards

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        cards: list[Card] = []
        spaces: list[str] = []
        numbers: list[int] = []
        for token in text.replace(",", " ").split():
            upper = token.upper()
            if upper in SPACE_OF_LABEL:
                spaces.append(upper)
            elif token.isdigit():
                numbers.append(int(token))
            elif token.lower() in ("to", "on", "onto"):
                continue
            else:
                try:
                    cards.append(parse_card(token))
                except RulesError:
                    return None
        if len(spaces) != 1 or (numbers and cards) or len(numbers) > 1:
            return None
        if numbers:
            if not 1 <= numbers[0] <= len(self.market):
                return None
            return draft_action(self.market[numbers[0] - 1], SPACE_OF_LABEL[spaces[0]])
        for blueprint in self.market:
            if sorted(blueprint) == sorted(cards):
                # Typed cards may come in any order; the blueprint keeps its own.
                return draft_action(blueprint, SPACE_OF_LABEL[spaces[0]])
        return Action(DRAFT, tuple(cards), spaces[0], " ".join([cards_text(cards), spaces[0]]))

    def _why_illegal(self, action: Action) -> str:
        if action.kind != DRAFT:
            return "the only move is drafting a blueprint onto a space, like 7♥ 6♣ C2"
        target = action.target
        if not isinstance(target, str) or target not in SPACE_OF_LABEL:
            return f"{target!r} is not a space of the play area: the spaces are A1 to C3"
        cards = action.cards
        if not isinstance(cards, (tuple, list)) or not 1 <= len(cards) <= 2:
            count = len(cards) if isinstance(cards, (tuple, list)) else 0
            return f"a blueprint is one or two cards, not {count}: draft one whole blueprint"
        if not all(isinstance(c, Card) for c in cards):
            return "a blueprint is named by its cards, like 7♥ 6♣"
        offered = self._market_text()
        missing = [c for c in cards if all(c not in b for b in self.market)]
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            return f"{cards_text(missing)} {verb} not in the market (it offers {offered})"
        for blueprint in self.market:
            if sorted(blueprint) == sorted(cards):
                return (
                    f"a blueprint keeps its order: it is {cards_text(blueprint)}, bottom card first"
                )
        return f"a blueprint is drafted whole, as dealt: the market offers {offered}"

    def _market_text(self) -> str:
        return ", ".join(cards_text(b) for b in self.market) or "nothing"

    def _describe(self, action: Action) -> str:
        blueprint = action.cards
        space = SPACE_OF_LABEL[action.target]
        number = self.market.index(blueprint) + 1
        stack = self.grid[space] + list(blueprint)
        overflow = max(0, len(stack) - STACK_LIMIT)
        kept, dropped = stack[overflow:], stack[:overflow]
        text = f"Draft blueprint {number} ({cards_text(blueprint)}) onto {action.target}"
        text += f": it becomes {cards_text(kept)}"
        if dropped:
            text += f" and {cards_text(dropped)} {'is' if len(dropped) == 1 else 'are'}"
            text += " discarded from the bottom"
        grid = [list(s) for s in self.grid]
        grid[space] = kept
        before, after = self.run_lengths, runs(grid)
        changes = [
            f"{SUIT_SYMBOLS[suit]} {before[s]}→{after[s]}"
            for s, suit in enumerate(SUITS)
            if before[s] != after[s]
        ]
        if changes:
            text += f" (runs {', '.join(changes)})"
        return text + "."
