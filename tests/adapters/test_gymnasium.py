"""Every solo game through Gymnasium: gymnasium.make, check_env, masks and rewards."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import spyglass  # noqa: E402
from spyglass.adapters import gymnasium as adapter  # noqa: E402

SOLO = [info.id for info in spyglass.games() if info.solo]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game_id", SOLO)
def test_check_env_passes(game_id: str) -> None:
    env = gymnasium.make(f"spyglass/{game_id}-v0", render_mode="ansi")
    check_env(env.unwrapped)
    env.reset(seed=1)
    assert spyglass.load(game_id).info.title in env.render()


@pytest.mark.parametrize("game_id", SOLO)
def test_stable_baselines3_check_env_and_the_passive_checker_pass(game_id: str) -> None:
    import warnings

    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(adapter.SpyglassEnv(game_id), warn=True)
    # gymnasium.make wraps the passive checker around the environment: no warning at all.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(f"spyglass/{game_id}-v0")
        _, info = env.reset(seed=2)
        for _ in range(3):
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(legal[0]) if len(legal) else 0)
            if done:
                break


@pytest.mark.parametrize("game_id", SOLO)
def test_a_masked_random_agent_finishes_with_a_win_or_loss(game_id: str) -> None:
    env = gymnasium.make(f"spyglass/{game_id}-v0")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=7)
    total, done, steps = 0.0, False, 0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        # The info lists the same actions, so that a client need not scan the mask.
        assert info["legal_actions"] == tuple(int(i) for i in legal)
        action = int(rng.choice(legal)) if len(legal) else 0
        obs, reward, done, _truncated, info = env.step(action)
        assert obs.shape == env.observation_space.shape
        total += reward
        steps += 1
    assert "illegal_action" not in info
    assert total == (1.0 if info["won"] else 0.0)
    assert steps <= spyglass.load(game_id).max_actions()


def test_the_module_prefix_registers_the_games() -> None:
    env = gymnasium.make("spyglass.adapters.gymnasium:spyglass/emissary-v0")
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape


def test_same_seed_same_deal_and_score_reward() -> None:
    a = gymnasium.make("spyglass/area-52-v0", reward="score")
    b = gymnasium.make("spyglass/area-52-v0", reward="score")
    oa, info = a.reset(seed=3)
    ob, _ = b.reset(seed=3)
    assert np.array_equal(oa, ob)
    rng = np.random.default_rng(3)
    done, reward = False, 0.0
    while not done:
        _, reward, done, _, info = a.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    # Area 52 scores every game; this one is lost in wave 1 with 14 aliens to come (50 more
    # off for wave 1): its place in the range of a lost game's score (-76 to -1), less 1.
    assert (info["won"], info["score"]) == (False, -64.0)
    assert reward == pytest.approx((-64 + 76) / 75 - 1)


@pytest.mark.parametrize("game_id", ["sandwich-guy", "syndicate"])
def test_score_reward_pays_winning_over_losing_where_lower_scores_are_better(
    game_id: str,
) -> None:
    """The issue's case: a loss has no score, a win a low one; the win must pay more."""
    from spyglass.engine import Rng

    env = adapter.SpyglassEnv(game_id, reward="score")
    bot, rng = env.game.spec.bot, Rng(0)
    paid: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(16):
        _, info = env.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            state = env.state
            assert state is not None and bot is not None
            # Half the deals at random, half by the heuristic (which wins most of them).
            if state.is_over:
                action = 0
            elif seed % 2:
                action = env.encoding.index(bot(state.determinize(0, rng), rng))
            else:
                action = env.encoding.index(rng.choice(state.legal_actions()))
            _, reward, done, _, info = env.step(action)
        paid[bool(info["won"])].append(reward)
        if info["won"]:
            lo, hi = spyglass.load(game_id).spec.encoding({}, 1).scoring.won
            # Fewer is better: the best score (lo) pays 2, the worst (hi) pays 1.
            assert reward == pytest.approx(1 + (hi - min(max(info["score"], lo), hi)) / (hi - lo))
    assert paid[False] and set(paid[False]) == {-1.0}
    assert paid[True] and min(paid[True]) >= 1.0


