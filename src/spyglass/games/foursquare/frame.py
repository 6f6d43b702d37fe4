"""The fixed frame of spaces a Foursquare grid can ever use, and their stable labels.

The grid may grow in any direction from the first card, but never past four spaces in either
direction, so every space it can reach lies in a 7x7 frame centred on the first card. Spaces are
numbered 0..48 row by row (``index = row * 7 + col``) so that sets of spaces are bitmasks, and
labelled like a spreadsheet (``A1`` top-left, ``G7`` bottom-right): the first card is always on
``D4`` and a space keeps its label for the whole game.
"""

from __future__ import annotations

from spyglass.components.grid import ORTHOGONAL, Pos, label, parse_label
from spyglass.engine import RulesError

SIDE = 4  # the grid is at most four spaces long in each direction
FRAME = 2 * SIDE - 1
SPACES = FRAME * FRAME
START = (SIDE - 1) * FRAME + (SIDE - 1)  # the first card's space, D4

ROW = tuple(i // FRAME for i in range(SPACES))
COL = tuple(i % FRAME for i in range(SPACES))
LABEL = tuple(label((ROW[i], COL[i])) for i in range(SPACES))
ROW_MASK = tuple(sum(1 << (r * FRAME + c) for c in range(FRAME)) for r in range(FRAME))
COL_MASK = tuple(sum(1 << (r * FRAME + c) for r in range(FRAME)) for c in range(FRAME))


def _neighbour_mask(index: int) -> int:
    mask = 0
    for dr, dc in ORTHOGONAL:
        r, c = ROW[index] + dr, COL[index] + dc
        if 0 <= r < FRAME and 0 <= c < FRAME:
            mask |= 1 << (r * FRAME + c)
    return mask


NEIGHBOURS = tuple(_neighbour_mask(i) for i in range(SPACES))


def _band(masks: tuple[int, ...], low: int, high: int) -> int:
    return sum(masks[k] for k in range(low, high + 1))


#: BOX[top][bottom][left][right]: the bitmask of a rectangle of the frame (inclusive bounds).
BOX = tuple(
    tuple(
        tuple(
            tuple(
                _band(ROW_MASK, top, bottom) & _band(COL_MASK, left, right)
                for right in range(FRAME)
            )
            for left in range(FRAME)
        )
        for bottom in range(FRAME)
    )
    for top in range(FRAME)
)

INDEX_OF_LABEL = {text: i for i, text in enumerate(LABEL)}


def space_of(text: str) -> Pos:
    """(row, col) of a typed label such as ``e5`` or ``E5`` (RulesError if unreadable).

    The position may lie outside the frame (``H9``); callers check.
    """
    return parse_label(text)


def normal_label(text: str) -> str:
    """The printed form of a typed label (``e5`` -> ``E5``); RulesError if unreadable."""
    row, col = space_of(text)
    return f"{chr(ord('A') + col)}{row + 1}"


def index_of(text: object) -> int | None:
    """The frame index a label names, or None when it is unreadable or off the frame."""
    if not isinstance(text, str):
        return None
    try:
        row, col = space_of(text)
    except RulesError:
        return None
    if 0 <= row < FRAME and 0 <= col < FRAME:
        return row * FRAME + col
    return None
