"""Every game as a pyspiel game: random_sim_test with serialisation, MCTS and ISMCTS play."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import spyglass  # noqa: E402
from spyglass.adapters import openspiel as adapter  # noqa: E402

GAMES = [info.id for info in spyglass.games()]
#: Game strings that keep the long games short (the options pass through OpenSpiel's parameters).
SHORT = {"espionage": "spyglass_espionage(city_limit=1)"}


def load(game_id: str) -> pyspiel.Game:
    return pyspiel.load_game(SHORT.get(game_id, f"spyglass_{game_id}"))


def play(game: pyspiel.Game, bot: pyspiel.Bot, rs: np.random.RandomState) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rs.randint(game.max_chance_outcomes())))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state.returns()


@pytest.mark.parametrize("game_id", GAMES)
def test_random_sim_test_with_serialisation(game_id: str) -> None:
    game = load(game_id)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_mcts_and_ismcts_play_a_whole_game(game_id: str) -> None:
    game = load(game_id)
    rs = np.random.RandomState(1)
    # Tiny budgets and short rollouts: this checks the interface, not strength.
    evaluator = mcts.RandomRolloutEvaluator(1, rs, max_length=3)
    returns = play(game, mcts.MCTSBot(game, 1.4, 3, evaluator, random_state=rs), rs)
    assert len(returns) == game.num_players()
    bot = ismcts.ISMCTSBot(game, evaluator, 1.4, 3, random_state=rs)
    bot.set_resampler(adapter.ismcts_resampler)
    returns = play(game, bot, rs)
    assert all(0.0 <= r <= 1.0 for r in returns)


def test_parameters_and_strings() -> None:
    game = pyspiel.load_game("spyglass_espionage(players=4,deals=10)")
    assert game.num_players() == 4
    assert game.max_chance_outcomes() == 10
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(3)
    seat = state.current_player()
    assert state.information_state_string(seat) != state.information_state_string((seat + 1) % 4)
    assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    copy = game.deserialize_state(clone.serialize())
    assert copy.information_state_string(seat) == clone.information_state_string(seat)


def test_the_resampler_keeps_what_the_seat_knows() -> None:
    game = pyspiel.load_game("spyglass_tinker-tailor")
    state = game.new_initial_state()
    state.apply_action(11)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    sample = state.resample(seat, 5)
    assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert sample.legal_actions() == state.legal_actions()


def test_openspiel_mcts_against_spyglass_ismcts() -> None:
    """The docs/rl.md example, with small budgets."""
    from spyglass.agents.ismcts import ISMCTSAgent

    game = pyspiel.load_game("spyglass_tinker-tailor(players=2)")
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rs, max_length=5)
    openspiel_mcts = mcts.MCTSBot(game, 1.4, 4, evaluator, random_state=rs)
    spyglass_ismcts = ISMCTSAgent(seed=1, iterations=2, cutoff=3, rollout="random")
    state = game.new_initial_state()
    state.apply_action(42)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == 0:
            state.apply_action(openspiel_mcts.step(state))
        else:
            inner = state.table.state
            move = spyglass_ismcts.choose(inner.seat(seat))
            state.apply_action(game.encoding.index(move))
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_a_resampled_state_serialises_too() -> None:
    game = pyspiel.load_game("spyglass_espionage")
    state = game.new_initial_state()
    state.apply_action(8)
    state.apply_action(state.legal_actions()[0])
    sample = state.resample(state.current_player(), 2)
    copy = game.deserialize_state(sample.serialize())
    seat = state.current_player()
    assert copy.information_state_string(seat) == sample.information_state_string(seat)
