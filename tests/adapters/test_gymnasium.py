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
def test_a_masked_random_agent_finishes_with_a_win_or_loss(game_id: str) -> None:
    env = gymnasium.make(f"spyglass/{game_id}-v0")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=7)
    total, done, steps = 0.0, False, 0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
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
    # Area 52 scores every game (negative when it is lost), higher being better.
    assert info["score"] is not None
    assert reward == info["score"] != 0.0


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
