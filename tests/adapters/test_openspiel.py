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
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
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


@pytest.mark.parametrize("game_id", GAMES)
def test_python_calls_answer_as_pyspiel_does(game_id: str) -> None:
    """``legal_actions``, ``is_chance_node`` and the tensors, called from Python, skip the
    round trip through C++: they answer as pyspiel's own methods, the tensors as numpy
    arrays, at chance nodes, decisions (every player asked) and the end."""
    game = load(game_id)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    size = game.observation_tensor_size()
    for _ in range(2 + 40):
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in range(game.num_players()):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
            for ours, theirs in (
                (state.observation_tensor(player), pyspiel.State.observation_tensor(state, player)),
                (
                    state.information_state_tensor(player),
                    pyspiel.State.information_state_tensor(state, player),
                ),
            ):
                assert isinstance(ours, np.ndarray) and ours.dtype == np.float32
                assert ours.shape == (size,) and ours.tolist() == theirs
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor(game.num_players())


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


def deal(game: pyspiel.Game, number: int) -> pyspiel.State:
    state = game.new_initial_state()
    for action in game.deal_actions(number):
        state.apply_action(action)
    return state


def test_the_resampler_keeps_what_the_seat_knows() -> None:
    game = pyspiel.load_game("spyglass_tinker-tailor")
    state = deal(game, 11)
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
    for action in game.deal_actions(42):  # the deal
        state.apply_action(action)
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
    state = deal(game, 8)
    state.apply_action(state.legal_actions()[0])
    sample = state.resample(state.current_player(), 2)
    copy = game.deserialize_state(sample.serialize())
    seat = state.current_player()
    assert copy.information_state_string(seat) == sample.information_state_string(seat)


def test_the_deal_is_chosen_in_small_chance_nodes() -> None:
    game = pyspiel.load_game("spyglass_sandwich-guy")
    assert game.radices == (256, 256)
    assert game.max_chance_outcomes() == 256
    assert game.max_chance_nodes_in_history() == 2
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 256 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.legal_actions() == list(range(256))
    for action in game.deal_actions(1234):
        assert state.is_chance_node()
        state.apply_action(action)
    assert not state.is_chance_node()
    assert state.deal == 1234 == 4 * 256 + 210
    # The deal is the engine's seed: the same table as spyglass deals it.
    assert state.table.state.digest() == spyglass.load("sandwich-guy").new_state(seed=1234).digest()
    assert len(state.history()) == 2
    assert state.history() == game.deal_actions(1234) == [4, 210]


@pytest.mark.parametrize(
    ("deals", "sizes"), [(1, (1,)), (10, (10,)), (1000, (250, 4)), (257, (257,))]
)
def test_any_number_of_deals_is_split_uniformly(deals: int, sizes: tuple[int, ...]) -> None:
    game = pyspiel.load_game(f"spyglass_area-52(deals={deals})")
    assert game.radices == sizes
    seen = {game.deal_of(game.deal_actions(d)) for d in range(deals)}
    assert seen == set(range(deals))


def test_rl_environment_samples_the_deal_as_openspiel_does() -> None:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("spyglass_hide-and-seek")
    env.seed(3)
    step = env.reset()
    rng = np.random.default_rng(3)
    moves = 0
    while not step.last():
        legal = step.observations["legal_actions"][0]
        step = env.step([int(rng.choice(legal))])
        moves += 1
    assert moves > 0 and step.rewards[0] in (0.0, 1.0)


def test_multiplayer_games_are_constant_sum_in_wins() -> None:
    game = pyspiel.load_game("spyglass_espionage(players=4,city_limit=1)")
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.utility_sum() == 1.0
    scored = pyspiel.load_game("spyglass_espionage(players=4,city_limit=1,reward=score)")
    assert scored.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (scored.min_utility(), scored.max_utility()) == (-1.0, 2.0)
    solo = pyspiel.load_game("spyglass_area-52")
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_score_returns_rank_every_loss_below_every_win() -> None:
    game = pyspiel.load_game("spyglass_sandwich-guy(reward=score)")
    rng = np.random.default_rng(0)
    outcomes = []
    for number in range(12):
        state = deal(game, number)
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        outcomes.append((state.table.state.result.won, state.returns()[0]))
    assert all((1.0 <= r <= 2.0) if won else r == -1.0 for won, r in outcomes)


def test_two_seeded_ismcts_searches_draw_the_same_samples() -> None:
    game = pyspiel.load_game("spyglass_tinker-tailor(players=3)")

    def choices() -> list[int]:
        rs = np.random.RandomState(5)
        evaluator = mcts.RandomRolloutEvaluator(1, rs, max_length=4)
        bot = ismcts.ISMCTSBot(game, evaluator, 1.4, 12, random_state=rs)
        bot.set_resampler(adapter.ismcts_resampler)
        state = deal(game, 77)
        picked = []
        for _ in range(4):
            picked.append(bot.step(state))
            state.apply_action(picked[-1])
        return picked

    assert choices() == choices()
    seeded = adapter.seeded_resampler(4)
    state = deal(game, 77)
    first, second = seeded(state, 0), seeded(state, 0)
    again = adapter.seeded_resampler(4)(state, 0)
    # One seed, one stream: the same samples again; each call of a stream a new one.
    assert first.table.state.digest() == again.table.state.digest()
    assert first.table.state.digest() != second.table.state.digest()
    assert first.information_state_string(0) == second.information_state_string(0)
