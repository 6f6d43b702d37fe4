"""Skyway with every card known: can all four suits make a run of five, and how long at best?

**The position.** Between two turns a Skyway position is the play area (nine stacks, bottom
card first), the round, and what is left of the round's deck; the discard pile is every other
number card. The market is not part of it: it is dealt from the deck. Nothing else matters,
in particular not the order of the discard pile: the game sorts the pile before it shuffles it
(``SkywayState._reshuffle``), so the next round's deck depends only on which cards the pile
holds and on the generator's state, and a position can be keyed independently of the order
its moves were played in. Each round's deck is interned with the generator's state after its
shuffle (an id), and a position is keyed by (the play area, the deck's id, cards left in it).

**Exact rules.** The solver re-implements the turn on this compact position (deal five cards
as blueprints of 2, 2 and 1; draft one onto a space; trim the stack to three from the bottom;
the reshuffle when a card is needed and none is left, part-way through a deal too; the end
when the third round's deck runs out, or after the turn one last shuffle finished). Every
reshuffle calls the game's own generator, restored to its state at that moment, on the pile
sorted exactly as the game sorts it, so the decks it meets are exactly the real game's.
``tests/agents/test_solver_skyway.py`` checks the compact moves and their results against the
real state's on many random positions.

**Symmetry.** Runs only ask which spaces are orthogonally next to which, so the eight
rotations and reflections of the 3x3 play area map a position to one exactly as good (the
deck and the pile do not change). Positions are keyed by the least of their eight images, and
moves that lead to the same key as an earlier move of the same turn are skipped.

**Pruning (sound).** A suit's run of five at the end is five of its cards on the play area,
each on a space next to the previous one's. The cards of a run that are on the play area now
stay where they are (a card never moves; it may only be pushed off the bottom), and every
other card of the run must be drafted later. So each suit needs at least as many more of its
cards drafted as the cheapest run of five made of its cards in place plus cards still to come
(a walk through the grid, rank by rank: ``need``); a card in place may also be counted as one
still to come, since a pushed-off card can come back after a reshuffle. Each turn drafts at most
two cards, so a position whose suits together need more cards than the turns left can place
is lost. In the third round, when no last shuffle can come, the cards still to come are
exactly the rest of the deck. The same walk bounds the best score (the longest run each suit
could still reach) when the score is optimised.

**Order.** Moves that leave the suits needing fewest cards come first, ties broken by the
game's bot's own evaluation of the play area (runs, lengths, the prospects of the cards still to
come, the weakest suit): on the strength run's first 30 deals this took the solver from 5 unknown
(mean 0.69 CPU-s) to none (mean 0.10 CPU-s) at 2 CPU-s a deal.

**Discrepancies.** Nearly every deal is won and the order is nearly always right, so a plain
depth-first search spends its time below an early mistake. The search is a limited
discrepancy search: taking the i-th draft of a turn costs i, and budgets of 0, 1, 2, 4, ...
are tried in turn, the last one unlimited (a full search: only it can prove a deal lost). A
position that failed within a budget is not searched again with that budget or less; one
that failed with nothing left out by the budget is lost for good. On the strength run's deals
0..199 at 2 CPU-s this took the solver from 16 unknown (mean 0.38 CPU-s) to none (mean 0.12).

The score of a win is the sum of the four runs: ``base.prove`` asks for a win scoring at least
``target`` and raises it until none is found.
"""

from __future__ import annotations

from functools import lru_cache

from spyglass.components.cards import Card
from spyglass.engine import RulesError, State
from spyglass.engine.rng import Rng
from spyglass.games.skyway.bot import (
    LENGTH_WEIGHT,
    PROSPECT_WEIGHT,
    RUN_WEIGHT,
    WEAKEST_WEIGHT,
    suit_prospect,
)
from spyglass.games.skyway.rules import (
    MARKET_SIZE,
    NUMBER_CARDS,
    PASSES,
    STACK_LIMIT,
    SkywayState,
    deal_market,
    draft_action,
)
from spyglass.games.skyway.scoring import ADJACENT, SPACES, TOP_RANK, WIN_LENGTH

