"""Area 52's clairvoyant solver: the second wave's hopeless test never calls a winnable
position lost (against a brute force of our own over the second wave's rules), and the first
wave's passes settle deals the first version left unknown, with lines that replay."""

from __future__ import annotations

import pytest

import spyglass
from spyglass.agents.solvers import area_52
from spyglass.agents.solvers.base import Allowance
from spyglass.engine import Rng, derive_seed
from spyglass.games.area_52.bot import choose
from spyglass.games.area_52.rules import SQUAD, Area52State

GAME = spyglass.load("area-52")

Kinds = tuple[int, ...]  # cards as value * 2 + is red


def _second_wave_positions(wanted: int, aliens: int) -> list[Area52State]:
    """Second-wave positions with at most ``aliens`` aliens to go, reached by the game's bot
    with a random move now and then (so squads of every size, red and black, appear)."""
    found: list[Area52State] = []
    for seed in range(400):
        state, rng = GAME.new_state(seed=seed), Rng(seed)
        while not state.is_over and not (state.wave == 2 and state.aliens_left() <= aliens):
            legal = state.legal_actions()
            state.apply(choose(state, rng) if rng.below(6) else legal[rng.below(len(legal))])
        if not state.is_over:
            found.append(state)
            if len(found) == wanted:
                break
    return found


class Brute:
    """Whether a second-wave position can be won, straight from the rules: every dual, single
    and sacrifice, the squad topped up from the deck (kinds, top first) after each, a dual
    losing its defenders of the alien's colour, the last alien's fall a win whatever it
    costs. Every position it answers stays in ``answers``."""

    def __init__(self, deck: Kinds) -> None:
        self.deck = deck
        self.answers: dict[tuple[Kinds, int, Kinds], bool] = {}

    def wins(self, squad: Kinds, dealt: int, queue: Kinds) -> bool:
        if not queue:
            return True
        if not squad:
            return False
        key = (squad, dealt, queue)
        if key not in self.answers:
            self.answers[key] = self._search(squad, dealt, queue)
        return self.answers[key]

    def _search(self, squad: Kinds, dealt: int, queue: Kinds) -> bool:
        alien, rest = queue[0], queue[1:]
        value, red = alien >> 1, alien & 1
        after: list[tuple[list[int], Kinds]] = []
        for i, a in enumerate(squad):
            for b in squad[i + 1 :]:
                if (a >> 1) + (b >> 1) == value:
                    left = list(squad)
                    for k in (a, b):
                        if k & 1 == red:
                            left.remove(k)
                    after.append((left, rest))
            left = list(squad)
            left.remove(a)
            if a >> 1 > value and a & 1 != red:
                after.append(([*left, alien], rest))
            after.append((left, (*rest, alien)))
        for left, queue_after in after:
            if not queue_after:
                return True
            drawn = self.deck[dealt : dealt + max(0, SQUAD - len(left))]
            if self.wins(tuple(sorted(left + list(drawn))), dealt + len(drawn), queue_after):
                return True
        return False


def _as_kinds(state: Area52State) -> tuple[area_52.Solver, Kinds, Kinds]:
    solver = area_52.Solver(state, Allowance(60))
    squad = tuple(sorted(area_52._kind(c) for c in state.defenders))
    queue = tuple(area_52._kind(c) for c in (*state.attackers, *state.alien_deck))
    return solver, squad, queue


def test_the_hopeless_test_never_calls_a_winnable_second_wave_lost() -> None:
    """At every position the brute force answers on its way through 60 late second waves,
    where the solver's hopeless test says no line can win, the brute force finds none
    either; and the solver (which prunes with that test) gives the brute force's answer."""
    positions = _second_wave_positions(60, 11)
    assert len(positions) == 60
    checked = hopeless = winnable = 0
    for state in positions:
        solver, squad, queue = _as_kinds(state)
        brute = Brute(tuple(solver.deck_kinds))
        won = brute.wins(squad, 0, queue)
        assert solver.second(squad, 0, queue, 0) == won
        winnable += won
        for (s, dealt, q), answer in brute.answers.items():
            checked += 1
            if solver.hopeless(s, dealt, q):
                hopeless += 1
                assert not answer, (s, dealt, q)
    # both answers are reached, and the test prunes a fair share of what it could
    assert 0 < winnable < len(positions), winnable
    assert checked > 2_000 and hopeless > checked // 20, (checked, hopeless)


def test_the_hopeless_test_names_the_alien_nothing_can_beat() -> None:
    black, red = 0, 1
    solver = area_52.Solver(GAME.new_state(seed=1), Allowance(60))
    deck_done = len(solver.deck)  # the defender deck is spent
    # A black King: no single can beat a King, and 6 + 7 is the only pair making 13 here.
    squad = (6 * 2 + red, 7 * 2 + red)
    assert not solver.hopeless(squad, deck_done, (13 * 2 + black,))
    assert solver.hopeless((6 * 2 + red, 8 * 2 + red), deck_done, (13 * 2 + black,))
    # A black Ten behind a red Three: a black 5 soldier wins the Three (which then joins as a
    # red 3), and 5 is not enough for the Ten alone, but 7 + 3 is.
    squad = (5 * 2 + black, 7 * 2 + black)
    assert not solver.hopeless(squad, deck_done, (3 * 2 + red, 10 * 2 + black))
    # Without the Three to win there is no 3, and nothing red outranks the Ten.
    assert solver.hopeless(squad, deck_done, (4 * 2 + red, 10 * 2 + black))
    # One Five is not a pair: a red Ten needs two, and the red Five in the queue cannot be won
    # (no black soldier outranks it) to be the second. A black Six could win it.
    assert solver.hopeless((5 * 2 + black, 2 * 2 + black), deck_done, (10 * 2 + red, 5 * 2 + red))
    assert not solver.hopeless(
        (5 * 2 + black, 6 * 2 + black), deck_done, (5 * 2 + red, 10 * 2 + red)
    )


@pytest.mark.parametrize("index", [87, 109, 113, 142, 175, 521])
def test_deals_the_first_version_left_unknown_are_won_and_replay(index: int) -> None:
    """Deals of the strength run (seed 2026) that version 1 left unknown after 2 CPU-s (and
    after 50,000 positions): settled within that many positions, the line a real win."""
    state = GAME.new_state(seed=derive_seed(2026, f"game/{index}"))
    found = area_52.bound(state, seconds=60, optimise_score=False, max_nodes=50_000)
    assert found.won is True, found
    end = state.clone()
    for text in found.moves:
        end.apply(end.parse(text))
    assert end.is_over and end.result.won and end.result.score == found.score


def test_a_better_score_is_only_claimed_with_a_line_that_scores_it() -> None:
    state = GAME.new_state(seed=derive_seed(2026, "game/15"))
    found = area_52.bound(state, seconds=60, max_nodes=20_000)
    end = state.clone()
    for text in found.moves:
        end.apply(end.parse(text))
    assert found.won and end.result.won and end.result.score == found.score
    # the first version's best within 40,000 positions (and 5 CPU-s) was 4 soldiers
    assert found.score >= 12
