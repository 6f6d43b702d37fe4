"""Simulation, statistics and analysis over many games (see docs/lab.md).

``simulate`` plays a table many times; ``tournament``, ``sweep``, ``compare_agents``, ``tune``
and ``difficulty`` (in their modules) build on it. Every result has a JSON-ready ``summary()``.
"""

from .simulate import GameOutcome, SimResult, play_game, simulate
from .stats import holm, mcnemar, mean, paired_means, paired_proportions, quantile, wilson_interval

__all__ = [
    "GameOutcome",
    "SimResult",
    "holm",
    "mcnemar",
    "mean",
    "paired_means",
    "paired_proportions",
    "play_game",
    "quantile",
    "simulate",
    "wilson_interval",
]
