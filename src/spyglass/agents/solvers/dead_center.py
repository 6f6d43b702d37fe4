"""Dead Center with every card known: can the twelve zombies be killed, and how early?

What a clairvoyant player decides, and what it does not need to:

- **Reveals decide nothing.** A zombie can be killed only once face up, but one is turned up
  every turn until all are, and at most one dies per turn: by the turn of the k-th kill, k or
  more zombies are up, so a player who knows where every zombie lies can always have turned up
  the ones it is about to kill. The search treats every zombie as face up, and the line it
  gives turns each one up in time. Asked in the middle of a turn (its reveal made, its card
  drawn), it lets this turn's play kill only a zombie already up; every later kill is again
  in time, since each later turn reveals one more.
- **A kill is never worse than a pass**: a position with fewer zombies alive and the same cabin
  is at least as good (any plan for the larger set kills the extra zombie at some turn; there,
  pass instead). So a play that can kill always kills, and only the choice between two
  zombies (a corner pile) branches.

**Positions.** What of a position can still matter is, per pile, the cards still to come that
fit on its top and, for the living zombies it supports, which of their demands the top meets
and its value; a pile that no living zombie uses counts only by what fits on it, and such
piles are interchangeable. Positions with the same of all that, the same zombies alive and the
same number of cards drawn have the same future, so they share one entry of the table of
failures (the key depends neither on the order of play nor on cards that can no longer count).

**Proofs of defeat** bound the turn of the last kill from below; a position whose last kill
cannot come before the deck runs out (or before the target score) is lost. Each relaxation
lets the cards a part of the cabin is not given go "elsewhere", so each can only be more
hopeful than the game:

1. *Reachable tops.* A pile's possible tops before each turn are its present top and every
   drawn card that fits one of them. A zombie can die no earlier than the first turn its two
   supports can both hold cards meeting its demand (two distinct cards, ten or more), and
   then only on a turn whose card fits a possible top of its front pile.
2. *Lines, played exactly.* The two zombies facing each other across the cabin (B1 and B5,
   A2 and E2, ...) share their line's three piles: each one's front is the other's far support
   and the middle pile supports both. On those three piles alone the game is small: the set of
   possible top triples is followed card by card (each card on one of the three where it fits,
   or elsewhere), which gives the first turn each zombie of the line can die and the first
   turn both can be dead. This sees what (1) cannot: one card cannot serve two piles, a kill
   replaces a support of the other zombie, a front must still take a card when the supports
   are ready. Each top in a triple stands for every card that would behave the same on its
   pile from then on (the same cards to come fit on it, the same demands met, the same
   value), which keeps the triples few. It is run when at most ``LINE_WINDOW`` cards are left
   (earlier it costs more than it saves) and given up, for (1) alone, past ``LINE_STATES``
   triples.
3. *One kill a turn, and idle cards.* The kills fill distinct turns no earlier than those
   bounds (for a line, the later of its two kills no earlier than its both-dead turn); the
   greedy assignment in order of release gives the earliest possible last kill. A pile that
   must take a new card before some zombie can die (its top can never be one of that zombie's
   pair) and fronts no living zombie takes a turn that kills nothing, one per such pile.

A child whose next card fits no pile is lost too (unless its kill was the last).

**Finding wins.** Most deals are won, and a depth-first search that takes a wrong turn early
can spend its whole allowance proving one hopeless subtree lost. Children are ordered by their
bound (the least constrained first), with kills, zombies left ready and the sum of the kills'
earliest turns to break ties, under four orderings that weigh those differently. The search
runs each ordering in turn within a number of positions, doubled every round until one
finishes; positions proved lost are kept across the runs (a failure is a proof whatever the
order), so a run that finishes has an exact answer and the restarts cost little.

The score of a win is the cards left in the deck: the search answers "can every zombie die
with at least ``target`` cards left?", with a table of the targets each position failed, and the
best score is found by raising the target.
"""

from __future__ import annotations

from spyglass.components.cards import PER_DECK
from spyglass.engine import RulesError, State
from spyglass.games.dead_center.cabin import (
    DEMAND,
    FITS,
    FRONT,
    KILL_SUM,
    PILE_LABELS,
    SPACE_LABELS,
    SUPPORTS,
    VALUE,
    ZOMBIES_NEXT_TO,
)
from spyglass.games.dead_center.rules import KILL, PLAY, REVEAL, DeadCenterState

