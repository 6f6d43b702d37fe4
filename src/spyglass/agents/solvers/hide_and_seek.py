"""Hide and Seek with every card known: the most cards the deal can score, and whether that
reaches twenty.

With the playground and the deck's order known, what matters in a position is how far the deck
has gone, which playmates are face up, and for each of the seven lines (four columns, three
rows) the suits of the guesses at its two ends: which end a guess sits at, and which card of
its suit it is, change nothing. Positions are keyed that way.

Pruning:

- a playmate is only revealed when it scores at least one guess: revealing one that scores
  nothing only gives up what it could score later (the last reveals, once the deck is spent,
  are counted at once: every guess that still has a face-down playmate of its suit in its line
  scores);
- an upper bound on what is left to score: for each suit, the cards of that suit still to come
  or waiting where they can score, but no more than four per face-down playmate of that suit
  (a reveal scores the four ends of its column and row at most).

The search answers "can this position score ``need`` more?", with a table of the smallest need
each position failed; the best score is found by raising the need one step at a time.
"""

from __future__ import annotations

from spyglass.components.cards import SUITS, Card
from spyglass.engine import RulesError, State
from spyglass.games.hide_and_seek.playground import (
    ALL_REVEALED,
    CELL_LABELS,
    CELLS,
    COLUMN,
    COLUMNS,
    SPACES,
    cell_column,
    cell_row,
)
from spyglass.games.hide_and_seek.rules import WINNING_SCORE, HideAndSeekState

from .base import Allowance, Bound, finished_bound, prove

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 1

LINES = COLUMNS + 3  # four columns, then three rows
PLACE, REVEAL, WITHDRAW = "place", "reveal", "withdraw"

Lines = tuple[tuple[int, ...], ...]  # per line, the sorted suits of its (up to two) guesses
Move = tuple[str, int, int]  # (kind, line or cell, suit)


def _line_of_space(space: int) -> int:
    s = SPACES[space]
    return s.line_index if s.line == COLUMN else COLUMNS + s.line_index


def _lines_of_cell(cell: int) -> tuple[int, int]:
    return cell_column(cell), COLUMNS + cell_row(cell)


def _suit(card: Card) -> int:
    return SUITS.index(card.suit)


