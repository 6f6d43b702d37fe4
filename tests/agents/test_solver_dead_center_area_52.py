"""The clairvoyant solvers of Dead Center and Area 52: exact answers, lines that replay, and
the relaxation that proves defeat early (never cuts a line that wins)."""

from __future__ import annotations

import pytest

import spyglass
from spyglass.agents.solvers import bound
from spyglass.agents.solvers.base import Allowance
from spyglass.agents.solvers.dead_center import Solver
from spyglass.engine import derive_seed
from spyglass.games.dead_center.rules import DeadCenterState


def _deal(index: int) -> DeadCenterState:
    state = spyglass.load("dead-center").new_state(seed=derive_seed(2026, f"game/{index}"))
    assert isinstance(state, DeadCenterState)
    return state


def _replays_to_a_win(state: DeadCenterState, moves: tuple[str, ...], score: float | None) -> None:
    check = state.clone()
    for move in moves:
        check.apply(move)
    assert check.is_over and check.won
    assert check.result is not None and check.result.score == score


@pytest.mark.parametrize("index", [1, 9, 27])
def test_dead_center_winning_lines_replay_on_the_real_deal(index: int) -> None:
    state = _deal(index)
    found = bound(state, seconds=60, optimise_score=False, max_nodes=60_000)
    assert found.won is True
    _replays_to_a_win(state, found.moves, found.score)


def test_dead_center_settles_a_deal_the_old_solver_left_unknown() -> None:
    # Deal 18 of the strength run: version 1 spent over 90,000 positions (2 CPU-s) without an
    # answer; the relaxation's cuts find the win within 40,000.
    state = _deal(18)
    found = bound(state, seconds=60, optimise_score=False, max_nodes=40_000)
    assert found.won is True
    _replays_to_a_win(state, found.moves, found.score)


def test_dead_center_relaxation_never_cuts_the_winning_line() -> None:
    # Along a winning line, the bound on the turn of the last kill is at most the turn the line
    # really kills its last zombie, from every position of the line.
    for index in (1, 9, 27):
        state = _deal(index)
        solver = Solver(state, Allowance(60))
        assert solver.solve(state, 0)
        line = list(solver.line)
        last = max(turn for turn, (_, victim) in enumerate(line) if victim >= 0)
        assert last == len(line) - 1
        tops, alive = list(state.tops()), state.alive
        for turn, (pile, victim) in enumerate(line):
            assert solver.last_kill(tuple(tops), turn, alive) <= last
            tops[pile] = solver.deck[turn]
            if victim >= 0:
                alive &= ~(1 << victim)


def test_dead_center_relaxation_counts_one_kill_a_turn() -> None:
    # Twelve zombies alive with five cards to draw: at most five can die, so the last kill's
    # turn is proved to fall beyond the deck (the position is lost without a search).
    state = _deal(1)
    solver = Solver(state, Allowance(60))
    n = len(solver.deck)
    tops = tuple(state.tops())
    assert solver.last_kill(tops, 0, state.alive) < n
    assert solver.last_kill(tops, n - 5, state.alive) >= n
    assert not solver.can(tops, n - 5, state.alive, 0)
    assert solver.allowance.nodes == 1


def test_dead_center_says_unknown_when_its_allowance_runs_out() -> None:
    found = bound(_deal(2), seconds=60, optimise_score=False, max_nodes=200)
    assert found.won is None and found.moves == ()
