"""Area 52: black defenders hold off red aliens, then a mixed second wave from the discard pile."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.components.cards import (
    PER_DECK,
    Card,
    by_rank,
    card_list,
    cards_text,
    parse_card,
    standard_deck,
)
from spyglass.engine import Action, Result, RulesError, State

SQUAD = 6  # defenders kept on the table while the defender deck lasts
REVEAL = 3  # aliens turned face up at the start of each turn
WAVE_ONE_PENALTY = 50  # taken off the score of a game lost during the first wave
DECK_SIZE = 52

DUAL, SINGLE, SACRIFICE = "dual", "single", "sacrifice"
KINDS = (DUAL, SINGLE, SACRIFICE)

# Hot-path tables by card code: the card's value (Ace 1, Two to Ten their rank, Jack 11,
# Queen 12, King 13; jokers, which the game does not use, 0) and whether it is red.
VALUE = tuple(Card(code).rank for code in range(PER_DECK))
RED = tuple(Card(code).is_red for code in range(PER_DECK))

BLACK_CARDS = tuple(c for c in standard_deck() if c.is_black)
RED_CARDS = tuple(c for c in standard_deck() if c.is_red)


def dual_order(a: Card, b: Card) -> tuple[Card, Card]:
    """The two defenders of a dual attack in notation order: higher value first."""
    # .rank rather than the VALUE table: typed input may name cards of a second deck.
    if a.rank > b.rank or (a.rank == b.rank and a < b):
        return a, b
    return b, a


def _make_dual(a: int, b: int) -> Action | None:
    if a == b or a >= 52 or b >= 52:
        return None
    first, second = dual_order(Card(a), Card(b))
    return Action(DUAL, (first, second), None, f"dual {first} {second}")


# Every action of the game, made once (they are immutable): a dual attack at
# a * PER_DECK + b (either order gives the same Action), a single attack or a sacrifice at the
# defender's code.
DUALS = tuple(_make_dual(a, b) for a in range(PER_DECK) for b in range(PER_DECK))
SINGLES = tuple(Action(SINGLE, (c,), None, f"single {c}") for c in standard_deck())
SACRIFICES = tuple(Action(SACRIFICE, (c,), None, f"sacrifice {c}") for c in standard_deck())


_WORDS = {
    "dual": DUAL,
    "d": DUAL,
    "single": SINGLE,
    "s": SINGLE,
    "sacrifice": SACRIFICE,
    "sac": SACRIFICE,
}


class Area52State(State):
    parse_card = staticmethod(parse_card)
    notation_help = (
        "'dual 5H 3C' (two defenders adding up to the attacker), 'single 7S' (a greater"
        " defender of the other colour) or 'sacrifice 3S'"
    )

    defender_deck: list[Card]  # top card first
    defenders: list[Card]  # the squad on the table, in the order of their places
    alien_deck: list[Card]  # top card first; sacrificed aliens go to the end
    known_back: int  # how many cards at the back of the alien deck the player has seen
    attackers: list[Card]  # face up, the current attacker first
    discard: list[Card]  # face up; the last card is the top
    wave: int
    outcome: str | None  # "won", "lost" or None while the game goes on
    tally: dict[str, int]
    _moves: list[Action]

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Card]]:
        return {"defenders": list(BLACK_CARDS), "aliens": list(RED_CARDS)}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # Each action beats an alien or sacrifices a defender. A card reaches the table only
        # from the defender deck or by a single attack, which discards a defender in exchange;
        # so in each wave the sacrifices are at most the squad plus the defender deck at its
        # start. Wave 1: 26 aliens and at most 26 sacrifices. Wave 2: its aliens, squad and
        # defender deck are the 52 cards.
        return 2 * DECK_SIZE

    def _setup(self) -> None:
        black = list(self._deck("defenders"))
        self.defenders = black[:SQUAD]
        self.defender_deck = black[SQUAD:]
        self.alien_deck = list(self._deck("aliens"))
        self.known_back = 0
        self.attackers = []
        self.discard = []
        self.wave = 1
        self.outcome = None
        self.tally = {"dual": 0, "single": 0, "sacrifice": 0, "lost_to_colour": 0}
        self._say(f"defenders dealt: {cards_text(self.defenders)}")
        self._settle(None)

    # ---------------------------------------------------------------- rules

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def won(self) -> bool:
        return self.outcome == "won"

    @property
    def attacker(self) -> Card | None:
        """The current attacker, or None once the game is over."""
        return self.attackers[0] if self.attackers else None

    def aliens_left(self) -> int:
        """Aliens still to beat in this wave: the face-up attackers and the alien deck."""
        return len(self.attackers) + len(self.alien_deck)

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def _find_moves(self) -> list[Action]:
        if self.outcome is not None:
            return []
        attacker = self.attackers[0]
        wanted = VALUE[attacker]
        red = RED[attacker]
        squad = self.defenders
        values = [VALUE[c] for c in squad]
        n = len(squad)
        moves: list[Action] = []
        duals = DUALS
        for i in range(n - 1):
            rest = wanted - values[i]
            if rest > 0:
                row = squad[i] * PER_DECK
                for j in range(i + 1, n):
                    if values[j] == rest:
                        dual = duals[row + squad[j]]
                        assert dual is not None  # two different cards of the deck
                        moves.append(dual)
        moves += [SINGLES[c] for c in squad if VALUE[c] > wanted and RED[c] != red]
        moves += [SACRIFICES[c] for c in squad]
        return moves

    def _apply(self, action: Action) -> None:
        attacker = self.attackers.pop(0)
        kind = action.kind
        self.tally[kind] += 1
        if kind == DUAL:
            text = self._dual(attacker, action.cards)
        elif kind == SINGLE:
            defender = action.cards[0]
            squad = self.defenders
            squad[squad.index(defender)] = attacker
            self.discard.append(defender)
            text = f"single attack: {defender} defeats {attacker} and is replaced by it"
        else:
            defender = action.cards[0]
            self.defenders.remove(defender)
            self.discard.append(defender)
            self.alien_deck.append(attacker)
            self.known_back += 1
            text = f"sacrificed {defender}: {attacker} goes face down to the back of the alien deck"
        self._settle(text)

    def _dual(self, attacker: Card, pair: tuple[Card, ...]) -> str:
        self.discard.append(attacker)
        text = f"dual attack: {pair[0]} + {pair[1]} defeat {attacker}"
        if self.wave == 2:
            lost = [d for d in pair if RED[d] == RED[attacker]]
            for defender in lost:
                self.defenders.remove(defender)
                self.discard.append(defender)
            if lost:
                self.tally["lost_to_colour"] += len(lost)
                colour = "red" if RED[attacker] else "black"
                text += f"; {cards_text(lost)} lost ({colour}, like the alien)"
        return text

    def _settle(self, text: str | None) -> None:
        """Log the action's ``text`` with the refill that follows it, end the turn or the wave,
        and decide whether the game is over."""
        missing = SQUAD - len(self.defenders)
        if missing > 0 and self.defender_deck:
            drawn = self.defender_deck[:missing]
            del self.defender_deck[:missing]
            self.defenders.extend(drawn)
            text = f"{text}; drew {cards_text(drawn)}"
            if not self.defender_deck:
                text += " (the defender deck is used up)"
        if text is not None:
            self._say(text)
        if not self.attackers and not self.alien_deck:
            if self.wave == 2:
                self.outcome = "won"
                squad = _count(len(self.defenders), "defender")
                self._say(
                    f"the second wave is destroyed: won with {squad} on the table and"
                    f" {len(self.defender_deck)} in the deck"
                )
                self._moves = []
                return
            if self.defenders:
                self._second_wave()
        if not self.defenders:
            self.outcome = "lost"
            left = _count(self.aliens_left(), "alien")
            self._say(f"no defenders left: lost with {left} still to beat")
            self._moves = []
            return
        if not self.attackers:
            self._reveal()
        self._moves = self._find_moves()

    def _second_wave(self) -> None:
        order = sorted(self.discard)  # so that the shuffle depends only on the pile's contents
        self.rng.shuffle(order)
        self.alien_deck = order
        self.known_back = 0
        self.discard = []
        self.wave = 2
        self._say(f"the first wave is beaten: the discard pile ({len(order)} cards) attacks again")

    def _reveal(self) -> None:
        deck = self.alien_deck
        self.attackers = deck[:REVEAL]
        del deck[:REVEAL]
        self.known_back = min(self.known_back, len(deck))
        self._say(f"attackers: {cards_text(self.attackers)}")

    def _result(self) -> Result:
        detail: dict[str, Any] = {
            "wave": self.wave,
            "defenders_on_table": len(self.defenders),
            "defender_deck": len(self.defender_deck),
            "aliens_left": self.aliens_left(),
            "dual_attacks": self.tally["dual"],
            "single_attacks": self.tally["single"],
            "sacrifices": self.tally["sacrifice"],
            "lost_to_colour": self.tally["lost_to_colour"],
        }
        if self.won:
            score = len(self.defender_deck) + len(self.defenders)
            summary = (
                f"Won: both waves repelled with {_count(len(self.defenders), 'defender')} on the"
                f" table and {len(self.defender_deck)} in the deck (score {score})"
            )
            return Result.solo(True, score, detail, summary)
        left = self.aliens_left()
        score = -left - (WAVE_ONE_PENALTY if self.wave == 1 else 0)
        summary = f"Lost: no defenders left in wave {self.wave} with {_count(left, 'alien')} to go"
        summary += f" (score {score}" + (", 50 off for wave 1)" if self.wave == 1 else ")")
        return Result.solo(False, score, detail, summary)

    # ---------------------------------------------------------------- views

    def _status(self) -> str:
        if self.wave == 1:
            return "1 of 2: red aliens"
        return "2 of 2: the discard pile; a dual attack loses defenders of the alien's colour"

    def _view(self, observer: int | None) -> dict[str, Any]:
        deck = self.alien_deck
        known = self.known_back
        return {
            "wave": self.wave,
            "status": self._status(),
            "attackers": card_list(self.attackers),
            "defenders": card_list(self.defenders),
            "defender_deck": len(self.defender_deck),
            "alien_deck": len(deck),
            # Sacrificed aliens were seen on their way to the back: the player remembers them.
            "alien_deck_back": card_list(deck[len(deck) - known :]) if known else [],
            # The second wave is the discard pile the player watched grow face up: its
            # contents are known, only the shuffle's order is not.
            "alien_deck_contents": card_list(sorted(deck, key=by_rank)) if self.wave == 2 else [],
            "discard": card_list(self.discard),
        }

    def _snapshot(self) -> dict[str, Any]:
        return {
            "wave": self.wave,
            "outcome": self.outcome,
            "attackers": card_list(self.attackers),
            "defenders": card_list(self.defenders),
            "defender_deck_top_first": card_list(self.defender_deck),
            "alien_deck_top_first": card_list(self.alien_deck),
            "known_back": self.known_back,
            "discard": card_list(self.discard),
            "tally": dict(self.tally),
        }

    def _resample(self, observer: int | None, rng: Any) -> None:
        squad = sorted(self.defender_deck)
        rng.shuffle(squad)
        self.defender_deck = squad
        deck = self.alien_deck
        split = len(deck) - self.known_back
        unseen = sorted(deck[:split])
        rng.shuffle(unseen)
        self.alien_deck = unseen + deck[split:]

    def _copy_containers(self) -> None:
        self.defender_deck = list(self.defender_deck)
        self.defenders = list(self.defenders)
        self.alien_deck = list(self.alien_deck)
        self.attackers = list(self.attackers)
        self.discard = list(self.discard)
        self.tally = dict(self.tally)

    def _cards(self) -> list[Card]:
        return self.defender_deck + self.defenders + self.attackers + self.alien_deck + self.discard

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        tokens = text.replace(",", " ").replace("+", " ").split()
        if not tokens:
            return None
        kind = _WORDS.get(tokens[0].lower())
        if kind is not None:
            tokens = tokens[1:]
        try:
            cards = [parse_card(t) for t in tokens]
        except RulesError:
            return None
        if kind is None:
            kind = {1: SINGLE, 2: DUAL}.get(len(cards))
            if kind is None:
                return None
        if kind == DUAL and len(cards) == 2:
            cards = list(dual_order(cards[0], cards[1]))
        return Action(kind, tuple(cards), None, " ".join([kind, *map(str, cards)]))

    def _why_illegal(self, action: Action) -> str:
        kind = action.kind
        if kind not in KINDS:
            return "a move is 'dual D1 D2', 'single D' or 'sacrifice D', D being your defenders"
        try:
            cards = tuple(action.cards)
        except TypeError:
            return "a move names its defenders as a list of cards"
        wanted = 2 if kind == DUAL else 1
        if len(cards) != wanted:
            what = "two defenders" if kind == DUAL else "one defender"
            return f"a {kind} {'attack ' if kind != SACRIFICE else ''}names exactly {what}"
        if not all(isinstance(c, Card) for c in cards):
            return "a move names its defenders as cards, like 7S or 7♠"
        absent = [c for c in cards if c not in self.defenders]
        if absent:
            verb = "is" if len(absent) == 1 else "are"
            return f"{cards_text(absent)} {verb} not among your defenders on the table"
        if action.target is not None:
            return "a move names only defenders: it always deals with the current attacker"
        attacker = self.attackers[0]
        wanted_value = VALUE[attacker]
        if kind == DUAL:
            return self._why_not_dual(cards, attacker)
        if kind == SINGLE:
            defender = cards[0]
            if VALUE[defender] <= wanted_value:
                return (
                    f"a single attack needs a defender of greater value than {attacker}"
                    f" ({wanted_value}); {defender} is worth {VALUE[defender]}"
                )
            if RED[defender] == RED[attacker]:
                colour = "red" if RED[attacker] else "black"
                both = f"{attacker} and {defender} are {colour}"
                return f"a single attack needs a defender of the other colour: {both}"
        return "it is not one of the legal moves in this position"

    def _why_not_dual(self, cards: tuple[Card, ...], attacker: Card) -> str:
        a, b = cards
        if a == b:
            return "a dual attack takes two different defenders"
        total = VALUE[a] + VALUE[b]
        if total != VALUE[attacker]:
            return (
                f"a dual attack must add up exactly to the attacker: {a} + {b} = {total},"
                f" but {attacker} is worth {VALUE[attacker]}"
            )
        first, second = dual_order(a, b)
        return f"write the higher defender first: dual {first} {second}"

    def _describe(self, action: Action) -> str:
        attacker = self.attackers[0]
        if action.kind == DUAL:
            a, b = action.cards
            sentence = (
                f"Dual attack on {attacker}: {a} + {b} = {VALUE[attacker]}; {attacker} is discarded"
            )
            lost = [d for d in action.cards if RED[d] == RED[attacker]] if self.wave == 2 else []
            if not lost:
                return sentence + ", both defenders stay."
            colour = "red" if RED[attacker] else "black"
            sentence += f", and so {'is' if len(lost) == 1 else 'are'} {cards_text(lost)}"
            return sentence + f" ({colour} like it){self._after_losing(len(lost))}."
        defender = action.cards[0]
        if action.kind == SINGLE:
            return (
                f"Single attack on {attacker} with {defender} ({VALUE[defender]} >"
                f" {VALUE[attacker]}, other colour): {defender} is discarded, {attacker} joins"
                " the defenders."
            )
        return (
            f"Discard {defender} and send {attacker} face down to the back of the alien deck"
            f"{self._after_losing(1)}."
        )

    def _after_losing(self, lost: int) -> str:
        """What happens to the squad after ``lost`` defenders leave it."""
        deck = len(self.defender_deck)
        if deck:
            draws = min(lost, deck)
            return f"; draw {draws} new defender{'s' * (draws != 1)}"
        left = len(self.defenders) - lost
        if left == 0:
            if self.wave == 2 and len(self.attackers) == 1 and not self.alien_deck:
                return "; no defender is left, but no alien either"
            return "; no defender is left: the game is lost"
        return f"; {left} defender{'s' * (left != 1)} left, none to draw"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"
