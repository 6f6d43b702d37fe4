"""A position's worth to each seat, for searches that stop their playouts early.

Each seat's chance of winning is estimated from the points its hand would score if the game
ended now: a softmax of the totals whose temperature grows with the rounds still to play (a lead
of a few points means little in round 1 and nearly everything in the last round). The scale was
fitted on heuristic self-play (see ``tests/games/test_tinker_tailor_evaluate.py``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import scoring
from .bot import worth
from .cards import ROLE_CARDS

if TYPE_CHECKING:
    from .rules import TinkerTailorState

#: points of temperature at the end of the game, and added per round still to play
BASE, PER_ROUND = 4.0, 1.0


def evaluate(state: TinkerTailorState) -> tuple[float, ...]:
    """Each seat's estimated share of the win (the values sum to 1), like ``Result.rewards``."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    totals = [scoring.total(hand) for hand in state.hands]
    temperature = BASE + PER_ROUND * (state.rounds - state.round + 1)
    best = max(totals)
    weights = [math.exp((t - best) / temperature) for t in totals]
    whole = sum(weights)
    return tuple(w / whole for w in weights)


#: ``by_worth``'s temperature: points at the end, and added per round still to play. Fitted on
#: heuristic self-play at four players (120 games, every seventh position): log-loss 1.141
#: against the winners where ``evaluate`` has 1.189 (a grid of 2-6 and 0.5-2.5).
WORTH_BASE, WORTH_PER_ROUND = 4.0, 1.0


def by_worth(state: TinkerTailorState) -> tuple[float, ...]:
    """Like :func:`evaluate`, but each hand counts what the heuristic bot thinks it is worth
    with the game still to come (``bot.worth``: its points plus the promise of its growing sets,
    of its next collection and of its money's buying power), not only its points now. A search
    that cuts its playouts mid-game then values money kept to buy with and sets about to grow as
    the bot, which plays the rest, would use them."""
    if (result := state.result) is not None:
        return result.rewards
    done = (state.round - 1) / state.rounds
    if state.phase != "draft":
        done += max(state.rhyme, 0) / len(ROLE_CARDS) / state.rounds
    left = max(0.0, 1.0 - done)
    values = [worth(hand, left) for hand in state.hands]
    temperature = WORTH_BASE + WORTH_PER_ROUND * (state.rounds - state.round + 1)
    best = max(values)
    weights = [math.exp((v - best) / temperature) for v in values]
    whole = sum(weights)
    return tuple(w / whole for w in weights)
