"""Game options: declared by each game, validated when a game is loaded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .errors import RulesError

_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f"}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game: its name, type (bool, int or str), default, and allowed values."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    @property
    def kind(self) -> type:
        return type(self.default)

    def coerce(self, game_id: str, value: Any) -> Any:
        """The value as this option's type, from a Python value or command-line text."""
        kind = self.kind
        if isinstance(value, str) and kind is not str:
            text = value.strip().lower()
            if kind is bool:
                if text in _TRUE:
                    value = True
                elif text in _FALSE:
                    value = False
                else:
                    raise RulesError(self._bad(game_id, value, "expected true or false"))
            elif kind is int:
                try:
                    value = int(text)
                except ValueError:
                    raise RulesError(self._bad(game_id, value, "expected a whole number")) from None
        if kind is bool and not isinstance(value, bool):
            raise RulesError(self._bad(game_id, value, "expected true or false"))
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesError(self._bad(game_id, value, "expected a whole number"))
        if kind is str and not isinstance(value, str):
            raise RulesError(self._bad(game_id, value, "expected text"))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise RulesError(self._bad(game_id, value, f"allowed values are {allowed}"))
        if self.minimum is not None and value < self.minimum:
            raise RulesError(self._bad(game_id, value, f"the least allowed is {self.minimum}"))
        if self.maximum is not None and value > self.maximum:
            raise RulesError(self._bad(game_id, value, f"the most allowed is {self.maximum}"))
        return value

    def describe_values(self) -> str:
        if self.choices is not None:
            return "|".join(str(c).lower() for c in self.choices)
        if self.kind is bool:
            return "true|false"
        if self.minimum is not None or self.maximum is not None:
            return f"{self.minimum if self.minimum is not None else ''}..{self.maximum or ''}"
        return self.kind.__name__

    def _bad(self, game_id: str, value: Any, why: str) -> str:
        return f"option {self.name}={value!r} is not valid for {game_id}: {why}"


def resolve_options(
    game_id: str, specs: tuple[OptionSpec, ...], given: Mapping[str, Any]
) -> Mapping[str, Any]:
    """Defaults overlaid with the given options, each checked; unknown names are an error."""
    by_name = {spec.name: spec for spec in specs}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise RulesError(f"{game_id} has no option {unknown[0]!r} (its options: {known})")
    values = {spec.name: spec.default for spec in specs}
    for name, value in given.items():
        values[name] = by_name[name].coerce(game_id, value)
    return MappingProxyType(values)