def test_observations_lie_in_bounded_spaces() -> None:
    for game_id in SOLO:
        space = gymnasium.make(f"spyglass/{game_id}-v0").observation_space
        assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
        assert (space.low <= space.high).all()


def test_vector_environments_sync_and_async() -> None:
    for mode in ("sync", "async"):
        envs = gymnasium.make_vec("spyglass/area-52-v0", num_envs=2, vectorization_mode=mode)
        try:
            obs, info = envs.reset(seed=[5, 6])
            assert obs.shape == (2, *envs.single_observation_space.shape)
            assert info["action_mask"].shape == (2, envs.single_action_space.n)
            rng = np.random.default_rng(1)
            finished = 0
            for _ in range(200):
                masks = info["action_mask"]
                actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
                obs, _, done, _, info = envs.step(np.array(actions))
                finished += int(done.sum())
                assert envs.single_observation_space.contains(obs[0])
            assert finished >= 2  # Area 52 games last some 40 steps: several ended and reset
        finally:
            envs.close()
    # Each copy keeps its own deals: the same seeds give the same first observations.
    one = gymnasium.make_vec("spyglass/area-52-v0", num_envs=2, vectorization_mode="sync")
    two = gymnasium.make_vec("spyglass/area-52-v0", num_envs=2, vectorization_mode="async")
    try:
        assert np.array_equal(one.reset(seed=[5, 6])[0], two.reset(seed=[5, 6])[0])
    finally:
        one.close()
        two.close()


def test_human_rendering_writes_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make("spyglass/hide-and-seek-v0", render_mode="human")
    env.reset(seed=1)
    assert "Hide and Seek" in capsys.readouterr().out
    assert env.render() is None


def test_an_illegal_index_ends_the_episode_with_the_penalty() -> None:
    env = gymnasium.make("spyglass/area-52-v0", illegal_reward=-5.0)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-5.0, True, True)


def test_a_deal_lost_before_any_move_ends_on_the_first_step() -> None:
    env = adapter.SpyglassEnv("sandwich-guy")
    _, info = env.reset(seed=526)  # an opening hand with no sandwich in it
    assert not info["action_mask"].any()
    assert env.state is not None and env.state.is_over
    _, reward, done, _, info = env.step(0)
    assert (reward, done, info["won"]) == (0.0, True, False)
    with pytest.raises(spyglass.RulesError, match="reset"):
        env.step(0)


def test_a_multiplayer_game_is_pointed_to_pettingzoo() -> None:
    with pytest.raises(spyglass.RulesError, match="pettingzoo"):
        adapter.SpyglassEnv("espionage")


def test_the_end_of_an_episode_works_out_the_result_once() -> None:
    """Skyway's result searches the grid for each suit's longest run: the step that ends the
    episode asks the state for it once, for the reward and the info alike (it asked four
    times), and reports the same outcome as the state's own result."""
    env = adapter.SpyglassEnv("skyway", reward="score")
    _, info = env.reset(seed=4)
    state = env.state
    assert state is not None
    calls = 0
    result_of = state._result

    def counted() -> spyglass.Result:
        nonlocal calls
        calls += 1
        return result_of()

    state._result = counted  # type: ignore[method-assign]
    rng = np.random.default_rng(4)
    done, reward = False, 0.0
    while not done:
        _, reward, done, _, info = env.step(int(rng.choice(info["legal_actions"])))
    assert calls == 1
    result = result_of()
    assert (info["won"], info["score"], info["legal_actions"]) == (result.won, result.score, ())
    assert not info["action_mask"].any()
    # Seed 4's random agent loses: a lost Skyway has no score range, so the floor of a loss.
    assert (result.won, reward) == (False, -1.0)
