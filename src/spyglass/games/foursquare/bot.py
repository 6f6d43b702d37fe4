"""A heuristic for Foursquare: a placement is judged by the grid it leaves and the next card.

The bot works on a light copy of the grid (``Grid``): ranks of the tops, heights and the masks
of the rules. A position is scored by its piles, its face-down tops and how stuck it is; a
placement is scored by that, plus the expected best score after placing the next card, averaged
over the ranks still in the deck (known to the player; only their order is hidden).
"""

from __future__ import annotations

from dataclasses import dataclass

from spyglass.engine import Action, Rng

from .frame import BOX, COL, COL_MASK, INDEX_OF_LABEL, NEIGHBOURS, ROW, ROW_MASK, SIDE
from .rules import (
    AT_MOST,
    CLOSED_LIMIT,
    GRID_PILES,
    ONE_OF,
    PILE_LIMIT,
    RANK,
    RANK_BITS,
    FoursquareState,
)

# Weights tuned on 200-400 games per setting (seeds apart from the benchmark's): a face-down top
# costs less than a pile gains, because the next card can often turn it up again, and the
# expected next placement counts four times the position itself.
WIN = 1_000.0
LOSS = -1_000.0
PILE = 10.0  # per pile on the table
CLOSED = 4.0  # per face-down top
CLOSED_FULL = 10.0  # extra per face-down top on a full pile: it cannot be covered any more
LOOKAHEAD = 4.0  # weight of the expected best next placement
#: A won and a lost position in :func:`value`: beyond any placement's score.
TOP = WIN * (1 + LOOKAHEAD)
BOTTOM = LOSS * (1 + LOOKAHEAD)


@dataclass(slots=True)
class Grid:
    """What the bot needs of a position: tops, heights, masks and face-up counts per line."""

    tops: dict[int, int]  # frame index -> rank of the top card
    heights: dict[int, int]
    occupied: int
    down: int
    full: int
    reach: int
    box: tuple[int, int, int, int]  # top, bottom, left, right
    rows: list[int]
    cols: list[int]

    @classmethod
    def of(cls, state: FoursquareState) -> Grid:
        return cls(
            {i: RANK[p[-1]] for i, p in state.piles.items()},
            {i: len(p) for i, p in state.piles.items()},
            state.occupied,
            state.down,
            state.full,
            state.reach,
            (state.top, state.bottom, state.left, state.right),
            list(state.face_up_tops[0]),
            list(state.face_up_tops[1]),
        )

    def window(self) -> int:
        top, bottom, left, right = self.box
        return BOX[max(top - 1, bottom - SIDE + 1)][min(bottom + 1, top + SIDE - 1)][
            max(left - 1, right - SIDE + 1)
        ][min(right + 1, left + SIDE - 1)]

    def spaces(self) -> list[tuple[int, int, int, int, int]]:
        """What a placement on each space the grid has room for depends on, whatever the card:
        (space, the face-up tops of its row and of its column but its own, counted per rank,
        the other piles of its row and of its column)."""
        occupied, down = self.occupied, self.down
        candidates = ((self.reach & ~occupied) | (occupied & ~self.full)) & self.window()
        out = []
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            index = bit.bit_length() - 1
            own = ONE_OF[self.tops[index]] if occupied & ~down & bit else 0
            row, col = ROW[index], COL[index]
            out.append(
                (
                    index,
                    self.rows[row] - own,
                    self.cols[col] - own,
                    occupied & ROW_MASK[row] & ~bit,
                    occupied & COL_MASK[col] & ~bit,
                )
            )
        return out

    def placements(self, value: int) -> list[tuple[int, int]]:
        """(space, flipped piles) of every legal placement of a card of rank ``value``."""
        down = self.down
        high = RANK_BITS * value
        low_mask = AT_MOST[value]
        out = []
        for index, row_tops, col_tops, row_piles, col_piles in self.spaces():
            flips = flipped(row_tops, col_tops, row_piles, col_piles, high, low_mask)
            if ((down & ~(1 << index)) ^ flips).bit_count() <= CLOSED_LIMIT:
                out.append((index, flips))
        return out

    def after(self, index: int, flips: int, value: int) -> Grid:
        """The grid once a card of rank ``value`` is placed on ``index`` with these flips."""
        bit = 1 << index
        rows, cols = list(self.rows), list(self.cols)
        own = ONE_OF[self.tops[index]] if self.occupied & ~self.down & bit else 0
        change = ONE_OF[value] - own
        rows[ROW[index]] += change
        cols[COL[index]] += change
        tops = dict(self.tops)
        heights = dict(self.heights)
        tops[index] = value
        height = heights[index] = heights.get(index, 0) + 1
        down = (self.down & ~bit) ^ flips
        rest = flips
        while rest:
            low = rest & -rest
            rest ^= low
            flipped = low.bit_length() - 1
            one = ONE_OF[tops[flipped]]
            if down & low:
                rows[ROW[flipped]] -= one
                cols[COL[flipped]] -= one
            else:
                rows[ROW[flipped]] += one
                cols[COL[flipped]] += one
        top, bottom, left, right = self.box
        row, col = ROW[index], COL[index]
        return Grid(
            tops,
            heights,
            self.occupied | bit,
            down,
            self.full | (bit if height == PILE_LIMIT else 0),
            self.reach | NEIGHBOURS[index],
            (min(top, row), max(bottom, row), min(left, col), max(right, col)),
            rows,
            cols,
        )

    @property
    def won(self) -> bool:
        return self.occupied.bit_count() == GRID_PILES and not self.down


