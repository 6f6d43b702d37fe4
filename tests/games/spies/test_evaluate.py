"""The Spies! evaluation for searches that cut playouts short: win chances per seat, read off a
position without changing it; a finished game gives its real result."""

from __future__ import annotations

from spyglass.engine import Rng
from spyglass.games.spies import SPEC, bot
from spyglass.games.spies.evaluate import evaluate, projected_points, share_left
from spyglass.games.spies.rules import SpiesState

from .helpers import GAME, finish_setup, moving_position, new, place_secrets


def lead(state: SpiesState, power: str, markers: int) -> None:
    """``power`` holds ``markers`` Sanctioned markers of strength 3 from 1933 (24 points each)."""
    state.board.markers = [(power, f"X{k}", 3, 1933) for k in range(markers)]


def test_the_spec_uses_the_evaluation() -> None:
    assert SPEC.evaluate is evaluate


def test_chances_along_a_game_are_in_range_sum_to_one_and_leave_the_state_alone() -> None:
    state = GAME.new_state(players=3, seed=5)
    rng = Rng(5)
    step = checked = 0
    while not state.is_over:
        if step % 40 == 0:
            before = state.snapshot()
            chances = evaluate(state)
            assert len(chances) == 3
            assert all(0.0 <= c <= 1.0 for c in chances)
            assert abs(sum(chances) - 1.0) < 1e-9
            assert state.snapshot() == before
            checked += 1
        state.apply(bot.choose(state.determinize(state.current_player, rng), rng))
        step += 1
    assert checked > 10
    result = state.result
    assert result is not None
    assert evaluate(state) == result.rewards  # the real result, not a guess
    assert max(evaluate(state)) == 1.0 or len(result.winners) > 1


def test_a_clear_leader_ranks_highest_and_more_surely_as_the_years_pass() -> None:
    chances = {}
    for year in (1934, 1939):
        state = moving_position({"Ge1": "Berlin"}, year=year)
        lead(state, "France", 3)
        chances[year] = evaluate(state)
        france = state.controller("France")
        assert max(range(5), key=chances[year].__getitem__) == france
    assert chances[1939][france] > chances[1934][france] > 0.2


def test_a_secret_on_its_way_home_counts_only_if_it_can_get_there() -> None:
    near = moving_position({"Ge1": "Warsaw"}, year=1939)  # one space from Berlin
    far = moving_position({"Ge1": "Lisbon"}, year=1939, power="Britain")  # four, turn over
    alone = moving_position({"Ge1": "Warsaw"}, year=1939)
    place_secrets(near, X1=("S30", None, "Warsaw", "Ge1"))
    place_secrets(far, X1=("S30", None, "Lisbon", "Ge1"))
    place_secrets(alone, X1=("S30", None, "Warsaw", None))
    base = projected_points(alone)["Germany"]
    assert projected_points(near)["Germany"] > base + 5
    # In Britain's turn of the last year Germany has no turn left to carry it home.
    assert projected_points(far)["Germany"] < projected_points(near)["Germany"]
    assert share_left(far) < share_left(near)


def test_a_seat_with_two_powers_is_judged_by_its_better_one() -> None:
    state = finish_setup(new(players=2))  # seat 0: Germany and Italy; 1: France and Britain
    even = evaluate(state)[0]
    lead(state, "Italy", 3)
    assert evaluate(state)[0] > max(0.7, even)
