"""The Tinker, Sailor, Soldier, Spy solver: its lines replay, its bounds are sound, and it
settles deals the generic search leaves unknown."""

from __future__ import annotations

import pytest

import spyglass
from spyglass.agents import solvers
from spyglass.agents.solvers import tinker_sailor as ts
from spyglass.agents.solvers.base import Allowance
from spyglass.agents.solvers.clairvoyant import clairvoyant
from spyglass.components.decktet import SUITS
from spyglass.engine import Rng, RulesError, derive_seed

GAME = "tinker-sailor-soldier-spy"


def _deal(index: int):
    """The strength run's deal ``index``."""
    return spyglass.load(GAME).new_state(seed=derive_seed(2026, f"game/{index}"))


def _chips(state) -> tuple[int, ...]:
    return tuple(state.chips[s] for s in SUITS)


@pytest.mark.parametrize("index", [6, 8, 9])
def test_deals_the_generic_search_left_unknown_are_won_with_a_line_that_replays(
    index: int,
) -> None:
    # The strength run's generic search left these unknown after 2 CPU-s each.
    found = solvers.bound(_deal(index), seconds=60, optimise_score=False, max_nodes=200_000)
    assert found.won is True and found.nodes < 200_000
    end = _deal(index)
    for move in found.moves:
        end.apply(move)
    assert end.is_over and end.won and end.chips_left == found.score


def test_the_bounds_never_exceed_what_a_winning_line_spends() -> None:
    """Along the bot's won games, the chips still spent to the end are never fewer than the
    bounds the solver cuts with (the wild-chip search of both rounds, round 1's pool bound)."""
    game = spyglass.load(GAME)
    checked = 0
    for seed in range(12):
        state, rng = game.new_state(seed=seed), Rng(seed)
        positions = []
        while not state.is_over:
            positions.append(state.clone())
            state.apply(game.spec.bot(state, rng))
        if not state.won:
            continue
        solver = ts.Solver(positions[0], Allowance(60))
        for position in positions:
            spent = position.chips_left - state.chips_left
            if position.round == 2:
                assert solver.round_two(position) <= spent
            else:
                assert solver.needed(position, _chips(position)) <= spent
            if position.round == 2 or len(position.personalities) < ts.WILD_TURNS:
                # where the solver asks it (earlier its whole tree is too large for a test)
                solver.wild_cap = 10**9
                assert solver.wild_from(position, spent)
                assert not solver.wild_from(position, -1)
            checked += 1
    assert checked > 100


def test_optimising_the_score_keeps_a_replaying_line_at_least_as_good_as_the_bot_s() -> None:
    found = solvers.bound(_deal(3), seconds=60, max_nodes=400_000)
    assert found.won is True
    end = _deal(3)
    for move in found.moves:
        end.apply(move)
    assert end.won and end.chips_left == found.score
    assert found.score > 8  # the bot's own line keeps 8 chips


def test_unknown_when_the_allowance_runs_out() -> None:
    found = solvers.bound(_deal(0), seconds=60, optimise_score=False, max_nodes=50)
    assert found.won is None and found.status == "unknown" and found.moves == ()


def test_the_solver_refuses_other_games() -> None:
    with pytest.raises(RulesError, match="Tinker"):
        ts.bound(spyglass.load("sandwich-guy").new_state(seed=1))


def test_agrees_with_the_generic_search_on_lost_and_won_late_positions() -> None:
    """Late round-2 positions with chips taken away (some become lost): the generic search on
    the real rules and this solver give the same answer."""
    game = spyglass.load(GAME)
    outcomes = set()
    for seed in range(30):
        state, rng = game.new_state(seed=seed), Rng(seed)
        while not state.is_over and not (state.round == 2 and len(state.locations) <= 4):
            state.apply(game.spec.bot(state, rng))
        if state.is_over:
            continue
        for suit in SUITS[seed % 3 :: 2]:
            state.chips[suit] = min(state.chips[suit], 1)
        if state.chips_left == 0:
            continue
        mine = ts.bound(state, seconds=30, optimise_score=False)
        theirs = clairvoyant(state, seconds=30, optimise_score=False)
        assert mine.won is not None and mine.won == theirs.won, seed
        outcomes.add(mine.won)
        if len(outcomes) == 2 and seed > 10:
            break
    assert outcomes == {True, False}


