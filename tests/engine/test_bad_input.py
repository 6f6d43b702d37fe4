"""Bad input through the public API: only the documented errors, and nothing changes."""

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spyglass
from spyglass.components import Card
from spyglass.engine import Action, IllegalAction, Rng, RulesError, SpyglassError

GAMES = [info.id for info in spyglass.games()]
CARD = st.integers(min_value=0, max_value=53).map(Card)
JUNK = st.one_of(
    st.text(max_size=30),
    st.integers(),
    st.none(),
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=4), max_size=3),
    st.builds(
        Action,
        st.sampled_from(["sandwich", "pick", "promote", "x"]),
        st.tuples(CARD, CARD, CARD) | st.tuples(CARD) | st.just(()),
        st.sampled_from([None, "m", "c", "out", 3]),
    ),
)


def mid_game(game_id: str, steps: int) -> spyglass.State:
    state = spyglass.load(game_id).new_state(seed=steps)
    rng = Rng(steps)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 8), JUNK)
def test_junk_moves_raise_illegal_action_and_change_nothing(game_id, steps, junk) -> None:
    state = mid_game(game_id, steps)
    before = state.snapshot()
    try:
        state.clone().describe(junk)
        state.apply(junk)  # junk that happens to be a legal move may be played
    except IllegalAction as error:
        assert error.rule
        assert state.snapshot() == before


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 12), st.data())
def test_perturbed_legal_actions_never_crash(game_id, steps, data) -> None:
    """Each game's own kinds and targets with wrong cards, targets or lengths: either legal or
    IllegalAction naming a rule, never another exception, and the state unchanged."""
    state = mid_game(game_id, steps)
    if state.is_over:
        return
    legal = state.legal_actions()
    base = data.draw(st.sampled_from(legal))
    others = [c for a in legal for c in a.cards] or [Card(0)]
    cards = data.draw(
        st.lists(st.sampled_from(others) | CARD, max_size=max(4, len(base.cards) + 1))
    )
    target = data.draw(
        st.sampled_from([a.target for a in legal])
        | st.none()
        | st.integers(-2, 9)
        | st.text(max_size=4)
    )
    kind = data.draw(st.sampled_from([a.kind for a in legal]) | st.sampled_from(["x", ""]))
    junk = Action(kind, tuple(cards), target, "")
    before = state.snapshot()
    try:
        state.clone().describe(junk)
        state.apply(junk)
    except IllegalAction as error:
        assert error.rule
        assert state.snapshot() == before


@settings(max_examples=80)
@given(st.sampled_from(GAMES), JUNK)
def test_junk_set_up_raises_rules_error(game_id, junk) -> None:
    game = spyglass.load(game_id)
    for call in (
        lambda: game.new_state(seed=junk),
        lambda: game.new_state(players=junk),
        lambda: game.new_state(seed=1, deck=junk),
        lambda: game.new_state(seed=1).view(junk),
        lambda: game.new_state(seed=1).determinize(0, junk),
        lambda: spyglass.load(junk),
        lambda: spyglass.replay(junk),
    ):
        with contextlib.suppress(SpyglassError):
            call()


def test_integers_are_not_cards_in_a_stacked_deck() -> None:
    with pytest.raises(RulesError, match="cannot read 0 as a card"):
        spyglass.load("sandwich-guy").new_state(seed=1, deck=list(range(52)))


def test_describing_an_illegal_action_names_the_rule() -> None:
    state = spyglass.load("syndicate").new_state(seed=1)
    with pytest.raises(IllegalAction, match="is not among the left-over cards"):
        state.describe(Action("pick", (Card(0),), None, "pick A♠"))
