"""Area 52 with every card known: can both waves be beaten, and with how many soldiers left?

A position is the squad (a set: where a defender stands never matters), how many cards the
defender deck has dealt (its order is known), and the queue of aliens still to meet in this
wave: the face-up attackers then the alien deck, sacrificed aliens at its back (the turns of
three only decide when aliens are turned up, never what can be done with them). The discard
pile is everything else, so it needs no place in the key.

- **First wave.** The second wave is the discard pile shuffled by the game's generator, which
  nothing else draws from, so the second wave's order follows from which cards are discarded
  and the searched positions keep the cards' identities. Every dual attack of the first wave
  leaves the same position (the attacker is discarded, the squad stays), so one is searched.
- **Second wave.** Nothing is shuffled any more, so two cards of the same value and colour are
  interchangeable: positions are keyed by values and colours, and equal moves are searched once.

The score of a win is the soldiers left (squad plus defender deck); that total never grows (a
single attack swaps one soldier for another, duals and sacrifices only lose them), so a
position whose total is already below a target cannot reach it. The best score is found by
raising the target one step at a time, with a table of the targets each position has failed.
"""

from __future__ import annotations

from spyglass.components.bits import set_bits
from spyglass.components.cards import Card
from spyglass.engine import RulesError, State
from spyglass.games.area_52 import bot
from spyglass.games.area_52.rules import RED, SQUAD, VALUE, Area52State

from .base import Allowance, Bound, finished_bound, prove

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 2

DUAL, SINGLE, SACRIFICE = "dual", "single", "sacrifice"

#: The second-wave probe of the first pass (positions; each pass doubles it).
FIRST_PROBE = 1024

Move = tuple[str, tuple[int, ...]]  # kind and cards (wave 1: card codes; wave 2: kinds)


def _kind(card: int) -> int:
    """A card's value and colour as one number (what the second wave can tell apart)."""
    return VALUE[card] * 2 + RED[card]


class _Capped(Exception):
    """A second wave ran out of its probe."""


class _PassOver(Exception):
    """A pass of the first wave's search left more second waves unsettled than it may."""


