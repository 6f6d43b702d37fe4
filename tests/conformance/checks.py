"""The generic checks every registered game must pass, at every state of many playouts."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import spyglass
from spyglass.engine import Rng, State

SAMPLE_ACTIONS = 6  # actions per state whose notation and clone behaviour are checked in depth


@dataclass
class Coverage:
    """What the playouts met, so a test can insist that the checks were not vacuous."""

    states: int = 0
    hidden_differences: int = 0
    hidden_seen: set[int | None] = field(default_factory=set)


def seats_of(state: State) -> list[int | None]:
    return [*range(state.players), None]


def table(state: State) -> object:
    return state.snapshot()["table"]


def check_state(state: State, rng: Rng, initial_cards: Counter, coverage: Coverage) -> None:
    coverage.states += 1
    legal = state.legal_actions()
    check_turn(state, legal)
    check_notation(state, legal)
    check_actions(state, legal, rng)
    check_views(state)
    check_leaks(state, rng, coverage)
    assert Counter(state.cards()) == initial_cards, "a card was created or lost"


def check_turn(state: State, legal: list) -> None:
    if state.is_over:
        assert legal == [], "legal actions after the game is over"
        assert state.current_player is None
        assert state.result is not None
        assert len(state.result.scores) == state.players
        json.dumps(state.result.to_json())
    else:
        assert legal, "no legal action but the game is not over"
        assert state.current_player in range(state.players)
        assert state.result is None


def check_notation(state: State, legal: list) -> None:
    notations = [str(a) for a in legal]
    assert all(n.strip() == n and n for n in notations), "empty or padded notation"
    assert len(set(notations)) == len(notations), f"notations repeat: {notations}"
    for action in legal:
        assert state.parse(str(action)) == action, f"parse({action}) is another action"
        assert state.describe(action), "describe() gave nothing"
        json.dumps(action.to_json())


def check_actions(state: State, legal: list, rng: Rng) -> None:
    """apply(str(a)) == apply(a), and a clone moves without moving the original."""
    if not legal:
        return
    before = state.snapshot()
    sample = legal if len(legal) <= SAMPLE_ACTIONS else rng.sample(legal, SAMPLE_ACTIONS)
    for action in sample:
        by_action = state.clone()
        by_action.apply(action)
        by_text = state.clone()
        by_text.apply(str(action))
        assert by_action.snapshot() == by_text.snapshot(), f"apply('{action}') differs"
        assert by_action.step == state.step + 1
    assert state.snapshot() == before, "applying to a clone changed the original"


def check_views(state: State) -> None:
    for seat in seats_of(state):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view, "view is not plain JSON"
        assert view["seat"] == seat and view["step"] == state.step
        seat_handle = state.seat(seat)
        assert seat_handle.view == view
        if seat is not None and state.current_player == seat:
            assert seat_handle.legal_actions == state.legal_actions()
        else:
            assert seat_handle.legal_actions == []


def check_leaks(state: State, rng: Rng, coverage: Coverage) -> None:
    """DESIGN.md section 3: a determinization looks the same to the seat, differs where
    something is hidden, and depends only on what the seat knows."""
    hidden = state.game.info.hidden_information
    for seat in seats_of(state):
        view = state.view(seat)
        seed = rng.next64()
        first = state.determinize(seat, Rng(seed))
        assert first.view(seat) == view, f"determinize({seat}) changes what seat {seat} sees"
        assert Counter(first.cards()) == Counter(state.cards())
        if seat is not None and state.current_player == seat:
            assert [str(a) for a in first.legal_actions()] == [
                str(a) for a in state.legal_actions()
            ], "the seat's legal actions depend on hidden information"
        second = state.determinize(seat, Rng(seed ^ 0x5DEECE66D))
        if table(first) != table(second):
            coverage.hidden_differences += 1
            coverage.hidden_seen.add(seat)
        if not hidden:
            assert table(first) == table(state), "a game without hidden information resampled"
        # Same knowledge, same seed => same determinization: nothing of the true hidden
        # arrangement survives into it.
        again = state.determinize(seat, Rng(seed + 1))
        assert again.snapshot() == first.determinize(seat, Rng(seed + 1)).snapshot(), (
            f"determinize({seat}) depends on more than seat {seat} knows"
        )
        sample = state.seat(seat).determinize(Rng(seed))
        assert sample.view(seat) == view
        assert sample.seed is None and sample.history == []


def check_record(state: State) -> None:
    record = state.record()
    text = json.dumps(record, ensure_ascii=False)
    again = spyglass.replay(json.loads(text))
    assert again.snapshot() == state.snapshot(), "replay(record()) is not the same state"
    assert again.digest() == state.digest()
    for seat in seats_of(state):
        assert again.view(seat) == state.view(seat)
