"""The state's parts copy every field, and a copy shares no container with its original: a
clone (every search's and bot's first step) must never let a move in one game reach another.
Each part's ``copy`` names its fields one by one (fast, and clones are hot), so a field added
to a part and forgotten in its ``copy`` fails here."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

import spyglass
from spyglass.engine import Rng
from spyglass.games.spies import parts
from spyglass.games.spies.rules import SpiesState

PARTS = {"bank": parts.Bank, "board": parts.Board, "turn": parts.Turn, "talks": parts.Talks,
         "hands": parts.Hands, "auction": parts.Auction}  # fmt: skip


def _midgame() -> SpiesState:
    state = spyglass.load("spies").new_state(players=5, seed=3)
    rng = Rng(3)
    for _ in range(400):  # well into 1933's turns: every part holds something
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _marked(value: object) -> object:
    """A value of the same shape as ``value`` that no game would hold there by chance."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, dict):
        return {"marker": ["marker"]}
    if isinstance(value, list):
        return ["marker"]
    if isinstance(value, set):
        return {"marker"}
    return object()  # None, a string, an offer, a voyage: copied by reference


@pytest.mark.parametrize("name", list(PARTS))
def test_a_part_s_copy_keeps_every_field_and_shares_no_container(name: str) -> None:
    part = getattr(_midgame(), name)
    assert type(part) is PARTS[name]
    assert part.copy() == part
    for f in fields(part):
        marked = replace(part, **{f.name: _marked(getattr(part, f.name))})
        copy = marked.copy()
        assert getattr(copy, f.name) == getattr(marked, f.name), f"{name}.{f.name} is lost"
        value = getattr(marked, f.name)
        if isinstance(value, dict | list | set):
            assert getattr(copy, f.name) is not value, f"{name}.{f.name} is shared"


def test_the_hands_per_power_lists_are_copied() -> None:
    hands = _midgame().hands
    copy = hands.copy()
    for field in ("chits", "tiles", "discarded"):
        for power, held in getattr(hands, field).items():
            assert getattr(copy, field)[power] is not held


def test_a_clone_s_moves_leave_the_original_as_it_was() -> None:
    state = _midgame()
    before = state.snapshot()
    clone = state.clone()
    for _ in range(200):
        if clone.is_over:
            break
        clone.apply(clone.legal_actions()[0])
    assert state.snapshot() == before
