"""Where things lie in a game's TOML data file, so that a load error can name the line.

Games check their data files entry by entry and word their errors "FILE, KEY entry N (NAME):
what is wrong" (or "FILE: KEY what is wrong" for a top-level key). :func:`with_line` turns such
an error into "FILE line L, KEY entry N (NAME): what is wrong", finding the line in the file's
text: the N-th ``[[KEY]]`` table, or the N-th item (an inline table or a list) of a
``KEY = [...]`` list, and within it the line of the field the message names first, when it has a
line of its own.
"""

from __future__ import annotations

import re

from .errors import RulesError

_ENTRY = re.compile(
    r"^(?P<source>[^,:\n]+), (?P<key>\w+) (?P<kind>entry|line) (?P<index>\d+)"
    r"(?: \((?P<name>[^)]*)\))?(?P<rest>.*)$",
    re.S,
)
_TOP = re.compile(r"^(?P<source>[^,:\n]+): (?P<key>\w+)(?P<rest>\b.*)$", re.S)
_ASSIGN = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*=")
_FIELD = re.compile(r"^[:,]?\s*(?:[\w ]*?: )?(?P<field>\w+)")


def with_line(error: RulesError, text: str) -> RulesError:
    """``error`` with the line of ``text`` it is about; the error itself if none is found."""
    message = str(error)
    match = _ENTRY.match(message)
    if match is not None:
        key, index = match["key"], int(match["index"])
        rest = match["rest"]
        field = _FIELD.match(rest)
        line = entry_line(text, key, index, field["field"] if field else None)
        if line is None:
            return error
        what = f"{key} {match['kind']} {index}" + (f" ({match['name']})" if match["name"] else "")
        return RulesError(f"{match['source']} line {line}, {what}{rest}")
    match = _TOP.match(message)
    if match is not None:
        line = top_line(text, match["key"])
        if line is not None:
            return RulesError(f"{match['source']} line {line}: {match['key']}{match['rest']}")
    return error


def top_line(text: str, key: str) -> int | None:
    """The line (1-based) where the top-level ``key`` is assigned or its tables begin."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped in (f"[[{key}]]", f"[{key}]"):
            return number
        found = _ASSIGN.match(line)
        if found is not None and found.group(1) == key and not line[:1].isspace():
            return number
    return None


def entry_line(text: str, key: str, index: int, field: str | None = None) -> int | None:
    """The line of the ``index``-th (1-based) entry of the list ``key``: a ``[[key]]`` table or
    an inline table on its own line of ``key = [ ... ]``; with ``field``, the line of that
    field in the entry when the entry spreads over several lines."""
    lines = text.splitlines()
    starts = _entry_starts(lines, key)
    if not 1 <= index <= len(starts):
        return None
    start, end = starts[index - 1]
    if field is not None:
        for number in range(start, end + 1):
            found = _ASSIGN.match(lines[number - 1])
            if found is not None and found.group(1) == field:
                return number
    return start


def _entry_starts(lines: list[str], key: str) -> list[tuple[int, int]]:
    """(first, last) line of each entry of the list ``key``."""
    tables = [n for n, line in enumerate(lines, start=1) if line.strip() == f"[[{key}]]"]
    if tables:
        ends = []
        for k, first in enumerate(tables):
            last = len(lines)
            for n in range(first + 1, len(lines) + 1):
                if lines[n - 1].strip().startswith("["):
                    last = n - 1
                    break
            if k + 1 < len(tables):
                last = min(last, tables[k + 1] - 1)
            ends.append((first, last))
        return ends
    opening = top_line("\n".join(lines), key)
    if opening is None:
        return []
    found: list[tuple[int, int]] = []
    depth = 0  # brackets and braces open since the '=' of the list
    for n in range(opening, len(lines) + 1):
        segment = _without_strings(lines[n - 1])
        if n == opening:
            segment = segment.split("=", 1)[1]
        for char in segment:
            if char in "[{":
                if depth == 1:  # an entry: an inline table, or a list (a line of cities)
                    found.append((n, n))
                depth += 1
            elif char in "]}":
                depth -= 1
                if depth == 1:
                    found[-1] = (found[-1][0], n)
                if depth == 0:
                    return found
    return found


def _without_strings(line: str) -> str:
    """The line with quoted text and any comment removed (brackets inside strings ignored)."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("#", 1)[0]
