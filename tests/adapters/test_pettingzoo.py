"""Every multiplayer game through PettingZoo's own API and seed tests, at two player counts."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

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
