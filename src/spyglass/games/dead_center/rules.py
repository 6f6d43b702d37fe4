"""Dead Center: play cards into a 3x3 cabin so that the lines through it kill twelve zombies.

A turn is up to three decisions, in the rulebook's order:

1. **reveal** (while any zombie is face down): choose a face-down zombie to turn face up;
2. the top card of the deck is then drawn at once (no decision), so that the player knows it
   before choosing where it goes; **play** it on a cabin pile it fits;
3. **kill** one of the zombies that this attack can kill, or **pass** (asked only when at least
   one zombie could be killed).

The game is lost when a card must be drawn from an empty deck, or the drawn card fits no pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.components.cards import (
    PER_DECK,
    Card,
    card_list,
    cards_text,
    parse_card,
    standard_deck,
)
from spyglass.components.grid import grid_view
from spyglass.engine import Action, Result, RulesError, State, plural

from .cabin import (
    ALL_SPACES,
    FITS,
    FRAME,
    FRONT,
    PILE_LABELS,
    PILE_OF_LABEL,
    PILES,
    SPACE_LABELS,
    SPACE_OF_LABEL,
    SPACES,
    SUPPORTS,
    VALUE,
    ZOMBIES_NEXT_TO,
    demand_text,
    fits,
    kills,
    placement_reason,
    why_no_kill,
)

CABIN_SIZE = len(PILES)
ZOMBIE_COUNT = len(SPACES)
NUMBER_CARDS = tuple(c for c in standard_deck() if c.rank <= 10)
ZOMBIE_CARDS = tuple(c for c in standard_deck() if c.is_face)

#: Words that may surround a move's cards and spaces when it is typed ("play 7s on b2").
FILLER = frozenset({"on", "at", "play", "the"})
#: Phases of a turn (what the next decision is).
REVEAL, PLAY, KILL, OVER = "reveal", "play", "kill", "over"
#: How a game ended.
WON, DECK_EMPTY, NO_PILE = "won", "deck empty", "no pile"

# Memo of pure functions: the same arguments always make the same immutable Action.
_REVEALS = tuple(
    Action("reveal", (), SPACE_LABELS[j], f"reveal {SPACE_LABELS[j]}") for j in range(ZOMBIE_COUNT)
)
PASS = Action("pass", (), None, "pass")
_KILLS: dict[tuple[Card, int], Action] = {}
#: PLAYS[card * 9 + pile]: playing that card (of a single deck) on that pile.
PLAYS = tuple(
    Action("play", (Card(code),), where, f"{Card(code)} on {where}")
    for code in range(PER_DECK)
    for where in PILE_LABELS
)


def play_action(card: Card, pile: int) -> Action:
    return PLAYS[card * CABIN_SIZE + pile]


def kill_action(zombie: Card, space: int) -> Action:
    key = (zombie, space)
    action = _KILLS.get(key)
    if action is None:
        where = SPACE_LABELS[space]
        action = _KILLS[key] = Action("kill", (zombie,), where, f"kill {zombie} at {where}")
    return action


class DeadCenterState(State):
    parse_card = staticmethod(parse_card)
    notation_help = (
        "'reveal C1' turns a zombie face up; '7♠ on B2' (or just 'B2') plays the drawn card;"
        " 'kill K♣ at B1' (or 'kill B1') kills a zombie; 'pass' kills none"
    )

    deck: list[Card]  # the top card is the last element
    piles: list[tuple[Card, ...]]  # the nine cabin piles in reading order, bottom card first
    ring: tuple[Card, ...]  # the zombie dealt to each space (SPACES order), killed ones too
    face_down: int  # bitmask over SPACES: zombies still face down
    alive: int  # bitmask over SPACES: zombies not yet killed
    killed: tuple[Card, ...]  # in the order they were killed
    drawn: Card | None  # the card drawn this turn, until it is played
    phase: str
    played: int | None  # the pile played on this turn (while deciding the kill)
    ending: str | None
    turn: int
    _moves: list[Action]

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Card]]:
        jokers = standard_deck(jokers=options["jokers"])[52:]
        return {"deck": [*NUMBER_CARDS, *jokers], "zombies": list(ZOMBIE_CARDS)}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # Twelve reveals; every other card of the deck is drawn at most once, and each draw
        # brings at most a play and a kill-or-pass decision.
        draws = len(NUMBER_CARDS) + options["jokers"] - CABIN_SIZE
        return ZOMBIE_COUNT + 2 * draws

    def _setup(self) -> None:
        order = self._deck("deck")
        self.piles = [(card,) for card in order[:CABIN_SIZE]]
        self.deck = list(reversed(order[CABIN_SIZE:]))
        self.ring = tuple(self._deck("zombies"))
        self.face_down = ALL_SPACES
        self.alive = ALL_SPACES
        self.killed = ()
        self.drawn = None
        self.played = None
        self.ending = None
        self.turn = 0
        rows = [cards_text(p[0] for p in self.piles[r * 3 : r * 3 + 3]) for r in range(3)]
        self._say(f"the cabin: {' / '.join(rows)}; twelve zombies face down around it")
        self._start_turn()

    # ---------------------------------------------------------------- the turn

    def _start_turn(self) -> None:
        self.turn += 1
        self.played = None
        if self.face_down:
            self.phase = REVEAL
            fd = self.face_down
            self._moves = [_REVEALS[j] for j in range(ZOMBIE_COUNT) if fd >> j & 1]
        else:
            self._draw()

    def _draw(self) -> None:
        if not self.deck:
            self._finish(DECK_EMPTY)
            self._say("the deck is empty when a card is needed: the game is lost")
            return
        card = self.drawn = self.deck.pop()
        plays = PLAYS[card * CABIN_SIZE : card * CABIN_SIZE + CABIN_SIZE]
        moves = [
            play
            for play, pile in zip(plays, self.piles, strict=True)
            if FITS[pile[-1] * PER_DECK + card]
        ]
        if not moves:
            self._finish(NO_PILE)
            self._say(f"drew {card}: it fits no pile, the game is lost")
            return
        self._say(f"drew {card}")
        self.phase = PLAY
        self._moves = moves

    def _finish(self, ending: str) -> None:
        self.ending = ending
        self.phase = OVER
        self._moves = []

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def won(self) -> bool:
        return self.ending == WON

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def _apply(self, action: Action) -> None:
        kind = action.kind
        if kind == "play":
            self._play(PILE_OF_LABEL[action.target])
        elif kind == "reveal":
            space = SPACE_OF_LABEL[action.target]
            self.face_down &= ~(1 << space)
            self._say(f"revealed {self.ring[space]} at {action.target}")
            self._draw()
        elif kind == "kill":
            self._kill(SPACE_OF_LABEL[action.target])
        else:
            self._say("killed no zombie")
            self._start_turn()

    def _play(self, pile: int) -> None:
        card = self.drawn
        assert card is not None
        below = self.piles[pile][-1]
        self.piles[pile] = (*self.piles[pile], card)
        self.drawn = None
        self._say(f"played {card} on {below} at {PILE_LABELS[pile]}")
        targets = self.killable(pile)
        if targets:
            self.phase = KILL
            self.played = pile
            self._moves = [*(kill_action(self.ring[j], j) for j in targets), PASS]
        else:
            self._start_turn()

    def _kill(self, space: int) -> None:
        zombie = self.ring[space]
        first, second = (self.piles[i][-1] for i in SUPPORTS[space])
        self.alive &= ~(1 << space)
        self.killed = (*self.killed, zombie)
        total = VALUE[first] + VALUE[second]
        self._say(
            f"killed {zombie} at {SPACE_LABELS[space]} (supports {first} + {second} = {total})"
        )
        if not self.alive:
            self._finish(WON)
            self._say(
                f"all twelve zombies are dead: won with {plural(len(self.deck), 'card')} left"
            )
            return
        self._start_turn()

    def killable(self, pile: int) -> list[int]:
        """The face-up, living zombies next to ``pile`` that an attack from it would kill."""
        up = self.alive & ~self.face_down
        piles = self.piles
        found = []
        for space in ZOMBIES_NEXT_TO[pile]:
            if up >> space & 1:
                a, b = SUPPORTS[space]
                if kills(self.ring[space], piles[a][-1], piles[b][-1]):
                    found.append(space)
        return found

    def _ready(self, space: int) -> bool:
        a, b = SUPPORTS[space]
        return kills(self.ring[space], self.piles[a][-1], self.piles[b][-1])

    def tops(self) -> list[Card]:
        return [pile[-1] for pile in self.piles]

    def _result(self) -> Result:
        detail = {
            "zombies_killed": len(self.killed),
            "killed": card_list(self.killed),
            "cards_left_in_deck": len(self.deck),
            "turns": self.turn,
        }
        n = len(self.deck)
        if self.won:
            summary = f"Won: all twelve zombies killed with {n} card{'s' * (n != 1)} left"
            return Result.solo(True, n, detail, summary + " in the deck (score)")
        k = len(self.killed)
        if self.ending == NO_PILE:
            detail["stranded_card"] = str(self.drawn)
            why = f"{self.drawn} fits no pile"
        else:
            why = "the deck ran out"
        summary = (
            f"Lost: {why} with {plural(k, 'zombie')} killed and {plural(n, 'card')} in the deck"
        )
        return Result.solo(False, None, detail, summary)

    # ---------------------------------------------------------------- views

    def _view(self, observer: int | None) -> dict[str, Any]:
        fd = self.face_down
        return {
            "board": self._board(),
            "drawn": [] if self.drawn is None else [str(self.drawn)],
            "deck": len(self.deck),
            "killed": card_list(self.killed),
            # Which zombies are still face down is known (the twelve face cards minus the
            # revealed ones), not where each one is: sorted, so their places do not show.
            "face_down": card_list(
                sorted(self.ring[j] for j in range(ZOMBIE_COUNT) if fd >> j & 1)
            ),
            "cabin": {PILE_LABELS[i]: card_list(pile) for i, pile in enumerate(self.piles)},
            "zombies": {SPACE_LABELS[j]: self._zombie_shown(j) for j in range(ZOMBIE_COUNT)},
            "phase": self.phase,
            "played": None if self.played is None else PILE_LABELS[self.played],
            "turn": self.turn,
            "to_do": self._to_do(),
        }

    def _zombie_shown(self, space: int) -> str | None:
        if not self.alive >> space & 1:
            return "killed"
        if self.face_down >> space & 1:
            return None
        return str(self.ring[space])

    def _board(self) -> dict[str, Any]:
        cells: dict[tuple[int, int], Any] = {}
        for i, pos in enumerate(PILES):
            pile = self.piles[i]
            notes = [f"({len(pile)})"] if len(pile) > 1 else []
            if i == self.played:
                notes.append("played")
            top = [str(pile[-1])]
            cells[pos] = {"cards": top, "note": " ".join(notes)} if notes else top
        up = self.alive & ~self.face_down
        for j, pos in enumerate(SPACES):
            shown = self._zombie_shown(j)
            if shown == "killed":
                cells[pos] = {"cards": [], "note": f"✝ {self.ring[j]}"}
            elif up >> j & 1 and self._ready(j):
                # Public arithmetic a player does at a glance: a card on the front pile kills.
                cells[pos] = {"cards": [shown], "note": "ready"}
            else:
                cells[pos] = [shown]
        return grid_view(cells, top=0, left=0, rows=FRAME, cols=FRAME, show=_same)

    def _to_do(self) -> str:
        if self.phase == REVEAL:
            return "reveal a face-down zombie"
        if self.phase == PLAY:
            return f"play {self.drawn} on a cabin pile"
        if self.phase == KILL:
            return "kill one zombie next to the pile you played on, or pass"
        return "game over"

    def _snapshot(self) -> dict[str, Any]:
        return {
            "deck_top_first": card_list(reversed(self.deck)),
            "cabin": [card_list(pile) for pile in self.piles],
            "ring": card_list(self.ring),
            "face_down": [SPACE_LABELS[j] for j in range(ZOMBIE_COUNT) if self.face_down >> j & 1],
            "alive": [SPACE_LABELS[j] for j in range(ZOMBIE_COUNT) if self.alive >> j & 1],
            "killed": card_list(self.killed),
            "drawn": None if self.drawn is None else str(self.drawn),
            "phase": self.phase,
            "played": self.played,
            "ending": self.ending,
            "turn": self.turn,
        }

    def _resample(self, observer: int | None, rng: Any) -> None:
        self.deck = rng.shuffled(self.deck)
        hidden = [j for j in range(ZOMBIE_COUNT) if self.face_down >> j & 1]
        zombies = sorted(self.ring[j] for j in hidden)
        rng.shuffle(zombies)
        ring = list(self.ring)
        for space, zombie in zip(hidden, zombies, strict=True):
            ring[space] = zombie
        self.ring = tuple(ring)

    def _copy_containers(self) -> None:
        self.deck = list(self.deck)
        self.piles = list(self.piles)

    def _cards(self) -> list[Card]:
        cards = [*self.deck, *self.killed]
        for pile in self.piles:
            cards.extend(pile)
        cards.extend(self.ring[j] for j in range(ZOMBIE_COUNT) if self.alive >> j & 1)
        if self.drawn is not None:
            cards.append(self.drawn)
        return cards

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        words = text.replace(",", " ").split()
        words = [w for w in words if w.lower() not in FILLER]
        if not words:
            return None
        head = words[0].lower()
        if head == "reveal":
            return Action("reveal", (), _label(words[1:]), text.strip())
        if head == "kill":
            return self._parse_kill(words[1:], text)
        if head in ("pass", "none", "skip"):
            return PASS if len(words) == 1 else None
        last = words[-1].upper()
        if last in SPACE_OF_LABEL:
            if self.phase == REVEAL and len(words) == 1:
                return Action("reveal", (), last, text.strip())
            return self._parse_kill(words, text)
        if self.phase == KILL and last not in PILE_OF_LABEL:
            return self._parse_kill(words, text)  # a zombie named by its card
        return self._parse_play(words, text)

    def _parse_play(self, words: list[str], text: str) -> Action | None:
        if len(words) == 1:
            if self.drawn is None:
                return Action("play", (), _label(words), text.strip())
            return Action("play", (self.drawn,), _label(words), text.strip())
        if len(words) == 2:
            try:
                card = parse_card(words[0])
            except RulesError:
                return None
            return Action("play", (card,), _label(words[1:]), text.strip())
        return None

    def _parse_kill(self, words: list[str], text: str) -> Action | None:
        if not words:
            # 'kill' alone: the one zombie this attack can kill, when there is just one.
            options = [m for m in self._moves if m.kind == "kill"]
            return options[0] if len(options) == 1 else Action("kill", (), None, "kill")
        if len(words) > 2:
            return None
        where = words[-1].upper()
        card: Card | None = None
        try:
            card = parse_card(words[0])
        except RulesError:
            if len(words) == 2:
                return None
        if card is not None and len(words) == 1:
            # A zombie named by its card: find its space among the face-up ones.
            up = self.alive & ~self.face_down
            spaces = [j for j in range(ZOMBIE_COUNT) if up >> j & 1 and self.ring[j] == card]
            if not spaces:
                return Action("kill", (card,), None, text.strip())
            where = SPACE_LABELS[spaces[0]]
        elif card is None and where in SPACE_OF_LABEL:
            space = SPACE_OF_LABEL[where]
            if self.face_down >> space & 1 or not self.alive >> space & 1:
                return Action("kill", (), where, text.strip())
            card = self.ring[space]
        return Action("kill", () if card is None else (card,), where, text.strip())

    def _why_illegal(self, action: Action) -> str:
        kind = action.kind
        if kind not in ("reveal", "play", "kill", "pass"):
            return "a move is 'reveal SPACE', 'CARD on PILE', 'kill ZOMBIE' or 'pass'"
        if self.phase == REVEAL and kind != "reveal":
            return "a turn starts by revealing a face-down zombie ('reveal SPACE')"
        if kind == "reveal":
            return self._why_not_reveal(action)
        if kind == "play":
            return self._why_not_play(action)
        if self.phase != KILL:
            return "there is no kill to decide now: the drawn card has not been played"
        if kind == "pass":
            return "'pass' is written alone"
        return self._why_not_kill(action)

    def _why_not_reveal(self, action: Action) -> str:
        if self.phase != REVEAL:
            if not self.face_down:
                return "every zombie is already face up"
            return "only one zombie is revealed per turn, at its start"
        if _cards_of(action):
            return "a reveal names a space, not a card: the zombie's face is not known yet"
        space = SPACE_OF_LABEL.get(action.target) if isinstance(action.target, str) else None
        if space is None:
            return f"{action.target!r} is not a zombie space ({_spaces_text()})"
        if not self.alive >> space & 1:
            return f"the zombie at {action.target} is already killed"
        return f"the zombie at {action.target} is already face up"

    def _why_not_play(self, action: Action) -> str:
        if self.phase != PLAY:
            return "the drawn card is already played: kill a zombie next to it or pass"
        card = self.drawn
        assert card is not None
        cards = _cards_of(action)
        if len(cards) != 1 or cards[0] != card:
            return f"you drew {card}: that is the card to play, on one pile"
        pile = PILE_OF_LABEL.get(action.target) if isinstance(action.target, str) else None
        if pile is None:
            return f"{action.target!r} is not a cabin pile (B2 to D4)"
        top = self.piles[pile][-1]
        if not fits(card, top):
            return f"{card} cannot go on {top} at {action.target}: {placement_reason(card, top)}"
        return "it is not one of the legal moves in this position"

    def _why_not_kill(self, action: Action) -> str:
        assert self.played is not None
        where = PILE_LABELS[self.played]
        space = SPACE_OF_LABEL.get(action.target) if isinstance(action.target, str) else None
        if space is None:
            cards = _cards_of(action)
            if action.target is None and not cards:
                options = [str(m) for m in self._moves if m.kind == "kill"]
                return (
                    f"several zombies next to {where} can be killed: name one"
                    f" ({', '.join(repr(o) for o in options)})"
                )
            if action.target is None and len(cards) == 1:
                return f"{cards[0]} is not a face-up zombie next to {where}"
            return f"{action.target!r} is not a zombie space ({_spaces_text()})"
        if FRONT[space] != self.played:
            return f"the zombie at {action.target} is not next to {where}, the pile you played on"
        if not self.alive >> space & 1:
            return f"the zombie at {action.target} is already killed"
        if self.face_down >> space & 1:
            return f"the zombie at {action.target} is face down: only face-up zombies are attacked"
        zombie = self.ring[space]
        cards = _cards_of(action)
        if len(cards) != 1 or cards[0] != zombie:
            return f"the zombie at {action.target} is {zombie}"
        first, second = (self.piles[i][-1] for i in SUPPORTS[space])
        reason = why_no_kill(zombie, first, second)
        return f"this attack does not kill {zombie}: {reason}" if reason else "not a legal kill"

    # ---------------------------------------------------------------- sentences

    def _describe(self, action: Action) -> str:
        kind = action.kind
        if kind == "reveal":
            space = SPACE_OF_LABEL[action.target]
            first, second = (self.piles[i][-1] for i in SUPPORTS[space])
            return (
                f"Turn the zombie at {action.target} face up, then draw a card (it faces"
                f" {PILE_LABELS[FRONT[space]]}, with supports {first} + {second})."
            )
        if kind == "pass":
            return "Kill no zombie this turn."
        if kind == "kill":
            space = SPACE_OF_LABEL[action.target]
            first, second = (self.piles[i][-1] for i in SUPPORTS[space])
            total = VALUE[first] + VALUE[second]
            zombie = self.ring[space]
            extra = "" if zombie.rank == 11 else f"; {demand_text(zombie)}"
            return (
                f"Kill {zombie} at {action.target}: supports {first} + {second} = {total}{extra}."
            )
        card = action.cards[0]
        pile = PILE_OF_LABEL[action.target]
        top = self.piles[pile][-1]
        sentence = f"Play {card} on {top} at {action.target} ({placement_reason(card, top)})"
        after = self.clone()
        after.piles[pile] = (*after.piles[pile], card)
        targets = after.killable(pile)
        if targets:
            names = " or ".join(f"{self.ring[j]} at {SPACE_LABELS[j]}" for j in targets)
            return f"{sentence}; it can then kill {names}."
        return sentence + "."


def _same(cell: Any) -> Any:
    return cell


def _cards_of(action: Action) -> tuple[Any, ...]:
    """The cards of an action that may have been built by hand with anything in it."""
    cards = action.cards
    return tuple(cards) if isinstance(cards, (tuple, list)) else ()


def _label(words: list[str]) -> str:
    return words[0].upper() if len(words) == 1 else " ".join(words).upper()


def _spaces_text() -> str:
    return "B1-D1, A2-A4, E2-E4, B5-D5"
