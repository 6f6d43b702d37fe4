"""What a seat's name may be: text people read at the table, so it must not lie.

A name is shown in the seats, the log, the chat and the results, so it is refused when it could
deceive: control and formatting characters (a NUL, a right-to-left override that reverses what
follows, zero-width characters that make two names look alike), a name that passes for a bot
(``"seat 1 (heuristic bot)"``: people must always know who is a person) or for another seat
(``"seat 2"`` in seat 1), and a name another seat at the table already has, compared as people
would read them (Unicode compatibility forms folded, case and spacing ignored, and letters of
other scripts that look the same taken as the same: :func:`name_keys`).

Account names (:func:`clean_account_name`) follow the same rules and a few more, since they
name a person everywhere on the site: no mixing of scripts, and no two accounts whose names
read alike.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache

from confusable_homoglyphs import confusables as homoglyphs

MAX_NAME = 40  # characters

#: Unicode categories refused in a name: controls, formatting (bidirectional overrides,
#: zero-width joiners), surrogates, private use and unassigned code points.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_BOT_WORD = re.compile(r"\bbots?\b")
# Capital O and zero are one look-alike group, so a name's second key spells BOT as "b0t".
_BOT_LOOKALIKE = re.compile(r"\bb0ts?\b")
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
    for folded in (fold(text), *name_keys(text)):
        if _BOT_WORD.search(folded) or _BOT_LOOKALIKE.search(folded):
            raise BadName(f"seat {seat}: a person's name cannot say 'bot' (bots are named by us)")
        numbered = _SEAT_NAME.match(folded)
        if numbered and int(numbered.group(1)) != seat:
            raise BadName(f"seat {seat}: the name {text!r} would pass for another seat")
    return text


def check_unique(names: Iterable[tuple[int, str]]) -> None:
    """:class:`BadName` if two seats' names read the same (see :func:`name_keys`)."""
    seen: dict[str, int] = {}
    for seat, name in names:
        keys = name_keys(name)
        for key in keys:
            if key in seen:
                raise BadName(f"seats {seen[key]} and {seat} cannot both be called {name!r}")
        for key in keys:
            seen[key] = seat


# ---------------------------------------------------------------------- look-alikes


@cache
def _prototypes() -> dict[str, str]:
    """Each character that Unicode's confusables data says looks like others, mapped to one
    character of its group (the lowest code point: ``l``, ``I`` and ``1`` all map to ``1``;
    Cyrillic ``а`` to Latin ``a``). Groups are joined transitively. Sequences (``rn`` for
    ``m``) are not: a name is compared character by character."""
    parent: dict[str, str] = {}

    def find(char: str) -> str:
        parent.setdefault(char, char)
        while parent[char] != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, glyphs in homoglyphs.confusables_data.items():
        for glyph in glyphs:
            # the data wraps right-to-left letters in LEFT-TO-RIGHT MARKs to print them
            other = glyph["c"].replace("\u200e", "").replace("\u200f", "")
            if len(other) == 1 and len(char) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {char: find(char) for char in parent}


def skeleton(text: str) -> str:
    """``text`` with every character replaced by its look-alike group's representative."""
    table = _prototypes()
    return "".join(table.get(char, char) for char in text)


def name_keys(name: str) -> tuple[str, str]:
    """Two readings of a name as people see it; two names that share either read alike.

    The first ignores case, then look-alikes (``Bob`` = ``bоb`` with a Cyrillic о); the second
    takes look-alikes in the case written, then ignores case (``BiII`` with capital i's =
    ``Bill``, since ``I`` looks like ``l``). One reading alone would miss one of these: case
    folding first turns ``I`` into ``i``, which looks like nothing else."""
    return skeleton(fold(name)), fold(skeleton(unicodedata.normalize("NFKC", name)))


def named(text: str, names: Sequence[str]) -> str:
    """``text`` with each ``seat N`` (N a seat at the table) replaced by that seat's name: the
    games' logs and result sentences count seats, people read names. A seat whose name is its
    number (an unnamed seat, a bot's ``seat 2 (heuristic bot)``) stays ``seat N``, as the pages
    do (frontend/src/cards.js, ``named``), so the log and the result say the same."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        if not 0 <= seat < len(names) or not names[seat]:
            return match.group(0)
        given = names[seat]
        return match.group(0) if given.startswith(f"seat {seat}") else given

    return _SEAT_WORD.sub(name, text)


# ---------------------------------------------------------------------- account names

MIN_ACCOUNT_NAME = 2
MAX_ACCOUNT_NAME = 24
#: Besides letters, marks and digits, an account name may hold these, not at its start.
ACCOUNT_PUNCTUATION = frozenset(" _-.'")
#: Words the pages use for people who are not a named player.
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "anonymous",
        "everyone",
        "guest",
        "host",
        "moderator",
        "nobody",
        "server",
        "spectator",
        "spyglass",
        "system",
        "you",
    }
)
_SEAT_WORD = re.compile(r"\bseat (\d+)\b")


def clean_account_name(name: str) -> str:
    """An account's name, or :class:`BadName` saying why not: 2 to 24 letters, digits and
    ``_ - . '`` or single spaces, starting with a letter or digit, in one script, not saying
    *bot*, not a seat (``seat 3``) and not a word the pages use (``you``, ``everyone``)."""
    text = unicodedata.normalize("NFC", name)
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise BadName(
                f"a name cannot hold the character U+{ord(char):04X}"
                f" ({unicodedata.name(char, 'a control or formatting character').lower()})"
            )
    text = _SPACES.sub(" ", text).strip()
    if not MIN_ACCOUNT_NAME <= len(text) <= MAX_ACCOUNT_NAME:
        raise BadName(
            f"a name is {MIN_ACCOUNT_NAME} to {MAX_ACCOUNT_NAME} characters, not {len(text)}"
        )
    if not text[0].isalnum():
        raise BadName("a name starts with a letter or a digit")
    for char in text:
        if not (char.isalnum() or unicodedata.category(char)[0] == "M") and (
            char not in ACCOUNT_PUNCTUATION
        ):
            raise BadName(f"a name holds letters, digits, spaces and _ - . ' only, not {char!r}")
    if homoglyphs.is_mixed_script(text, allowed_aliases=["COMMON", "INHERITED"]):
        raise BadName("a name is written in one script (letters of several can imitate others)")
    for key in (fold(text), *name_keys(text)):
        if _BOT_WORD.search(key) or _BOT_LOOKALIKE.search(key):
            raise BadName("a person's name cannot say 'bot' (bots are named by us)")
        if _SEAT_NAME.match(key):
            raise BadName(f"the name {text!r} would pass for a seat")
        if key in RESERVED:
            raise BadName(f"{text!r} is a word the pages use; choose another name")
    return text
