"""Skyway's clairvoyant solver: its compact turn is the real one, its lines replay, it settles
deals the generic search leaves unknown, and it says unknown when its allowance runs out."""

from __future__ import annotations

import random

import pytest

import spyglass
from spyglass.agents.solvers import skyway as sky
from spyglass.agents.solvers.base import Allowance
from spyglass.agents.solvers.clairvoyant import clairvoyant
from spyglass.components import parse_cards
from spyglass.engine import derive_seed
from spyglass.games.skyway.rules import SPACES, SkywayState, draft_action


def _deal(index: int) -> SkywayState:
    return spyglass.load("skyway").new_state(seed=derive_seed(2026, f"game/{index}"))


def _replays(state: SkywayState, moves: list[str]) -> SkywayState:
    end = state.clone()
    for move in moves:
        end.apply(move)
    return end


def test_compact_turns_are_exactly_the_real_turns() -> None:
    """On random positions of many deals, every draft (each blueprint onto each space) gives
    the same play area, next market, deck, round and end in the compact rules as in the game,
    across the reshuffles and the last shuffle too."""
    checked = reshuffles = ends = 0
    rng = random.Random(7)
    for index in range(12):
        state = _deal(index)
        while not state.is_over:
            solver = sky.Solver(state, Allowance(60.0, None))
            grid = tuple(tuple(stack) for stack in state.grid)
            left = len(state.deck)
            for blueprint in state.market:
                for space in range(SPACES):
                    real = state.clone()
                    real.apply(draft_action(tuple(blueprint), space))
                    after = solver.place(grid, tuple(blueprint), space)
                    assert after == tuple(tuple(stack) for stack in real.grid)
                    if state.last_turn or solver.over(solver.root_deck, left):
                        assert real.is_over
                        ends += 1
                        continue
                    assert not real.is_over
                    market, deck_id, next_left, last = solver.deal(after, solver.root_deck, left)
                    round_, deck, _ = solver.decks[deck_id]
                    assert market == [tuple(b) for b in real.market]
                    assert list(deck[:next_left]) == real.deck
                    assert round_ == real.round
                    assert last == real.last_turn
                    reshuffles += deck_id != solver.root_deck
                    checked += 1
            moves = state.legal_actions()
            state.apply(moves[rng.randrange(len(moves))])
    assert checked > 3000 and reshuffles > 100 and ends > 0


def test_canonical_keys_are_the_same_for_every_symmetry_of_the_play_area() -> None:
    state, rng = _deal(3), random.Random(5)
    for _ in range(8):
        moves = state.legal_actions()
        state.apply(moves[rng.randrange(len(moves))])
    grid = tuple(tuple(stack) for stack in state.grid)
    images = {tuple(grid[i] for i in perm) for perm in sky._symmetries()}
    assert len(images) > 1
    assert {sky.canonical(image) for image in images} == {sky.canonical(grid)}


@pytest.mark.parametrize("index", [0, 1, 2, 5, 8])
def test_winning_lines_replay_to_a_win_with_their_score(index: int) -> None:
    state = _deal(index)
    found = sky.bound(state, seconds=4.0, optimise_score=False)
    assert found.won is not None
    if found.won:
        end = _replays(state, found.moves)
        assert end.is_over and end.won
        assert found.score == sum(end.run_lengths)


def test_a_deal_the_generic_search_leaves_unknown_is_settled() -> None:
    """Deal 18 of the strength run: the generic search does not settle it in 2 CPU-s (1 here,
    to keep the test cheap); this solver finds a win inside 1 CPU-s."""
    state = _deal(18)
    assert clairvoyant(state, seconds=1.0, optimise_score=False).won is None
    found = sky.bound(state, seconds=1.0, optimise_score=False)
    assert found.won is True
    end = _replays(state, found.moves)
    assert end.is_over and end.won


def test_late_positions_agree_with_the_generic_search() -> None:
    rng = random.Random(11)
    agreed = 0
    for index in range(6):
        state = _deal(index)
        while not (state.is_over or (state.round == 3 and len(state.deck) <= 5)):
            moves = state.legal_actions()
            state.apply(moves[rng.randrange(len(moves))])
        if state.is_over:
            continue
        mine = sky.bound(state, seconds=5.0, optimise_score=False)
        theirs = clairvoyant(state, seconds=5.0, optimise_score=False)
        assert theirs.won is not None
        assert mine.won == theirs.won
        agreed += 1
    assert agreed >= 4


def test_unknown_when_the_allowance_runs_out() -> None:
    found = sky.bound(_deal(0), seconds=10.0, optimise_score=False, max_nodes=3)
    assert found.won is None and found.status == "unknown"


# The full game of tests/games/test_skyway.py that ends on the rulebook's winning play area
# (round 1 stacked, later rounds shuffled from seed 10).
BOOK_GAME_DECK = (
    "2S 3S 6S 8S 7S 5S 6H 9S 10S AH 5H 8H 2H 3H 4H 2D 3C 7H 9H 10H"
    " 4S 10C AC 2C 4C AS 5C 6C 7C 8C 5D 10D 9C AD 3D 4D 9D 6D 7D 8D"
)
BOOK_GAME_MOVES = [
    "7♠ A1", "5♠ 6♥ A2", "5♥ 8♥ B2", "2♦ 3♣ C2", "4♠ 10♣ A3", "A♠ 5♣ C3", "5♦ 10♦ B1",
    "4♦ 9♦ C1", "8♣ 3♠ B3", "3♦ 2♥ B3", "6♠ 10♠ B3", "10♥ B1", "9♠ B3", "8♦ 3♦ B3", "A♣ C1",
    "9♣ B3",
]  # fmt: skip


def test_the_rulebook_s_game_two_turns_from_its_end() -> None:
    """Two turns from the end of the rulebook's game (the last market comes from one last
    shuffle of the discard pile): 2♥ 3♠ onto B3 is the only draft that still wins, for 20,
    proved best; drafting it anywhere else cannot be won, as the generic search agrees."""
    state = spyglass.load("skyway").new_state(seed=10, deck=parse_cards(BOOK_GAME_DECK))
    for move in BOOK_GAME_MOVES:
        state.apply(move)
    found = sky.bound(state, seconds=10.0, optimise_score=True)
    assert (found.won, found.score, found.score_exact) == (True, 20.0, True)
    assert found.moves[0] == "2♥ 3♠ B3" and len(found.moves) == 2
    end = _replays(state, found.moves)
    assert end.is_over and end.won and end.result.score == 20
    elsewhere = state.clone()
    elsewhere.apply("2♥ 3♠ A1")
    mine = sky.bound(elsewhere, seconds=10.0, optimise_score=False)
    theirs = clairvoyant(elsewhere, seconds=10.0, optimise_score=False)
    assert mine.won is False and theirs.won is False
