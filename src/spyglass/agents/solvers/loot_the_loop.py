"""Loot the Loop with every face-down card known: can the four jewels be brought out, and with
how much loot?

Nothing is left to chance after the deal (no shuffle ever happens), so the true temple order is
the whole secret; the solver reads it from the state. It drives the game's own rules (clones of
the real state), so it is exact by construction, and gains its speed from the shape of the
game (see ``games/loot_the_loop/wandering.py`` for the words):

- **Progress splits the game into stretches.** A Look Around or a nab changes the temple for
  good; between two of them only *wandering* happens (Marks, Returns, walks), which changes the
  order of the temple and the notes but no card and no facing. Progress moves are never
  forbidden by the repeat ruling (it filters wandering moves only), so what a stretch can lead
  to depends only on which arrangements it can reach, not on the way there.
- **A stretch is searched breadth first, each arrangement once.** Right after progress the only
  arrangement had is the present one, so a breadth-first path (a shortest one) never repeats an
  arrangement and the real rules allow every step of it: every arrangement reachable at all is
  reached, through a real legal line. From each, the progress moves on offer (and the escape)
  are the stretch's exits. Explores onto a face-up trap are never taken.
- **Positions are keyed after progress**, independently of the order of play: the temple's
  cards top first, which are face up, the notes as a set, the jewels and the cards nabbed
  (nothing else matters there: the repeat memory is just the present arrangement). A table
  keeps, for each key, the smallest score target it was proved unable to reach; a position
  that cannot reach a target cannot reach a higher one.
- **Pruning**: the score pile plus every jewel and trinket still in the temple or the notes
  bounds the score; a stretch where that falls short of the target is not searched.
- **Ordering**: the game's bot's own way to its next progress first (it plays for the jewels
  and keeps the trinkets it steers by), then the stretch's progress moves with jewels first,
  then Look Arounds, then trinkets, and the escape last when the target asks for more loot
  (first with no target). The bot's guidance finds most wins at once but can lead deep into a
  lost corner, so guided and plain ordering take turns with a growing allowance of positions
  (256, then 4 times more each round), sharing the table.

The first stretch of a position met mid-way (arrangements already had since the last progress)
is searched with the repeat memory in the key, so that a repeat the ruling forbids there is
never assumed. Progress grows with every stretch (a card turns up or leaves), so the search is
finite: at most 53 turn-ups and 48 nabs deep.

The score of a win is the cards in the score pile: the search answers "can the game be won with
at least ``target`` cards?", and the best score is found by raising the target (``prove``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from spyglass.engine import Action, Rng, RulesError, State
from spyglass.games.loot_the_loop.rooms import EXIT, IS_TRAP, JEWEL, JEWELS_NEEDED, KIND, TRAP
from spyglass.games.loot_the_loop.rules import LootTheLoopState

from .base import Allowance, Bound, finished_bound, prove

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 1

# The most wandering moves of the bot followed before its next progress (it seldom needs more
# than a few; past this the breadth-first search takes over).
BOT_STEPS = 12

# What a stretch's end is keyed by: temple cards, face-up flags, notes, jewels, cards nabbed.
Key = tuple[tuple[int, ...], tuple[bool, ...], int, int, int]


def _key(state: LootTheLoopState) -> Key:
    loop = state.loop
    return (
        tuple(loop.cards),
        tuple(c is not None for c in loop.shown),
        state.notes_mask,
        state.jewels,
        len(state.score_pile),
    )


def _arrangement(state: LootTheLoopState) -> tuple[tuple[int, ...], int]:
    # Within a stretch the cards and their facings are fixed: the order and notes say it all.
    return (tuple(state.loop.cards), state.notes_mask)


def _history(state: LootTheLoopState) -> frozenset:
    return frozenset(key for keys in state.seen.values() for key in keys)


def _most(state: LootTheLoopState) -> int:
    """The most cards the score pile can ever hold from here: every jewel and trinket left."""
    left = sum(1 for c in state.loop.cards if not IS_TRAP[c] and KIND[c] != EXIT)
    return len(state.score_pile) + left + len(state.notes)


def _is_progress(state: LootTheLoopState, action: Action) -> tuple[bool, int]:
    """Whether ``action`` is progress (a Look Around, a nab, the escape), and its rank in the
    order tried (lower first): jewels, looks, trinkets, the escape."""
    if action.kind == "look":
        return True, 1
    if action.kind != "explore":
        return False, 0
    landed = state.landing(action.target)
    if landed is None:
        return False, 0
    kind = KIND[landed]
    if kind == TRAP:
        return False, -1
    if kind == EXIT:
        return (True, 3) if state.jewels >= JEWELS_NEEDED else (False, 0)
    return True, 0 if kind == JEWEL else 2


# The first probe's allowance of positions for each ordering (quadrupled each round).
PROBE = 256


class _Capped(Exception):
    """A probe ran out of positions."""


class Solver:
    def __init__(self, allowance: Allowance, bot: Callable[..., Action]) -> None:
        self.allowance = allowance
        self.bot = bot
        self.guided = True  # whether the bot's way onward is tried first
        self.cap: int | None = None  # raise _Capped past this many positions
        self.failed: dict[Key, int] = {}  # key -> the smallest target proved out of reach
        self.line: list[str] = []  # the winning line of the last successful reach

    def reach(self, state: LootTheLoopState, target: int) -> bool:
        """Whether a win with at least ``target`` cards nabbed is reachable from ``state``
        (the line left in ``self.line``)."""
        self.line = []
        # The bot's guidance finds most wins at once but can lead deep into a lost corner that
        # plain ordering avoids: the two take turns, each with a growing allowance of
        # positions, and share the table (only stretches searched to the end are written to
        # it, so a probe cut short leaves it exact).
        allowance = PROBE
        while True:
            for guided in (True, False):
                self.guided = guided
                self.cap = self.allowance.nodes + allowance
                try:
                    found = self._stretch(state, target, fresh=False)
                except _Capped:
                    continue
                finally:
                    self.cap = None
                if found is None:
                    return False
                self.line = found
                return True
            allowance *= 4

    def _stretch(self, state: LootTheLoopState, target: int, fresh: bool) -> list[str] | None:
        """Every arrangement of this stretch, breadth first, and the progress on offer from
        each: the winning line from ``state``, or None."""
        if state.is_over:
            won = state.won and len(state.score_pile) >= target
            return [] if won else None
        if _most(state) < target:
            return None
        if fresh:
            key = _key(state)
            if self.failed.get(key, 1 << 30) <= target:
                return None
        # The game's bot's way to its next progress first: it plays for the jewels and keeps its
        # trinkets, which finds most wins at once.
        if self.guided:
            found = self._guided(state, target)
            if found is not None:
                return found
        # A position met mid-stretch remembers arrangements the ruling may forbid repeating:
        # there, the memory is part of what a stretch node is.
        name = _arrangement if fresh else (lambda s: (_arrangement(s), _history(s)))
        queue: deque[tuple[LootTheLoopState, tuple[str, ...]]] = deque([(state, ())])
        met = {name(state)}
        while queue:
            node, path = queue.popleft()
            self._tick()
            progress = []
            for action in node.legal_actions():
                is_progress, rank = _is_progress(node, action)
                if is_progress:
                    progress.append((rank if target else (-1 if rank == 3 else rank), action))
                elif rank == 0:  # wandering: a Mark, a Return or a walk
                    after = node.clone()
                    after.apply(action)
                    seen = name(after)
                    if seen not in met:
                        met.add(seen)
                        queue.append((after, (*path, action.text)))
            progress.sort(key=lambda p: p[0])
            for _, action in progress:
                after = node.clone()
                after.apply(action)
                rest = self._stretch(after, target, fresh=True)
                if rest is not None:
                    return [*path, action.text, *rest]
        if fresh:
            self.failed[key] = min(target, self.failed.get(key, 1 << 30))
        return None

    def _tick(self) -> None:
        self.allowance.tick()
        if self.cap is not None and self.allowance.nodes > self.cap:
            raise _Capped

    def _guided(self, state: LootTheLoopState, target: int) -> list[str] | None:
        """The bot's line to its next progress move (a few wandering moves at most), and the
        search from there: the winning line, or None (the stretch search then tries all)."""
        node, path = state, []
        for _ in range(BOT_STEPS):
            if node.is_over:
                return None
            self._tick()
            action = self.bot(node, Rng(0))
            is_progress, rank = _is_progress(node, action)
            after = node.clone()
            after.apply(action)
            path.append(action.text)
            if is_progress:
                rest = self._stretch(after, target, fresh=True)
                return None if rest is None else [*path, *rest]
            if rank != 0:
                return None  # the bot walked onto a trap
            node = after
        return None


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of a Loot the Loop position; the best score is proved when
    ``optimise_score`` and the allowance suffice."""
    if not isinstance(state, LootTheLoopState):
        raise RulesError("this solver solves Loot the Loop")
    if state.is_over:
        return finished_bound(state)
    allowance = Allowance(seconds, max_nodes)
    bot = state.game.spec.bot
    assert bot is not None  # Loot the Loop has its bot
    solver = Solver(allowance, bot)

    def line() -> tuple[list[str], State]:
        end = state.clone()
        for move in solver.line:
            end.apply(move)
        return solver.line, end

    return prove(allowance, lambda target: solver.reach(state, target), line, optimise_score)
