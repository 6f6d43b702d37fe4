"""What a seat's name may be: text people read at the table, so it must not lie.

A name is shown in the seats, the log, the chat and the results, so it is refused when it could
deceive: control and formatting characters (a NUL, a right-to-left override that reverses what
follows, zero-width characters that make two names look alike), a name that passes for a bot
(``"seat 1 (heuristic bot)"``: people must always know who is a person) or for another seat
(``"seat 2"`` in seat 1), and a name another seat at the table already has, compared as people
would read them (Unicode compatibility forms folded, case and spacing ignored).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

MAX_NAME = 40  # characters

#: Unicode categories refused in a name: controls, formatting (bidirectional overrides,
#: zero-width joiners), surrogates, private use and unassigned code points.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_BOT_WORD = re.compile(r"\bbots?\b")
_SEAT_NAME = re.compile(r"^seat\s*#?\s*(\d+)\b")
_SPACES = re.compile(r"\s+")


class BadName(ValueError):
    """A name refused, with the reason."""


def fold(name: str) -> str:
    """A name as people compare names: compatibility forms folded, case and spacing ignored."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()


def default_name(seat: int) -> str:
    return f"seat {seat}"


def bot_name(seat: int, agent: str) -> str:
    return f"seat {seat} ({agent} bot)"


def clean_name(name: str | None, seat: int) -> str:
    """A person's name for ``seat`` (its default when empty), or :class:`BadName`."""
    text = unicodedata.normalize("NFC", name or "")
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise BadName(
                f"seat {seat}: a name cannot hold the character U+{ord(char):04X}"
                f" ({unicodedata.name(char, 'a control or formatting character').lower()})"
            )
    text = _SPACES.sub(" ", text).strip()
    if not text:
        return default_name(seat)
    if len(text) > MAX_NAME:
        raise BadName(f"seat {seat}: a name is at most {MAX_NAME} characters")
    folded = fold(text)
    if _BOT_WORD.search(folded):
        raise BadName(f"seat {seat}: a person's name cannot say 'bot' (bots are named by us)")
    numbered = _SEAT_NAME.match(folded)
    if numbered and int(numbered.group(1)) != seat:
        raise BadName(f"seat {seat}: the name {text!r} would pass for another seat")
    return text


def check_unique(names: Iterable[tuple[int, str]]) -> None:
    """:class:`BadName` if two seats' names read the same."""
    seen: dict[str, int] = {}
    for seat, name in names:
        key = fold(name)
        if key in seen:
            raise BadName(f"seats {seen[key]} and {seat} cannot both be called {name!r}")
        seen[key] = seat
