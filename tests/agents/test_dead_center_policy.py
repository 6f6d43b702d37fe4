"""Dead Center's tuned policy: the bot's own search with other weights, reading only what the
player sees, and its place in the strength run."""

from __future__ import annotations

import pytest
from benchmarks import strength

import spyglass
from spyglass import agents
from spyglass.agents.policies import dead_center as policy_module
from spyglass.engine import Rng, RulesError
from spyglass.games.dead_center import bot


def test_the_policy_plays_the_bot_s_search_with_its_own_weights() -> None:
    assert set(policy_module.WEIGHTS) == set(bot.WEIGHTS)
    game = spyglass.load("dead-center")
    policy = policy_module.Policy()
    same_as_bot = policy_module.Policy(dict(bot.WEIGHTS))
    decisions = differs = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        while not state.is_over:
            seat = state.seat(0)
            one, two = seat.determinize(Rng(1), log=False), seat.determinize(Rng(2), log=False)
            move = policy(one, Rng(decisions))
            # what the player cannot see (the deck's order) changes nothing
            assert move == policy(two, Rng(decisions))
            # with the bot's weights it is the bot, move for move
            assert same_as_bot(one, Rng(decisions)) == bot.choose(one, Rng(decisions))
            differs += move != bot.choose(one, Rng(decisions))
            state.apply(move)
            decisions += 1
    assert differs > 0  # the weights change some decisions


def test_the_weights_reach_the_value_and_are_checked() -> None:
    # the chance that the next card fits no pile costs more when its weight grows: never
    # less, and less wherever some card the deck may hold would fit no pile
    heavy = {**bot.WEIGHTS, "stuck": 10 * bot.WEIGHTS["stuck"]}
    lower = 0
    for seed in range(4, 6):  # (a card that fits no pile is rare: 4 of these 111 positions)
        state = spyglass.load("dead-center").new_state(seed=seed)
        while not state.is_over:
            tops, alive = state.tops(), state.alive
            plain = bot.Judge(state).expected(tops, alive)
            heavier = bot.Judge(state, heavy).expected(tops, alive)
            assert heavier <= plain + 1e-9
            lower += heavier < plain - 1e-9
            state.apply(bot.choose(state, Rng(0)))
    assert lower > 0
    state = spyglass.load("dead-center").new_state(seed=3)
    with pytest.raises(RulesError, match="the dead-center policy has no weight 'draws'"):
        policy_module.Policy({"draws": 1.0})
    move = agents.load("tuned", seed=0, stuck=200).choose(state.seat(0))
    assert move in state.legal_actions()
    assert strength.policy_tag("dead-center", "tuned") == f"dead_center:{policy_module.VERSION}"
