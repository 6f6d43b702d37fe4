"""A tuned policy's weights: its own, some replaced by name (for ``spyglass tune``)."""

from __future__ import annotations

from collections.abc import Mapping

from spyglass.engine import RulesError


def chosen(game_id: str, own: Mapping[str, float], given: Mapping[str, float] | None) -> dict:
    """``own`` with the ``given`` weights in place of some: a name the policy of ``game_id``
    does not have is refused, naming those it has."""
    weights = dict(own)
    for name, value in (given or {}).items():
        if name not in own:
            raise RulesError(
                f"the {game_id} policy has no weight {name!r}; its weights: " + ", ".join(own)
            )
        weights[name] = float(value)
    return weights
