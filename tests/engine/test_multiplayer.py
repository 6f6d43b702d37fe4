"""The engine's multiplayer paths, on a small fixture game with hidden hands."""

import json
from collections import Counter

import pytest

from spyglass.engine import IllegalAction, Rng, replay
from tests.conformance.checks import Coverage, check_state
from tests.fixtures.high_card import REGISTRY


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fixture_passes_the_generic_checks(players: int) -> None:
    game = REGISTRY.load("high-card")
    coverage = Coverage()
    for k in range(12):
        state = game.new_state(players=players, seed=k)
        rng = Rng(k)
        initial = Counter(state.cards())
        while True:
            check_state(state, rng, initial, coverage)
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        again = replay(json.loads(json.dumps(state.record())), REGISTRY)
        assert again.snapshot() == state.snapshot()
    assert coverage.hidden_differences > 0
    assert None in coverage.hidden_seen and 0 in coverage.hidden_seen


def test_private_log_lines_reach_only_their_seat() -> None:
    state = REGISTRY.load("high-card").new_state(players=3, seed=5)
    own = state.view(1)["log"]
    assert own[1].startswith("seat 1 was dealt ") and len(own[1].split()) == 7
    assert state.view(0)["log"][1] == "seat 1 was dealt 3 cards"
    assert state.view(None)["log"][1] == "seat 1 was dealt 3 cards"
    # The omniscient log (for the server) still has the cards.
    assert state.log[1] == own[1]


def test_views_hide_other_hands() -> None:
    state = REGISTRY.load("high-card").new_state(players=2, seed=5)
    mine = set(state.view(0)["table"]["hand"])
    theirs = set(state.view(1)["table"]["hand"])
    assert mine and theirs and not mine & theirs
    assert state.view(None)["table"]["hand"] == []
    blob = json.dumps(state.view(0))
    assert not any(card in blob for card in theirs)


def test_seat_of_the_waiting_player_has_no_moves_and_cannot_see_the_truth() -> None:
    state = REGISTRY.load("high-card").new_state(players=2, seed=5)
    waiting = state.seat(1)
    assert waiting.legal_actions == []
    sample = waiting.determinize(Rng(1))
    assert sample.view(1) == state.view(1)
    assert sample.seed is None and sample.log == state.view(1)["log"]


def test_playing_out_of_turn_is_illegal() -> None:
    state = REGISTRY.load("high-card").new_state(players=2, seed=5)
    not_mine = state.view(1)["table"]["hand"][0]
    with pytest.raises(IllegalAction):
        state.apply(not_mine)
