"""Rollouts of the tuned Sandwich Guy policy, to choose between its best few sandwiches.

The tuned policy (:mod:`.sandwich_guy`) scores each sandwich by the hand it leaves, one draw
ahead. Its mistakes are those whose cost shows only later: a hand that survives the next draw
but has thinned out. Here the policy's best few moves are each played out to the end of the
game by the policy itself, over the same sampled deck orders (common random numbers: each order
is a uniform shuffle of the deck's known contents, the true order is never read), and the move
whose playouts go furthest is played. A playout is worth 1 when it draws the deck's last card
and, when it loses, a fraction ``LOSS_CREDIT`` of the share of the deck it got through: a
graded value tells apart moves whose playouts nearly all win. The policy's own first choice is
kept unless another move beats it on the paired playouts by ``MARGIN`` standard errors, so the
search departs from the policy only on evidence.

The playouts run on plain card codes (a hand list, a deck list whose top is its end) with the
policy's own features, much faster than on game states.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from spyglass.engine import Action, IllegalAction, Rng, Seat
from spyglass.engine.rng import as_rng
from spyglass.games.sandwich_guy.bot import choose as bot_choose
from spyglass.games.sandwich_guy.rules import HAND_LIMIT, SandwichGuyState, sandwiches

from ..clock import Deadline, check_clock, check_milliseconds
from .sandwich_guy import _RANK, _SUIT, Policy, deck_tables, features

#: How many cards a sandwich of these three cards draws, by its key (see :func:`_draw_key`).
_SUIT_BITS = tuple(1 << _SUIT[code] for code in range(52))

#: Defaults of the search (see :class:`Search`).
SAMPLES = 48
#: The most sandwiches all the playouts of one move may play (about 0.5 CPU-s): a hint's cap
#: that does not depend on the machine's speed, so the moves are the same everywhere.
BUDGET = 1000
#: Deck orders played out between two looks at the evidence, and before a move may be left.
BATCH = 8
MIN_SAMPLES = 16
CANDIDATES = 3
MARGIN = 1.5
LOSS_CREDIT = 0.5


def _quality_draws(a: int, b: int, c: int) -> int:
    """The cards a sandwich of cards a, b, c draws: 4 of one suit, 3 of one colour, else 2."""
    suits = _SUIT_BITS[a] | _SUIT_BITS[b] | _SUIT_BITS[c]
    if suits & (suits - 1) == 0:
        return 4
    if suits & 0b1010 == 0 or suits & 0b0101 == 0:  # spades/clubs only, or hearts/diamonds
        return 3
    return 2


def scored(
    hand: list[int],
    moves: list[tuple[int, int, int]],
    deck_ranks: list[int],
    deck_suits: list[int],
    size: int,
    *,
    weights: tuple[float, ...],
) -> list[float]:
    """The tuned policy's score of each move (``math.inf`` for one that draws the last card)."""
    mask = 0
    for card in hand:
        mask |= 1 << card
    room = HAND_LIMIT - (len(hand) - 3)
    values = []
    for a, b, c in moves:
        draws = min(_quality_draws(a, b, c), room, size)
        if draws == size:
            values.append(math.inf)
            continue
        x = features(mask & ~(1 << a | 1 << b | 1 << c), draws, deck_ranks, deck_suits, size)
        values.append(sum(w * v for w, v in zip(weights, x, strict=True)))
    return values


def playout(
    hand: list[int], deck: list[int], move: tuple[int, int, int], weights: tuple[float, ...]
) -> tuple[int, int]:
    """Play ``move``, then the tuned policy, until the game is decided; ``hand`` and ``deck``
    (top card last) are used up. The cards still in the deck at the end (0 is a win), and the
    sandwiches played."""
    deck_ranks, deck_suits = deck_tables(deck)
    steps = 0
    while True:
        steps += 1
        a, b, c = move
        hand.remove(a)
        hand.remove(b)
        hand.remove(c)
        for _ in range(min(_quality_draws(a, b, c), HAND_LIMIT - len(hand), len(deck))):
            card = deck.pop()
            hand.append(card)
            deck_ranks[_RANK[card]] -= 1
            deck_suits[_SUIT[card]] &= ~(1 << _RANK[card])
        size = len(deck)
        if not size:
            return 0, steps
        moves = sandwiches(hand)
        if not moves:
            return size, steps
        if len(moves) == 1:
            move = moves[0]
            continue
        values = scored(hand, moves, deck_ranks, deck_suits, size, weights=weights)
        move = moves[max(range(len(moves)), key=values.__getitem__)]


def _never() -> bool:
    return False


