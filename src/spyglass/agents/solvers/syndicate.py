"""An exact solver for Syndicate: the fewest sacrifices that win a deal, or proof that none does.

Syndicate has no hidden information and no chance after the deal, and a card's suit never
matters: only its digit does (Ace 1, Ten 0). So a position is abstracted to, for each rank, the
multiset of its members' digits and of its candidates' digits, and the search runs on those:
memoised depth-first search (a transposition table on the abstract position) computing, for
every position, the fewest further sacrifices needed to win (infinity if none), with moves
that cannot beat the best line found so far cut off. The answer is then played back on the real
cards to give the move sequence, following the move the search recorded at each position of the
winning line (searching nothing again).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import combinations

from spyglass.components.cards import Card
from spyglass.engine import Action, RulesError, State
from spyglass.games.syndicate.rules import (
    FIRST_MEMBERS,
    MEMBER_LIMIT,
    OUT,
    RANKS,
    TO_CANDIDATE,
    TO_MEMBER,
    SyndicateState,
    value,
)

from .base import Allowance, Bound, OutOfTime

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 2

INFINITY = 1_000_000
# More than any line can sacrifice: each sacrifice removes one of the 52 cards for good.
MOST_SACRIFICES = 52

# An abstract position: for ranks 5..1, (member digits, candidate digits) as sorted tuples.
Rank = tuple[tuple[int, ...], tuple[int, ...]]
Position = tuple[Rank, ...]
# An abstract move: (rank index, member digit, replacement digit, destination, sacrificed digit).
Move = tuple[int, int, int, str, int | None]


def _fits(a: int, b: int) -> tuple[int, ...]:
    return tuple(sorted({(a + b) % 10, (a * b) % 10}))


FITS = {(a, b): _fits(a, b) for a in range(10) for b in range(10)}


def _without(items: tuple[int, ...], item: int) -> tuple[int, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _with(items: tuple[int, ...], item: int) -> tuple[int, ...]:
    return tuple(sorted((*items, item)))


def moves(position: Position, free: bool = False) -> list[tuple[Move, Position, int]]:
    """Every abstract promotion: (move, resulting position, sacrifices it costs); only those
    that cost none with ``free``. A promotion out of rank 1 results in None (the game is won).
    The lowest ranks come first: promoting out of rank 1 wins at once."""
    found: list[tuple[Move, Position, int]] = []
    for index in range(len(position) - 1, -1, -1):
        members, candidates = position[index]
        if len(members) != MEMBER_LIMIT or not candidates:
            continue
        for m in sorted(set(members)):
            a, b = _without(members, m)
            for d in FITS[(a, b)]:
                if d not in candidates:
                    continue
                kept = _with((a, b), d)
                left = _without(candidates, d)
                if index == len(position) - 1:  # rank 1: promoted out, the syndicate falls
                    # no position follows the fall: the entry's position is None here only
                    found.append(((index, m, d, OUT, None), None, 0))  # type: ignore[arg-type]
                    continue
                above_members, above_candidates = position[index + 1]
                base = list(position)
                base[index] = (kept, left)
                as_candidate = base.copy()
                as_candidate[index + 1] = (above_members, _with(above_candidates, m))
                found.append(((index, m, d, TO_CANDIDATE, None), tuple(as_candidate), 0))
                joined = _with(above_members, m)
                if len(joined) <= MEMBER_LIMIT:
                    as_member = base.copy()
                    as_member[index + 1] = (joined, above_candidates)
                    found.append(((index, m, d, TO_MEMBER, None), tuple(as_member), 0))
                elif not free:
                    for victim in sorted(set(joined)):
                        as_member = base.copy()
                        as_member[index + 1] = (_without(joined, victim), above_candidates)
                        found.append(((index, m, d, TO_MEMBER, victim), tuple(as_member), 1))
    return found


class _Capped(Exception):
    """A probe ran out of nodes."""


class Solver:
    """Iterative deepening on the number of sacrifices over abstract positions.

    ``within(position, budget)`` says whether the position can be won with at most ``budget``
    more sacrifices; ``best(position)`` is the smallest such budget (INFINITY if none). The
    transposition table remembers, for every position, the largest budget already proved too
    small, so each deepening step only revisits what it must. Pruning: free moves are tried
    first, moves costing more than the budget left are skipped, and the search stops at the
    first line that wins.

    Every success also records the move that achieved it (``won``, keyed by position and
    budget), so the winning line is read back from the search instead of searched for again:
    re-asking each real move in turn whether it keeps the value could spend far longer refuting
    a wrong first move than the whole solve took (deal 2 of the strength run: 0.07 s to solve,
    over 10 s to play back).
    """

    def __init__(self, allowance: Allowance | None = None) -> None:
        self.failed: dict[Position, int] = {}
        # (position, budget) -> (the successor that won within it, what that move cost); None
        # as successor: the promotion out of rank 1. Written only on the way back from a win,
        # so it holds a few entries per winning line, never the whole search.
        self.won: dict[tuple[Position, int], tuple[Position | None, int]] = {}
        self.nodes = 0
        self.cap: int | None = None  # stop (raise _Capped) after this many nodes
        self.allowance = allowance  # the whole solve's allowance (OutOfTime past it)

    def within(self, position: Position, budget: int) -> bool:
        if budget <= self.failed.get(position, -1):
            return False
        self.nodes += 1
        if self.cap is not None and self.nodes > self.cap:
            raise _Capped  # only finished subtrees were written to the table: it stays exact
        if self.allowance is not None:
            self.allowance.tick()
        for _, after, cost in sorted(moves(position, free=budget == 0), key=lambda m: m[2]):
            if cost > budget:
                break
            if after is None or self.within(after, budget - cost):
                self.won[position, budget] = (after, cost)
                return True
        self.failed[position] = budget
        return False

    def best(self, position: Position) -> int:
        if not self.within(position, MOST_SACRIFICES):
            return INFINITY
        budget = 0
        while not self.within(position, budget):
            budget += 1
        return budget


def abstract(state: SyndicateState) -> Position:
    return tuple(
        (
            tuple(sorted(value(c) for c in state.members[rank])),
            tuple(sorted(value(c) for c in state.candidates[rank])),
        )
        for rank in RANKS
    )


@dataclass(frozen=True, slots=True)
class Solution:
    """The outcome of solving a deal: the fewest sacrifices (None: it cannot be won), the moves
    that achieve it on the real cards, and how many positions the search expanded."""

    sacrifices: int | None
    moves: tuple[str, ...]
    nodes: int

    @property
    def winnable(self) -> bool:
        return self.sacrifices is not None


def solve(state: State, allowance: Allowance | None = None) -> Solution:
    """Solve from this position (including the choice of first members, if still open).
    With an ``allowance``, raise OutOfTime when it runs out."""
    if not isinstance(state, SyndicateState):
        raise RulesError("the Syndicate solver solves Syndicate positions")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        solver = Solver(allowance)
        picks: list[Action] = []
        work = state.clone()
        if work.choosing:
            choice = _best_first_members(work, solver)
            if choice is None:
                return Solution(None, (), solver.nodes)
            for card in choice:
                action = next(a for a in work.legal_actions() if a.cards[0] == card)
                picks.append(action)
                work.apply(action)
        if work.is_over:
            sacrifices = len(work.sacrificed) if work.won else None
            return Solution(sacrifices, tuple(str(a) for a in picks), solver.nodes)
        value_now = solver.best(abstract(work))
        if value_now >= INFINITY:
            return Solution(None, (), solver.nodes)
        done = len(work.sacrificed)
        line = [*picks, *_play_back(work, solver, value_now)]
        return Solution(done + value_now, tuple(str(a) for a in line), solver.nodes)
    finally:
        sys.setrecursionlimit(limit)


def _best_first_members(state: SyndicateState, solver: Solver) -> tuple[Card, ...] | None:
    """The three left-over cards (still to choose) whose position is won with fewest
    sacrifices, or None if no choice wins."""
    chosen = tuple(state.members[5])
    need = FIRST_MEMBERS - len(chosen)
    options: dict[Position, tuple[Card, ...]] = {}
    for extra in combinations(state.leftover, need):
        trial = state.clone()
        for card in extra:
            trial.apply(next(a for a in trial.legal_actions() if a.cards[0] == card))
        options.setdefault(abstract(trial), extra)
    # Most deals have a choice that needs no sacrifice, but one choice can take long to refute:
    # probe every choice with a growing node allowance before searching any to the end.
    open_choices = list(options)
    allowance = 256
    while open_choices:
        still_open = []
        for position in open_choices:
            solver.cap = solver.nodes + allowance
            try:
                if solver.within(position, 0):
                    return options[position]
            except _Capped:
                still_open.append(position)
            finally:
                solver.cap = None
        open_choices = still_open
        allowance *= 4
    winnable = [p for p in options if solver.within(p, MOST_SACRIFICES)]
    budget = 1
    while winnable:
        for position in winnable:
            if solver.within(position, budget):
                return options[position]
        budget += 1
    return None


def _play_back(state: SyndicateState, solver: Solver, target: int) -> list[Action]:
    """Real moves realising the optimal value: at each step the real move whose abstract
    successor is the one the search recorded for this position and the sacrifices left."""
    line: list[Action] = []
    remaining = target
    position = abstract(state)
    while not state.is_over:
        # Every recorded win's successor has its own record (a True is never cached, so each
        # one was computed and written); asking again is only a guard.
        if (position, remaining) not in solver.won and not solver.within(position, remaining):
            raise AssertionError("the solved value does not hold")
        after, cost = solver.won[position, remaining]
        for action in state.legal_actions():
            if (1 if len(action.cards) == 3 else 0) != cost:
                continue
            if action.target == OUT:
                if after is None:
                    break
                continue
            if after is None:
                continue
            trial = state.clone()
            trial.apply(action)
            if abstract(trial) == after:
                break
        else:
            raise AssertionError("no real move matches the solved one")
        line.append(action)
        state.apply(action)
        remaining -= cost
        position = after  # type: ignore[assignment]  # None only once the game is won
    return line


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The exact solution as a :class:`Bound` (the solver always proves its score: the fewest
    sacrifices; ``optimise_score`` changes nothing)."""
    if not isinstance(state, SyndicateState):
        raise RulesError("the Syndicate solver solves Syndicate positions")
    allowance = Allowance(seconds, max_nodes)
    try:
        solution = solve(state, allowance)
    except OutOfTime:
        return Bound(None, None, False, (), allowance.nodes, allowance.spent)
    if solution.sacrifices is None:  # cannot be won
        return Bound(False, None, True, (), allowance.nodes, allowance.spent)
    return Bound(
        True,
        float(solution.sacrifices),
        True,
        solution.moves,
        allowance.nodes,
        allowance.spent,
    )
