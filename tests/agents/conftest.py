"""Fixtures shared by the agents' tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def states_given(monkeypatch) -> Callable[[type], list[Any]]:
    """``states_given(cls)``: a list that collects the state every call of ``cls`` (a policy
    or a search called like a bot, ``cls(state, rng, ...)``) is given, the call itself unchanged."""

    def spy_on(cls: type) -> list[Any]:
        seen: list[Any] = []
        original = cls.__call__

        def spy(self, state, rng, *more):
            seen.append(state)
            return original(self, state, rng, *more)

        monkeypatch.setattr(cls, "__call__", spy)
        return seen

    return spy_on
