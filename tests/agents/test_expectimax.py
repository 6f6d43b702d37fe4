"""Expectimax over the next card: exact expectations, only the seat's knowledge, parameters."""

from __future__ import annotations

import pytest

import spyglass
from spyglass import agents
from spyglass.agents.expectimax import ExpectimaxAgent, _Search, leaf_value
from spyglass.engine import Rng, RulesError, State
from spyglass.games.boba_tea import bot as boba_bot
from spyglass.games.dead_center import bot as dead_center_bot
from spyglass.games.foursquare import bot as foursquare_bot
from spyglass.games.skyway import bot as skyway_bot


def test_load_by_spec_and_bad_parameters_named() -> None:
    agent = agents.load_spec("expectimax:depth=3,width=2,samples=4,leaf=evaluation", seed=1)
    assert isinstance(agent, ExpectimaxAgent)
    assert (agent.depth, agent.width, agent.samples, agent.leaf) == (3, 2, 4, "evaluation")
    for params, message in [
        ({"depth": 0}, "depth of 1 or more"),
        ({"width": 0}, "width of 1 or more"),
        ({"samples": 0}, "at least one sample"),
        ({"milliseconds": 0}, "positive time budget"),
        ({"leaf": "oracle"}, "leaf is one of bot, evaluation"),
    ]:
        with pytest.raises(RulesError, match=message):
            agents.load("expectimax", **params)
    with pytest.raises(RulesError, match="solo games"):
        agents.load("expectimax").choose(spyglass.load("espionage").new_state(seed=1).seat(0))


def _brute_force(state: State, action, leaf) -> float:
    """The mean of ``leaf`` after ``action`` over every card of the deck drawn next, one by one
    (no card grouped with another)."""
    total = 0.0
    size = len(state.deck)
    for index in range(size):
        child = state.clone()
        child.deck.append(child.deck.pop(index))
        child.apply_legal(action)
        total += leaf(child)
    return total / size


def _rude_boba_state() -> State:
    """A Boba Tea position with a rude customer waiting for stay or kick (the bot's game)."""
    game = spyglass.load("boba-tea")
    for seed in range(20):
        state, rng = game.new_state(seed=seed), Rng(0)
        while not state.is_over:
            if state.held is not None:
                return state
            state.apply(game.spec.bot(state, rng))
    raise AssertionError("no rude customer in 20 deals")


@pytest.mark.parametrize("game_id", ["foursquare", "boba-tea", "dead-center", "skyway"])
def test_each_next_card_is_weighed_by_its_share_of_the_deck(game_id: str) -> None:
    """Cards of one kind (one rank in Foursquare and Boba Tea, one card in Dead Center) are
    grouped, and each kind weighs its count: the same as drawing every card in turn."""
    state = spyglass.load(game_id).new_state(seed=3)
    leaf = leaf_value(state.seat(0), "bot" if game_id != "dead-center" else "evaluation")
    search = _Search(leaf, agents.expectimax.KINDS.get(game_id), width=4)
    moves = state.legal_actions()
    values = [search.chance(state, move, 1) for move in moves]
    assert values == pytest.approx([_brute_force(state, m, leaf) for m in moves], abs=1e-12)
    if game_id != "dead-center":  # (its first decisions, which zombie to reveal, score alike)
        assert len(set(values)) > 1  # the moves are told apart
    if game_id in agents.expectimax.KINDS:
        # grouped: fewer leaves than moves times cards in the deck
        assert search.positions < len(moves) * len(state.deck) / 2


def test_a_move_that_draws_nothing_has_one_outcome() -> None:
    state = _rude_boba_state()
    stay, kick = state.legal_actions()
    assert (stay.kind, kick.kind) == ("stay", "kick")
    search = _Search(boba_bot.value, agents.expectimax.KINDS["boba-tea"], width=4)
    after = state.clone()
    after.apply_legal(stay)
    assert search.chance(state, stay, 1) == boba_bot.value(after)
    assert search.positions == 1
    # a kick draws twice: the first card is enumerated (the second comes from the sample)
    assert search.chance(state, kick, 1) != boba_bot.value(after)
    assert search.positions > 2


def test_the_order_of_the_deck_is_never_read() -> None:
    """One draw ahead, the choice depends on the deck's contents only: two deals that differ
    only in the order of the unseen deck get the same move."""
    game = spyglass.load("foursquare")
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = Rng(seed)
        for _ in range(6):  # into the game, so that the grid has choices
            state.apply(game.spec.bot(state, rng))
        other = state.clone()
        other.deck.reverse()
        assert state.seat(0).view == other.seat(0).view
        choices = [
            agents.load("expectimax", seed=1, depth=1).choose(st.seat(0)) for st in (state, other)
        ]
        assert choices[0] == choices[1]


