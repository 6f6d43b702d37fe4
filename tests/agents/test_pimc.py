"""Perfect-information Monte Carlo: parameters, fairness, and moves better than the bot's."""

from __future__ import annotations

import pytest

import spyglass
from spyglass import agents
from spyglass.agents.pimc import PIMCAgent
from spyglass.engine import Rng, RulesError, State


def test_load_by_spec_and_bad_parameters_named() -> None:
    agent = agents.load_spec("pimc:samples=8,cutoff=5,evaluator=solver,margin=2", seed=1)
    assert isinstance(agent, PIMCAgent)
    assert (agent.samples, agent.cutoff, agent.evaluator, agent.margin) == (8, 5, "solver", 2.0)
    for params, message in [
        ({"samples": 0}, "at least one sample"),
        ({"milliseconds": 0}, "positive time budget"),
        ({"evaluator": "oracle"}, "evaluator is one of rollout, solver"),
        ({"cutoff": -2}, "cutoff"),
    ]:
        with pytest.raises(RulesError, match=message):
            agents.load("pimc", **params)


def _bot_losing_position() -> tuple[State, str]:
    """A Syndicate position (nothing hidden) where the bot's move leads its own play to a loss
    while another move leads it to a win: the first such decision of a deal the bot loses."""
    game = spyglass.load("syndicate")
    bot = game.spec.bot

    def bot_wins(state: State) -> bool:
        state, rng = state.clone(), Rng(0)
        while not state.is_over:
            state.apply(bot(state, rng))
        return bool(state.result.won)

    for seed in range(40):
        state = game.new_state(seed=seed)
        if bot_wins(state):
            continue
        while not state.is_over:
            choice = bot(state, Rng(0))
            for move in state.legal_actions():
                after = state.clone()
                after.apply(move)
                if move != choice and bot_wins(after):
                    return state, str(choice)
            state.apply(choice)
    raise AssertionError("no such position in 40 deals")


def test_rollouts_find_the_move_after_which_the_bot_wins() -> None:
    state, bot_move = _bot_losing_position()
    agent = agents.load("pimc", seed=3, samples=8)
    move = agent.choose(state.seat(0))
    assert str(move) != bot_move and agent.last_evaluations > 8
    after = state.clone()
    after.apply(move)
    rng = Rng(0)
    while not after.is_over:
        after.apply(state.game.spec.bot(after, rng))
    assert after.result.won


def test_hindsight_over_the_solver_finds_a_winning_move() -> None:
    state, _ = _bot_losing_position()
    move = agents.load("pimc", seed=3, samples=4, evaluator="solver", solve_ms=5000).choose(
        state.seat(0)
    )
    after = state.clone()
    after.apply(move)
    assert spyglass.agents.solvers.bound(after, seconds=60).won


def test_too_few_samples_keep_the_bot_s_move() -> None:
    state, bot_move = _bot_losing_position()
    # Syndicate's bot reads only the table, so its move is the same on any sample.
    assert str(agents.load("pimc", seed=3, samples=3).choose(state.seat(0))) == bot_move


def test_the_agent_sees_only_determinizations(monkeypatch) -> None:
    seen: list[State] = []
    spec = spyglass.load("sandwich-guy").spec
    original = spec.bot

    def spy(state: State, rng):
        seen.append(state)
        return original(state, rng)

    monkeypatch.setattr(type(spec), "bot", property(lambda self: spy), raising=False)
    state = spyglass.load("sandwich-guy").new_state(seed=4)
    agents.load("pimc", seed=0, samples=4).choose(state.seat(0))
    assert seen and all(s.determinized and s.seed is None for s in seen)


def test_same_seed_same_moves_and_a_time_cap() -> None:
    state = spyglass.load("tinker-sailor-soldier-spy").new_state(seed=2)
    first = [agents.load("pimc", seed=5, samples=6).choose(state.seat(0)) for _ in range(2)]
    assert first[0] == first[1]
    capped = agents.load("pimc", seed=5, samples=10**6, milliseconds=50)
    assert capped.choose(state.seat(0)) in state.legal_actions()
    assert capped.last_evaluations < 10**6
