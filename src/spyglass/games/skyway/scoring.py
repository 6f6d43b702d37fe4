"""Skyway's scoring: the longest increasing run of each suit along a walk through the grid.

A run is a sequence of cards of one suit, strictly increasing in rank, each card on a space
orthogonally next to the previous card's space. The walk may come back to a space it has left,
and a card counts on whatever layer of its stack it lies. A suit has at most one card of each
rank, so processing ranks in increasing order and remembering, for every space, the longest
run ending there so far gives the answer in one pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

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
#: Each space's neighbours' entries of a per-space list, as one tuple (every space has two to
#: four neighbours, so itemgetter always returns a tuple).
_BEST_NEXT_TO = tuple(itemgetter(*adjacent) for adjacent in ADJACENT)
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
    on the grid; ``places[0]`` is always -1)."""
    best = [0] * SPACES  # longest run so far ending on each space
    for space in places:  # by rank, increasing
        if space >= 0:
            # The runs ending next to this space so far, read in C: a run is counted at
            # every observation of the adapters (docs/rl.md, Speed). No lower card of the
            # suit on this space ended a longer run: the neighbours' runs only grow.
            best[space] = 1 + max(_BEST_NEXT_TO[space](best))
    return max(best)


def suit_and_rank(card: Card) -> tuple[int, int]:
    """A card's suit index (in the order of SUITS) and rank."""
    return _SUIT_INDEX[card], _RANK[card]


def longest_path(grid: Grid, suit: str) -> list[tuple[Card, int]]:
    """One longest run of ``suit`` as (card, space) pairs, lowest card first.

    Ties go to the run that ends on the lowest card and, before that, steps back to the lowest
    card, so the answer is reproducible.
    """
    return run_path(_where(grid)[SUITS.index(suit)], suit)


def run_path(places: Sequence[int], suit: str) -> list[tuple[Card, int]]:
    """:func:`longest_path` of the suit whose card of rank r lies on space ``places[r]`` (-1:
    not on the grid), as the state keeps them: a finished game's result shows each suit's."""
    # Per space, the longest run ending there so far and the lowest rank it ends on (a
    # space's runs only grow with the rank, so the first rank to reach a length is kept).
    best = [0] * SPACES
    ends = [0] * SPACES
    previous = [0] * (TOP_RANK + 1)  # the rank each card's run steps back to (0: none)
    longest, last = 0, 0
    for rank in range(1, TOP_RANK + 1):
        space = places[rank]
        if space < 0:
            continue
        length, back = 0, 0
        for q in ADJACENT[space]:
            if best[q] > length or (best[q] == length and length and ends[q] < back):
                length, back = best[q], ends[q]
        previous[rank] = back
        length += 1
        if length > best[space]:
            best[space], ends[space] = length, rank
        if length > longest:  # the lowest rank ends the first run of the longest length
            longest, last = length, rank
    path = []
    rank = last
    while rank:
        path.append((Card.of(rank, suit), places[rank]))
        rank = previous[rank]
    path.reverse()
    return path


def _where(grid: Grid) -> list[list[int]]:
    """For each suit index, the space of each rank (index 1..10), or -1 if not on the grid."""
    where = [[-1] * (TOP_RANK + 1) for _ in range(4)]
    for space, stack in enumerate(grid):
        for card in stack:
            where[_SUIT_INDEX[card]][_RANK[card]] = space
    return where
