"""Espionage's tuned policy: a prior counted from the cards seen, evidence fitted to the bot's
play and reproducible from it, nothing read that the seat does not know, and its place in the
strength run."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from benchmarks import strength

import spyglass
from spyglass import agents
from spyglass.agents.policies import espionage as policy_module
from spyglass.components import parse_card
from spyglass.engine import Rng, RulesError
from spyglass.games.espionage import bot
from spyglass.games.espionage.meanings import Role
from tests.games.test_espionage import HANDS, ROLES, city

RESULTS = Path(strength.__file__).parent / "results" / "strength.jsonl"


def test_the_prior_counts_the_role_cards_the_seat_has_not_seen() -> None:
    # Seat 1 is the spy master (Q♦) holding 2♥ 4♣ 10♥ J♦ K♥: of the six red faces it has seen
    # three, so three of the 46 cards it has not seen deal a spy master (the bot's prior keeps
    # five of 51, all but its own).
    state = city(ROLES, HANDS)
    counted = bot.beliefs(state, 1, policy_module.fitted, counted=True)[3]
    unseen = {
        Role.SPY: 18,  # 20 red numbers but 2♥ 10♥
        Role.SPY_MASTER: 3,
        Role.COUNTER_ESPIONAGE: 13,
        Role.DOUBLE_AGENT: 3,
        Role.CIVILIAN: 9,  # 10 club numbers but 4♣
    }
    assert counted == pytest.approx({r: n / 46 for r, n in unseen.items()})
    assert bot.beliefs(state, 1)[3][Role.SPY_MASTER] == pytest.approx(5 / 51)


def test_the_fitted_evidence_reads_a_rejection_as_the_bot_plays() -> None:
    # The spy (seat 0) rejects the spy master (seat 1) with A♠. The bot's own model makes a
    # rejection a little likelier from a spy master than from a spy (4 to 3); counted over the
    # bot's play, spy masters almost never reject, so the fitted evidence all but rules one out.
    state = city(ROLES, HANDS)
    state.apply("AS on 1")
    written = bot.beliefs(state, 1)[0]
    fitted = bot.beliefs(state, 1, policy_module.fitted, counted=True)[0]
    chance = policy_module.CHANCES[Role.SPY_MASTER, "rejection"]  # by the giver's role
    unseen = {  # the A♠ now seen too: 12 spades unseen of 45
        Role.SPY: 18,
        Role.SPY_MASTER: 3,
        Role.COUNTER_ESPIONAGE: 12,
        Role.DOUBLE_AGENT: 3,
        Role.CIVILIAN: 9,
    }
    weights = {r: n * chance[r] for r, n in unseen.items()}
    # one of each kind added to the counts: a spy master's 2 rejections of 653 plays on one
    master = policy_module.COUNTS[Role.SPY_MASTER][1]
    assert chance[Role.SPY_MASTER] == (master[2] + 1) / (sum(master) + 4) == 3 / 657
    total = sum(weights.values())
    assert fitted == pytest.approx({r: w / total for r, w in weights.items()})
    assert fitted[Role.SPY_MASTER] < 0.002 < 5 / 51 < written[Role.SPY_MASTER]
    assert fitted[Role.SPY] > written[Role.SPY]
    # a card of no meaning (8♣) is evidence too under the fitted model, never under the bot's
    eight = parse_card("8C")
    assert set(bot.written(eight, Role.SPY).values()) == {1.0}
    said = policy_module.fitted(eight, Role.SPY)
    assert said == policy_module.CHANCES[Role.SPY, "nothing"]
    assert said[Role.CIVILIAN] > 2 * said[Role.SPY]


def test_the_evidence_is_the_count_of_the_bot_s_own_plays() -> None:
    assert policy_module.fit_counts() == policy_module.COUNTS
    # every giver's plays on each receiver, of every kind: a spy master's rejections are rare
    master = policy_module.COUNTS[Role.SPY_MASTER]
    assert sum(kinds[2] for kinds in master) < 0.002 * sum(map(sum, master))


def test_the_policy_reads_only_what_its_seat_knows() -> None:
    # At every decision of a game, two different deals of what the seat cannot see give the
    # same move (same dice): the policy reads its role, its hand and the cards played to and by
    # it, nothing else. It is not the bot's line either.
    game = spyglass.load("espionage")
    state = game.new_state(players=4, seed=3)
    policy = policy_module.Policy()
    decisions = differs = 0
    while not state.is_over and decisions < 120:
        seat = state.seat(state.current_player)
        one, two = seat.determinize(Rng(1), log=False), seat.determinize(Rng(2), log=False)
        assert one.hands != two.hands or one.role_cards != two.role_cards
        move = policy(one, Rng(decisions))
        assert move == policy(two, Rng(decisions))
        differs += move != bot.choose(one, Rng(decisions))
        state.apply(move)
        decisions += 1
    assert decisions == 120 and differs > 10


def test_the_policy_s_weights_can_be_replaced_and_are_checked() -> None:
    assert set(policy_module.WEIGHTS) == set(bot.WEIGHTS)
    policy = policy_module.Policy({"spy_to_agent": 0})
    assert policy.weights["spy_to_agent"] == 0.0
    assert policy.weights["expected_secret"] == policy_module.WEIGHTS["expected_secret"]
    with pytest.raises(RulesError, match="the espionage policy has no weight 'draws'"):
        policy_module.Policy({"draws": 1.0})
    state = spyglass.load("espionage").new_state(players=5, seed=2)
    move = agents.load("tuned", seed=0, agent_repeat=3).choose(state.seat(state.current_player))
    assert move in state.legal_actions()


def test_the_strength_run_plays_the_cheap_candidate_on_more_tables() -> None:
    args = SimpleNamespace(seed=2026, players=4, versus_tables=400)
    info = spyglass.load("espionage").info
    parts = strength.Planner(args, [info], [10, 40]).versus()
    tuned = [json.loads(p.key) for p in parts if "tuned" in p.label[:2]]
    ismcts = [json.loads(p.key) for p in parts if "tuned" not in p.label[:2]]
    assert sum(k[-2] for k in tuned) == 400 * strength.CHEAP_TABLES
    assert all(k[-1] == f"espionage:{policy_module.VERSION}" for k in tuned)
    assert sum(k[-1] for k in ismcts) == 400
    # the ISMCTS candidate's tables keep the keys its committed results were kept under
    kept = {json.loads(line)["key"] for line in RESULTS.read_text().splitlines()}
    assert all(p.key in kept for p in parts if "tuned" not in p.label[:2])
