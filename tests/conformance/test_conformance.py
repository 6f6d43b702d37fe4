"""The conformance suite: generic checks over every registered game (DESIGN.md section 5).

Each game is played many times from seeded deals, half the playouts by uniform random moves and
half by the game's own bot (which reaches deeper positions), and every state is checked. A game
added to the registry is covered without any change here.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

import spyglass
from spyglass.engine import Rng
from tests.conformance.checks import Coverage, check_record, check_state

PLAYOUTS = int(os.environ.get("SPYGLASS_PLAYOUTS", "24"))
#: Long games are checked at every state early on, then at a sparser stride, always at the end;
#: a case stops once it has checked this many states (after at least MIN_PLAYOUTS playouts). A
#: larger table has a smaller budget and a shorter dense start (see ``state_budget``).
DENSE_STATES = 60
STATE_BUDGET = 900
MIN_PLAYOUTS = 6


def stride(checked: int, dense: int) -> int:
    return 1 if checked < dense else 7 if checked < 3 * dense else 31


def state_budget(players: int) -> int:
    """The states a case checks: a state's checks look at it from every seat and the
    spectator, so the budget is the views of 900 states at two players (450 states at five,
    whose playouts are checked at every state for 30 states, not 60, then more sparsely)."""
    return min(STATE_BUDGET, 3 * STATE_BUDGET // (players + 1))


def player_counts(info: spyglass.GameInfo) -> list[int]:
    """Every table size of a game for up to four sizes (Spies! deals its powers differently at
    2, 3, 4 and 5), else the smallest, the middle and the largest."""
    low, high = info.players
    if high - low <= 3:
        return list(range(low, high + 1))
    return sorted({low, (low + high) // 2, high})


CASES = [
    pytest.param(info.id, players, id=f"{info.id}-{players}p")
    for info in spyglass.games()
    for players in player_counts(info)
]


def choose(state: spyglass.State, rng: Rng, use_bot: bool) -> spyglass.Action:
    bot = state.game.spec.bot
    if use_bot and bot is not None:
        player = state.current_player
        return bot(state.determinize(player, rng), rng)
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_playouts_conform(game_id: str, players: int) -> None:
    game = spyglass.load(game_id)
    bound = game.max_actions(players)
    budget = state_budget(players)
    dense = DENSE_STATES * budget // STATE_BUDGET
    coverage = Coverage()
    for k in range(PLAYOUTS):
        if k >= MIN_PLAYOUTS and coverage.states >= budget:
            break
        state = game.new_state(players=players, seed=7919 * k + 11)
        rng = Rng(k)
        initial = Counter(state.cards())
        assert sum(initial.values()) == sum(len(d) for d in game.deck_contents(players).values())
        checked = 0
        while True:
            if state.is_over or state.step % stride(checked, dense) == 0:
                check_state(state, rng, initial, coverage)
                checked += 1
            if state.step == DENSE_STATES // 2 or state.is_over:
                check_record(state)
            if state.is_over:
                break
            state.apply(choose(state, rng, use_bot=k % 2 == 1))
            assert state.step <= bound, f"longer than the declared bound of {bound} actions"
    assert coverage.states >= min(PLAYOUTS, MIN_PLAYOUTS)
    if game.info.hidden_information:
        assert coverage.hidden_differences > 0, "hidden information never resampled"
    else:
        assert coverage.hidden_differences == 0


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_same_inputs_same_game(game_id: str, players: int) -> None:
    """Same game, options, players, seed, decks and actions => the identical state."""
    game = spyglass.load(game_id)
    first = game.new_state(players=players, seed=99)
    second = game.new_state(players=players, seed=99)
    rng = Rng(3)
    while not first.is_over:
        action = rng.choice(first.legal_actions())
        first.apply(action)
        second.apply(str(action))
        assert first.snapshot() == second.snapshot()
    stacked = game.new_state(players=players, seed=99, deck=first.record()["decks"])
    assert (
        stacked.snapshot()["table"] == game.new_state(players=players, seed=99).snapshot()["table"]
    ), "stacking a seed's own decks changes the deal"


@pytest.mark.parametrize("game_id", [info.id for info in spyglass.games()])
def test_info_rules_and_layout(game_id: str) -> None:
    game = spyglass.load(game_id)
    info = game.info
    assert info.title and info.summary and info.rulebook
    text = game.rules_text()
    assert text.startswith("# "), "RULES.md should open with a title"
    assert "notation" in text.lower(), "RULES.md should explain the notation"
    assert "ruling" in text.lower(), "RULES.md should state our rulings"
    assert game.spec.layout, "a game needs a layout to be drawn"
    assert game.spec.bot is not None, "every game has a heuristic bot"
    view = game.new_state(seed=1).view(0)
    for region in game.spec.layout:
        assert region.key.split(".")[0] in view["table"], f"layout key {region.key} not in view"
