"""The chance of winning from an Emissary position, for searches that stop playouts early.

The mission fails at the first kingdom that ends without exactly its target of won debates, so
the chance of winning is roughly the chance of hitting the current target times the chances of
the kingdoms still to visit. For the first the model reads how well the hand can aim at the
wins still needed: its expected wins against a topic drawn from the cards the seat knows are
left, and the wins it cannot avoid or cannot make (cards that beat, or lose to, nearly every
topic). For the second it reads the typical odds of a fresh hand of eight at each target still
to visit (the bot's ``TYPICAL``) and their number (the bot picks the order, so a hard target
waits for a fitting hand), and it adds the supporters still face up (abilities to come).

The bot's exact-bid odds table would read the first part better (held-out log-loss 0.553
against this model's 0.562), but a search's samples rarely share a table and one costs tens of
milliseconds to build: more than a random playout, which is what a cutoff should save.
Weights fitted on heuristic self-play (see ``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from spyglass.components.evaluation import win_chance

from .bot import TYPICAL, topic_pool
from .rules import CHOOSE, RANK, SUIT

if TYPE_CHECKING:
    from .rules import EmissaryState

#: intercept; expected wins' distance from the need; wins that cannot be avoided or made (both
#: 0 between kingdoms); sum of the log typical chances of the kingdoms still to visit;
#: supporters face up; kingdoms still to visit
WEIGHTS = (-1.05, -0.185, -0.0416, 0.304, 0.319, 0.599)
#: a card wins (or loses) against at least this share of the topics: counted as sure
SURE = 0.8

#: a floor for the logarithms (a kingdom that can no longer be hit gives 0)
_FLOOR = 1e-3
_LOG_TYPICAL = tuple(math.log(max(p, _FLOOR)) for p in TYPICAL)


def features(state: EmissaryState) -> tuple[float, ...]:
    miss = gap = 0.0
    if state.phase != CHOOSE and state.visiting is not None:
        miss, gap = _aim(state)
    left = [k for k in state.unvisited() if k != state.visiting]
    ahead = sum(_LOG_TYPICAL[k + 1] for k in left)
    return (miss, gap, ahead, len(state.ready_supporters()), len(left))


def _aim(state: EmissaryState) -> tuple[float, float]:
    """How far the hand is from winning exactly the debates still needed: the distance of its
    expected wins from the need, and the wins it cannot avoid or cannot make (cards that win
    or lose against nearly every topic the pool can raise)."""
    need = state.target - state.wins
    hand = state.hand
    pool = topic_pool(state)
    if not pool or not 0 <= need <= len(hand):
        return float(len(hand) + 1), float(len(hand) + 1)
    trump = state.trump
    below = [[0] * 10 for _ in range(4)]  # below[suit][rank]: pool cards of suit under rank
    for card in pool:
        below[SUIT[card]][RANK[card] + 1] += 1
    for row in below:
        for rank in range(1, 10):
            row[rank] += row[rank - 1]
    other = len(pool) - below[trump][9]  # topics of another suit, which a trump beats
    expected = sure = hopeless = 0.0
    for card in hand:
        suit = SUIT[card]
        p = (below[suit][RANK[card]] + (other if suit == trump else 0)) / len(pool)
        expected += p
        sure += p >= SURE
        hopeless += p <= 1 - SURE
    gap = max(0.0, sure - need) + max(0.0, need - (len(hand) - hopeless))
    return abs(expected - need), gap


def evaluate(state: EmissaryState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
