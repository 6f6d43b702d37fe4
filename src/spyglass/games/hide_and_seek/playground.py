"""The geometry of the table: twelve playmates in a 3 x 4 grid and the 14 guess spaces around it.

Everything is labelled in one 5 x 6 frame, spreadsheet style: the playmates sit at B2 to E4, the
guess spaces at both ends of every column (B1-E1 on top, B5-E5 below) and of every row (A2-A4
on the left, F2-F4 on the right). The four corners A1, F1, A5, F5 are not spaces.

Playmates are numbered column by column, top to bottom (the order of the stacked
``playground`` deck), because each column is one of the dealt piles.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyglass.components.grid import label

ROWS = 3
COLUMNS = 4
CELLS = ROWS * COLUMNS
FRAME_ROWS = ROWS + 2
FRAME_COLUMNS = COLUMNS + 2

COLUMN, ROW = "column", "row"


def cell_row(cell: int) -> int:
    return cell % ROWS


def cell_column(cell: int) -> int:
    return cell // ROWS


def cell_of(row: int, column: int) -> int:
    return column * ROWS + row


def cell_frame(cell: int) -> tuple[int, int]:
    """Where a playmate sits in the labelled frame."""
    return cell_row(cell) + 1, cell_column(cell) + 1


def line_name(kind: str, index: int) -> str:
    """'column C' or 'row 3', named by the frame's letters and numbers."""
    if kind == COLUMN:
        return f"column {chr(ord('B') + index)}"
    return f"row {index + 2}"


@dataclass(frozen=True, slots=True)
class Space:
    """One guess space: its label, the line it belongs to, and that line's playmates."""

    index: int
    label: str
    frame: tuple[int, int]
    line: str  # COLUMN or ROW
    line_index: int
    end: str  # "top", "bottom", "left" or "right"
    cells: tuple[int, ...]

    @property
    def name(self) -> str:
        return f"the {self.end} end of {line_name(self.line, self.line_index)}"


def _spaces() -> tuple[Space, ...]:
    found: list[tuple[tuple[int, int], str, int, str]] = []
    for c in range(COLUMNS):
        found.append(((0, c + 1), COLUMN, c, "top"))
        found.append(((FRAME_ROWS - 1, c + 1), COLUMN, c, "bottom"))
    for r in range(ROWS):
        found.append(((r + 1, 0), ROW, r, "left"))
        found.append(((r + 1, FRAME_COLUMNS - 1), ROW, r, "right"))
    found.sort()  # reading order of the frame: the order moves are listed in
    spaces = []
    for index, (frame, kind, line, end) in enumerate(found):
        if kind == COLUMN:
            cells = tuple(cell_of(r, line) for r in range(ROWS))
        else:
            cells = tuple(cell_of(line, c) for c in range(COLUMNS))
        spaces.append(Space(index, label(frame), frame, kind, line, end, cells))
    return tuple(spaces)


SPACES = _spaces()
SPACE_COUNT = len(SPACES)
CELL_LABELS = tuple(label(cell_frame(k)) for k in range(CELLS))
#: The playmates in reading order (row by row), the order reveals are listed in.
READING_ORDER = tuple(cell_of(r, c) for r in range(ROWS) for c in range(COLUMNS))
#: The (up to) four guess spaces whose guesses a playmate can score: its column's, then its row's.
SPACES_OF_CELL = tuple(
    tuple(
        s.index
        for s in sorted(SPACES, key=lambda s: s.line == ROW)
        if (s.line == COLUMN and s.line_index == cell_column(k))
        or (s.line == ROW and s.line_index == cell_row(k))
    )
    for k in range(CELLS)
)
SPACE_BY_LABEL = {s.label: s.index for s in SPACES}
CELL_BY_LABEL = {name: k for k, name in enumerate(CELL_LABELS)}
CORNER_FRAMES = tuple((r, c) for r in (0, FRAME_ROWS - 1) for c in (0, FRAME_COLUMNS - 1))
CORNERS = frozenset(label(frame) for frame in CORNER_FRAMES)
ALL_REVEALED = (1 << CELLS) - 1
