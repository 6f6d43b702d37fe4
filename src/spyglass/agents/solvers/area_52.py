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

from spyglass.components.cards import Card
from spyglass.engine import RulesError, State
from spyglass.games.area_52 import bot
from spyglass.games.area_52.rules import RED, SQUAD, VALUE, Area52State

from .base import Allowance, Bound, finished_bound, prove

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 1

DUAL, SINGLE, SACRIFICE = "dual", "single", "sacrifice"

Move = tuple[str, tuple[int, ...]]  # kind and cards (wave 1: card codes; wave 2: kinds)


def _kind(card: int) -> int:
    """A card's value and colour as one number (what the second wave can tell apart)."""
    return VALUE[card] * 2 + RED[card]


class _Capped(Exception):
    """A second wave ran out of its probe."""


class Solver:
    def __init__(self, state: Area52State, allowance: Allowance) -> None:
        self.allowance = allowance
        self.deck = list(state.defender_deck)  # top first: the refill order
        self.deck_kinds = [_kind(c) for c in self.deck]
        self.rng_state = state.rng.clone()  # the generator that will shuffle the second wave
        self.failed: dict[tuple, int] = {}  # position -> the lowest target it failed
        self.line: list[Move] = []
        self.probe = 1 << 62  # positions a second wave may search before it is left for later
        self.probe_left = self.probe

    def promise(
        self,
        kind: str,
        after: int | tuple[int, ...],
        rest: tuple[int, ...],
        second: bool,
        size: int = 0,
    ) -> float:
        """How good the game's bot would think a move (the order moves are tried in: most wins
        are found on the bot's own line or near it). ``after`` is the squad the move leaves
        (first wave: a bitmask of cards; second: kinds) and ``rest`` the aliens after this one."""
        if second:
            # second wave: ``after`` is a tuple of kinds (the first wave's is a bitmask)
            squad = [(k >> 1, bool(k & 1)) for k in after]  # type: ignore[union-attr]
            cost = bot.LOSS * (size - len(squad)) if kind == DUAL else 0.0
            upcoming = [(k >> 1, bool(k & 1)) for k in rest[:2]]
            profile = [0] * 28
            for k in rest[2:]:
                profile[k] += 1
        else:
            # first wave: ``after`` is a bitmask of cards, ``rest`` holds cards
            squad = [(VALUE[c], RED[c]) for c in range(52) if after >> c & 1]  # type: ignore[operator]
            cost = 0.0
            upcoming = [(VALUE[c], RED[c]) for c in rest[:2]]
            profile = bot.deck_profile(rest[2:])  # type: ignore[arg-type]  # cards, as ints
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
        """Whether this first-wave position wins with at least ``target`` soldiers left; None
        when a second wave below it was not settled within the current probe."""
        size = squad.bit_count()
        if size + len(self.deck) - dealt < target:
            return False
        if not queue:
            if not squad:
                return False
            kinds = tuple(sorted(_kind(c) for c in range(52) if squad >> c & 1))
            self.probe_left = self.probe
            mark = len(self.line)
            try:
                return self.second(kinds, dealt, self.second_wave(squad, dealt), target)
            except _Capped:
                del self.line[mark:]
                return None
        key = (squad, dealt, queue)
        if self.failed.get(key, 1 << 30) <= target:
            return False
        self.allowance.tick()
        attacker, rest = queue[0], queue[1:]
        value, red = VALUE[attacker], RED[attacker]
        cards = [c for c in range(52) if squad >> c & 1]
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
        for card in sorted(cards, key=lambda c: VALUE[c]):
            after, size_after, dealt_after = self.refill(squad & ~(1 << card), size - 1, dealt)
            if size_after:
                children.append(((SACRIFICE, (card,)), after, dealt_after, (*rest, attacker)))
        if len(children) > 1:
            children.sort(key=lambda c: -self.promise(c[0][0], c[1], rest, False))
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
        self.failed[key] = target
        return False

    # ---------------------------------------------------------------- the second wave

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
            moves.sort(key=lambda m: -self.promise(m[0][0], m[1], rest, True, len(squad)))
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
        """Whether the position wins with ``target`` soldiers left (``line``: how). In the
        first wave, each second wave gets a probe of positions and is left for later when the
        probe runs out, so one hard second wave does not hold up the others; the probe grows
        fourfold each pass (what was settled stays in the table)."""
        queue = (*state.attackers, *state.alien_deck)
        if state.wave == 2:
            self.line = []
            self.probe_left = self.probe = 1 << 62
            squad_kinds = tuple(sorted(_kind(c) for c in state.defenders))
            return self.second(squad_kinds, 0, tuple(_kind(c) for c in queue), target)
        squad = 0
        for card in state.defenders:
            squad |= 1 << card
        self.probe = 256
        while True:
            self.line = []
            outcome = self.first(squad, 0, queue, target)
            if outcome is not None:
                return outcome
            self.probe *= 4


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
