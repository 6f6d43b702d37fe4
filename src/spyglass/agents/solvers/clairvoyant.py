"""The clairvoyant bound of a solo deal: the best result a player could reach knowing everything.

The search runs on the true state (every hidden card and the order of every future shuffle are
known), so its result is a ceiling no fair player can beat. It is a depth-first search over the
legal moves, trying the game's own bot's move first, with a table of positions already proven
lost (positions are compared by ``State.position_key``, the table and the generator's state,
so two ways of reaching the same table are searched once). It first settles whether the deal
can be won at all; then, with the time left, it looks for wins with a better score.

A time cap bounds each deal, in CPU time (the process's own: a search that shares its core, or
is paused, still gets its whole allowance, so the answer does not depend on the machine's load).
What the search did not finish is reported as such: ``won`` is None ("unknown") when neither a
win nor a proof of defeat was found in time, and ``score_exact`` is False when a better-scoring
win might exist.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from spyglass.engine import Action, RulesError, State
from spyglass.engine.rng import Rng

from .base import Allowance, Bound, OutOfTime, ended


class Search:
    def __init__(self, state: State, seconds: float, max_nodes: int | None = None) -> None:
        if state.players != 1:
            raise RulesError("the clairvoyant bound is for solo games")
        self.root = state
        self.allowance = Allowance(seconds, max_nodes)
        self.bot = state.game.spec.bot
        self.lower_is_better = state.game.info.score_order == "lower"
        self.rng = Rng(0)
        self.lost: set[str] = set()

    @property
    def nodes(self) -> int:
        return self.allowance.nodes

    def _tick(self) -> None:
        self.allowance.tick()

    def _ordered(self, state: State) -> list[Action]:
        legal = state.legal_actions()
        if self.bot is None or len(legal) < 2:
            return legal
        first = self.bot(state, self.rng)
        return [first, *(a for a in legal if a != first)]

    def better(self, score: float | None, than: float | None) -> bool:
        if score is None:
            return False
        if than is None:
            return True
        return score < than if self.lower_is_better else score > than

    # -------------------------------------------------------------- can it be won at all?

    def find_win(self, state: State, line: list[Action]) -> bool:
        self._tick()
        if state.is_over:
            return bool(ended(state).won)
        key = state.position_key()
        if key in self.lost:
            return False
        for action in self._ordered(state):
            child = state.clone()
            child.apply(action)
            line.append(action)
            if self.find_win(child, line):
                return True
            line.pop()
        self.lost.add(key)
        return False

    # -------------------------------------------------------------- the best score among wins

    def best_score(self, state: State, memo: dict[str, Any]) -> tuple[float | None, list[Action]]:
        """The best score of a win from ``state`` (None if none) and a line reaching it."""
        self._tick()
        if state.is_over:
            result = ended(state)
            return (result.score, []) if result.won else (None, [])
        key = state.position_key()
        if key in self.lost:
            return None, []
        known = memo.get(key)
        if known is not None:
            return known
        best: float | None = None
        best_line: list[Action] = []
        for action in self._ordered(state):
            child = state.clone()
            child.apply(action)
            score, line = self.best_score(child, memo)
            if self.better(score, best):
                best, best_line = score, [action, *line]
        if best is None:
            self.lost.add(key)
        memo[key] = (best, best_line)
        return best, best_line


def clairvoyant(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The best result reachable from ``state`` knowing everything, within ``seconds`` of CPU
    time (and ``max_nodes`` positions, a cap that does not depend on the machine's speed)."""
    started = time.process_time()
    search = Search(state, seconds, max_nodes)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    line: list[Action] = []
    try:
        try:
            won = search.find_win(state.clone(), line)
        except OutOfTime:
            return Bound(None, None, False, (), search.nodes, time.process_time() - started)
        if not won:
            return Bound(False, None, True, (), search.nodes, time.process_time() - started)
        replay = state.clone()
        for action in line:
            replay.apply(action)
        score, best_line, exact = ended(replay).score, line, False
        if optimise_score:
            try:
                found, found_line = search.best_score(state.clone(), {})
                exact = True
                if search.better(found, score) or found == score:
                    score, best_line = found, found_line
            except OutOfTime:
                pass
        return Bound(
            True,
            score,
            exact,
            tuple(str(a) for a in best_line),
            search.nodes,
            time.process_time() - started,
        )
    finally:
        sys.setrecursionlimit(limit)