class Solver:
    def __init__(self, state: Area52State, allowance: Allowance) -> None:
        self.allowance = allowance
        self.deck = list(state.defender_deck)  # top first: the refill order
        self.deck_kinds = [_kind(c) for c in self.deck]
        # From each point of the deck on: how many cards of each value it still holds, and
        # the highest of them (the deck is black).
        self.deck_values: list[list[int]] = []
        self.deck_best: list[int] = []
        for dealt in range(len(self.deck) + 1):
            counts = [0] * 14
            for card in self.deck[dealt:]:
                counts[VALUE[card]] += 1
            self.deck_values.append(counts)
            self.deck_best.append(max((VALUE[c] for c in self.deck[dealt:]), default=0))
        self.rng_state = state.rng.clone()  # the generator that will shuffle the second wave
        self.failed: dict[tuple, int] = {}  # position -> the lowest target it failed
        self.line: list[Move] = []
        self.probe = 1 << 62  # positions a second wave may search before it is left for later
        self.probe_left = self.probe
        self.floor = 0  # the soldiers the first wave must keep in the current search
        self.unsettled = 1  # second waves the current pass may leave for later
        self.unsettled_left = 1 << 62  # how many more it may leave before it ends

    @staticmethod
    def ahead(rest: tuple[int, ...], second: bool) -> tuple[list[tuple[int, bool]], list[int]]:
        """What the bot looks at behind the current alien: the next two aliens (value, red)
        and the profile of the rest (counts by kind). ``rest`` holds cards in the first wave,
        kinds in the second."""
        if second:
            profile = [0] * 28
            for k in rest[2:]:
                profile[k] += 1
            return [(k >> 1, bool(k & 1)) for k in rest[:2]], profile
        return [(VALUE[c], RED[c]) for c in rest[:2]], bot.deck_profile(rest[2:])  # type: ignore[arg-type]

    @staticmethod
    def promise(
        kind: str,
        squad: list[tuple[int, bool]],
        ahead: tuple[list[tuple[int, bool]], list[int]],
        second: bool,
        lost: int = 0,
    ) -> float:
        """How good the game's bot would think a move (the order moves are tried in: most wins
        are found on the bot's own line or near it). ``squad`` is what the move leaves (value,
        red), ``ahead`` what :meth:`ahead` says of the aliens after this one and ``lost`` the
        defenders a second-wave dual loses."""
        upcoming, profile = ahead
        cost = bot.LOSS * lost
        if kind == SACRIFICE:
            cost += bot.LOSS + bot.SACRIFICE_COST
        for alien in upcoming:
            extra, squad = bot.cheapest(squad, alien, second)
            cost += extra
        if not squad:
            return bot.LOST - cost
        covered = bot.coverage(squad, profile, second)
        return -cost + bot.COVERAGE * covered + bot.HIGH_CARD * sum(v for v, _ in squad)

    # ---------------------------------------------------------------- the first wave

    def second_wave(self, squad: int, dealt: int) -> tuple[int, ...]:
        """The second wave's aliens (kinds, top first) when the first ends with this squad."""
        kept = squad
        for card in self.deck[dealt:]:
            kept |= 1 << card
        discard = [c for c in range(52) if not kept >> c & 1]  # sorted, as the game sorts it
        rng = self.rng_state.clone()
        rng.shuffle(discard)
        return tuple(_kind(c) for c in discard)

    def refill(self, squad: int, size: int, dealt: int) -> tuple[int, int, int]:
        while size < SQUAD and dealt < len(self.deck):
            squad |= 1 << self.deck[dealt]
            dealt += 1
            size += 1
        return squad, size, dealt

    def first(self, squad: int, dealt: int, queue: tuple[int, ...], target: int) -> bool | None:
        """Whether this first-wave position wins with at least ``target`` soldiers left,
        keeping at least ``floor`` soldiers through the first wave; None when a second wave
        below it was not settled within the current probe (:class:`_PassOver` once the pass
        has left more of them than it may)."""
        size = squad.bit_count()
        floor = self.floor
        if size + len(self.deck) - dealt < floor:
            return False
        if not queue:
            if not squad:
                return False
            kinds = tuple(sorted(_kind(c) for c in set_bits(squad)))
            self.probe_left = self.probe
            mark = len(self.line)
            try:
                return self.second(kinds, dealt, self.second_wave(squad, dealt), target)
            except _Capped:
                del self.line[mark:]
                self.unsettled_left -= 1
                if self.unsettled_left < 0:
                    raise _PassOver from None
                return None
        key = (squad, dealt, queue)
        if self.failed.get(key, 1 << 30) <= floor:
            return False
        self.allowance.tick()
        attacker, rest = queue[0], queue[1:]
        value, red = VALUE[attacker], RED[attacker]
        cards = set_bits(squad)
        children: list[tuple[Move, int, int, tuple[int, ...]]] = []
        # A dual: every pair leaves the same position.
        pair = next(
            ((a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]
             if VALUE[a] + VALUE[b] == value),
            None,
        )  # fmt: skip
        if pair is not None:
            children.append(((DUAL, pair), squad, dealt, rest))
        for card in sorted(cards, key=lambda c: VALUE[c]):
            if VALUE[card] > value and RED[card] != red:
                after = squad & ~(1 << card) | 1 << attacker
                children.append(((SINGLE, (card,)), after, dealt, rest))
        if size + len(self.deck) - dealt > floor:  # else a sacrifice keeps too few
            for card in sorted(cards, key=lambda c: VALUE[c]):
                after, size_after, dealt_after = self.refill(squad & ~(1 << card), size - 1, dealt)
                if size_after:
                    children.append(((SACRIFICE, (card,)), after, dealt_after, (*rest, attacker)))
        if len(children) > 1:
            view = self.ahead(rest, False)
            children.sort(
                key=lambda c: (
                    -self.promise(
                        c[0][0], [(VALUE[x], RED[x]) for x in set_bits(c[1])], view, False
                    )
                )
            )
        unsettled = False
        line = self.line
        for move, after, dealt_after, queue_after in children:
            line.append(move)
            outcome = self.first(after, dealt_after, queue_after, target)
            if outcome:
                return True
            line.pop()
            unsettled = unsettled or outcome is None
        if unsettled:
            return None
        self.failed[key] = floor
        return False

    # ---------------------------------------------------------------- the second wave

    def hopeless(self, squad: tuple[int, ...], dealt: int, queue: tuple[int, ...]) -> bool:
        """Whether some alien of this second wave can never be beaten, whatever is played.

        Nothing joins the squad in the second wave but the defender deck and aliens won by a
        single attack, each weaker than the soldier it replaced; so every soldier to come is
        in the squad, in the deck or in the queue, and a colour's strongest soldier ever is its
        strongest among the squad and the deck (black) or the aliens that colour could win.
        An alien no soldier of the other colour will ever outrank must be beaten by a dual
        of two of those soldiers, itself not among them."""
        deck = self.deck_values[dealt]
        best_red = 0
        best_black = self.deck_best[dealt]
        for k in squad:
            if k & 1:
                best_red = max(best_red, k >> 1)
            else:
                best_black = max(best_black, k >> 1)
        # An alien won becomes a soldier of its colour, below the soldier that won it; so a
        # colour's best grows only by aliens below the other colour's best: until it settles.
        while True:
            red_ever = max([best_red, *(k >> 1 for k in queue if k & 1 and k >> 1 < best_black)])
            black_ever = max(
                [best_black, *(k >> 1 for k in queue if not k & 1 and k >> 1 < red_ever)]
            )
            if (red_ever, black_ever) == (best_red, best_black):
                break
            best_red, best_black = red_ever, black_ever
        stuck = {k >> 1 for k in queue if k >> 1 >= (black_ever if k & 1 else red_ever)}
        if not stuck:
            return False
        counts = list(deck)
        for k in squad:
            counts[k >> 1] += 1
        for k in queue:
            if k >> 1 < (black_ever if k & 1 else red_ever):
                counts[k >> 1] += 1
        for value in stuck:
            if not any(
                counts[x] and counts[value - x] and (x != value - x or counts[x] > 1)
                for x in range(1, value // 2 + 1)
            ):
                return True
        return False

    def second(
        self, squad: tuple[int, ...], dealt: int, queue: tuple[int, ...], target: int
    ) -> bool:
        """The same for the second wave, whose cards are known by value and colour only."""
        if not queue:
            return len(squad) + len(self.deck) - dealt >= target
        if len(squad) + len(self.deck) - dealt < target or not squad:
            return False
        key = (squad, dealt, queue)
        if self.failed.get(key, 1 << 30) <= target:
            return False
        if self.hopeless(squad, dealt, queue):
            self.failed[key] = target
            return False
        self.allowance.tick()
        self.probe_left -= 1
        if self.probe_left < 0:
            raise _Capped
        attacker, rest = queue[0], queue[1:]
        value, red = attacker >> 1, attacker & 1
        line = self.line
        moves: list[tuple[Move, tuple[int, ...], tuple[int, ...]]] = []
        seen = set()
        for i, a in enumerate(squad):
            for b in squad[i + 1 :]:
                if (a >> 1) + (b >> 1) == value and (a, b) not in seen:
                    seen.add((a, b))
                    lost = [k for k in (a, b) if k & 1 == red]
                    after = list(squad)
                    for k in lost:
                        after.remove(k)
                    moves.append(((DUAL, (a, b)), tuple(after), rest))
        for k in sorted(set(squad)):
            if k >> 1 > value and k & 1 != red:
                after = list(squad)
                after.remove(k)
                moves.append(((SINGLE, (k,)), tuple(sorted((*after, attacker))), rest))
        for k in sorted(set(squad)):
            after = list(squad)
            after.remove(k)
            moves.append(((SACRIFICE, (k,)), tuple(after), (*rest, attacker)))
        if len(moves) > 1:
            view = self.ahead(rest, True)
            moves.sort(
                key=lambda m: (
                    -self.promise(
                        m[0][0],
                        [(k >> 1, bool(k & 1)) for k in m[1]],
                        view,
                        True,
                        len(squad) - len(m[1]) if m[0][0] == DUAL else 0,
                    )
                )
            )
        for move, left, queue_after in moves:
            squad_after, dealt_after = left, dealt
            if len(left) < SQUAD and dealt < len(self.deck):
                drawn = self.deck_kinds[dealt : dealt + SQUAD - len(left)]
                dealt_after = dealt + len(drawn)
                squad_after = tuple(sorted((*left, *drawn)))
            line.append(move)
            if self.second(squad_after, dealt_after, queue_after, target):
                return True
            line.pop()
        self.failed[key] = target
        return False

    def solve(self, state: Area52State, target: int) -> bool:
        """Whether the position wins with ``target`` soldiers left (``line``: how).

        In the first wave the search runs in passes. A pass gives each second wave it reaches
        a probe of positions and leaves it for later when the probe runs out; once more second
        waves than the pass allows are left, the search ends unsettled. Each pass doubles both
        the probe and the second waves it may leave, so the work goes to the few first-wave
        lines whose second waves are hard rather than to the thousands of lines a small probe
        would touch first (what was settled stays in the table).

        Each pass searches twice, with a budget each: first in the bot's order of moves, then
        only the lines that keep a floor of soldiers through the first wave (pass ``k`` allows
        ``2k + 2`` sacrifices). The first search dives along the bot's line and, when its
        second wave is lost, tries the lines next to it, which differ near the end of the first
        wave (often by sacrifices there, each a soldier fewer for a longer second wave); the
        second reaches lines that differ early on but keep their soldiers. Only the first
        search, which keeps no floor beyond ``target``, can prove a deal lost."""
        queue = (*state.attackers, *state.alien_deck)
        if state.wave == 2:
            self.line = []
            self.probe_left = self.probe = 1 << 62
            squad_kinds = tuple(sorted(_kind(c) for c in state.defenders))
            return self.second(squad_kinds, 0, tuple(_kind(c) for c in queue), target)
        squad = 0
        for card in state.defenders:
            squad |= 1 << card
        top = len(state.defenders) + len(self.deck)
        self.probe, self.unsettled = FIRST_PROBE, 1
        sacrifices = 2  # the first wave's, in the second search of this pass
        while True:
            kept = top - sacrifices
            for floor in (target, kept) if kept > target else (target,):
                self.floor, self.line = floor, []
                self.unsettled_left = self.unsettled - 1
                try:
                    outcome = self.first(squad, 0, queue, target)
                except _PassOver:
                    outcome = None
                if outcome:
                    return True
                if outcome is False and floor == target:
                    return False
            self.probe *= 2
            self.unsettled *= 2
            sacrifices += 2


def _replay(state: Area52State, line: list[Move]) -> tuple[list[str], Area52State]:
    """The real moves of a solved line (second-wave moves name kinds: any matching cards)."""
    state = state.clone()
    moves = []
    for kind, cards in line:
        wave2 = state.wave == 2
        for action in state.legal_actions():
            if action.kind != kind:
                continue
            if kind == DUAL and not wave2:
                break
            mine = tuple(sorted(_kind(c) for c in action.cards)) if wave2 else action.cards
            if mine == (tuple(sorted(cards)) if wave2 else tuple(Card(c) for c in cards)):
                break
        else:
            raise AssertionError(f"no real move matches {kind} {cards}")
        moves.append(action.text)
        state.apply(action)
    return moves, state


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of an Area 52 position; the score (soldiers left) is proved."""
    if not isinstance(state, Area52State):
        raise RulesError("this solver solves Area 52")
    allowance = Allowance(seconds, max_nodes)
    if state.is_over:
        return finished_bound(state)
    solver = Solver(state, allowance)
    return prove(
        allowance,
        lambda target: solver.solve(state, target),
        lambda: _replay(state, solver.line),
        optimise_score,
    )
