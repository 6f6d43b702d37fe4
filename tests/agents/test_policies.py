"""Tuned policies: what they read off a position, the moves they must make, the agent that
plays them, and rollouts with them."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest
from benchmarks import strength

import spyglass
from spyglass import agents
from spyglass.agents import policies
from spyglass.agents.policies import sandwich_guy as policy_module
from spyglass.agents.tuned import TunedAgent
from spyglass.components.cards import Card, parse_cards
from spyglass.engine import Rng, RulesError, State
from spyglass.lab import simulate


def _mask(text: str) -> int:
    mask = 0
    for card in parse_cards(text):
        mask |= 1 << card
    return mask


def test_the_cards_kept_are_read_exactly() -> None:
    # A♠ 2♠ 3♠ 4♥ 9♣ hold four sandwiches: A 2 3 (one suit: draws 4), 2 3 4, 4 9 A (step 5)
    # and 3 9 2 (step 6); every rank completes one of their pairs; three pairs of spades and
    # six pairs of black cards (the four black ones).
    has, wanted, sandwiches, best, by_suit, by_colour, suit_pairs, colour_pairs = (
        policy_module.kept(_mask("AS 2S 3S 4H 9C"))
    )
    assert (has, sandwiches, best, suit_pairs, colour_pairs) == (True, 4, 4, 3, 6)
    assert wanted == sum(1 << rank for rank in range(1, 14))
    # A♠ 3♠ wants a 2 (A 2 3) or a 5 (A 3 5) or a Q (Q A 3): of spades for one suit,
    # of clubs for one colour
    a3 = 1 << 2 | 1 << 5 | 1 << 12
    assert (a3, 0) in by_suit and (a3, 2) in by_colour and (a3, 0) not in by_colour
    # no sandwich in 5♥ 6♦ J♣, no pair of one suit, and one pair of one colour (the red cards)
    has, _, sandwiches, best, by_suit, _, suit_pairs, colour_pairs = policy_module.kept(
        _mask("5H 6D JC")
    )
    assert (has, sandwiches, best, by_suit, suit_pairs, colour_pairs) == (False, 0, 0, (), 0, 1)


def test_survival_is_the_chance_that_the_draw_completes_a_pair() -> None:
    # Keeping 5♥ 6♦ (wants a 4, a 7, or a Q: 6 Q 5 has step 6) with a deck of 10 cards holding
    # 4♠ 7♣ and eight that complete nothing (kings and tens), drawing 2: 1 - C(8, 2) / C(10, 2).
    deck = parse_cards("4S 7C KS KH KC KD TS TH TC TD")
    ranks = [0] * 14
    suits = [0, 0, 0, 0]
    for card in deck:
        ranks[Card(card).rank] += 1
        suits["SHCD".index(Card(card).suit)] |= 1 << Card(card).rank
    values = policy_module.features(_mask("5H 6D"), 2, ranks, suits, len(deck))
    named = dict(zip(policy_module.WEIGHTS, values, strict=True))
    assert named["survival"] == pytest.approx(1 - math.comb(8, 2) / math.comb(10, 2))
    assert named["outs"] == pytest.approx(2 / 10)
    # 5♥ 6♦ is a pair of one colour: a red 4 or 7 would make a one-colour sandwich; none left
    assert named["colour_outs"] == 0.0 and named["suit_outs"] == 0.0
    assert (named["draws"], named["sandwiches"], named["best_draw"]) == (2.0, 0.0, 0.0)


def _position_with_a_last_draw() -> State:
    """A Sandwich Guy position in which one sandwich draws the deck's last cards and another
    does not."""
    game = spyglass.load("sandwich-guy")
    rng = Rng(0)
    for seed in range(200):
        state = game.new_state(seed=seed)
        while not state.is_over and not state.deck_done:
            room = 8 - (len(state.hand) - 3)
            wins = [
                len(state.deck) <= min(room, policy_module.DRAWS[policy_module.quality(m.cards)])
                for m in state.legal_actions()
            ]
            if any(wins) and not all(wins):
                return state
            state.apply(game.spec.bot(state, rng))
    raise AssertionError("no such position in 200 deals")


def test_a_sandwich_that_draws_the_last_card_is_always_played() -> None:
    state = _position_with_a_last_draw()
    # weights that would rather keep cards than draw them: the win comes first all the same
    perverse = policy_module.Policy({"draws": -100.0, "survival": -100.0})
    move = perverse(state, Rng(1))
    state.apply(move)
    assert state.deck_done  # the last card is drawn: won


def test_the_tuned_policy_wins_more_deals_than_the_bot() -> None:
    # the same 200 deals (the lab's seeds), every game played to its end: 31 deals only the
    # tuned policy wins, 12 only the bot (exact McNemar p = 0.0054)
    tuned = simulate("sandwich-guy", "tuned", 200, seed=7)
    bot = simulate("sandwich-guy", "heuristic", 200, seed=7)
    won = [o.won for o in tuned.outcomes]
    heuristic = [o.won for o in bot.outcomes]
    assert (sum(won), sum(heuristic)) == (177, 158)
    only_tuned = sum(1 for a, b in zip(won, heuristic, strict=True) if a and not b)
    only_bot = sum(1 for a, b in zip(won, heuristic, strict=True) if b and not a)
    assert (only_tuned, only_bot) == (31, 12)


def test_weights_are_parameters_and_unknown_ones_are_named() -> None:
    agent = agents.load_spec("tuned:draws=3,suit_outs=0", seed=1)
    assert isinstance(agent, TunedAgent)
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    play = agent.policy(state.seat(0))
    assert isinstance(play, policy_module.Policy)
    order = list(policy_module.WEIGHTS)
    assert play.weights[order.index("draws")] == 3.0
    assert play.weights[order.index("suit_outs")] == 0.0
    assert play.weights[order.index("survival")] == policy_module.WEIGHTS["survival"]
    with pytest.raises(RulesError, match="no weight 'luck'; its weights: survival, draws"):
        policy_module.Policy({"luck": 1.0})
    # a name no tuned policy has is refused before any game is played
    with pytest.raises(RulesError, match="no tuned policy has a weight 'luck'"):
        agents.load("tuned", luck=1)
    other = spyglass.load("syndicate").new_state(seed=1)
    with pytest.raises(RulesError, match="syndicate has no tuned policy to give weights to"):
        agents.load("tuned", draws=1).choose(other.seat(0))


def test_without_a_tuned_policy_the_agent_plays_the_bot() -> None:
    state = spyglass.load("syndicate").new_state(seed=4)
    tuned = agents.load("tuned", seed=2)
    heuristic = agents.load("heuristic", seed=2)
    while not state.is_over:
        move = tuned.choose(state.seat(0))
        assert move == heuristic.choose(state.seat(0))
        state.apply(move)
    assert policies.version("syndicate") == ""
    assert policies.version("sandwich-guy") == f"sandwich_guy:{policy_module.VERSION}"


def test_the_agent_gives_the_policy_only_a_determinization(states_given) -> None:
    seen = states_given(policy_module.Policy)
    state = spyglass.load("sandwich-guy").new_state(seed=4)
    agents.load("tuned", seed=0).choose(state.seat(0))
    agents.load("pimc", seed=0, samples=4, policy="tuned").choose(state.seat(0))
    assert seen and all(s.determinized and s.seed is None for s in seen)


def test_pimc_rolls_out_with_the_tuned_policy_and_keeps_its_move_on_little_evidence() -> None:
    game = spyglass.load("sandwich-guy")
    state = game.new_state(seed=11)
    policy = policies.policy("sandwich-guy", game.spec.bot)
    differs = 0
    while not state.is_over and not state.deck_done:
        seat = state.seat(0)
        chosen = agents.load("pimc", seed=1, samples=3, policy="tuned").choose(seat)
        assert chosen == policy(state, Rng(0))  # three samples are too few to leave it
        differs += chosen != game.spec.bot(state, Rng(0))
        state.apply(chosen)
    assert differs  # and it is not the bot's line
    with pytest.raises(RulesError, match="policy is one of bot, tuned"):
        agents.load("pimc", policy="oracle")


def test_the_strength_run_names_the_policy_version_in_a_part_s_key() -> None:
    tag = f"sandwich_guy:{policy_module.VERSION}"
    assert strength.policy_tag("sandwich-guy", "tuned") == tag
    assert strength.policy_tag("sandwich-guy", "pimc:samples=16,policy=tuned") == tag
    assert strength.policy_tag("sandwich-guy", "pimc:samples=16") == ""
    assert strength.policy_tag("syndicate", "tuned") == ""


def test_the_strength_run_keys_name_revised_rules_and_leave_other_keys_alone() -> None:
    args = SimpleNamespace(seed=2026, seconds=2.0, deals=10, players=4, table_games=0)
    infos = [spyglass.load(g).info for g in ("loot-the-loop", "sandwich-guy")]
    planner = strength.Planner(args, infos, [10, 40])
    loot = planner.search("loot-the-loop", "heuristic", 0, 2)[0].key
    assert json.loads(loot)[-1] == "rules:b509964"
    bound = json.loads(planner.search("loot-the-loop", None, 0, 2)[0].key)
    # the game's own solver and its version, then the rules revision
    assert bound[2] == "solver_chunk" and bound[-1] == "loot_the_loop:1 rules:b509964"
    fixed = [json.loads(p.key) for p in planner.fixed()[:4]]
    assert all(k[-1] == "rules:b509964" for k in fixed if k[1] == "loot-the-loop")
    # the keys the committed results were kept under, for a game whose rules did not change
    assert ["solo", "sandwich-guy", "solo_chunk", "sandwich-guy", "random", 2026, 0, 10] in fixed
    tuned = json.loads(planner.search("sandwich-guy", "tuned", 0, 2)[0].key)
    assert tuned[-1] == f"sandwich_guy:{policy_module.VERSION}"
