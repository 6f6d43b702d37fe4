"""The look-ahead agent and Foursquare's look-ahead on the bot's grid: the same values as the
generic expectimax over whole game states, deeper only where asked, never reading the deck's
order, held to a time cap."""

from __future__ import annotations

import pytest

import spyglass
from spyglass import agents
from spyglass.agents.expectimax import KINDS, _Search
from spyglass.engine import Rng, RulesError
from spyglass.games.foursquare import bot as foursquare_bot
from spyglass.games.foursquare import lookahead
from spyglass.games.foursquare.rules import FoursquareState

GAME = spyglass.load("foursquare")


def _position(seed: int, piles: int, most_moves: int = 99) -> FoursquareState:
    """A position of the bot's game from deal ``seed`` with at least ``piles`` piles, a choice
    to make (2 to ``most_moves`` placements), and cards left to draw."""
    state, rng = GAME.new_state(seed=seed), Rng(seed)
    while not state.is_over:
        moves = len(state.legal_actions())
        if state.occupied.bit_count() >= piles and 1 < moves <= most_moves and state.deck:
            return state
        state.apply(GAME.spec.bot(state, rng))
    raise AssertionError(f"deal {seed} never reached such a position")


def _generic(state: FoursquareState, depth: int, width: int) -> dict[str, float]:
    """The generic expectimax's values of each move, on whole game states."""
    search = _Search(foursquare_bot.value, KINDS["foursquare"], width=width)
    return {a.text: search.chance(state, a, depth) for a in state.legal_actions()}


@pytest.mark.parametrize(("seed", "piles"), [(0, 1), (1, 8), (2, 14), (3, 16), (5, 16)])
def test_one_card_deep_it_values_every_placement_as_the_generic_search(
    seed: int, piles: int
) -> None:
    state = _position(seed, piles)
    found = lookahead.values(state, 1, 2, 0)
    assert found == pytest.approx(_generic(state, 1, 2), abs=1e-9)
    assert len(set(found.values())) > 1  # the placements are told apart


def test_two_cards_deep_at_full_width_it_is_the_generic_search() -> None:
    """With no pruning the recursion is the generic one (a win or a card that cannot be placed
    ends a line the same way): a late position, two decisions deep."""
    state = _position(8, 16, most_moves=5)
    found = lookahead.values(state, 2, 99, 0)
    assert set(found) == {a.text for a in state.legal_actions()}
    assert found == pytest.approx(_generic(state, 2, 99), abs=1e-9)


def test_deeper_only_for_the_best_few_and_only_once_enough_piles_stand() -> None:
    state = _position(6, 15, most_moves=99)
    shallow = lookahead.values(state, 1, 2, 0)
    assert len(shallow) == len(state.legal_actions()) > 2
    deep = lookahead.values(state, 2, 2, 0)
    best_two = sorted(shallow, key=lambda text: -shallow[text])[:2]
    assert set(deep) == set(best_two)  # the others are left out, not compared
    assert deep != {text: shallow[text] for text in best_two}  # and they were searched on
    piles = state.occupied.bit_count()
    assert lookahead.values(state, 2, 2, piles + 1) == shallow  # too few piles: one card
    assert lookahead.values(state, 2, 2, piles) == deep


def test_out_of_time_it_keeps_the_one_card_values_of_every_placement() -> None:
    state = _position(6, 15)
    shallow = lookahead.values(state, 1, 2, 0)
    calls = []

    def passed() -> bool:
        calls.append(1)
        return len(calls) > 3  # time runs out part-way through the deeper search

    assert lookahead.values(state, 3, 2, 0, passed) == shallow
    assert len(calls) == 4
    ranks_left = [0] * 11
    for card in state.deck:
        ranks_left[foursquare_bot.RANK[card]] += 1
    # the deck's counts the search changes as it goes are put back when it is stopped
    search = lookahead.Lookahead(ranks_left, 2, lambda: True)
    grid = foursquare_bot.Grid.of(state)
    before = list(ranks_left)
    with pytest.raises(lookahead.OutOfTime):
        search.chance(grid, len(state.deck), 3)
    assert ranks_left == before


def test_the_agent_never_reads_the_order_of_the_deck() -> None:
    for seed in (7, 8, 9):
        state = _position(seed, 15)
        other = state.clone()
        other.deck.reverse()
        assert state.seat(0).view == other.seat(0).view
        chosen = [agents.load("lookahead", seed=1).choose(s.seat(0)) for s in (state, other)]
        assert chosen[0] == chosen[1]
        assert chosen[0].text == _best(lookahead.values(state, 2, 2, 15))


def _best(values: dict[str, float]) -> str:
    return max(values, key=lambda text: values[text])


def test_a_hint_cap_keeps_it_within_its_time() -> None:
    """Where two cards of look-ahead change the choice, the agent makes the deeper choice
    with time to spare and the one-card choice when the cap stops the deeper search."""
    state, rng = GAME.new_state(seed=2), Rng(2)
    while True:
        assert not state.is_over, "no position where the deeper look changes the choice"
        if state.occupied.bit_count() >= 15 and len(state.legal_actions()) > 2:
            shallow, deep = lookahead.values(state, 1, 2, 0), lookahead.values(state, 2, 2, 0)
            if _best(shallow) != _best(deep):
                break
        state.apply(GAME.spec.bot(state, rng))
    assert agents.load("lookahead", seed=0).choose(state.seat(0)).text == _best(deep)
    capped = agents.load("lookahead", seed=0, milliseconds=0.001)
    assert capped.choose(state.seat(0)).text == _best(shallow)


def test_it_plays_only_the_games_with_a_look_ahead_of_their_own() -> None:
    assert agents.plays("lookahead", GAME)
    others = [g.id for g in spyglass.games.list_games() if g.id != "foursquare"]
    assert not any(agents.plays("lookahead", spyglass.load(g)) for g in others)
    with pytest.raises(RulesError, match="try expectimax"):
        agents.load("lookahead").choose(spyglass.load("boba-tea").new_state(seed=1).seat(0))
    for bad in ("depth=0", "width=0", "piles=-1", "milliseconds=0", "clock=sundial"):
        with pytest.raises(RulesError):
            agents.load_spec(f"lookahead:{bad}")
