"""Valid playgrounds: checking them, drawing them uniformly, and reasoning about hidden ones.

A playground is valid when every column holds a Jack, a Queen and a King of three different
suits. Split it in two independent parts:

- the **suit pattern**: for each column, the suit of its Jack, of its Queen and of its King.
  Each rank's four suits go to the four columns (a permutation per rank) and no column repeats
  a suit, so a pattern is a 3 x 4 Latin rectangle on the four suits: there are 576;
- the **order** of each column, top to bottom: one of the 3! = 6 orders of J, Q, K, chosen
  independently per column.

So there are 576 x 6^4 = 746,496 valid playgrounds, and a uniform one is a uniform pattern with
uniform column orders. Once some playmates are face up, the arrangements consistent with them
are again a product: the patterns that agree with every revealed card (its rank has its suit in
its column), times, in each column, every order of the column's hidden cards over its hidden
rows. Both the deal and the determinization draw from that product exactly, with one uniform
index; the bot reads the same product for the odds of each suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations
from math import factorial

from spyglass.components.cards import SUITS, Card
from spyglass.engine import Rng

from .playground import CELLS, COLUMNS, ROWS, cell_column

RANKS = (11, 12, 13)  # Jack, Queen, King
FACE = tuple(tuple(Card.of(rank, suit) for suit in SUITS) for rank in RANKS)  # [rank][suit]
FACE_CARDS = tuple(card for by_suit in FACE for card in by_suit)
RANK_INDEX = {card: RANKS.index(card.rank) for card in FACE_CARDS}
SUIT_INDEX = {card: SUITS.index(card.suit) for card in FACE_CARDS}


def _patterns() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Every suit pattern: pattern[column] = (Jack's suit, Queen's suit, King's suit)."""
    found = []
    for jacks in permutations(range(4)):
        for queens in permutations(range(4)):
            if any(q == j for q, j in zip(queens, jacks, strict=True)):
                continue
            for kings in permutations(range(4)):
                if any(k in (j, q) for k, j, q in zip(kings, jacks, queens, strict=True)):
                    continue
                found.append(tuple(zip(jacks, queens, kings, strict=True)))
    return tuple(found)


PATTERNS = _patterns()
ORDERS = tuple(tuple(permutations(range(n))) for n in range(ROWS + 1))  # by number of cards
ARRANGEMENTS = len(PATTERNS) * factorial(ROWS) ** COLUMNS


def _bit(column: int, rank: int, suit: int) -> int:
    return 1 << (column * 12 + rank * 4 + suit)


#: Each pattern as a bitmask of its (column, rank, suit) facts: agreement is one AND.
PATTERN_MASKS = tuple(
    sum(_bit(c, r, suits[r]) for c, suits in enumerate(pattern) for r in range(3))
    for pattern in PATTERNS
)


def column_problem(cards: Sequence[Card]) -> str | None:
    """Why three cards cannot form a column, or None if they can."""
    if any(card not in RANK_INDEX for card in cards):
        return "only Jacks, Queens and Kings hide in the playground"
    if len({card.rank for card in cards}) != len(cards):
        return "two cards of one rank"
    if len({card.suit for card in cards}) != len(cards):
        return "two cards of one suit"
    return None


def draw(rng: Rng) -> list[Card]:
    """A uniformly random valid playground, column by column, top to bottom."""
    index = rng.below(ARRANGEMENTS)
    index, chosen = divmod(index, len(PATTERNS))
    pattern = PATTERNS[chosen]
    cards: list[Card] = []
    for column in range(COLUMNS):
        index, order = divmod(index, 6)
        suits = pattern[column]
        cards.extend(FACE[rank][suits[rank]] for rank in ORDERS[3][order])
    return cards


def revealed_mask(cells: Sequence[Card], revealed: int) -> int:
    """The (column, rank, suit) facts the face-up playmates establish."""
    mask = 0
    for cell in range(CELLS):
        if revealed >> cell & 1:
            card = cells[cell]
            mask |= _bit(cell_column(cell), RANK_INDEX[card], SUIT_INDEX[card])
    return mask


@lru_cache(maxsize=8192)
def consistent_patterns(facts: int) -> tuple[int, ...]:
    """Indices of the suit patterns that agree with every revealed fact."""
    return tuple(i for i, mask in enumerate(PATTERN_MASKS) if mask & facts == facts)


