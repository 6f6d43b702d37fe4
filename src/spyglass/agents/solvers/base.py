"""What every clairvoyant solver shares: the answer it gives and the allowance it runs on.

A solver answers for one deal with every hidden card and every future shuffle known. Its
answer is a :class:`Bound`: won (with a line and the best score it proved or found), cannot be
won, or unknown when the allowance ran out first. The allowance is CPU time (the process's
own, so a search sharing its core or paused keeps its whole allowance and its answer does not
depend on the machine's load) and optionally a number of positions, which does not depend on
the machine's speed at all.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spyglass.engine import Result, State


class OutOfTime(Exception):
    """The allowance ran out before the search finished."""


@dataclass(frozen=True, slots=True)
class Bound:
    """``won``: True (a winning line exists; ``moves`` is one), False (no line wins), or None
    (unknown: out of time). ``score``: the best score of a win found (None without one);
    ``score_exact``: whether no better-scoring win exists; ``seconds``: the CPU time spent."""

    won: bool | None
    score: float | None
    score_exact: bool
    moves: tuple[str, ...]
    nodes: int
    seconds: float

    @property
    def status(self) -> str:
        return "unknown" if self.won is None else "won" if self.won else "cannot be won"


class Allowance:
    """Counts positions and raises :class:`OutOfTime` past the CPU deadline or the node cap.

    The clock is read every 64 positions: reading it costs more than expanding a small
    position."""

    __slots__ = ("deadline", "max_nodes", "nodes", "started")

    def __init__(self, seconds: float, max_nodes: int | None = None) -> None:
        self.started = time.process_time()
        self.deadline = self.started + seconds
        self.max_nodes = max_nodes
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfTime
        if self.nodes & 63 == 0 and time.process_time() > self.deadline:
            raise OutOfTime

    @property
    def spent(self) -> float:
        return time.process_time() - self.started


def ended(state: State) -> Result:
    """The result of a state the search has found over (``State.result`` is None only while
    a game goes on, which would be a bug in the caller)."""
    result = state.result
    if result is None:
        raise RuntimeError("the game is not over")
    return result


def finished_bound(state: State) -> Bound:
    """The bound of a game already over: its own result, proved."""
    result = ended(state)
    return Bound(bool(result.won), result.score if result.won else None, True, (), 0, 0.0)


def prove(
    allowance: Allowance,
    reach: Callable[[int], bool],
    line: Callable[[], tuple[Sequence[str], State]],
    optimise_score: bool,
    first: int = 0,
) -> Bound:
    """The search every score-threshold solver runs: ``reach(target)`` says whether a line
    ending with a score of at least ``target`` exists (and leaves it for ``line()``, which
    plays it out: its moves and its end). First a win at ``first``, then, with
    ``optimise_score``, one point more at a time until none is found (proved best) or the
    allowance runs out (the best found, not proved)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))  # the searches recurse once per move
    try:
        try:
            won = reach(first)
        except OutOfTime:
            return Bound(None, None, False, (), allowance.nodes, allowance.spent)
        if not won:
            return Bound(False, None, True, (), allowance.nodes, allowance.spent)
        moves, end = line()
        score, exact = ended(end).score, False
        if optimise_score:
            try:
                # A won line of a game that optimises its score always has one.
                while score is not None and reach(int(score) + 1):
                    moves, end = line()
                    score = ended(end).score
                exact = True
            except OutOfTime:
                pass
        return Bound(True, score, exact, tuple(moves), allowance.nodes, allowance.spent)
    finally:
        sys.setrecursionlimit(limit)