from .base import Allowance, Bound, finished_bound, prove

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 4

Move = tuple[int, int]  # (pile played on, zombie space killed or -1)

#: The lines are played exactly (relaxation 2) once this many cards or fewer are left, and
#: given up when their possible top triples outnumber LINE_STATES.
LINE_WINDOW = 18
LINE_STATES = 4000
#: The first run's allowance of positions under each ordering (doubled every round).
FIRST_RUN = 1000

#: FIT_MASK[top]: the cards (a bitmask over codes) that may be played on ``top``;
#: ACCEPTED_BY[card]: the tops (a bitmask over codes) that ``card`` may be played on.
FIT_MASK = tuple(
    sum(1 << card for card in range(PER_DECK) if FITS[top * PER_DECK + card])
    for top in range(PER_DECK)
)
ACCEPTED_BY = tuple(
    sum(1 << top for top in range(PER_DECK) if FITS[top * PER_DECK + card])
    for card in range(PER_DECK)
)
#: SUPPORTED_BY[pile] / FRONTED_BY[pile]: the zombie spaces (a bitmask) that use the pile as a
#: support / as their front.
SUPPORTED_BY = tuple(sum(1 << j for j in range(12) if pile in SUPPORTS[j]) for pile in range(9))
FRONTED_BY = tuple(sum(1 << j for j in ZOMBIES_NEXT_TO[pile]) for pile in range(9))
#: IDLE_PILES[alive]: the piles (a bitmask) that front no living zombie: a card played there
#: never kills.
IDLE_PILES = tuple(
    sum(1 << pile for pile in range(9) if not FRONTED_BY[pile] & alive) for alive in range(4096)
)
#: OPPOSITE[space]: the zombie space facing it across the cabin on the same line (its supports
#: are the middle pile and this space's front); LINE_HEADS: one space of each line.
OPPOSITE = tuple(
    next(i for i in range(12) if SUPPORTS[i] == (SUPPORTS[j][0], FRONT[j])) for j in range(12)
)
LINE_HEADS = tuple(j for j in range(12) if j < OPPOSITE[j])

#: The orderings of children, each a key over (bound, passes, -ready, spread): the bound on the
#: last kill's turn, whether the play kills nothing, how many zombies it leaves ready to die
#: (negated) and the sum of the kills' earliest turns.
ORDERINGS = (
    lambda c: (c[0], c[1], c[2], c[3]),
    lambda c: (c[1], c[0], c[2], c[3]),
    lambda c: (c[1], c[3], c[0], c[2]),
    lambda c: (c[3], c[0], c[1], c[2]),
)


class _Spent(Exception):
    """A run of the search used up its allowance of positions (the next ordering follows)."""


