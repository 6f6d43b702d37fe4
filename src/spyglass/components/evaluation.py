"""The shape shared by the solo games' evaluations: a logistic model of the chance of winning.

Each solo game's ``evaluate.py`` reads a few numbers off a position (cards left, what is still
needed, dead ends already visible) and weighs them with constants fitted on its heuristic bot's
self-play; this turns the weighted sum into a probability, as ``Result.rewards`` gives a solo
result (a 1-tuple).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: beyond this many logits the chance is 0 or 1 to float precision
_CLAMP = 30.0


def win_chance(weights: Sequence[float], features: Sequence[float]) -> tuple[float]:
    """``(p,)`` with p = 1 / (1 + exp(-(w0 + w1 x1 + ...))): ``weights`` holds the intercept
    then one weight per feature."""
    z = weights[0]
    for w, x in zip(weights[1:], features, strict=True):
        z += w * x
    z = -_CLAMP if z < -_CLAMP else _CLAMP if z > _CLAMP else z
    return (1.0 / (1.0 + math.exp(-z)),)
