"""The Spies!' tuned policy: the bot's own decisions with its worths searched again, reading
only what the seat knows, and its place in the strength run."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from benchmarks import strength

import spyglass
from spyglass import agents
from spyglass.agents.policies import spies as policy_module
from spyglass.engine import Rng, RulesError
from spyglass.games.spies import bot
from spyglass.games.spies.bot.context import Context
from spyglass.games.spies.bot.tiles import _awards


def test_the_policy_reads_only_what_its_seat_knows_and_is_the_bot_with_its_weights() -> None:
    # At every decision of the first part of a four-player game (set-up, tiles, police, spies'
    # moves, answers), two deals of what the seat cannot see (face-down pieces and Secrets,
    # other hands) give the same move; with the bot's own weights it is the bot, move for move.
    game = spyglass.load("spies")
    state = game.new_state(players=4, seed=5)
    policy = policy_module.Policy()
    as_bot = policy_module.Policy(dict(bot.WEIGHTS))
    decisions = differs = 0
    while not state.is_over and decisions < 400:
        seat = state.seat(state.current_player)
        one, two = seat.determinize(Rng(1), log=False), seat.determinize(Rng(2), log=False)
        move = policy(one, Rng(decisions))
        assert move == policy(two, Rng(decisions))
        assert as_bot(one, Rng(decisions)) == bot.choose(one, Rng(decisions))
        differs += move != bot.choose(one, Rng(decisions))
        state.apply(move)
        decisions += 1
    assert decisions == 400 and differs > 0


def test_the_weights_reach_the_valuations() -> None:
    state = spyglass.load("spies").new_state(players=4, seed=1)
    power = state.power
    own = Context(state, power)
    heavy = Context(state, power, {**bot.WEIGHTS, "chit": 5.0, "pound": 0.5})
    # cashing a foreign Secret: the £20 and a chit besides its points
    assert own.cash_worth() == pytest.approx(20 * 0.25 + 2.0)
    assert heavy.cash_worth() == pytest.approx(20 * 0.5 + 5.0)
    # a tile that draws chits is worth its count of chits more to a power that prizes them
    tile = next(t for t in state.edition.tiles if t.effect and t.effect.kind == "draw_chits")
    assert _awards(heavy, tile) - _awards(own, tile) == pytest.approx(3.0 * tile.effect.count)
    # a spy's worth for the rest of the game counts in every spy it weighs
    while not state.board.spies:
        state.apply(bot.choose(state, Rng(0)))
    spy = next(iter(state.board.spies.values()))
    own, more = Context(state, spy.power), Context(state, spy.power, {**bot.WEIGHTS, "spy": 9.0})
    assert own.spy_worth(spy.label) == pytest.approx(spy.strength * own.mult + 5.0)
    assert more.spy_worth(spy.label) - own.spy_worth(spy.label) == pytest.approx(4.0)


def test_the_policy_s_weights_can_be_replaced_and_are_checked() -> None:
    assert set(policy_module.WEIGHTS) == set(bot.WEIGHTS)
    assert policy_module.Policy({"chit": 1}).weights["chit"] == 1.0
    with pytest.raises(RulesError, match="the spies policy has no weight 'draws'"):
        policy_module.Policy({"draws": 1.0})
    state = spyglass.load("spies").new_state(players=4, seed=2)
    move = agents.load("tuned", seed=0, chit=3).choose(state.seat(state.current_player))
    assert move in state.legal_actions()
    assert strength.policy_tag("spies", "tuned") == f"spies:{policy_module.VERSION}"


def test_the_strength_run_plays_the_policy_seat_for_seat_on_many_tables() -> None:
    args = SimpleNamespace(seed=2026, players=4, versus_tables=400)
    info = spyglass.load("spies").info
    parts = strength.Planner(args, [info], [10, 40]).versus()
    keys = [json.loads(p.key) for p in parts]
    assert keys and all("tuned" in p.label[:2] for p in parts)
    assert sum(k[-2] for k in keys) == 400 * strength.CHEAP_TABLES
    assert all(k[-1] == f"{strength.REVISED['spies']} spies:{policy_module.VERSION}" for k in keys)
    seats = {tuple(k[4]) for k in keys}  # the two alternate round the table, each first in turn
    assert seats == {("heuristic", "tuned") * 2, ("tuned", "heuristic") * 2}