class Solver:
    """The search of one deal (every card known), with its tables, bounds and failures."""

    def __init__(self, state: DeadCenterState, allowance: Allowance) -> None:
        self.allowance = allowance
        deck = [card % PER_DECK for card in reversed(state.deck)]  # top first
        # Mid-turn (this turn's zombie revealed, its card drawn), the play can kill only a
        # zombie already face up: ``hidden_now`` is the set that cannot die on the first card.
        self.hidden_now = 0
        if state.drawn is not None and state.phase == PLAY:
            deck.insert(0, state.drawn % PER_DECK)
            self.hidden_now = state.face_down
        self.deck = deck
        self.ring = state.ring
        n = self.n = len(deck)
        # remaining[drawn]: the cards (a bitmask) still to come once ``drawn`` are drawn.
        self.remaining = [0] * (n + 1)
        for turn in range(n - 1, -1, -1):
            self.remaining[turn] = self.remaining[turn + 1] | 1 << deck[turn]
        # Per zombie space: which cards meet its demand as a support (a row of DEMAND and a
        # bitmask); per card, the spaces whose demand it meets; per space, which pairs of
        # support cards kill (pairs_killing[space][first << 6 | second]).
        demand = [DEMAND[zombie % PER_DECK] for zombie in self.ring]
        self.demand = demand
        self.meets = [0] * 12
        self.support_ok = [0] * PER_DECK
        for space in range(12):
            for card in range(PER_DECK):
                if demand[space][card]:
                    self.meets[space] |= 1 << card
                    self.support_ok[card] |= 1 << space
        self.pairs_killing = [
            bytes(
                first < PER_DECK
                and second < PER_DECK
                and demand[space][first]
                and demand[space][second]
                and VALUE[first] + VALUE[second] >= KILL_SUM
                for first in range(64)
                for second in range(64)
            )
            for space in range(12)
        ]
        self._reach: dict[int, list[int]] = {}
        self._ready: dict[int, tuple[int, int]] = {}
        self._front: dict[int, int] = {}
        self._lines: dict[int, tuple[int, ...]] = {}
        self._alikes: dict[int, list[tuple[bytes, bytes, bytes]]] = {}
        self.failed: dict[tuple[int, ...], int] = {}
        self.line: list[Move] = []
        self.ordering = ORDERINGS[0]
        self.budget: int | None = None  # positions left to the present run (None: no cap)
        self.spread = 0  # set by last_kill: the sum of the kills' earliest turns

    # ------------------------------------------------------------ relaxation 1

    def reach(self, top: int, drawn: int) -> list[int]:
        """The cards (a bitmask) that can be a pile's top before each turn (entry ``turn -
        drawn``; the last entry once the deck is out), from ``top`` once ``drawn`` cards are
        drawn: a drawn card can be on top if it fits one that could be."""
        key = top << 6 | drawn
        found = self._reach.get(key)
        if found is None:
            found = []
            tops = 1 << top
            for card in self.deck[drawn:]:
                found.append(tops)
                if tops & ACCEPTED_BY[card]:
                    tops |= 1 << card
            found.append(tops)
            self._reach[key] = found
        return found

    def ready(self, space: int, first: int, second: int, drawn: int) -> tuple[int, int]:
        """The first turn (``n``: none) at which the supports of ``space``, topped by
        ``first`` and ``second`` once ``drawn`` cards are drawn, could hold two distinct cards
        meeting its demand and summing to ten or more (each pile's tops from :meth:`reach`);
        and the support piles (a bitmask) whose present top can never be one of such a pair,
        so that a card must be played there before the kill."""
        key = ((space * PER_DECK + first) * PER_DECK + second) << 6 | drawn
        found = self._ready.get(key)
        if found is not None:
            return found
        n = self.n
        meets = self.meets[space]
        reach_a, reach_b = self.reach(first, drawn), self.reach(second, drawn)
        # The best two (value, card) meeting the demand that each pile can hold, by value.
        sides: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        if meets >> first & 1:
            sides[0].append((VALUE[first], first))
        if meets >> second & 1:
            sides[1].append((VALUE[second], second))
        earliest = n
        for turn in range(drawn, n):
            if earliest == n and _pair(*sides):
                earliest = turn
            card = self.deck[turn]
            if meets >> card & 1:
                bit = 1 << card
                for side, reached in zip(sides, (reach_a, reach_b), strict=True):
                    if reached[turn + 1 - drawn] & bit:
                        side.append((VALUE[card], card))
                        side.sort(reverse=True)
                        del side[2:]
        # The bests here count the last card too (it could only be a kill's own card, never a
        # support): that can only call a top usable more often, which is the safe side.
        a, b = SUPPORTS[space]
        best_a = sides[0][0][0] if sides[0] else -1
        best_b = sides[1][0][0] if sides[1] else -1
        stuck = 0
        if not (meets >> first & 1 and best_b >= 0 and VALUE[first] + best_b >= KILL_SUM):
            stuck |= 1 << a
        if not (meets >> second & 1 and best_a >= 0 and VALUE[second] + best_a >= KILL_SUM):
            stuck |= 1 << b
        found = self._ready[key] = (earliest, stuck)
        return found

    def front_turns(self, top: int, drawn: int) -> int:
        """The turns (a bitmask) whose card could be played on a pile topped by ``top`` once
        ``drawn`` cards are drawn (on a top that :meth:`reach` allows then)."""
        key = top << 6 | drawn
        found = self._front.get(key)
        if found is None:
            reached = self.reach(top, drawn)
            found = 0
            for turn in range(drawn, self.n):
                if reached[turn - drawn] & ACCEPTED_BY[self.deck[turn]]:
                    found |= 1 << turn
            self._front[key] = found
        return found

    # ------------------------------------------------------------ relaxation 2

    def line_turns(
        self, space: int, tops: tuple[int, ...], drawn: int, alive: int
    ) -> tuple[int, ...]:
        """The line of ``space`` (its zombie and the one facing it, those of them in
        ``alive``) played alone: its three piles exactly, every other card elsewhere. Returns
        the first turn ``space``'s zombie could die, the first turn the other's could, and the
        turn by which both could be dead (``n``: never); or () when the possible top triples
        grow past LINE_STATES."""
        other = OPPOSITE[space]
        front, middle, far = FRONT[space], SUPPORTS[space][0], FRONT[other]
        which = (alive >> space & 1) | (alive >> other & 1) << 1
        # Each top is replaced by the first card that behaves the same (see _alike).
        same_x, same_y, same_z = self._alike(space, drawn)[which]
        first, second, third = same_x[tops[front]], same_y[tops[middle]], same_z[tops[far]]
        key = ((((space * 4 + which) * 64 + first) * 64 + second) * 64 + third) << 6 | drawn
        found = self._lines.get(key)
        if found is not None:
            return found
        n = self.n
        kills_a, kills_b = self.pairs_killing[space], self.pairs_killing[other]
        # A state packs the three tops (6 bits each: front, middle, far) and the line's
        # zombies still alive (bit 18: this space's, bit 19: the other's).
        states = {first | second << 6 | third << 12 | which << 18}
        dies_a = dies_b = n
        found = ()
        deck = self.deck
        for turn in range(drawn, n):
            card = deck[turn]
            accepts = ACCEPTED_BY[card]
            grown = set(states)  # the card may go elsewhere
            add = grown.add
            cleared = False
            for state in states:
                x, y, z = state & 63, state >> 6 & 63, state >> 12 & 63
                if accepts >> x & 1:  # on this space's front: kills it if its supports do
                    if state >> 18 & 1 and kills_a[y << 6 | z]:
                        left = state >> 19 & 1
                        dies_a = min(dies_a, turn)
                        cleared = cleared or not left
                        add(card | (state & 0x3FFC0) | left << 19)
                    else:
                        add(card | (state & ~0x3F))
                if accepts >> z & 1:  # on the other's front
                    if state >> 19 & 1 and kills_b[y << 6 | x]:
                        left = state >> 18 & 1
                        dies_b = min(dies_b, turn)
                        cleared = cleared or not left
                        add(card << 12 | (state & 0xFFF) | left << 18)
                    else:
                        add(card << 12 | (state & ~0x3F000))
                if accepts >> y & 1:  # on the middle pile
                    add(card << 6 | (state & ~0xFC0))
            if cleared:
                found = (dies_a, dies_b, turn)
                break
            alike = self._alike(space, turn + 1)
            states = set()
            add = states.add
            for state in grown:
                same_x, same_y, same_z = alike[state >> 18]
                add(
                    same_x[state & 63]
                    | same_y[state >> 6 & 63] << 6
                    | same_z[state >> 12 & 63] << 12
                    | state & 0xC0000
                )
            if len(states) > LINE_STATES:
                break
        else:
            found = (dies_a, dies_b, n)
        self._lines[key] = found
        return found

    def _alike(self, space: int, drawn: int) -> list[tuple[bytes, bytes, bytes]]:
        """For the line of ``space`` once ``drawn`` cards are drawn, per set of its zombies
        alive (bit 0: this space's, bit 1: the other's), per pile (front, middle, far): each
        card mapped to the first card that behaves the same on that pile from then on (the
        same cards to come fit on it; as a support of a living zombie of the line, the same
        demands met and, if any, the same value)."""
        key = space << 6 | drawn
        found = self._alikes.get(key)
        if found is not None:
            return found
        remaining = self.remaining[drawn]
        mine, theirs = self.meets[space], self.meets[OPPOSITE[space]]
        found = []
        for which in range(4):
            a = mine if which & 1 else 0
            b = theirs if which & 2 else 0
            piles = []
            for demands in (b, a | b << PER_DECK, a):  # front, middle, far
                first: dict[tuple[int, int, int], int] = {}
                table = bytearray(64)
                for card in range(PER_DECK):
                    meets = (demands >> card) & 1 | (demands >> (PER_DECK + card) & 1) << 1
                    shape = (FIT_MASK[card] & remaining, meets, VALUE[card] if meets else 0)
                    table[card] = first.setdefault(shape, card)
                piles.append(bytes(table))
            found.append((piles[0], piles[1], piles[2]))
        self._alikes[key] = found
        return found

    # ------------------------------------------------------------ the bound

    def last_kill(self, tops: tuple[int, ...], drawn: int, alive: int) -> int:
        """A lower bound on the turn of the last kill (``n`` or more: impossible). Also sets
        ``spread``, the sum of the kills' earliest turns and of the idle turns (for ordering)."""
        n = self.n
        cheap = [0] * 12
        stuck = 0
        for space in range(12):
            if alive >> space & 1:
                a, b = SUPPORTS[space]
                earliest, need = self.ready(space, tops[a], tops[b], drawn)
                if earliest >= n:
                    return n
                later = self.front_turns(tops[FRONT[space]], drawn) >> earliest
                if not later:
                    return n
                cheap[space] = earliest + (later & -later).bit_length() - 1
                stuck |= need
        exact = n - drawn <= LINE_WINDOW
        turns = []
        for space in LINE_HEADS:
            other = OPPOSITE[space]
            here, there = alive >> space & 1, alive >> other & 1
            if not (here or there):
                continue
            found = self.line_turns(space, tops, drawn, alive) if exact else ()
            if here and there:
                one, two = cheap[space], cheap[other]
                if found:
                    one, two = max(one, found[0]), max(two, found[1])
                    # Whichever dies second dies no earlier than the both-dead turn.
                    one, two = min(one, two), max(one, two, found[2])
                turns.append(one)
                turns.append(two)
            else:
                earliest = cheap[space if here else other]
                turns.append(max(earliest, found[2]) if found else earliest)
        turns.sort()
        if turns[-1] >= n:
            return n
        slot = drawn - 1
        for turn in turns:
            slot = turn if turn > slot else slot + 1
        # Cards that must go on piles where no kill can be made take turns of their own.
        idle = (stuck & IDLE_PILES[alive]).bit_count()
        self.spread = sum(turns) + idle
        return max(slot, drawn + len(turns) + idle - 1)

    # ------------------------------------------------------------ the search

    def key(self, tops: tuple[int, ...], drawn: int, alive: int) -> tuple[int, ...]:
        """What of a position can matter (see the module's docstring): per pile, the cards to
        come that fit on its top and, if it supports a living zombie, which of them its top
        meets the demand of and its value; the piles no living zombie uses, sorted."""
        remaining = self.remaining[drawn]
        support_ok = self.support_ok
        key = [alive, drawn]
        unused = []
        for pile in range(9):
            top = tops[pile]
            fit = FIT_MASK[top] & remaining
            supported = SUPPORTED_BY[pile] & alive
            if supported:
                meets = support_ok[top] & supported
                key.append((fit << 12 | meets) << 4 | (VALUE[top] if meets else 0))
            elif FRONTED_BY[pile] & alive:
                key.append(fit)
            else:
                unused.append(fit)
        unused.sort()
        key.extend(unused)
        return tuple(key)

    def kills(self, space: int, tops: tuple[int, ...]) -> bool:
        a, b = SUPPORTS[space]
        return bool(self.pairs_killing[space][tops[a] << 6 | tops[b]])

    def can(self, tops: tuple[int, ...], drawn: int, alive: int, target: int) -> bool:
        """Whether every zombie can die from here with at least ``target`` cards left (the
        line found is left in ``line``)."""
        n = self.n
        if not alive:
            return n - drawn >= target
        key = self.key(tops, drawn, alive)
        if self.failed.get(key, 1 << 30) <= target:
            return False
        self.allowance.tick()
        if self.budget is not None:
            self.budget -= 1
            if self.budget < 0:
                raise _Spent
        # the score is the cards left after the last kill's turn
        last = self.last_kill(tops, drawn, alive)
        if last + 1 > n - target:
            self.failed[key] = max(0, n - last)
            return False
        card = self.deck[drawn]
        following = self.deck[drawn + 1] if drawn + 1 < n else -1
        children = []
        for pile in range(9):
            if not FITS[tops[pile] * PER_DECK + card]:
                continue
            after = (*tops[:pile], card, *tops[pile + 1 :])
            living = alive & ~self.hidden_now if drawn == 0 else alive
            victims = [j for j in ZOMBIES_NEXT_TO[pile] if living >> j & 1 and self.kills(j, after)]
            for victim in victims or [-1]:
                rest = alive & ~(1 << victim) if victim >= 0 else alive
                if not rest:
                    self.line.append((pile, victim))
                    if n - drawn - 1 >= target:
                        return True
                    self.line.pop()
                    continue
                # A child whose next card fits no pile is lost (unless this kill was the
                # last), and so is one whose bound cuts it.
                if following < 0 or not any(FITS[top * PER_DECK + following] for top in after):
                    continue
                bound = self.last_kill(after, drawn + 1, rest)
                if bound + 1 > n - target:
                    continue
                ready = sum(1 for j in range(12) if rest >> j & 1 and self.kills(j, after))
                children.append((bound, victim < 0, -ready, self.spread, pile, victim, after, rest))
        children.sort(key=self.ordering)
        for *_, pile, victim, after, rest in children:
            self.line.append((pile, victim))
            if self.can(after, drawn + 1, rest, target):
                return True
            self.line.pop()
        self.failed[key] = target
        return False

    def solve(self, state: DeadCenterState, target: int) -> bool:
        """Whether ``state`` can be won with at least ``target`` cards left (its line then in
        ``line``): runs under each ordering in turn, the allowance of positions doubled each
        round, until one finishes (the CPU allowance may run out first: OutOfTime)."""
        tops = tuple(top % PER_DECK for top in state.tops())
        nodes = FIRST_RUN
        try:
            while True:
                for ordering in ORDERINGS:
                    self.ordering = ordering
                    self.budget = nodes
                    self.line = []
                    try:
                        return self.can(tops, 0, state.alive, target)
                    except _Spent:
                        pass
                nodes *= 2
        finally:
            self.budget = None