def flipped(  # noqa: PLR0917 - a space's lines, as Grid.spaces gives them, and the card
    row_tops: int, col_tops: int, row_piles: int, col_piles: int, high: int, low_mask: int
) -> int:
    """The piles a card flips (see RULES.md): the other piles of its row when it is above or
    below every face-up top there (or there is none), and likewise of its column. ``high``
    and ``low_mask`` place the card's rank in the per-rank counts (see ``RANK_BITS``)."""
    flips = 0
    if not row_tops >> high or not row_tops & low_mask:
        flips = row_piles
    if not col_tops >> high or not col_tops & low_mask:
        flips |= col_piles
    return flips


def static(grid: Grid) -> float:
    """How good a position is before the next card is known (higher is better)."""
    if grid.won:
        return WIN
    return (
        PILE * grid.occupied.bit_count()
        - CLOSED * grid.down.bit_count()
        - CLOSED_FULL * (grid.down & grid.full).bit_count()
    )


def expected_next(grid: Grid, ranks: list[int], left: int) -> float:
    """The mean over the next card's rank of the best static score it can reach.

    The same placements as :meth:`Grid.placements` for each rank, with what does not depend
    on the rank (the candidate spaces, their lines' face-up tops, the piles each line would
    flip) read once for all ranks: searches (``agents.expectimax``) call this tens of
    thousands of times a game."""
    if not left:
        return LOSS  # nothing left to place and not won
    occupied, down, full = grid.occupied, grid.down, grid.full
    piles = occupied.bit_count()
    spaces = []
    for index, row_tops, col_tops, row_piles, col_piles in grid.spaces():
        bit = 1 << index
        full_after = full | bit if grid.heights.get(index, 0) == PILE_LIMIT - 1 else full
        new = not occupied & bit
        spaces.append(
            (row_tops, col_tops, row_piles, col_piles, down & ~bit, piles + new, full_after)
        )
    total = 0.0
    for value in range(1, 11):
        count = ranks[value]
        if not count:
            continue
        high = RANK_BITS * value
        low_mask = AT_MOST[value]
        best = LOSS
        for row_tops, col_tops, row_piles, col_piles, kept, after, full_after in spaces:
            closed = kept ^ flipped(row_tops, col_tops, row_piles, col_piles, high, low_mask)
            shut = closed.bit_count()
            if shut > CLOSED_LIMIT:
                continue  # not a legal placement
            # static() of the grid after this placement, without building it.
            if after == GRID_PILES and not closed:
                best = WIN
                break
            score = PILE * after - CLOSED * shut - CLOSED_FULL * (closed & full_after).bit_count()
            best = max(best, score)
        total += count * best
    return total / left


def choose(state: FoursquareState, rng: Rng) -> Action:
    moves = state.legal_actions()
    if len(moves) == 1:
        return moves[0]
    best, best_score = moves[0], float("-inf")
    for move, (won, worth) in zip(moves, _scores(state, moves), strict=True):
        if won:
            return move
        noisy = worth + rng.random() * 1e-6
        if noisy > best_score:
            best, best_score = move, noisy
    return best


def value(state: FoursquareState) -> float:
    """The bot's value of a position: the best score it gives a placement of the card in hand.
    A win (or a winning placement) is worth more, and a loss less, than any score of a
    placement can be. Searches that look further ahead than the bot (``agents.expectimax``)
    score their leaves with it."""
    if state.is_over:
        result = state.result
        return TOP if result is not None and result.won else BOTTOM
    scores = _scores(state, state.legal_actions())
    return TOP if any(won for won, _ in scores) else max(worth for _, worth in scores)


def placed(state: FoursquareState, moves: list[Action]) -> tuple[list[Grid], list[int], int]:
    """The grid each of ``moves`` (placements of the card in hand) leaves, the count of each
    rank still in the deck (index 1-10) and the deck's size: what the player knows of it."""
    assert state.card is not None
    value = RANK[state.card]
    grid = Grid.of(state)
    ranks = [0] * 11
    for card in state.deck:
        ranks[RANK[card]] += 1
    flips_of = dict(grid.placements(value))
    afters = []
    for move in moves:
        index = INDEX_OF_LABEL[move.target]
        afters.append(grid.after(index, flips_of[index], value))
    return afters, ranks, len(state.deck)


def _scores(state: FoursquareState, moves: list[Action]) -> list[tuple[bool, float]]:
    """Whether each placement wins, and the bot's score of it: the grid it leaves and the
    expected best grid after the next card (:data:`WIN` for a win)."""
    afters, ranks, left = placed(state, moves)
    return [(nxt.won, score(nxt, ranks, left)) for nxt in afters]


def score(grid: Grid, ranks: list[int], left: int) -> float:
    """The bot's score of a placement that left ``grid``, ``ranks`` and ``left`` being what
    the deck then holds: the grid and the expected best grid after the next card (:data:`WIN`
    for a win)."""
    if grid.won:
        return WIN
    return static(grid) + LOOKAHEAD * expected_next(grid, ranks, left)
