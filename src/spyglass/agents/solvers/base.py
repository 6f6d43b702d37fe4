"""What every clairvoyant solver shares: the answer it gives and the allowance it runs on.

A solver answers for one deal with every hidden card and every future shuffle known. Its
answer is a :class:`Bound`: won (with a line and the best score it proved or found), cannot be
won, or unknown when the allowance ran out first. The allowance is CPU time (the process's
own, so a search sharing its core or paused keeps its whole allowance and its answer does not
depend on the machine's load) and optionally a number of positions, which does not depend on
the machine's speed at all.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


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