def _pair(first: list[tuple[int, int]], second: list[tuple[int, int]]) -> bool:
    """Whether two distinct cards, one from each list (a pile's best two by value), sum to ten
    or more."""
    if not first or not second:
        return False
    (v1, c1), (w1, d1) = first[0], second[0]
    if c1 != d1:
        return v1 + w1 >= KILL_SUM
    return (len(first) > 1 and first[1][0] + w1 >= KILL_SUM) or (
        len(second) > 1 and v1 + second[1][0] >= KILL_SUM
    )


def _replay(state: DeadCenterState, line: list[Move]) -> tuple[list[str], DeadCenterState]:
    """The real moves of a solved line: each reveal turns up the next zombie the line kills
    (or any, when every one it will kill is up), then the play and the kill."""
    state = state.clone()
    moves: list[str] = []
    order = [victim for _, victim in line if victim >= 0]

    def say(text: str) -> None:
        moves.append(text)
        state.apply(text)

    for pile, victim in line:
        if state.phase == KILL:
            say("pass")
        if state.phase == REVEAL:
            wanted = next((j for j in order if state.face_down >> j & 1), None)
            if wanted is None:
                wanted = next(j for j in range(12) if state.face_down >> j & 1)
            say(f"reveal {SPACE_LABELS[wanted]}")
        say(f"{PILE_LABELS[pile]}")
        if victim >= 0:
            say(f"kill {SPACE_LABELS[victim]}")
            order.remove(victim)
    return moves, state


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of a Dead Center position; the best score is proved."""
    if not isinstance(state, DeadCenterState):
        raise RulesError("this solver solves Dead Center")
    allowance = Allowance(seconds, max_nodes)
    if state.is_over:
        return finished_bound(state)
    if state.phase == KILL:
        # Mid-turn: settle the kill on the real state, each choice solved from there.
        return _best_of_kills(state, seconds, optimise_score, max_nodes)
    solver = Solver(state, allowance)
    return prove(
        allowance,
        lambda target: solver.solve(state, target),
        lambda: _replay(state, solver.line),
        optimise_score,
    )


def _best_of_kills(
    state: DeadCenterState, seconds: float, optimise_score: bool, max_nodes: int | None
) -> Bound:
    """A position waiting for its kill decision: the best bound over the choices."""
    best: Bound | None = None
    spent, nodes, unknown = 0.0, 0, False
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        found = bound(child, seconds, optimise_score, max_nodes)
        spent += found.seconds
        nodes += found.nodes
        if found.won is None:
            unknown = True
        elif found.won and (best is None or (found.score or 0) > (best.score or 0)):
            best = Bound(
                True,
                found.score,
                found.score_exact,
                (action.text, *found.moves),
                0,
                0.0,
            )
    if best is not None:
        exact = best.score_exact and not unknown
        return Bound(True, best.score, exact, best.moves, nodes, spent)
    if unknown:
        return Bound(None, None, False, (), nodes, spent)
    return Bound(False, None, True, (), nodes, spent)