class Solver:
    def __init__(self, state: HideAndSeekState, allowance: Allowance) -> None:
        self.allowance = allowance
        self.deck = [_suit(c) for c in reversed(state.deck)]  # top first
        self.cells = [_suit(c) for c in state.cells]
        # per line, per suit: the cells of that line holding a playmate of that suit
        self.matching = [[0] * 4 for _ in range(LINES)]
        for cell, suit in enumerate(self.cells):
            for line in _lines_of_cell(cell):
                self.matching[line][suit] |= 1 << cell
        # suits still to come, from each point of the deck on
        self.to_come = [[0] * 4 for _ in range(len(self.deck) + 1)]
        for i in range(len(self.deck) - 1, -1, -1):
            self.to_come[i] = list(self.to_come[i + 1])
            self.to_come[i][self.deck[i]] += 1
        self.failed: dict[tuple[int, Lines, int], int] = {}
        self.line: list[Move] = []

    def live(self, line: int, suit: int, revealed: int) -> bool:
        """Whether a guess of ``suit`` at an end of ``line`` can still score."""
        return bool(self.matching[line][suit] & ~revealed)

    def settle(self, lines: Lines, revealed: int) -> int:
        """What the guesses on the table score once every playmate is revealed."""
        return sum(self.live(line, s, revealed) for line, suits in enumerate(lines) for s in suits)

    def ceiling(self, drawn: int, lines: Lines, revealed: int) -> int:
        """An upper bound on what is left to score."""
        total = 0
        hidden = [0, 0, 0, 0]
        for cell, suit in enumerate(self.cells):
            if not revealed >> cell & 1:
                hidden[suit] += 1
        waiting = [0, 0, 0, 0]
        for line, suits in enumerate(lines):
            for s in suits:
                if self.live(line, s, revealed):
                    waiting[s] += 1
        come = self.to_come[drawn]
        for s in range(4):
            total += min(come[s] + waiting[s], 4 * hidden[s])
        return total

    def can(self, drawn: int, lines: Lines, revealed: int, need: int) -> bool:
        """Whether this position can score ``need`` more cards."""
        if need <= 0:
            return True
        if revealed == ALL_REVEALED:
            return False
        if drawn == len(self.deck):
            return self.settle(lines, revealed) >= need
        if self.ceiling(drawn, lines, revealed) < need:
            return False
        key = (drawn, lines, revealed)
        if self.failed.get(key, 1 << 30) <= need:
            return False
        self.allowance.tick()
        top = self.deck[drawn]
        reveals = []
        for cell in range(CELLS):
            if revealed >> cell & 1:
                continue
            suit = self.cells[cell]
            scored = 0
            changed = list(lines)
            for line in _lines_of_cell(cell):
                kept = tuple(s for s in lines[line] if s != suit)
                scored += len(lines[line]) - len(kept)
                changed[line] = kept
            if scored:
                reveals.append((scored, cell, tuple(changed)))
        reveals.sort(key=lambda r: -r[0])
        places = []
        for line in range(LINES):
            if len(lines[line]) < 2:
                changed = list(lines)
                changed[line] = tuple(sorted((*lines[line], top)))
                promise = bin(self.matching[line][top] & ~revealed).count("1")
                places.append((promise, line, tuple(changed)))
        places.sort(key=lambda p: -p[0])
        withdraws = []
        for line in range(LINES):
            if top in lines[line]:
                remaining = list(lines[line])
                remaining.remove(top)
                changed = list(lines)
                changed[line] = tuple(remaining)
                # a dead guess is best withdrawn: it frees an end and costs nothing to score
                dead = not self.live(line, top, revealed)
                withdraws.append((dead, line, tuple(changed)))
        withdraws.sort(key=lambda w: -w[0])
        trail = self.line
        # Scoring reveals of two or more first, then the placements that can score, then the
        # rest: the order a good player would consider them in.
        for scored, cell, after in reveals:
            if scored >= 2:
                trail.append((REVEAL, cell, -1))
                if self.can(drawn, after, revealed | 1 << cell, need - scored):
                    return True
                trail.pop()
        for promise, line, after in places:
            if promise:
                trail.append((PLACE, line, top))
                if self.can(drawn + 1, after, revealed, need):
                    return True
                trail.pop()
        for scored, cell, after in reveals:
            if scored < 2:
                trail.append((REVEAL, cell, -1))
                if self.can(drawn, after, revealed | 1 << cell, need - scored):
                    return True
                trail.pop()
        for _, line, after in withdraws:
            trail.append((WITHDRAW, line, top))
            if self.can(drawn + 1, after, revealed, need):
                return True
            trail.pop()
        for promise, line, after in places:
            if not promise:
                trail.append((PLACE, line, top))
                if self.can(drawn + 1, after, revealed, need):
                    return True
                trail.pop()
        self.failed[key] = need
        return False

    def solve(self, state: HideAndSeekState, need: int) -> bool:
        lines: list[list[int]] = [[] for _ in range(LINES)]
        for space, guess in enumerate(state.guesses):
            if guess is not None:
                lines[_line_of_space(space)].append(_suit(guess))
        key = tuple(tuple(sorted(x)) for x in lines)
        self.line = []
        return self.can(0, key, state.revealed, need)


def _replay(state: HideAndSeekState, line: list[Move]) -> tuple[list[str], HideAndSeekState]:
    """The real moves of a solved line, then the remaining reveals."""
    state = state.clone()
    moves = []
    for kind, where, suit in line:
        if kind == REVEAL:
            text = f"reveal {CELL_LABELS[where]}"
        else:
            for space, guess in enumerate(state.guesses):
                if _line_of_space(space) != where:
                    continue
                if kind == PLACE and guess is None:
                    break
                if kind == WITHDRAW and guess is not None and _suit(guess) == suit:
                    break
            else:
                raise AssertionError(f"no space of line {where} for {kind}")
            text = f"{kind} {SPACES[space].label}"
        moves.append(text)
        state.apply(text)
    # The deck is spent (or the rest does not matter): reveal every playmate left.
    while not state.is_over:
        if state.deck and state.revealed.bit_count() == CELLS - 1:
            break  # the last reveal ends the game: only once the line has nothing more
        action = next(a for a in state.legal_actions() if a.kind == REVEAL)
        moves.append(action.text)
        state.apply(action)
    if not state.is_over:
        action = next(a for a in state.legal_actions() if a.kind == REVEAL)
        moves.append(action.text)
        state.apply(action)
    return moves, state


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of a Hide and Seek position; the best score is proved."""
    if not isinstance(state, HideAndSeekState):
        raise RulesError("this solver solves Hide and Seek")
    allowance = Allowance(seconds, max_nodes)
    if state.is_over:
        return finished_bound(state)
    solver = Solver(state, allowance)
    now = state.score
    return prove(
        allowance,
        lambda target: solver.solve(state, target - now),
        lambda: _replay(state, solver.line),
        optimise_score,
        first=WINNING_SCORE,
    )
