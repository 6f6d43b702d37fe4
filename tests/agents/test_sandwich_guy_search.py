"""The Sandwich Guy's rollout search: its fast playouts follow the game and the tuned policy
exactly, it reads the deck's contents but never its order, and it leaves the policy's move
only when the playouts show another is better."""

from __future__ import annotations

import pytest

import spyglass
from spyglass.agents.policies import sandwich_guy as policy_module
from spyglass.agents.policies import sandwich_guy_search as search
from spyglass.components.cards import parse_cards
from spyglass.engine import Rng, RulesError
from spyglass.games.sandwich_guy.rules import sandwiches


def _positions(deals: int):
    """Positions met while the tuned policy plays ``deals`` deals (the deck not yet done)."""
    game = spyglass.load("sandwich-guy")
    play = policy_module.Policy()
    for seed in range(deals):
        state = game.new_state(seed=seed)
        while not state.is_over and not state.deck_done:
            yield state
            state.apply(play(state, Rng(0)))


def test_sandwiches_and_scores_are_the_game_s_and_the_policy_s() -> None:
    play = policy_module.Policy()
    checked = 0
    for state in _positions(20):
        hand = [int(c) for c in state.hand]
        moves = sandwiches(hand)
        assert [frozenset(m) for m in moves] == [frozenset(a.cards) for a in state.legal_actions()]
        if len(moves) < 2:
            continue
        ranks, suits = policy_module.deck_tables([int(c) for c in state.deck])
        values = search.scored(
            hand, moves, ranks, suits, len(state.deck), weights=search.Search().weights
        )
        first = moves[max(range(len(moves)), key=values.__getitem__)]
        assert frozenset(first) == frozenset(play(state, Rng(0)).cards)
        checked += 1
    assert checked > 50


def test_a_playout_is_the_tuned_policy_playing_the_real_game() -> None:
    game = spyglass.load("sandwich-guy")
    play = policy_module.Policy()
    weights = search.Search().weights
    outcomes = set()
    for seed in range(40):
        state = game.new_state(seed=seed)
        first = state.legal_actions()[-1]
        left, steps = search.playout(
            [int(c) for c in state.hand], [int(c) for c in state.deck], first.cards, weights
        )
        state.apply(first)
        played = 1
        while not state.is_over and not state.deck_done:
            state.apply(play(state, Rng(0)))
            played += 1
        assert (left, steps) == (len(state.deck), played)
        outcomes.add(left == 0)
    assert outcomes == {True, False}  # both wins and losses were followed


def test_the_move_that_survives_beats_the_policy_s_first_choice() -> None:
    # 5♣ A♦ 9♦ (mixed colours: draws 2 of Q♥ 4♠ 5♠) leaves 5♥ 4♥ 10♠ Q♣ 10♥, which holds no
    # sandwich with any two of them: lost with a card in the deck. 5♥ A♦ 10♥ (one colour)
    # draws all three: won. Whatever the order, the playouts tell them apart.
    hand = list(parse_cards("5H 4H 5C AD TS QC TH 9D"))
    deck = sorted(parse_cards("QH 4S 5S"))
    losing = tuple(parse_cards("5C AD 9D"))
    winning = tuple(parse_cards("5H AD TH"))
    weights = search.Search().weights
    for order in (deck, deck[::-1]):
        assert search.playout(list(hand), list(order), losing, weights)[0] == 1
        assert search.playout(list(hand), list(order), winning, weights)[0] == 0
    chosen = search.Search().compare(hand, deck, [losing, winning], Rng(3))
    assert chosen == winning
    # too few playouts to leave the first choice: it is kept
    kept = search.Search(samples=8).compare(hand, deck, [losing, winning], Rng(3))
    assert kept == losing


def test_the_search_keeps_the_policy_s_move_without_evidence() -> None:
    # two moves that both win in every playout: nothing to prefer the second for
    hand = list(parse_cards("5H 4H 5C AD TS QC TH 9D"))
    deck = sorted(parse_cards("QH 4S 5S"))
    first = tuple(parse_cards("5H AD TH"))
    second = tuple(parse_cards("4H AD 9D"))  # one colour: draws all three as well
    assert search.Search().compare(hand, deck, [first, second], Rng(5)) == first


