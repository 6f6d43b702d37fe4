"""A heuristic for Skyway: judge each placement by the runs it makes and the runs it prepares.

For each suit the bot measures two things on a grid:

- its longest run (what the score counts), and
- its **prospect**: among the walks of five steps that could still become a run if the missing
  cards were added, the most cards already in place. A missing card must be one the player may
  still draft (it is in the deck, or in the discard pile while another round is to come) and
  must go on a space with room (fewer than three cards).

A position is worth, per suit, 6 per run card up to five, 0.5 per run card in all, and 10 per
card in place in its prospect, plus 3 per card of the weakest suit's run. The bot looks one
turn ahead: it keeps the three best placements, deals two sampled next markets from the
deck's known contents (sorted, then shuffled: the deck's order is hidden), and keeps the
placement whose best reply is worth most on average. On the last turn it simply takes a win
if one is there, and otherwise the longest runs.

The walks are computed on bit masks: the nine spaces are nine bits, and the masks for every
(length, cards in place) pair are packed into one integer, so four shifts move all of them a
step at once.
"""

from __future__ import annotations

from functools import lru_cache

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng

from .rules import PASSES, STACK_LIMIT, SkywayState, deal_market, draft_action
from .scoring import SPACES, TOP_RANK, WIN_LENGTH, runs

RUN_WEIGHT = 6.0  # per run card, up to five
LENGTH_WEIGHT = 0.5  # per run card (the score keeps counting past five)
PROSPECT_WEIGHT = 10.0  # per card already in place in the suit's best five-step prospect
WEAKEST_WEIGHT = 3.0  # per run card of the weakest suit
KEPT = 3  # placements looked at one turn ahead
SAMPLES = 2  # next markets sampled for each

