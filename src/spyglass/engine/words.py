"""Small helpers for the sentences games write (logs, summaries, descriptions)."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word in the right number: "1 card", "3 cards", "1 city", "2 cities"."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many if many is not None else word + 's'}"