def test_the_agent_sees_only_determinizations(monkeypatch) -> None:
    seen: list[State] = []
    original = foursquare_bot.value

    def spy(state: State) -> float:
        seen.append(state)
        return original(state)

    monkeypatch.setattr(foursquare_bot, "value", spy)
    state = spyglass.load("foursquare").new_state(seed=4)
    agent = agents.load("expectimax", seed=0, depth=1)
    assert agent.choose(state.seat(0)) in state.legal_actions()
    assert seen and all(s.determinized and s.seed is None for s in seen)
    assert agent.last_positions == len(seen)


def test_a_deeper_value_is_never_compared_with_a_shallower_one() -> None:
    """Two decisions deep, a position is worth the best of its ``width`` best moves searched
    that deep: a pruned move's one-decision value (which looks less far, and is often rosier)
    does not stand in for it, even where it is higher."""
    game = spyglass.load("boba-tea")
    search = _Search(boba_bot.value, agents.expectimax.KINDS["boba-tea"], width=2)
    for seed in range(6):
        state, rng = game.new_state(seed=seed), Rng(0)
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) > 3:
                one = {a.text: search.chance(state, a, 1) for a in legal}
                top = sorted(legal, key=lambda a: -one[a.text])[:2]
                deeper = max(search.chance(state, a, 2) for a in top)
                if deeper < max(one[a.text] for a in legal if a not in top):
                    assert search.value(state, 2) == pytest.approx(deeper)
                    return
            state.apply(game.spec.bot(state, rng))
    raise AssertionError("no position where a pruned move looks better one decision deep")


def test_more_samples_and_deeper_search_are_held_to_the_time_cap() -> None:
    state = spyglass.load("skyway").new_state(seed=1)
    full = agents.load("expectimax", seed=0, depth=1, samples=8)
    full.choose(state.seat(0))
    assert full.last_samples == 8
    capped = agents.load("expectimax", seed=0, depth=3, samples=8, milliseconds=1)
    assert capped.choose(state.seat(0)) in state.legal_actions()
    # one sample one decision deep (a few hundredths of a second), then the clock stops it
    assert capped.last_samples == 1
    assert capped.last_positions == full.last_positions // 8


def test_the_bots_values_rank_wins_and_losses_beyond_any_position() -> None:
    game = spyglass.load("foursquare")
    state, rng = game.new_state(seed=0), Rng(0)
    values = []
    while not state.is_over:
        values.append(foursquare_bot.value(state))
        state.apply(game.spec.bot(state, rng))
    end = foursquare_bot.value(state)
    top = foursquare_bot.WIN * (1 + foursquare_bot.LOOKAHEAD)
    assert end in (top, -top) and all(-top < v < top for v in values[:-1])
    assert (end == top) == bool(state.result.won)
    boba = spyglass.load("boba-tea")
    state, rng = boba.new_state(seed=0), Rng(0)
    while not state.is_over:
        assert 0.0 <= boba_bot.value(state) <= 1.0
        state.apply(boba.spec.bot(state, rng))
    assert boba_bot.value(state) == float(bool(state.result.won))
    game = spyglass.load("dead-center")
    for seed in range(3):
        state, rng = game.new_state(seed=seed), Rng(0)
        while not state.is_over:
            # (a kill that wins is worth WIN and the cards left, as the won game)
            value = dead_center_bot.value(state)
            assert dead_center_bot.LOSS <= value <= dead_center_bot.WIN + len(state.deck)
            state.apply(game.spec.bot(state, rng))
        won = bool(state.result.won)
        assert dead_center_bot.value(state) == (
            dead_center_bot.WIN + len(state.deck) if won else dead_center_bot.LOSS
        )
    game = spyglass.load("skyway")
    for seed in (0, 1, 12):  # (the bot loses deal 12: its last market cannot win)
        state, rng, last = game.new_state(seed=seed), Rng(0), None
        while not state.is_over:
            value = skyway_bot.value(state)
            if not state.last_turn:
                assert 0 <= value < skyway_bot.FINISHED
            else:  # the last placement decides: worth the finished game it makes
                ends = []
                for action in state.legal_actions():
                    after = state.clone()
                    after.apply(action)
                    ends.append(skyway_bot.value(after))
                assert value == max(ends)
                last = value
            state.apply(game.spec.bot(state, rng))
        value = skyway_bot.value(state)
        assert (value > skyway_bot.FINISHED) if state.result.won else (value < 0)
        # a last turn whose best placement loses is a sure loss, below every position in play
        assert last is not None
        assert (last > skyway_bot.FINISHED) if state.result.won else (last < 0)
