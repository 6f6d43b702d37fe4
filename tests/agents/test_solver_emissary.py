"""The Emissary's clairvoyant solver: its lines replay to wins, it settles deals the generic
search leaves unknown, and it says unknown when its allowance runs out."""

from __future__ import annotations

import pytest

import spyglass
from spyglass.agents import solvers
from spyglass.agents.solvers import emissary
from spyglass.engine import RulesError, State, derive_seed


def _deal(index: int) -> State:
    return spyglass.load("emissary").new_state(seed=derive_seed(2026, f"game/{index}"))


def _replayed(state: State, moves: tuple[str, ...]) -> State:
    end = state.clone()
    for move in moves:
        end.apply(move)
    return end


@pytest.mark.parametrize("index", [0, 1, 5, 11, 13, 14])
def test_deals_the_generic_search_left_unknown_are_won_and_the_lines_replay(index: int) -> None:
    """The strength run's deals 0, 1, 5, 11, 13 and 14 were unknown after 2 CPU-s of the
    generic search; the solver wins each in a few hundred positions, on the real state."""
    state = _deal(index)
    found = solvers.bound(state, seconds=30, optimise_score=False)
    assert found.won is True and found.nodes < 2_000
    end = _replayed(state, found.moves)
    assert end.is_over and end.result is not None and end.result.won
    assert end.result.score == found.score


def test_the_best_score_is_the_score_of_its_line() -> None:
    state = _deal(0)
    found = emissary.bound(state, seconds=30, optimise_score=True)
    assert found.won is True and found.score is not None and found.score >= 8
    end = _replayed(state, found.moves)
    assert end.result is not None and end.result.won and end.result.score == found.score


def test_unknown_when_the_allowance_runs_out() -> None:
    found = emissary.bound(_deal(2), seconds=30, optimise_score=False, max_nodes=20)
    assert found.won is None and found.status == "unknown" and found.moves == ()


def test_only_the_emissary() -> None:
    with pytest.raises(RulesError):
        emissary.bound(spyglass.load("sandwich-guy").new_state(seed=1))
