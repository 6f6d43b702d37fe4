"""Skyway's scoring: the longest increasing run of each suit along a walk through the grid.

A run is a sequence of cards of one suit, strictly increasing in rank, each card on a space
orthogonally next to the previous card's space. The walk may come back to a space it has left,
and a card counts on whatever layer of its stack it lies. A suit has at most one card of each
rank, so processing ranks in increasing order and remembering, for every space, the longest
run ending there so far gives the answer in one pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from spyglass.components.cards import SUITS, Card
from spyglass.components.grid import inside, label, neighbours

ROWS = COLS = 3
SPACES = ROWS * COLS
LABELS = tuple(label((i // COLS, i % COLS)) for i in range(SPACES))
SPACE_OF_LABEL = {text: i for i, text in enumerate(LABELS)}
#: The spaces orthogonally next to each space (indices row * 3 + column).
ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * COLS + c for r, c in neighbours((i // COLS, i % COLS)) if inside((r, c), ROWS, COLS))
    for i in range(SPACES)
)
WIN_LENGTH = 5
TOP_RANK = 10  # the face cards are out of the game
SUIT_NAMES = ("spades", "hearts", "clubs", "diamonds")  # in the order of SUITS

# A card's suit index and rank by code (deck 0 only: Skyway uses one deck).
_SUIT_INDEX = tuple(code // 13 for code in range(52))
_RANK = tuple(code % 13 + 1 for code in range(52))

Grid = Sequence[Sequence[Card]]


def runs(grid: Grid) -> tuple[int, int, int, int]:
    """The longest run of each suit, in the order of SUITS (spades, hearts, clubs, diamonds)."""
    where = _where(grid)
    return suit_run(where[0]), suit_run(where[1]), suit_run(where[2]), suit_run(where[3])


def suit_run(places: Sequence[int]) -> int:
    """The longest run of one suit whose card of rank r lies on space ``places[r]`` (-1: not
    on the grid)."""
    best = [0] * SPACES  # longest run so far ending on each space
    longest = 0
    for rank in range(1, TOP_RANK + 1):
        space = places[rank]
        if space < 0:
            continue
        length = 1 + max([best[q] for q in ADJACENT[space]])
        if length > best[space]:
            best[space] = length
            longest = max(longest, length)
    return longest


def suit_and_rank(card: Card) -> tuple[int, int]:
    """A card's suit index (in the order of SUITS) and rank."""
    return _SUIT_INDEX[card], _RANK[card]


def longest_path(grid: Grid, suit: str) -> list[tuple[Card, int]]:
    """One longest run of ``suit`` as (card, space) pairs, lowest card first.

    Ties go to the run that ends on the lowest card and, before that, steps back to the lowest
    card, so the answer is reproducible.
    """
    s = SUITS.index(suit)
    places = _where(grid)[s]
    # ending[r] = (length, previous rank) of the longest run ending on the card of rank r.
    ending: dict[int, tuple[int, int]] = {}
    for rank in range(1, TOP_RANK + 1):
        space = places[rank]
        if space < 0:
            continue
        length, previous = 1, 0
        for lower, (lower_length, _) in ending.items():
            if places[lower] in ADJACENT[space] and lower_length + 1 > length:
                length, previous = lower_length + 1, lower
        ending[rank] = (length, previous)
    if not ending:
        return []
    rank = max(ending, key=lambda r: (ending[r][0], -r))
    path = []
    while rank:
        path.append((Card.of(rank, suit), places[rank]))
        rank = ending[rank][1]
    path.reverse()
    return path


def _where(grid: Grid) -> list[list[int]]:
    """For each suit index, the space of each rank (index 1..10), or -1 if not on the grid."""
    where = [[-1] * (TOP_RANK + 1) for _ in range(4)]
    for space, stack in enumerate(grid):
        for card in stack:
            where[_SUIT_INDEX[card]][_RANK[card]] = space
    return where
