"""Small checks shared by the edition's loaders; every error names the file and the entry."""

from __future__ import annotations

import tomllib
from typing import Any

from spyglass.engine import RulesError


def read_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{source}: not valid TOML ({error})") from None


def entries(data: dict[str, Any], key: str, source: str) -> list[dict[str, Any]]:
    """The list of tables under ``key`` (each checked to be a table)."""
    items = data.get(key)
    if not isinstance(items, list) or not items:
        raise RulesError(f"{source}: '{key}' must be a non-empty list")
    for i, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise RulesError(f"{source}, {key} entry {i}: must be a table {{ ... }}")
    return items


def label(data: dict[str, Any], source: str) -> str:
    text = data.get("edition")
    if not isinstance(text, str) or not text.strip():
        raise RulesError(f"{source}: 'edition' must name the edition (a non-empty string)")
    return text.strip()


def whole(value: Any, where: str, minimum: int, maximum: int | None = None) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= minimum
    if ok and maximum is not None:
        ok = value <= maximum
    if not ok:
        bound = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
        raise RulesError(f"{where} must be a whole number {bound}, not {value!r}")
    return value


def number(value: Any, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise RulesError(f"{where} must be a number from {low} to {high}, not {value!r}")
    return float(value)


def flag(table: dict[str, Any], key: str, where: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise RulesError(f"{where}: {key} must be true or false, not {value!r}")
    return value


def word(value: Any, where: str) -> str:
    """A non-empty id with no spaces (ids are typed in moves)."""
    if not isinstance(value, str) or not value or value != value.strip() or " " in value:
        raise RulesError(f"{where} must be one word (no spaces), not {value!r}")
    return value


def text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RulesError(f"{where} must be a non-empty string, not {value!r}")
    return value.strip()


def no_unknown(table: dict[str, Any], known: set[str], where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise RulesError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
