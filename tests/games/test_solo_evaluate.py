"""The evaluations that let ISMCTS stop solo-game playouts early (``cutoff``).

Every solo game's ``evaluate`` is checked the same way on heuristic self-play from fixed seeds:
it gives a chance in [0, 1] without touching the state, a finished game its result, positions
late in won games more than positions late in lost games, and it predicts the outcome better
than the constant guess (the bot's win rate over the same positions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import pytest

import spyglass
from spyglass.agents import load_spec

#: game id -> (deals the bot won, deals it lost): fixed seeds (FIRST + n) picked from deals
#: the weights were not fitted on, as many won as lost so that both outcomes are well
#: represented (fewer for the games whose bot is slow); the log-loss reweights them to the
#: bot's win rate
SEEDS = {
    "area-52": ("1 5 9 13 15 17 19 21", "3 7 11 23 39 43 47 61"),
    "boba-tea": ("1 3 5 9 11 15 17 19", "7 13 23 31 45 49 63 73"),
    # its evaluation gains less on the guess: a larger sample
    "dead-center": (
        "9 15 17 19 25 33 53 57 65 69 89 95 111 129 131 145 159 165 167 177 185 191 199 215"
        " 217 223 225 233 235 237",
        "1 3 5 7 11 13 21 23 27 29 31 35 37 39 41",
    ),
    "emissary": ("1", "3 7 11"),  # its bot takes about a second and a half a deal
    "foursquare": ("1 3 5 7 9 13", "11 33 95 113 131 215"),
    "hide-and-seek": ("3 5 7 11 13 15 17 19", "1 9 21 29 33 37 39 45"),
    "loot-the-loop": ("1 3 7 17 19 33 43 45", "5 9 11 13 15 21 23 25"),
    "sandwich-guy": ("1 5 7 9 11 13 15 17", "3 33 45 63 87 89 93 115"),
    "skyway": ("1 3 7 11 13 15 17 19", "5 9 21 31 33 37 39 43"),
    "syndicate": ("1 3 5 11 13 15 17 19", "7 9 41 47 51 59 61 73"),
    "tinker-sailor-soldier-spy": ("3 5 7 9 11 13 15 21", "1 17 19 23 29 33 45 49"),
}
FIRST = 100_000
#: the heuristic bot's win rate (600 deals each, seeds FIRST..FIRST+599)
WIN_RATE = {
    "area-52": 0.755,
    "boba-tea": 0.83,
    "dead-center": 0.235,
    "emissary": 0.21,
    "foursquare": 0.958,
    "hide-and-seek": 0.642,
    "loot-the-loop": 0.46,
    "sandwich-guy": 0.76,
    "skyway": 0.632,
    "syndicate": 0.755,
    "tinker-sailor-soldier-spy": 0.577,
}
EVERY = 2  # a position is sampled every EVERY moves
#: how much lower than the constant guess's log-loss the evaluation's must be, and how much
#: higher the last positions of won games must be valued than those of lost games. Three games
#: are only weakly foretold by a position: Foursquare's bot loses one deal in 25, by a card that
#: fits nowhere; Loot the Loop is lost at once by a step onto a trap or into a corner; Skyway's
#: runs are rebuilt and broken until the last pass.
GAIN, MARGIN = 0.05, 0.15
WEAK = {"foursquare": (0.01, 0.05), "loot-the-loop": (0.0, 0.1), "skyway": (0.02, 0.15)}


@dataclass
class Sample:
    values: list[tuple[float, bool, float]]  # (value, game won, share of the game played)
    last: list[tuple[float, bool]]  # (value before the last move, game won)
    finished: list[tuple[tuple[float, ...], tuple[float, ...]]]  # (evaluate, result.rewards)


@cache
def sample(game_id: str) -> Sample:
    game = spyglass.load(game_id)
    evaluate = game.spec.evaluate
    assert evaluate is not None, f"{game_id} has no evaluation"
    out = Sample([], [], [])
    won_seeds, lost_seeds = SEEDS[game_id]
    for index in f"{won_seeds} {lost_seeds}".split():
        seed = FIRST + int(index)
        state = game.new_state(seed=seed)
        bot = load_spec("heuristic", seed=seed)
        seen: list[tuple[float, int]] = []
        while not state.is_over:
            sampled = state.step % EVERY == 0
            before = state.digest() if sampled else None
            value = evaluate(state)
            assert len(value) == 1 and 0.0 <= value[0] <= 1.0, value
            if sampled:
                assert state.digest() == before, "the evaluation changed the state"
                seen.append((value[0], state.step))
            state.apply(bot.choose(state.seat(0)))
        won = bool(state.result.won)
        out.values += [(v, won, step / state.step) for v, step in seen]
        out.last.append((value[0], won))
        out.finished.append((evaluate(state), state.result.rewards))
    return out


def _log_loss(values: list[tuple[float, bool]], rate: float) -> float:
    """The mean log-loss of ``values`` when won games make up ``rate`` of the positions."""
    lost_total = won_total = 0.0
    won = sum(1 for _, w in values if w)
    for value, w in values:
        p = min(max(value, 1e-6), 1 - 1e-6)
        if w:
            won_total -= math.log(p)
        else:
            lost_total -= math.log(1 - p)
    return rate * won_total / won + (1 - rate) * lost_total / (len(values) - won)


@pytest.mark.parametrize("game_id", sorted(SEEDS))
def test_a_finished_game_is_valued_at_its_result(game_id: str) -> None:
    for value, rewards in sample(game_id).finished:
        assert value == rewards


@pytest.mark.parametrize("game_id", sorted(SEEDS))
def test_the_last_positions_of_won_games_rank_above_those_of_lost_games(game_id: str) -> None:
    last = sample(game_id).last
    won = [v for v, w in last if w]
    lost = [v for v, w in last if not w]
    assert won and lost, "the sample needs won and lost games"
    margin = WEAK.get(game_id, (GAIN, MARGIN))[1]
    assert sum(won) / len(won) > sum(lost) / len(lost) + margin


#: Games whose evaluation weights were fitted under rules that have since changed, and no longer
#: beat the constant guess until they are fitted again. Loot the Loop: issue 25 stopped declaring
#: losses the rulebook does not (random play lost 46.6% of its games that way); on 200 deals of
#: heuristic self-play the old weights' log-loss is 0.743 against the constant's 0.689.
REFIT = {"loot-the-loop"}


@pytest.mark.parametrize(
    "game_id",
    [
        pytest.param(
            g,
            marks=pytest.mark.xfail(reason="weights fitted before a rule change", strict=True),
        )
        if g in REFIT
        else g
        for g in sorted(SEEDS)
    ],
)
def test_the_evaluation_predicts_the_outcome_better_than_the_win_rate(game_id: str) -> None:
    pairs = [(v, won) for v, won, _ in sample(game_id).values]
    assert len(pairs) > 50
    rate = WIN_RATE[game_id]
    constant = _log_loss([(rate, won) for _, won in pairs], rate)
    gain = WEAK.get(game_id, (GAIN, MARGIN))[0]
    assert _log_loss(pairs, rate) < constant * (1 - gain)


@pytest.mark.parametrize("game_id", sorted(SEEDS))
def test_ismcts_with_a_cutoff_scores_its_playouts_with_the_evaluation(game_id: str) -> None:
    game = spyglass.load(game_id)
    state = game.new_state(seed=3)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    spec = game.spec
    evaluate = spec.evaluate
    calls = []

    def counting(s):
        calls.append(s.step)
        return evaluate(s)

    object.__setattr__(spec, "evaluate", counting)  # the spec is frozen
    try:
        move = load_spec("ismcts:iterations=6,cutoff=1", seed=1).choose(state.seat(0))
    finally:
        object.__setattr__(spec, "evaluate", evaluate)
    assert move in state.legal_actions()
    assert calls and len(calls) <= 6
