"""Simulation and statistics over many games."""

from .simulate import GameOutcome, SimResult, play_game, simulate
from .stats import mcnemar, mean, quantile, wilson_interval

__all__ = [
    "GameOutcome",
    "SimResult",
    "mcnemar",
    "mean",
    "play_game",
    "quantile",
    "simulate",
    "wilson_interval",
]