class Search:
    """The tuned policy's best ``candidates`` moves played out over up to ``samples`` sampled
    deck orders each (the same orders for every move), at most ``budget`` sandwiches played in
    all; called like a bot."""

    __slots__ = ("budget", "candidates", "loss_credit", "margin", "samples", "weights")

    def __init__(
        self,
        *,
        samples: int = SAMPLES,
        candidates: int = CANDIDATES,
        margin: float = MARGIN,
        loss_credit: float = LOSS_CREDIT,
        budget: int = BUDGET,
        weights: dict[str, float] | None = None,
    ) -> None:
        self.weights = Policy(weights).weights  # (an unknown weight's name is refused)
        self.samples = samples
        self.candidates = candidates
        self.margin = margin
        self.loss_credit = loss_credit
        self.budget = budget

    def __call__(
        self, state: SandwichGuyState, rng: Rng, passed: Callable[[], bool] = _never
    ) -> Action:
        """The move to play; ``passed`` tells when the decision's time is up (see
        :meth:`compare`)."""
        legal = state.legal_actions()
        if state.deck_done or len(legal) == 1:
            return legal[0] if len(legal) == 1 else bot_choose(state, rng)
        by_cards = {frozenset(m.cards): m for m in legal}
        hand = [int(c) for c in state.hand]
        contents = sorted(int(c) for c in state.deck)  # the contents only, never the order
        moves = sandwiches(hand)
        deck_ranks, deck_suits = deck_tables(contents)
        values = scored(hand, moves, deck_ranks, deck_suits, len(contents), weights=self.weights)
        order = sorted(range(len(moves)), key=lambda i: -values[i])
        best = moves[order[0]]
        if values[order[0]] == math.inf or self.candidates < 2:
            return by_cards[frozenset(best)]
        chosen = [moves[i] for i in order[: self.candidates]]
        found = self.compare(hand, contents, chosen, rng, passed)
        return by_cards[frozenset(found)]

    def compare(
        self,
        hand: list[int],
        contents: list[int],
        moves: list[tuple[int, int, int]],
        rng: Rng,
        passed: Callable[[], bool] = _never,
    ) -> tuple[int, int, int]:
        """The move to play of ``moves`` (the policy's first choice first): the first unless
        another's paired playouts beat it by ``margin`` standard errors. Playouts come in
        batches of ``BATCH`` deck orders; after each, a move that does no better than the first
        on the orders so far is dropped, and the search stops when none is left or one is
        ahead by the margin. ``passed()`` is asked after each deck order: once time is up it
        decides on the orders played so far, as when the budget is spent (the best move ahead
        by the margin, else the first)."""
        size = len(contents)
        credit = self.loss_credit / size
        weights = self.weights
        active = list(range(1, len(moves)))
        diffs: list[list[float]] = [[] for _ in moves]
        done = steps = 0
        late = False
        while active and done < self.samples and steps < self.budget and not late:
            for _ in range(min(BATCH, self.samples - done)):
                deck = list(contents)
                rng.shuffle(deck)
                left, spent = playout(list(hand), list(deck), moves[0], weights)
                steps += spent
                base = 1.0 if left == 0 else credit * (size - left)
                for i in active:
                    left, spent = playout(list(hand), list(deck), moves[i], weights)
                    steps += spent
                    diffs[i].append((1.0 if left == 0 else credit * (size - left)) - base)
                if passed():  # after each deck order: a batch can outlast a hint's cap
                    late = True
                    break
            done = len(diffs[active[0]])
            ahead = []
            for i in list(active):
                mean = sum(diffs[i]) / done
                if mean <= 0.0:
                    active.remove(i)
                    continue
                var = sum((d - mean) ** 2 for d in diffs[i]) / max(1, done - 1)
                if mean > self.margin * math.sqrt(var / done):
                    ahead.append((mean, i))
            if ahead and (done >= MIN_SAMPLES or steps >= self.budget or late):
                return moves[max(ahead)[1]]
        return moves[0]


class RolloutAgent:
    """The search as an agent: in The Sandwich Guy it plays :class:`Search` on a
    determinization of the seat, like the ``tuned`` agent plays the policy (the search reads
    the deck's contents and shuffles them itself); in every other game it plays as the
    ``tuned`` agent does (the game's tuned policy, or its bot where it has none).
    ``milliseconds`` caps the time of a decision (on ``clock``, ``agents.clock``), for hints
    and the web's bot seats: the search then decides on the playouts it has made. Without it
    only ``budget`` (in sandwiches played) bounds a decision, so its moves do not depend on
    the machine's speed."""

    name = "rollout"

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = SAMPLES,
        candidates: int = CANDIDATES,
        margin: float = MARGIN,
        loss_credit: float = LOSS_CREDIT,
        budget: int = BUDGET,
        milliseconds: float | None = None,
        clock: str = "cpu",
    ) -> None:
        self.milliseconds = check_milliseconds(milliseconds, "rollout")
        self.clock = check_clock(clock, "rollout")
        self.rng = as_rng(seed)
        self.elsewhere: Any = None  # the tuned agent, for games other than The Sandwich Guy
        self.search = Search(
            samples=int(samples),
            candidates=int(candidates),
            margin=float(margin),
            loss_credit=float(loss_credit),
            budget=int(budget),
        )

    def choose(self, seat: Seat) -> Action:
        if seat.game.info.id != "sandwich-guy":
            if self.elsewhere is None:
                from spyglass.agents.tuned import TunedAgent  # noqa: PLC0415 - a cycle

                self.elsewhere = TunedAgent(seed=self.rng.next64())
            return self.elsewhere.choose(seat)
        legal = seat.legal_actions
        if not legal:
            raise IllegalAction(f"seat {seat.player} has no move to make")
        if len(legal) == 1:
            return legal[0]
        state = seat.determinize(self.rng, log=False)
        assert isinstance(state, SandwichGuyState)
        deadline = Deadline.after(self.milliseconds, self.clock)
        chosen = self.search(state, self.rng, deadline.passed)
        for action in legal:
            if action == chosen:
                return action
        raise IllegalAction("the rollout search chose a move that is not legal", str(chosen))
