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

#: game id -> games of self-play sampled (the Emissary's bot is slow: fewer, longer games)
GAMES = {
    "area-52": 30,
    "boba-tea": 30,
    "dead-center": 30,
    "emissary": 4,
    "foursquare": 20,
    "hide-and-seek": 30,
    "loot-the-loop": 20,
    "sandwich-guy": 40,
    "skyway": 20,
    "syndicate": 30,
    "tinker-sailor-soldier-spy": 40,
}
EVERY = 3  # a position is sampled every EVERY moves


@dataclass
class Sample:
    values: list[tuple[float, bool, float]]  # (value, game won, share of the game played)
    finished: list[tuple[tuple[float, ...], tuple[float, ...]]]  # (evaluate, result.rewards)


@cache
def sample(game_id: str) -> Sample:
    game = spyglass.load(game_id)
    evaluate = game.spec.evaluate
    assert evaluate is not None, f"{game_id} has no evaluation"
    out = Sample([], [])
    for index in range(GAMES[game_id]):
        seed = 7_000 + index
        state = game.new_state(seed=seed)
        bot = load_spec("heuristic", seed=seed)
        seen: list[tuple[float, int]] = []
        while not state.is_over:
            if state.step % EVERY == 0:
                before = state.digest()
                value = evaluate(state)
                assert state.digest() == before, "the evaluation changed the state"
                assert len(value) == 1 and 0.0 <= value[0] <= 1.0, value
                seen.append((value[0], state.step))
            state.apply(bot.choose(state.seat(0)))
        won = bool(state.result.won)
        out.values += [(v, won, step / state.step) for v, step in seen]
        out.finished.append((evaluate(state), state.result.rewards))
    return out


def _log_loss(pairs: list[tuple[float, bool]]) -> float:
    total = 0.0
    for value, won in pairs:
        p = min(max(value, 1e-6), 1 - 1e-6)
        total -= math.log(p if won else 1 - p)
    return total / len(pairs)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_finished_game_is_valued_at_its_result(game_id: str) -> None:
    for value, rewards in sample(game_id).finished:
        assert value == rewards


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_late_positions_of_won_games_rank_above_those_of_lost_games(game_id: str) -> None:
    late = [(v, won) for v, won, share in sample(game_id).values if share >= 0.75]
    won = [v for v, w in late if w]
    lost = [v for v, w in late if not w]
    assert won and lost, "the sample needs won and lost games"
    assert sum(won) / len(won) > sum(lost) / len(lost) + 0.2


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_evaluation_predicts_the_outcome_better_than_the_win_rate(game_id: str) -> None:
    pairs = [(v, won) for v, won, _ in sample(game_id).values]
    assert len(pairs) > 50
    rate = sum(won for _, won in pairs) / len(pairs)
    constant = _log_loss([(rate, won) for _, won in pairs])
    assert _log_loss(pairs) < constant - 0.02