def test_the_last_card_is_drawn_at_once() -> None:
    game = spyglass.load("sandwich-guy")
    player = search.Search()
    for state in _positions(200):
        room = 8 - (len(state.hand) - 3)
        wins = [
            len(state.deck) <= min(room, search._quality_draws(*m.cards))
            for m in state.legal_actions()
        ]
        if any(wins) and not all(wins):
            after = state.clone()
            after.apply(player(state, Rng(1)))
            assert after.deck_done
            return
    raise AssertionError(f"no position with a last draw in 200 deals of {game.info.id}")


def test_the_deck_order_is_never_read() -> None:
    player = search.Search(samples=16)
    checked = 0
    for state in _positions(6):
        if len(state.legal_actions()) < 3:
            continue
        other = state.clone()
        other.deck.reverse()
        assert other.deck != state.deck
        assert player(state, Rng(9)) == player(other, Rng(9))
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_a_deal_played_to_its_end() -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=2)
    player = search.Search(samples=16)
    rng = Rng(4)
    while not state.is_over:
        move = player(state, rng)
        assert move in state.legal_actions()
        state.apply(move)
    assert state.result is not None


def test_the_agent_plays_the_search_on_a_determinization(states_given) -> None:
    seen = states_given(search.Search)
    state = spyglass.load("sandwich-guy").new_state(seed=4)
    agent = search.RolloutAgent(seed=0, samples=16)
    move = agent.choose(state.seat(0))
    assert move in state.legal_actions()
    assert seen and all(s.determinized and s.seed is None for s in seen)
    # Elsewhere it plays as the tuned agent does (Syndicate has no tuned policy: its bot),
    # a whole game of legal moves.
    other = spyglass.load("syndicate").new_state(seed=1)
    elsewhere = search.RolloutAgent(seed=3)
    while not other.is_over:
        other.apply(elsewhere.choose(other.seat(other.current_player)))
    assert elsewhere.elsewhere is not None and elsewhere.elsewhere.name == "tuned"


def test_out_of_time_it_decides_on_the_playouts_it_has() -> None:
    # The same two moves. While time is left, too few deck orders (below MIN_SAMPLES) are not
    # enough evidence to leave the policy's first choice: with no more allowed it is kept, with
    # more the search plays on and leaves it. Once time is up, it decides on the orders it
    # has: here after the first, at which it asks the clock.
    hand = list(parse_cards("5H 4H 5C AD TS QC TH 9D"))
    deck = sorted(parse_cards("QH 4S 5S"))
    losing = tuple(parse_cards("5C AD 9D"))
    winning = tuple(parse_cards("5H AD TH"))
    looks = []

    def clock(up: bool):
        def passed() -> bool:
            looks.append(up)
            return up

        return passed

    def choice(up: bool, samples: int = search.SAMPLES):
        looks.clear()
        found = search.Search(samples=samples).compare(
            hand, deck, [losing, winning], Rng(3), clock(up)
        )
        return found, len(looks)

    assert choice(False, samples=8) == (losing, 8)
    assert choice(False) == (winning, search.MIN_SAMPLES)
    assert choice(True) == (winning, 1)


def test_the_agent_s_time_cap(monkeypatch) -> None:
    # The agent hands the search its decision's deadline: with a cap of a microsecond the
    # clock says time is up by the time the playouts start; without a cap it never does.
    told = []
    compare = search.Search.compare

    def spy(self, hand, contents, moves, rng, passed):
        told.append(passed())
        return compare(self, hand, contents, moves, rng, passed)

    monkeypatch.setattr(search.Search, "compare", spy)
    for milliseconds, expected in ((0.001, True), (None, False)):
        told.clear()
        state = spyglass.load("sandwich-guy").new_state(seed=4)
        agent = search.RolloutAgent(seed=0, samples=16, milliseconds=milliseconds)
        while not state.is_over:
            move = agent.choose(state.seat(0))
            assert move in state.legal_actions()
            state.apply(move)
        assert told and set(told) == {expected}
    wall = search.RolloutAgent(seed=0, milliseconds=50, clock="wall")
    assert wall.clock == "wall" and wall.milliseconds == 50
    for bad, message in (
        ({"milliseconds": 0}, "positive time budget"),
        ({"clock": "sundial"}, "clock is one of"),
    ):
        with pytest.raises(RulesError, match=message):
            search.RolloutAgent(seed=0, **bad)
