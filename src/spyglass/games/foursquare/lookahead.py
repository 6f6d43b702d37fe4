"""Foursquare's look-ahead: expectimax over the ranks still in the deck, on the bot's light grid.

Only the order of the deck is hidden, and only a card's rank matters to the rules, so the value
of a placement is an exact expectation over the next rank (weighed by how many of it are left),
below which the player again takes the best placement, and so on ``depth`` cards deep; the
positions then reached are scored as the bot scores a placement (``bot.static`` plus its own
expectation over the card after). Depth 1 is what ``expectimax:depth=1`` computes with whole
game states (the values agree to 1e-9); here the recursion runs on :class:`~.bot.Grid` (tops,
heights and masks, no cards, log or view). That alone saves little (the bot's expectation over
the next card is most of the cost either way); a second card is affordable because of where it
is spent.

Below the root, only the ``width`` best placements of each card (by the bot's score) are
searched further. The root's placements are all valued one card deep, and the best ``width``
of them ``depth`` cards deep; the deeper look is taken only where the game is decided, once at
least ``deep_from`` piles stand, one card deep before: every loss examined (the bot's 14 in
deals 0-299, the first ten of ``expectimax:depth=1``) came with 15 or 16 piles standing, an Ace
or a Ten that no pile could take without closing too many, or the deck running out with one
or two closed tops left.

With a time limit (``passed``, asked before each card searched on below the root), a decision
whose deeper values are not all in when it runs out keeps the one-card values of every
placement, as ``expectimax`` does: values of two depths are never compared.

The search reads the grid and the deck's ranks, never the deck's order.
"""

from __future__ import annotations

from collections.abc import Callable

from spyglass.engine import Action

from .bot import BOTTOM, TOP, Grid, placed, score
from .rules import FoursquareState


class OutOfTime(Exception):
    """The decision's time ran out during a deeper search."""


def never() -> bool:
    return False


class Lookahead:
    """The recursion for one decision: the deck's rank counts (changed and restored as it
    goes), how wide it searches and until when (``passed``: whether time is up, asked before
    each card below the root)."""

    def __init__(self, ranks: list[int], width: int, passed: Callable[[], bool] = never) -> None:
        self.ranks = ranks
        self.width = width
        self.passed = passed

    def chance(self, grid: Grid, left: int, depth: int) -> float:
        """The value of ``grid`` before the next card is seen, ``depth`` cards deep."""
        if grid.won:
            return TOP
        if not left:
            return BOTTOM  # the deck ran out before the grid was won
        if depth > 1 and self.passed():
            raise OutOfTime
        ranks, total = self.ranks, 0.0
        for rank in range(1, 11):
            count = ranks[rank]
            if count:
                ranks[rank] = count - 1
                try:
                    total += count * self.in_hand(grid, rank, left - 1, depth - 1)
                finally:
                    ranks[rank] = count
        return total / left

    def in_hand(self, grid: Grid, rank: int, left: int, depth: int) -> float:
        """The value of holding a card of ``rank`` over ``grid`` (already out of the deck's
        counts): the best placement, scored by the bot (depth 0) or searched on."""
        if depth and self.passed():
            raise OutOfTime
        afters = [grid.after(index, flips, rank) for index, flips in grid.placements(rank)]
        if not afters:
            return BOTTOM  # it cannot be placed: the game is lost
        if any(after.won for after in afters):
            return TOP
        scores = [score(after, self.ranks, left) for after in afters]
        if depth == 0:
            return max(scores)
        best = sorted(range(len(afters)), key=lambda i: -scores[i])[: self.width]
        return max(self.chance(afters[i], left, depth) for i in best)


def values(
    state: FoursquareState,
    depth: int,
    width: int,
    deep_from: int,
    passed: Callable[[], bool] = never,
) -> dict[str, float]:
    """The value of each legal placement of the card in hand: one card deep for all of them,
    then ``depth`` cards deep for the best ``width`` when at least ``deep_from`` piles stand
    (their deeper values replace the others', which are then left out) and ``passed`` does
    not say time is up before they are all in."""
    moves = state.legal_actions()
    afters, ranks, left = placed(state, moves)
    search = Lookahead(ranks, width, passed)
    by_text = {move.text: after for move, after in zip(moves, afters, strict=True)}
    shallow = {text: search.chance(after, left, 1) for text, after in by_text.items()}
    if depth <= 1 or state.occupied.bit_count() < deep_from:
        return shallow
    best = sorted(shallow, key=lambda text: -shallow[text])[:width]
    try:
        return {text: search.chance(by_text[text], left, depth) for text in best}
    except OutOfTime:
        return shallow


def choose(  # noqa: PLR0917 - the search's settings, as the agent passes them
    state: FoursquareState,
    depth: int,
    width: int,
    deep_from: int,
    favoured: str,
    passed: Callable[[], bool] = never,
) -> Action:
    """The placement of highest value (ties: ``favoured``, the bot's, then the rules' order)."""
    legal = state.legal_actions()
    found = values(state, depth, width, deep_from, passed)
    options = [(i, a) for i, a in enumerate(legal) if a.text in found]
    return max(
        options,
        key=lambda item: (round(found[item[1].text], 9), item[1].text == favoured, -item[0]),
    )[1]