# Per column: the face-down rows, and the ranks (0 J, 1 Q, 2 K) of the face-down cards.
Column = tuple[tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=8192)
def _hidden_plan(revealed: int, facts: int) -> tuple[tuple[int, ...], tuple[Column, ...], int]:
    """What a redraw chooses among: consistent patterns, per-column hidden rows and ranks, and
    the number of consistent arrangements (patterns times orders of the hidden cards)."""
    candidates = consistent_patterns(facts)
    columns = []
    total = len(candidates)
    for column in range(COLUMNS):
        rows = tuple(r for r in range(ROWS) if not revealed >> (column * ROWS + r) & 1)
        shown = {
            r for r in range(3) if any(facts >> (column * 12 + r * 4 + s) & 1 for s in range(4))
        }
        columns.append((rows, tuple(r for r in range(3) if r not in shown)))
        total *= factorial(len(rows))
    return candidates, tuple(columns), total


def redraw_hidden(cells: Sequence[Card], revealed: int, rng: Rng) -> tuple[Card, ...]:
    """The playground with its face-down playmates drawn uniformly among the arrangements
    consistent with the face-up ones. Only the face-up cards are read."""
    if revealed == (1 << CELLS) - 1:
        return tuple(cells)
    candidates, columns, total = _hidden_plan(revealed, revealed_mask(cells, revealed))
    index, chosen = divmod(rng.below(total), len(candidates))
    pattern = PATTERNS[candidates[chosen]]
    new = list(cells)
    for column, (rows, ranks) in enumerate(columns):
        if not rows:
            continue
        suits = pattern[column]
        orders = ORDERS[len(rows)]
        index, order = divmod(index, len(orders))
        for row, pick in zip(rows, orders[order], strict=True):
            rank = ranks[pick]
            new[column * ROWS + row] = FACE[rank][suits[rank]]
    return tuple(new)


@lru_cache(maxsize=8192)
def suit_odds(seen: tuple[Card | None, ...]) -> tuple[tuple[float, ...], ...]:
    """Odds of each suit among the face-down playmates, given the face-up ones.

    ``seen`` has one entry per cell (column by column), the card if face up, else None.
    Returns 12 + 4 + 3 rows of four probabilities (one per suit, in SUITS order):

    - per cell: the chance that this face-down playmate has the suit (0 if face up);
    - per column: the chance that the column still hides a playmate of the suit;
    - per row: the chance that the row still hides a playmate of the suit.
    """
    facts = 0
    for cell, card in enumerate(seen):
        if card is not None:
            facts |= _bit(cell_column(cell), RANK_INDEX[card], SUIT_INDEX[card])
    candidates = consistent_patterns(facts)
    hidden_ranks = []
    hidden_cells = []
    for column in range(COLUMNS):
        shown = {RANK_INDEX[c] for c in seen[column * ROWS : column * ROWS + ROWS] if c}
        hidden_ranks.append([r for r in range(3) if r not in shown])
        hidden_cells.append([k for k in range(column * ROWS, column * ROWS + ROWS) if not seen[k]])
    cell_p = [[0.0] * 4 for _ in range(CELLS)]
    column_p = [[0.0] * 4 for _ in range(COLUMNS)]
    row_p = [[0.0] * 4 for _ in range(ROWS)]
    for chosen in candidates:
        pattern = PATTERNS[chosen]
        # Per column, the chance a given hidden row holds suit s: 1/h if the suit hides there.
        share = []
        for column in range(COLUMNS):
            ranks = hidden_ranks[column]
            suits = [pattern[column][r] for r in ranks]
            weight = 1.0 / len(ranks) if ranks else 0.0
            share.append((suits, weight))
            for s in suits:
                column_p[column][s] += 1.0
                for cell in hidden_cells[column]:
                    cell_p[cell][s] += weight
        for row in range(ROWS):
            for s in range(4):
                none_here = 1.0
                for column in range(COLUMNS):
                    if seen[column * ROWS + row] is None:
                        suits, weight = share[column]
                        if s in suits:
                            none_here *= 1.0 - weight
                row_p[row][s] += 1.0 - none_here
    n = float(len(candidates))
    return tuple(tuple(p / n for p in probs) for probs in (*cell_p, *column_p, *row_p))


def line_odds(odds: tuple[tuple[float, ...], ...], line: str, index: int) -> tuple[float, ...]:
    """The per-suit odds that a column (``line == "column"``) or row still hides that suit."""
    return odds[CELLS + index] if line == "column" else odds[CELLS + COLUMNS + index]
