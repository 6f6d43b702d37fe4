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
have been drawn, and the zombies alive: a key that does not depend on the order of play.

Proofs of defeat come from a relaxation: pretend that every card drawn before a zombie's kill
could lie on either of its support piles. Each zombie then has an earliest turn at which it
could die (from its supports' present tops and the cards to come, tabled once per deal), and
since one zombie dies a turn at most, the kills fill distinct turns no earlier than those; the
greedy assignment in order of earliest turn gives the earliest possible turn of the last kill.
A position whose last kill cannot come before the deck runs out (or before the target score)
is lost. This subsumes "a zombie whose supports can never reach its demand" and "more zombies
alive than cards left". A child whose next card fits no pile is lost too (unless its kill was
the last). Children are tried kills first, then those leaving the most zombies ready to die.

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
VERSION = 2

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
        # EARLIEST[drawn][space][best + 1]: the first turn (deck index) at which the zombie
        # of that space could die, when ``best`` is the highest value among its two support
        # piles' present tops that meets its demand (-1: neither does), counting every card
        # drawn from ``drawn`` on as a possible support; n when it never can.
        self.earliest: list[list[tuple[int, ...]]] = []
        for start in range(n + 1):
            row = []
            for space in range(len(self.ring)):
                demand = self.demand[space]
                first = second = -1  # the two highest matching values drawn so far
                turns = [n] * 12
                lowest = 11  # turns[best + 1] is set for every best >= lowest
                for turn in range(start, n):
                    if second >= 0 and first + second >= KILL_SUM:
                        need = -1  # two drawn cards suffice, whatever the tops
                    else:
                        need = KILL_SUM - first if first >= 0 else 11
                    need = max(need, -1)
                    while lowest > need:
                        lowest -= 1
                        turns[lowest + 1] = turn
                    if lowest == -1:
                        break
                    card = self.deck[turn]
                    if demand[card % PER_DECK]:
                        value = VALUE[card]
                        if value > first:
                            first, second = value, first
                        elif value > second:
                            second = value
                row.append(tuple(turns))
            self.earliest.append(row)
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

    def last_kill(self, tops: tuple[int, ...], drawn: int, alive: int) -> int:
        """A lower bound on the turn of the last kill (len(deck) or more: impossible).

        Relaxation: every card drawn before a zombie's kill could be on either of its support
        piles, and any card could go on its front pile. That gives each zombie an earliest
        turn; at most one zombie dies a turn, so the kills fill distinct turns, no earlier
        than those (the greedy assignment in order of earliest turn is optimal)."""
        row = self.earliest[drawn]
        turns = []
        for space in range(12):
            if alive >> space & 1:
                a, b = SUPPORTS[space]
                demand = self.demand[space]
                top_a, top_b = tops[a], tops[b]
                va = VALUE[top_a] if demand[top_a % PER_DECK] else -1
                vb = VALUE[top_b] if demand[top_b % PER_DECK] else -1
                if va >= 0 and vb >= 0 and va + vb >= KILL_SUM:
                    turns.append(drawn)
                else:
                    turns.append(row[space][max(va, vb) + 1])
        turns.sort()
        slot = drawn - 1
        for turn in turns:
            slot = turn if turn > slot else slot + 1
        return slot

    def can(self, tops: tuple[int, ...], drawn: int, alive: int, target: int) -> bool:
        """Whether every zombie can die from here with at least ``target`` cards left."""
        if not alive:
            return len(self.deck) - drawn >= target
        key = (tops, drawn, alive)
        if self.failed.get(key, 1 << 30) <= target:
            return False
        self.allowance.tick()
        # the score is the cards left after the last kill's turn
        last = self.last_kill(tops, drawn, alive)
        if last + 1 > len(self.deck) - target:
            self.failed[key] = max(0, len(self.deck) - last)
            return False
        n = len(self.deck)
        card = self.deck[drawn]
        children = []
        for pile in range(9):
            if not FITS[tops[pile] % PER_DECK * PER_DECK + card % PER_DECK]:
                continue
            after = (*tops[:pile], card, *tops[pile + 1 :])
            victims = [j for j in ZOMBIES_NEXT_TO[pile] if alive >> j & 1 and self.kills(j, after)]
            for victim in victims or [-1]:
                rest = alive & ~(1 << victim) if victim >= 0 else alive
                if not rest:
                    self.line.append((pile, victim))
                    if n - drawn - 1 >= target:
                        return True
                    self.line.pop()
                    continue
                # A child whose next card fits no pile is lost (unless this kill was the
                # last); the others are tried kills first, then the most zombies left ready
                # to die (a card on their front pile kills).
                if drawn + 1 >= n:
                    continue
                following = self.deck[drawn + 1] % PER_DECK
                if not any(FITS[top % PER_DECK * PER_DECK + following] for top in after):
                    continue
                ready = sum(1 for j in range(12) if rest >> j & 1 and self.kills(j, after))
                children.append((victim < 0, -ready, pile, victim, after, rest))
        children.sort(key=lambda c: (c[0], c[1]))
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