from .base import Allowance, Bound, finished_bound, prove

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 1

Grid = tuple[tuple[Card, ...], ...]
Blueprint = tuple[Card, ...]
Move = tuple[Blueprint, int]  # (blueprint, bottom card first; space 0..8)

WON, CUT, LOST = 2, 1, 0  # a search's answers, best first
#: The discrepancy budgets tried in turn; the last is unlimited (a full search, which proves).
BUDGETS = (0, 1, 2, 4, 8, 16, 32, 64, 1_000)
CHILDREN_KEPT = 10_000  # positions whose ordered drafts are kept for the next budget (memory)

_SUIT = tuple(code // 13 for code in range(52))
_RANK = tuple(code % 13 + 1 for code in range(52))
_ALL_SPACES = (1 << SPACES) - 1
_ALL_RANKS = sum(1 << r for r in range(1, TOP_RANK + 1))
MAX_LENGTH = TOP_RANK  # a run has at most one card of each rank
_NEVER = 99  # a run that no cards still to come can make


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The eight maps of the 3x3 square onto itself, as ``image[i]`` = the space ``i`` goes to."""
    maps = []
    for turn in range(4):
        for mirror in (False, True):
            image = []
            for i in range(SPACES):
                r, c = divmod(i, 3)
                if mirror:
                    c = 2 - c
                for _ in range(turn):
                    r, c = c, 2 - r
                image.append(r * 3 + c)
            maps.append(tuple(image))
    assert len(set(maps)) == 8
    return tuple(maps)


SYMMETRIES = _symmetries()
# For each symmetry, the order to read a grid's stacks in to get its image's stacks in order.
_READ = tuple(tuple(image.index(i) for i in range(SPACES)) for image in SYMMETRIES)


# ``costs`` packs one 9-bit mask of spaces per count of cards still to draft (0 to 10) into one
# integer, a field of 16 bits each, so one shift steps every count's walks at once.
_FIELD = 16
_COUNTS = MAX_LENGTH + 1
_PACKED = sum(_ALL_SPACES << (_FIELD * c) for c in range(_COUNTS))
_TO_RIGHT = sum(0b011011011 << (_FIELD * c) for c in range(_COUNTS))  # columns A, B
_TO_LEFT = sum(0b110110110 << (_FIELD * c) for c in range(_COUNTS))  # columns B, C
_HERE = tuple(sum(1 << (space + _FIELD * c) for c in range(_COUNTS)) for space in range(SPACES))
_ANYWHERE_ONE_NEW = _ALL_SPACES << _FIELD
# The shifts above are the play area's adjacency (a step right, left, down, up): checked here.
assert all(
    ((((1 << p) & _TO_RIGHT) << 1) | (((1 << p) & _TO_LEFT) >> 1) | (1 << p << 3) | (1 << p >> 3))
    & _ALL_SPACES
    == sum(1 << q for q in ADJACENT[p])
    for p in range(SPACES)
)


@lru_cache(maxsize=1 << 17)
def costs(places: tuple[int, ...], coming: int) -> tuple[int, ...]:
    """``costs[k]``: the fewest cards of one suit still to draft for a run of at least ``k``
    (``_NEVER`` if none), k from 0 to 10.

    ``places[r]``: the space of the suit's rank-r card on the play area (-1: not there);
    ``coming``: the ranks (bit r) that may still be drafted, onto any space. A walk takes the
    ranks in increasing order; ``ends[k]`` holds, in field c, the spaces where a run of k cards,
    c of them still to draft, can end.
    """
    ends = [0] * (MAX_LENGTH + 1)
    right, left, packed, field = _TO_RIGHT, _TO_LEFT, _PACKED, _FIELD
    for rank in range(1, TOP_RANK + 1):
        space = places[rank]
        new = coming >> rank & 1
        here = _HERE[space] if space >= 0 else 0
        # longest first, so a rank extends only the runs made of lower ranks
        for k in range(rank - 1, 0, -1):
            r = ends[k]
            if not r:
                continue
            near = (((r & right) << 1) | ((r & left) >> 1) | (r << 3) | (r >> 3)) & packed
            if here:
                ends[k + 1] |= near & here
            if new:
                ends[k + 1] |= (near << field) & packed
        if space >= 0:
            ends[1] |= 1 << space
        if new:
            ends[1] |= _ANYWHERE_ONE_NEW
    out = [0] * (MAX_LENGTH + 1)
    best = _NEVER
    for k in range(MAX_LENGTH, 0, -1):
        r = ends[k]
        if r:
            best = min(best, ((r & -r).bit_length() - 1) // field)
        out[k] = best
    return tuple(out)


def canonical(grid: Grid) -> Grid:
    return min(tuple(grid[i] for i in read) for read in _READ)


class Solver:
    """Depth-first search over (play area, deck id, cards left in the deck)."""

    def __init__(self, state: SkywayState, allowance: Allowance) -> None:
        self.allowance = allowance
        self.all = frozenset(NUMBER_CARDS)
        # deck id -> (round, the deck as the game holds it: top card last, generator state)
        self.decks: list[tuple[int, tuple[Card, ...], int]] = []
        self.deck_ids: dict[tuple[int, tuple[Card, ...], int], int] = {}
        self.root_deck = self._intern(state.round, tuple(state.deck), state.rng.state)
        self.lost: set = set()  # (key, target) of positions with no such win
        self.cut: dict = {}  # (key, target) -> the largest budget it failed with, not LOST
        self.children: dict = {}  # key -> its ordered drafts (kept for the next budget)
        self.target = 0
        self.line: list[Move] = []

    def _intern(self, round_: int, deck: tuple[Card, ...], rng: int) -> int:
        entry = (round_, deck, rng)
        found = self.deck_ids.get(entry)
        if found is None:
            found = self.deck_ids[entry] = len(self.decks)
            self.decks.append(entry)
        return found

    # ------------------------------------------------------------------ the rules, compact

    def deal(self, grid: Grid, deck_id: int, left: int) -> tuple[list[Blueprint], int, int, bool]:
        """The market dealt from this position, with the deck afterwards and whether its turn
        is the last (``SkywayState._deal``). The caller has checked the game is not over."""
        round_, deck, rng_state = self.decks[deck_id]
        if left >= MARKET_SIZE:
            dealt = list(deck[left - MARKET_SIZE : left][::-1])
            left -= MARKET_SIZE
            return deal_market(dealt), deck_id, left, round_ == PASSES and left == 0
        dealt = list(deck[:left][::-1])
        if round_ < PASSES:
            round_ += 1
            last = False
        else:
            last = True  # the last shuffle finishes this market
        on_grid = {card for stack in grid for card in stack}
        pile = sorted(self.all.difference(on_grid, dealt))
        rng = Rng.from_state(rng_state)
        rng.shuffle(pile)
        left = len(pile) - (MARKET_SIZE - len(dealt))
        dealt.extend(pile[left:][::-1])
        deck_id = self._intern(round_, tuple(pile), rng.state)
        return deal_market(dealt), deck_id, left, last or (round_ == PASSES and left == 0)

    @staticmethod
    def place(grid: Grid, blueprint: Blueprint, space: int) -> Grid:
        stack = grid[space] + blueprint
        if len(stack) > STACK_LIMIT:
            stack = stack[len(stack) - STACK_LIMIT :]
        return (*grid[:space], stack, *grid[space + 1 :])

    def over(self, deck_id: int, left: int) -> bool:
        """No market can be dealt: the third round's deck is empty."""
        return left == 0 and self.decks[deck_id][0] == PASSES

    # ------------------------------------------------------------------ bounds

    def suit_costs(self, grid: Grid, deck_id: int, left: int) -> list[tuple[int, ...]]:
        round_, deck, _ = self.decks[deck_id]
        places = [[-1] * (TOP_RANK + 1) for _ in range(4)]
        for space, stack in enumerate(grid):
            for card in stack:
                places[_SUIT[card]][_RANK[card]] = space
        if round_ == PASSES and left % MARKET_SIZE == 0:
            # no reshuffle ahead: what is to come is the rest of this deck
            coming = [0, 0, 0, 0]
            for card in deck[:left]:
                coming[_SUIT[card]] |= 1 << _RANK[card]
        else:
            coming = [_ALL_RANKS] * 4
        return [costs(tuple(p), c) for p, c in zip(places, coming, strict=True)]

    def room(self, grid: Grid, deck_id: int, left: int) -> int:
        """The most cards the turns left can still draft (two a turn)."""
        round_ = self.decks[deck_id][0]
        cards = left
        if round_ < PASSES:
            on_grid = sum(len(s) for s in grid)  # never falls: the pile is at most the rest
            cards += (PASSES - round_) * (len(self.all) - on_grid)
        turns = -(-cards // MARKET_SIZE)  # a deal cut short at the end is one more turn
        return 2 * turns

    def hopeless(self, grid: Grid, deck_id: int, left: int) -> bool:
        """No line from here wins with ``self.target`` or more (see the module's pruning)."""
        room = self.room(grid, deck_id, left)
        suits = self.suit_costs(grid, deck_id, left)
        if sum(c[WIN_LENGTH] for c in suits) > room:
            return True
        if self.target > 4 * WIN_LENGTH:
            best = 0
            for c in suits:
                best += max(k for k in range(WIN_LENGTH, MAX_LENGTH + 1) if c[k] <= room)
            return best < self.target
        return False

    def order(self, grid: Grid, deck_id: int, left: int) -> tuple[float, ...]:
        suits = self.suit_costs(grid, deck_id, left)
        need = sum(c[WIN_LENGTH] for c in suits)
        round_, deck, _ = self.decks[deck_id]
        places = [[-1] * (TOP_RANK + 1) for _ in range(4)]
        room = 0
        for space, stack in enumerate(grid):
            if len(stack) < STACK_LIMIT:
                room |= 1 << space
            for card in stack:
                places[_SUIT[card]][_RANK[card]] = space
        coming = [0, 0, 0, 0]
        if round_ == PASSES and left % MARKET_SIZE == 0:
            for card in deck[:left]:
                coming[_SUIT[card]] |= 1 << _RANK[card]
        else:
            for card in self.all.difference(c for st in grid for c in st):
                coming[_SUIT[card]] |= 1 << _RANK[card]
        value, weakest = 0.0, TOP_RANK
        for p, c in zip(places, coming, strict=True):
            length, prospect = suit_prospect(tuple(p), room, c)
            capped = min(length, WIN_LENGTH)
            value += RUN_WEIGHT * capped + LENGTH_WEIGHT * length + PROSPECT_WEIGHT * prospect
            weakest = min(weakest, length)
        value += WEAKEST_WEIGHT * weakest
        return need, -value

    # ------------------------------------------------------------------ the search

    def value(self, grid: Grid) -> int | None:
        """The score of a finished play area (None: lost)."""
        total = 0
        for c in self.suit_costs_final(grid):
            length = max(k for k in range(MAX_LENGTH + 1) if c[k] == 0)
            if length < WIN_LENGTH:
                return None
            total += length
        return total

    @staticmethod
    def suit_costs_final(grid: Grid) -> list[tuple[int, ...]]:
        places = [[-1] * (TOP_RANK + 1) for _ in range(4)]
        for space, stack in enumerate(grid):
            for card in stack:
                places[_SUIT[card]][_RANK[card]] = space
        return [costs(tuple(p), 0) for p in places]

    def reach(self, grid: Grid, deck_id: int, left: int, last: bool, budget: int) -> int:
        """WON if a line from here (between turns) ends with a win scoring ``self.target`` or
        more, within ``budget`` discrepancies (``self.line`` receives its moves); LOST if no
        line does at all; CUT if none does within the budget but the budget left some out."""
        self.allowance.tick()
        if last or self.over(deck_id, left):
            score = self.value(grid)
            return WON if score is not None and score >= self.target else LOST
        key = (canonical(grid), deck_id, left)
        if (key, self.target) in self.lost:
            return LOST
        if self.cut.get((key, self.target), -1) >= budget:
            return CUT
        if self.hopeless(grid, deck_id, left):
            self.lost.add((key, self.target))
            return LOST
        children = self.children.get(key)
        if children is None:
            market, next_id, next_left, next_last = self.deal(grid, deck_id, left)
            children = self.ordered(grid, market, next_id, next_left, next_last)
            if len(self.children) < CHILDREN_KEPT:
                self.children[key] = children
        found = self.turn(children, budget)
        if found == LOST:
            self.lost.add((key, self.target))
        elif found == CUT:
            self.cut[key, self.target] = budget
        return found

    def ordered(
        self, grid: Grid, market: list[Blueprint], deck_id: int, left: int, last: bool
    ) -> list[tuple[Move, Grid, int, int, bool]]:
        """The drafts from ``market``, best first, one of each set of symmetric ones:
        (move, play area after, deck id, cards left, whether the turn was the last)."""
        children = []
        seen = set()
        for blueprint in market:
            for space in range(SPACES):
                after = self.place(grid, blueprint, space)
                key = canonical(after)
                if key in seen:
                    continue
                seen.add(key)
                children.append((self.order(after, deck_id, left), blueprint, space, after))
        children.sort(key=lambda child: child[0])
        return [
            ((blueprint, space), after, deck_id, left, last)
            for _, blueprint, space, after in children
        ]

    def turn(self, children: list, budget: int) -> int:
        """The best of WON, CUT, LOST over the drafts ``children``: the i-th costs i of the
        budget (a discrepancy from the order), so small budgets follow the order closely."""
        result = LOST
        for cost, (move, after, deck_id, left, last) in enumerate(children):
            if cost > budget:
                return CUT
            self.line.append(move)
            found = self.reach(after, deck_id, left, last, budget - cost)
            if found == WON:
                return WON
            self.line.pop()
            if found == CUT:
                result = CUT
        return result


def _grid(state: SkywayState) -> Grid:
    return tuple(tuple(stack) for stack in state.grid)


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of a Skyway position: can every suit make a run of five, with a
    winning line, and (with ``optimise_score``) the best score, proved if time allows."""
    if not isinstance(state, SkywayState):
        raise RulesError("this solver solves Skyway")
    if state.is_over:
        return finished_bound(state)
    allowance = Allowance(seconds, max_nodes)
    solver = Solver(state, allowance)
    grid = _grid(state)
    market = [tuple(b) for b in state.market]
    found: list[Move] = []

    root = solver.ordered(grid, market, solver.root_deck, len(state.deck), state.last_turn)

    def reach(target: int) -> bool:
        solver.target = target
        allowance.tick()
        for budget in BUDGETS:
            solver.line = []
            result = solver.turn(root, budget)
            if result == WON:
                found[:] = solver.line
                return True
            if result == LOST:
                return False
        raise AssertionError("the last budget is unlimited")

    def line() -> tuple[list[str], State]:
        end = state.clone()
        moves = []
        for blueprint, space in found:
            action = draft_action(blueprint, space)
            end.apply(action)
            moves.append(action.text)
        return moves, end

    return prove(allowance, reach, line, optimise_score, first=0)


__all__ = ["VERSION", "Solver", "bound", "canonical", "costs"]
