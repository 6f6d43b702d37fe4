"""A position's worth to each seat, for searches that stop their playouts early.

Searches call this on their own determinizations (every role and card dealt), so the city in
progress can be scored as if it ended now: the walk of its plays so far (``scoring.Walk``, the
rules' own scoring) gives each seat's projected points. The chance of winning is a softmax of
those totals whose temperature is a share of the points that end the game, larger while the
leader is far from them (a lead counts for little early and for nearly everything once a city
could end the game).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .meanings import role_of
from .scoring import Walk

if TYPE_CHECKING:
    from .rules import EspionageState

#: The softmax temperature: FLOOR of the game's unit of points, plus DISTANCE times the points
#: the leader still lacks to end the game. Fitted on heuristic self-play at four players (40
#: games, a tenth of their positions): log-loss 1.123 against the winners, 1.386 for a uniform
#: guess (a grid of FLOOR 0.04-0.15 and DISTANCE 0.1-1.0; 0.08 and 0.25 gave 1.270).
FLOOR, DISTANCE = 0.15, 1.0


def projected(state: EspionageState) -> list[int]:
    """Each seat's points if the city in progress were scored now."""
    roles = [role_of(card) for card in state.role_cards]
    return Walk(roles, list(state.plays), list(state.scores), state.unit).run()


def evaluate(state: EspionageState) -> tuple[float, ...]:
    """Each seat's estimated share of the win (the values sum to 1), like ``Result.rewards``."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    points = projected(state)
    best = max(points)
    to_go = max(0.0, state.threshold - best)
    temperature = state.unit * FLOOR + DISTANCE * to_go
    weights = [math.exp((p - best) / temperature) for p in points]
    whole = sum(weights)
    return tuple(w / whole for w in weights)
