"""Every multiplayer game through PettingZoo's own API and seed tests, at two player counts."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

import spyglass
from spyglass.adapters import pettingzoo as adapter

CASES = [
    pytest.param(info.id, n, id=f"{info.id}-{n}p")
    for info in spyglass.games()
    if not info.solo
    for n in sorted(set(info.players))
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_api_and_seed_tests_pass(game_id: str, players: int) -> None:
    api_test(adapter.env(game_id, players=players), num_cycles=25)
    seed_test(lambda: adapter.env(game_id, players=players), num_cycles=25)


def test_a_masked_random_game_pays_the_winners() -> None:
    import numpy as np

    env = adapter.env("espionage", players=3, city_limit=2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, done, truncated, _ = env.last()
        totals[agent] += reward
        action = None if done or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    assert sum(totals.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(("game_id", "players"), [("tinker-tailor", 2), ("espionage", 4)])
def test_the_info_lists_the_legal_actions_of_the_seat_to_move(game_id: str, players: int) -> None:
    env = adapter.raw_env(game_id, players=players)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for step, agent in enumerate(env.agent_iter()):
        obs, _, done, truncated, info = env.last()
        legal = tuple(int(i) for i in np.flatnonzero(obs["action_mask"]))
        assert info["legal_actions"] == legal
        assert legal or done or truncated
        for other in env.agents:  # the others are not asked: nothing is legal for them
            if other != agent:
                assert env.infos[other]["legal_actions"] == ()
        if done or truncated or step >= 60:
            break
        env.step(int(rng.choice(legal)))


def test_only_the_seat_to_move_sees_legal_actions_in_its_mask_until_the_end() -> None:
    """``observe`` gives the mask of the table's legal actions to the seat to move alone, all
    zero to the others and to every seat once the game is over (through the dead steps)."""
    env = adapter.raw_env("espionage", players=3, city_limit=1)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    ended = 0
    for agent in env.agent_iter():
        table = env.table
        assert table is not None
        mover = table.current_player
        for other in env.possible_agents:
            mask = env.observe(other)["action_mask"]
            if mover is not None and other == env.possible_agents[mover]:
                assert other == agent
                legal = env.encoding.legal_indices(table)
                assert list(np.flatnonzero(mask)) == sorted(legal) and legal
            else:
                assert not mask.any()
        _, _, done, truncated, _ = env.last()
        if done or truncated:
            ended += 1
            env.step(None)
            continue
        env.step(int(rng.choice(env.infos[agent]["legal_actions"])))
    assert ended == 3


def test_the_global_state_is_every_seat_observation() -> None:
    # PettingZoo's own state test plays unmasked random actions, which our games refuse; its
    # check of the state space runs as it is.
    from pettingzoo.test.state_test import test_state_space

    env = adapter.env("espionage", players=3, city_limit=1)
    env.reset(seed=2)
    test_state_space(env)
    inner = env.unwrapped
    state = env.state()
    assert env.state_space.contains(state)
    size = inner.encoding.observation_size
    for seat, agent in enumerate(env.possible_agents):
        assert np.array_equal(
            state[seat * size : (seat + 1) * size], env.observe(agent)["observation"]
        )


def test_render_test_passes_in_every_mode() -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: adapter.env("tinker-tailor", render_mode=render_mode))


def test_observations_are_bounded_and_within_their_space() -> None:
    env = adapter.env("tinker-tailor", players=3)
    env.reset(seed=1)
    space = env.observation_space("seat_0")["observation"]
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    for agent in env.agent_iter(max_iter=60):
        obs, _, done, truncated, _ = env.last()
        assert env.observation_space(agent).contains(obs)
        env.step(None if done or truncated else int(np.flatnonzero(obs["action_mask"])[0]))


def test_supersuit_wrappers_and_vectorised_tables() -> None:
    supersuit = pytest.importorskip("supersuit")
    # Rewards squeezed into [0, 1] as many trainers expect, with PettingZoo's checks still green.
    wrapped = supersuit.clip_reward_v0(
        adapter.env("espionage", players=3, city_limit=1, reward="score"), 0.0, 1.0
    )
    api_test(wrapped, num_cycles=20)
    # Several tables stepped together, the way a multi-agent trainer collects experience. The
    # vectorised tables stack arrays, so each observation is flattened with its mask behind it.
    from gymnasium import spaces

    def flat(obs: dict[str, np.ndarray], space: spaces.Space) -> np.ndarray:
        return np.concatenate([obs["observation"], obs["action_mask"].astype(np.float32)])

    def flat_space(space: spaces.Dict) -> spaces.Box:
        parts = (space["observation"], space["action_mask"])
        low = np.concatenate([p.low.astype(np.float32) for p in parts])
        high = np.concatenate([p.high.astype(np.float32) for p in parts])
        return spaces.Box(low, high, dtype=np.float32)

    table = adapter.raw_env("espionage", players=3, city_limit=1)
    actions_n = table.encoding.num_actions
    flattened = supersuit.observation_lambda_v0(table, flat, flat_space)
    vec = supersuit.vectorize_aec_env_v0(flattened, 2)
    vec.reset(seed=5)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(600):
        obs, _, terminations, truncations, *_ = vec.last()
        actions = []
        for k in range(vec.num_envs):
            mask = obs[k][-actions_n:]
            dead = terminations[k] or truncations[k] or not mask.any()
            actions.append(0 if dead else int(rng.choice(np.flatnonzero(mask))))
        vec.step(np.array(actions))
        ended += int(np.sum(terminations))
    assert ended > 0  # tables finished their game (and were dealt a new one)
