"""Dead Center with every card known: can the twelve zombies be killed, and how early?

What a clairvoyant player decides, and what it does not need to:

- **Reveals decide nothing.** A zombie can be killed only once face up, but one is turned up
  every turn until all are, and at most one dies per turn: by the turn of the k-th kill, k or
  more zombies are up, so a player who knows where every zombie lies can always have turned up
  the ones it is about to kill. The search treats every zombie as face up, and the line it
  gives turns each one up in time.
- **A kill is never worse than a pass**: a position with fewer zombies alive and the same cabin
  is at least as good (any plan for the larger set kills the extra zombie at some turn; there,
  pass instead). So a play that can kill always kills, and only the choice between two
  zombies (a corner pile) branches.

A position is then the nine top cards (nothing under a top ever matters again), how many cards
have been drawn, and the zombies alive. Pruning: each turn kills at most one zombie, so more
zombies alive than cards left to draw is lost; and a zombie whose two support lines cannot
both come to hold a card meeting its demand (suit, colour) with a sum of ten or more, from
their present tops and the cards still to come, can never die.

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
VERSION = 1

Move = tuple[int, int]  # (pile played on, zombie space killed or -1)


class Solver:
    def __init__(self, state: DeadCenterState, allowance: Allowance) -> None:
        self.allowance = allowance
        self.deck = list(reversed(state.deck))  # top first
        if state.drawn is not None and state.phase == PLAY:
            self.deck.insert(0, state.drawn)
        self.ring = state.ring
        # per zombie space: which cards meet its demand as a support
        self.demand = [DEMAND[z % PER_DECK] for z in self.ring]
        n = len(self.deck)
        # per point of the deck and per zombie space: the values of the cards still to come
        # that meet that zombie's demand, highest first (two are enough for the bound)
        self.coming: list[list[tuple[int, ...]]] = []
        for i in range(n + 1):
            row = []
            for j in range(len(self.ring)):
                values = sorted(
                    (VALUE[c] for c in self.deck[i:] if self.demand[j][c % PER_DECK]), reverse=True
                )
                row.append(tuple(values[:2]))
            self.coming.append(row)
        self.failed: dict[tuple[tuple[int, ...], int, int], int] = {}
        self.line: list[Move] = []

    def kills(self, space: int, tops: tuple[int, ...]) -> bool:
        a, b = SUPPORTS[space]
        first, second = tops[a], tops[b]
        demand = self.demand[space]
        return (
            VALUE[first] + VALUE[second] >= KILL_SUM
            and demand[first % PER_DECK]
            and demand[second % PER_DECK]
        )

    def hopeless(self, space: int, tops: tuple[int, ...], drawn: int) -> bool:
        """Whether this zombie can never die: no pair of supports meeting its demand can reach
        ten from the present tops and the cards to come."""
        a, b = SUPPORTS[space]
        demand = self.demand[space]
        coming = self.coming[drawn][space]
        best_a = VALUE[tops[a]] if demand[tops[a] % PER_DECK] else -1
        best_b = VALUE[tops[b]] if demand[tops[b] % PER_DECK] else -1
        if best_a >= 0 and best_b >= 0 and best_a + best_b >= KILL_SUM:
            return False
        first = coming[0] if coming else -1
        second = coming[1] if len(coming) > 1 else -1
        # one support from the tops and one to come, or both to come (two different cards)
        best = max(best_a + first, best_b + first, first + second) if first >= 0 else -1
        return best < KILL_SUM

    def can(self, tops: tuple[int, ...], drawn: int, alive: int, target: int) -> bool:
        """Whether every zombie can die from here with at least ``target`` cards left."""
        if not alive:
            return len(self.deck) - drawn >= target
        left = len(self.deck) - drawn
        if alive.bit_count() > left - target:
            return False
        key = (tops, drawn, alive)
        if self.failed.get(key, 1 << 30) <= target:
            return False
        self.allowance.tick()
        for space in range(len(self.ring)):
            if alive >> space & 1 and self.hopeless(space, tops, drawn):
                self.failed[key] = 0
                return False
        card = self.deck[drawn]
        children = []
        for pile in range(9):
            if not FITS[tops[pile] % PER_DECK * PER_DECK + card % PER_DECK]:
                continue
            after = (*tops[:pile], card, *tops[pile + 1 :])
            victims = [j for j in ZOMBIES_NEXT_TO[pile] if alive >> j & 1 and self.kills(j, after)]
            # how many zombies the cabin leaves ready to die (a card on their front kills)
            for victim in victims or [-1]:
                rest = alive & ~(1 << victim) if victim >= 0 else alive
                ready = sum(1 for j in range(12) if rest >> j & 1 and self.kills(j, after))
                children.append((victim >= 0, ready, pile, victim, after, rest))
        children.sort(key=lambda c: (-c[0], -c[1]))
        for _, _, pile, victim, after, rest in children:
            self.line.append((pile, victim))
            if self.can(after, drawn + 1, rest, target):
                return True
            self.line.pop()
        self.failed[key] = target
        return False

    def solve(self, state: DeadCenterState, target: int) -> bool:
        self.line = []
        return self.can(tuple(state.tops()), 0, state.alive, target)


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
