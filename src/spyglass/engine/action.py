"""Actions: small immutable values with a typeable notation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Action:
    """One decision a seat can take.

    ``kind`` names the decision in the rulebook's vocabulary ("sandwich", "promote", "pick"),
    ``cards`` are the cards it involves (so a UI can map clicks to it) and ``target`` the place,
    seat or choice it aims at (any JSON-ready hashable value). ``text`` is its notation, unique
    among the legal actions of the state that produced it; ``str(action)`` returns it and
    ``state.apply(text)`` accepts it. Equality and hashing ignore ``text``.
    """

    kind: str
    cards: tuple[Any, ...] = ()
    target: Any = None
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text or str(self.kind)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": [str(c) for c in self.cards],
            "target": _jsonable(self.target),
            "notation": str(self),
        }


def _jsonable(value: Any) -> Any:
    """Plain JSON values pass; tuples become lists; anything else (a card) becomes its notation."""
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if value is None or type(value) in (bool, int, float, str):
        return value
    return str(value)
