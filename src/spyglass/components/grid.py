"""Square grids: positions, orthogonal neighbours, bounding boxes, and spreadsheet-style labels.

A position is a plain ``(row, col)`` tuple (hashable, fast, JSON-friendly as a list); rows grow
downwards and columns to the right, and may be negative where a grid grows in every direction
(Foursquare). Labels read like a spreadsheet: column letter then row number, ``A1`` at the
top-left of the frame a game chooses to label.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from spyglass.engine import RulesError

Pos = tuple[int, int]
T = TypeVar("T")

#: Up, down, left, right.
ORTHOGONAL: tuple[Pos, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))

_LABEL = re.compile(r"^([A-Za-z])(\d{1,2})$")


def neighbours(pos: Pos) -> list[Pos]:
    """The four orthogonally adjacent positions."""
    row, col = pos
    return [(row + dr, col + dc) for dr, dc in ORTHOGONAL]


def inside(pos: Pos, rows: int, cols: int) -> bool:
    """Whether ``pos`` lies in the ``rows`` x ``cols`` frame whose top-left is (0, 0)."""
    return 0 <= pos[0] < rows and 0 <= pos[1] < cols


def cells(rows: int, cols: int) -> list[Pos]:
    """Every position of a ``rows`` x ``cols`` frame, row by row."""
    return [(r, c) for r in range(rows) for c in range(cols)]


def bounding_box(positions: Iterable[Pos]) -> tuple[int, int, int, int]:
    """(top, left, bottom, right), inclusive, of a non-empty set of positions."""
    places = list(positions)
    if not places:
        raise ValueError("bounding_box() of no positions")
    rows = [p[0] for p in places]
    cols = [p[1] for p in places]
    return min(rows), min(cols), max(rows), max(cols)


def span(positions: Iterable[Pos]) -> tuple[int, int]:
    """(height, width) of the smallest frame holding every position."""
    top, left, bottom, right = bounding_box(positions)
    return bottom - top + 1, right - left + 1


def label(pos: Pos, origin: Pos = (0, 0)) -> str:
    """Spreadsheet label of ``pos`` in a frame whose top-left cell ``origin`` is ``A1``."""
    row, col = pos[0] - origin[0], pos[1] - origin[1]
    if not (0 <= col < 26 and row >= 0):
        raise ValueError(f"{pos} is outside the labelled frame starting at {origin}")
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_label(text: str, origin: Pos = (0, 0)) -> Pos:
    """The position a label such as ``B3`` (or ``b3``) names; RulesError names bad text."""
    match = _LABEL.match(text.strip()) if isinstance(text, str) else None
    if match is None or int(match.group(2)) < 1:
        raise RulesError(f"cannot read {text!r} as a grid space: write column then row, like B3")
    col = ord(match.group(1).upper()) - ord("A")
    return (origin[0] + int(match.group(2)) - 1, origin[1] + col)


def grid_view(
    contents: Mapping[Pos, T],
    *,
    top: int,
    left: int,
    rows: int,
    cols: int,
    show: Callable[[T], Any],
    labelled: bool = True,
) -> dict[str, Any]:
    """A frame of a grid as the ``grid`` layout region draws it.

    Each cell is ``show(value)`` for an occupied position and None for an empty one; with
    ``labelled``, column letters and row numbers start at ``A1`` for (top, left).
    """
    view: dict[str, Any] = {
        "cells": [
            [
                show(contents[(r, c)]) if (r, c) in contents else None
                for c in range(left, left + cols)
            ]
            for r in range(top, top + rows)
        ]
    }
    if labelled:
        view["col_labels"] = [chr(ord("A") + c) for c in range(cols)]
        view["row_labels"] = [str(r + 1) for r in range(rows)]
    return view