def _slack_fields(packed: int) -> list[int]:
    return [(packed >> (ts.FIELD * u)) & 127 for u in range(ts.ALL_SUITS + 1)]


def test_slacks_hold_each_set_of_suits_chips_and_subtract_field_by_field() -> None:
    rng = Rng(5)
    for _ in range(200):
        chips = [rng.below(7) for _ in SUITS]
        fields = _slack_fields(ts.slacks(chips))
        for u in range(1, ts.ALL_SUITS + 1):
            assert fields[u] == sum(c for i, c in enumerate(chips) if u >> i & 1)
        suits = 1 + rng.below(ts.ALL_SUITS)
        count = rng.below(5)
        left = ts._minus(ts.slacks(chips), count * ts.WITHIN[suits])
        held = sum(c for i, c in enumerate(chips) if suits >> i & 1)
        assert (left >= 0) == (held >= count)
        if left >= 0:
            assert ts._at_most(left, ts.slacks(chips))
            assert not count or not ts._at_most(ts.slacks(chips), left)


def test_the_chips_meet_demands_exactly_when_the_slacks_allow_them() -> None:
    """Hall's condition on the slacks against a transport of the chips (which, when it says
    yes, gives every demand suits it allows)."""
    rng = Rng(11)
    both = 0
    for _ in range(400):
        chips = [rng.below(3) for _ in SUITS]
        demands = [(1 + rng.below(ts.ALL_SUITS), rng.below(3)) for _ in range(rng.below(4) + 1)]
        demand = sum(count * ts.WITHIN[suits] for suits, count in demands)
        allowed = ts._minus(ts.slacks(chips), demand) >= 0
        taken = ts._assign(chips, demands)
        assert allowed == (taken is not None)
        if taken is not None:
            both += 1
            for (suits, count), got in zip(demands, taken, strict=True):
                assert len(got) == count and all(suits >> s & 1 for s in got)
            for s in range(len(SUITS)):
                assert sum(got.count(s) for got in taken) <= chips[s]
    assert 50 < both < 350


def _fight_ends(state) -> set[tuple]:
    """Every way the fight in progress can end on the real rules, by brute force: (chips
    spent by suit, bought, the deck, discard pile, Aces left and generator after)."""
    ends: set[tuple] = set()
    fought, before = state.challenger, _chips(state)

    def walk(position) -> None:
        if position.challenger != fought or position.phase != "fight":
            spent = tuple(a - b for a, b in zip(before, _chips(position), strict=True))
            bought = fought in position.discard
            start = (
                tuple(position.deck),
                ts._mask(position.discard),
                len(position.aces),
                position.rng.state,
            )
            ends.add((spent, bought, start))
            return
        for action in position.legal_actions():
            child = position.clone()
            child.apply(action)
            walk(child)

    walk(state)
    return ends


def _vectors(total: int, chips: tuple[int, ...]):
    if len(chips) == 1:
        if total <= chips[0]:
            yield (total,)
        return
    for first in range(min(total, chips[0]) + 1):
        for rest in _vectors(total - first, chips[1:]):
            yield (first, *rest)


@pytest.mark.parametrize("seed", range(8))
def test_a_fight_s_outcomes_are_exactly_the_real_rules_ways_to_end_it(seed: int) -> None:
    """The demands of each outcome allow exactly the chip vectors the real fight can spend
    to end that way (a round-1 fight, few chips, every line of suits tried)."""
    game = spyglass.load(GAME)
    state, rng = game.new_state(seed=seed), Rng(seed)
    while not (state.phase == "fight" and state.round == 1 and len(state.personalities) < 8):
        if state.is_over:
            pytest.skip("no such fight")
        state.apply(game.spec.bot(state, rng))
    for i, suit in enumerate(SUITS):
        state.chips[suit] = (seed + i) % 3
    real = _fight_ends(state)
    solver = ts.Solver(state, Allowance(60))
    start = (tuple(state.deck), ts._mask(state.discard), len(state.aces), state.rng.state)
    fight = (state.paid, ts._mask(state.fight_cards), True)
    modelled = set()
    chips = _chips(state)
    for j, demand, after, step in solver.outcomes(state.challenger, start, fight, True):
        for spent in _vectors(j, chips):
            if ts._minus(ts.slacks(spent), demand) >= 0:
                modelled.add((spent, step[1] == ts.BOUGHT, after))
    assert modelled == real
