"""Rewards teach the right thing: every loss below every win, and better play earns more.

The issue's measure: with ``reward="score"`` the heuristic earned less than random play in The
Sandwich Guy and the Syndicate (a win was paid its score negated, a loss 0). Here every game
plays the same deals twice, once at random and once with its heuristic bot in one seat (the
other seats random), and the bot must earn more in both reward modes.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

import spyglass
from spyglass.adapters.rewards import REWARDS, place, rewards
from spyglass.adapters.tensors import encoding_for
from spyglass.engine import Rng, State

#: Deals per game and options that keep the long games short (a few CPU-seconds per game).
DEALS = {"spies": 2, "espionage": 4, "tinker-tailor": 6, "emissary": 6}
OPTIONS = {"espionage": {"city_limit": 1}}
#: The seat the heuristic plays (0 unless named). Spies! at two players: seat 0 holds Germany
#: and Italy (and Russia in every other year) and wins every random game of these deals, so a
#: win could not tell the heuristic from random play there; seat 1 (France and Britain) can.
SEAT = {"spies": 1}
GAMES = [info.id for info in spyglass.games()]


def play(game: spyglass.Game, seed: int, heuristic: bool) -> State:
    state = game.new_state(players=game.info.players[0], seed=seed)
    rng = Rng(seed)
    bot = game.spec.bot
    while not state.is_over:
        seat = state.current_player
        if heuristic and seat == SEAT.get(game.info.id, 0) and bot is not None:
            state.apply(bot(state.determinize(seat, rng), rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_the_heuristic_earns_more_than_random_play(game_id: str) -> None:
    game = spyglass.load(game_id, **OPTIONS.get(game_id, {}))
    scoring = encoding_for(game).scoring
    earned = {mode: {False: 0.0, True: 0.0} for mode in REWARDS}
    for seed in range(DEALS.get(game_id, 12)):
        for heuristic in (False, True):
            result = play(game, seed, heuristic).result
            assert result is not None
            for mode in REWARDS:
                paid = rewards(game, scoring, result, mode)
                earned[mode][heuristic] += paid[SEAT.get(game_id, 0)]
    for mode in REWARDS:
        assert earned[mode][True] > earned[mode][False], (mode, earned[mode])


@pytest.mark.parametrize("game_id", GAMES)
def test_every_loss_pays_less_than_every_win(game_id: str) -> None:
    """Over random and heuristic games: score rewards of wins in [1, 2], of losses in [-1, 0],
    and the scores met lie within the declared ranges (so no two scores share a clipped end)."""
    game = spyglass.load(game_id, **OPTIONS.get(game_id, {}))
    scoring = encoding_for(game).scoring
    for seed in range(DEALS.get(game_id, 12)):
        result = play(game, 100 + seed, heuristic=seed % 2 == 1).result
        assert result is not None
        paid = rewards(game, scoring, result, "score")
        if game.info.solo:
            span = scoring.won if result.won else scoring.lost
            if span is not None:
                assert span[0] <= result.score <= span[1]
            assert (1.0 <= paid[0] <= 2.0) if result.won else (-1.0 <= paid[0] <= 0.0)
            assert rewards(game, scoring, result, "win") == ((1.0,) if result.won else (0.0,))
        else:
            assert scoring.points is not None
            for seat, points in enumerate(result.scores):
                assert scoring.points[0] <= points <= scoring.points[1]
                won = seat in result.winners
                assert (1.0 <= paid[seat] <= 2.0) if won else (-1.0 <= paid[seat] <= 0.0)


def test_a_lower_score_is_a_better_place_where_lower_is_better() -> None:
    assert place(0, (0, 8), lower_is_better=True) == 1.0
    assert place(8, (0, 8), lower_is_better=True) == 0.0
    assert place(2, (0, 8)) == 0.25
    assert place(99, (0, 8)) == 1.0  # beyond the range: the nearest end