_SUIT = tuple(code // 13 for code in range(52))
_RANK = tuple(code % 13 + 1 for code in range(52))

# Packed masks: field (length k, cards in place m) holds the spaces where such a walk can end,
# in 16 bits at index k * 6 + m, for k and m from 0 to 5. The longest run uses fields 0..10
# indexed by length alone.
_BITS = 16
_FIELDS = 36
_ONE_LONGER = _BITS  # a run one card longer
_IN_PLACE = 7 * _BITS  # a walk one step longer with one more card in place
_MISSING = 6 * _BITS  # a walk one step longer through a card still to draft
_FIVE_STEPS = 5 * 6 * _BITS


def _repeat(mask: int) -> int:
    return sum(mask << (_BITS * i) for i in range(_FIELDS))


_ALL_SPACES = (1 << SPACES) - 1
_NOT_RIGHT = _repeat(0b011011011)  # columns A and B: they have a neighbour to the right
_NOT_LEFT = _repeat(0b110110110)  # columns B and C: they have a neighbour to the left
# Sources of a step onto a card in place: walks with at most four cards in place (a fifth
# would overflow into the next length's fields).
_FEWER_THAN_FIVE = sum(
    _ALL_SPACES << (_BITS * (k * 6 + m)) for k in range(6) for m in range(WIN_LENGTH)
)
_SPACE = tuple(_repeat(1 << p) for p in range(SPACES))
_ROOM = tuple(_repeat(m) for m in range(1 << SPACES))


@lru_cache(maxsize=1 << 16)
def suit_prospect(places: tuple[int, ...], room: int, available: int) -> tuple[int, int]:
    """(longest run, most cards in place in a five-step prospect) of one suit.

    ``places[r]`` is the space of the suit's rank-r card (-1 if not on the grid), ``room`` the
    spaces with room for a card, ``available`` the ranks that may still be drafted (bit r).
    """
    # A step to the neighbours of every packed mask at once is four shifts; bits that spill
    # out of a field's nine spaces are cleared by the mask of the destination spaces.
    right, left, few = _NOT_RIGHT, _NOT_LEFT, _FEWER_THAN_FIVE
    longer, in_place, missing = _ONE_LONGER, _IN_PLACE, _MISSING
    run = walks = _ALL_SPACES
    room_mask = _ROOM[room]
    for rank in range(1, TOP_RANK + 1):
        space = places[rank]
        if space >= 0:
            here = _SPACE[space]
            r = run
            run |= ((((r & right) << 1) | ((r & left) >> 1) | (r << 3) | (r >> 3)) << longer) & here
            w = walks & few
            w = ((w & right) << 1) | ((w & left) >> 1) | (w << 3) | (w >> 3)
            walks |= (w << in_place) & here
        elif room and available >> rank & 1:
            w = walks
            w = ((w & right) << 1) | ((w & left) >> 1) | (w << 3) | (w >> 3)
            walks |= (w << missing) & room_mask
    longest = (run.bit_length() - 1) // _BITS
    if longest >= WIN_LENGTH:
        return longest, WIN_LENGTH
    five = walks >> _FIVE_STEPS
    return longest, (five.bit_length() - 1) // _BITS if five else 0


#: What a finished game is worth beside a position still in play (whose values stay below
#: a few hundred): a win more than any, a loss less than any.
FINISHED = 1000.0


def _final_value(grid: list[list[Card]]) -> float:
    """A finished grid's worth: :data:`FINISHED` and more if it wins, below it if not."""
    lengths = runs(grid)
    won = min(lengths) >= WIN_LENGTH
    return (FINISHED if won else 0.0) + sum(lengths) + 10.0 * sum(min(n, 5) for n in lengths)


def _after(grid: list[list[Card]], blueprint: tuple[Card, ...], space: int) -> list[list[Card]]:
    after = list(grid)
    after[space] = (grid[space] + list(blueprint))[-STACK_LIMIT:]
    return after


def _placements(
    grid: list[list[Card]],
    market: list[tuple[Card, ...]],
    *,
    deck: list[Card],
    discard: list[Card],
    another_round: bool,
    last: bool,
) -> list[tuple[float, int, int]]:
    """(value, blueprint number, space) of every placement from one market."""
    if last:
        return [
            (_final_value(_after(grid, blueprint, space)), number, space)
            for number, blueprint in enumerate(market)
            for space in range(SPACES)
        ]
    where = [[-1] * (TOP_RANK + 1) for _ in range(4)]
    room = 0
    for space, stack in enumerate(grid):
        if len(stack) < STACK_LIMIT:
            room |= 1 << space
        for card in stack:
            where[_SUIT[card]][_RANK[card]] = space
    keys = [tuple(w) for w in where]
    base = [0, 0, 0, 0]
    for card in deck:
        base[_SUIT[card]] |= 1 << _RANK[card]
    if another_round:
        for card in discard:
            base[_SUIT[card]] |= 1 << _RANK[card]
    out = []
    for number, blueprint in enumerate(market):
        leftover = base
        if another_round:
            leftover = list(base)
            for other in market:
                if other is not blueprint:
                    for card in other:
                        leftover[_SUIT[card]] |= 1 << _RANK[card]
        blueprint_suits = {_SUIT[card] for card in blueprint}
        for space in range(SPACES):
            old = grid[space]
            height = len(old) + len(blueprint)
            # A blueprint is shorter than the limit, so only the old cards can be pushed off.
            dropped = old[: height - STACK_LIMIT] if height > STACK_LIMIT else ()
            available, changed = leftover, blueprint_suits
            if dropped:
                changed = blueprint_suits | {_SUIT[card] for card in dropped}
                if another_round:
                    available = list(leftover)
                    for card in dropped:
                        available[_SUIT[card]] |= 1 << _RANK[card]
            space_room = room & ~(1 << space) if height >= STACK_LIMIT else room
            value, weakest = 0.0, TOP_RANK
            for suit in range(4):
                key = keys[suit]
                if suit in changed:
                    places = list(where[suit])
                    for card in dropped:
                        if _SUIT[card] == suit:
                            places[_RANK[card]] = -1
                    for card in blueprint:
                        if _SUIT[card] == suit:
                            places[_RANK[card]] = space
                    key = tuple(places)
                length, prospect = suit_prospect(key, space_room, available[suit])
                capped = length if length < WIN_LENGTH else WIN_LENGTH
                value += RUN_WEIGHT * capped + LENGTH_WEIGHT * length + PROSPECT_WEIGHT * prospect
                weakest = min(weakest, length)
            out.append((value + WEAKEST_WEIGHT * weakest, number, space))
    return out


def value(state: SkywayState) -> float:
    """The bot's value of a position: the worth of the best placement from the market on the
    table (no look at the next market), or once the game is over :data:`FINISHED` plus the
    final grid's worth for a win and minus :data:`FINISHED` plus it for a loss. On the last
    turn the best placement decides the game, so it is worth what the finished game will be
    (a market that cannot win is a sure loss). Searches that look further ahead than the bot
    (``agents.expectimax``) score their leaves with it."""
    if state.is_over:
        return _finished(_final_value(state.grid))
    placements = _placements(
        state.grid,
        state.market,
        deck=state.deck,
        discard=state.discard,
        another_round=state.round < PASSES,
        last=state.last_turn,
    )
    best = max(p[0] for p in placements)
    # (on the last turn a placement's worth is the final grid's)
    return _finished(best) if state.last_turn else best


def _finished(final: float) -> float:
    """The value of a finished game from its grid's worth (:func:`_final_value`): the worth
    itself for a win (:data:`FINISHED` and more), the worth minus :data:`FINISHED` for a loss
    (below every position in play)."""
    return final if final >= FINISHED else final - FINISHED


def choose(state: SkywayState, rng: Rng) -> Action:
    another_round = state.round < PASSES
    market = state.market
    first = _placements(
        state.grid,
        market,
        deck=state.deck,
        discard=state.discard,
        another_round=another_round,
        last=state.last_turn,
    )
    if state.last_turn or len(state.deck) < 5:
        # Nothing to look ahead at (last turn), or the next market comes partly from a shuffle.
        _, number, space = max(first, key=lambda p: p[0] + rng.random() * 1e-6)
        return draft_action(market[number], space)
    first.sort(key=lambda p: -p[0])
    samples = []
    for _ in range(SAMPLES):
        order = sorted(state.deck)  # the order is hidden: only the contents are used
        rng.shuffle(order)
        samples.append(order)
    best, best_value = first[0], float("-inf")
    for placement in first[:KEPT]:
        _, number, space = placement
        blueprint = market[number]
        after = _after(state.grid, blueprint, space)
        height = len(state.grid[space]) + len(blueprint)
        discard = state.discard + state.grid[space][: max(0, height - STACK_LIMIT)]
        for other in market:
            if other is not blueprint:
                discard += other
        total = 0.0
        for order in samples:
            rest = order[5:]
            replies = _placements(
                after,
                deal_market(order[:5]),
                deck=rest,
                discard=discard,
                another_round=another_round,
                last=state.round == PASSES and not rest,
            )
            total += max(reply[0] for reply in replies)
        if total > best_value:
            best, best_value = placement, total
    return draft_action(market[best[1]], best[2])
