"""What a finished game pays each seat, in the three adapters alike.

- ``"win"`` (the default): ``Result.rewards``, the winners share 1 and the others get 0; in a
  solo game 1 for a win and 0 for a loss.
- ``"score"``: the outcome first, then the score. A win pays 1 plus the score's place in the
  range a won game's score can take (0 the worst such score, 1 the best), so from 1 to 2; a
  loss pays the score's place in the range of a lost game's score minus 1, so from -1 to 0, and
  -1 where the rulebook gives a loss no score. In a multiplayer game each winner gets 1 plus
  the place of its points in their range, each other seat that place minus 1. So a reward
  maximiser ranks every loss below every win, and among wins (or losses) the better score
  higher, whichever way the game counts its score (fewer cards left in hand is better in The
  Sandwich Guy). The ranges are each game's declaration (``Encoding.scoring``); a score beyond
  its range counts as the nearest end.

Nothing here looks at a state that is not over: rewards come at the end of the game.
"""

from __future__ import annotations

from spyglass.engine import Game, Result
from spyglass.engine.learner_spec import Scoring

REWARDS = ("win", "score")


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}, not {reward!r}")
    return reward


def place(value: float, span: tuple[float, float], lower_is_better: bool = False) -> float:
    """Where ``value`` lies in ``span``: 0 at the worst end, 1 at the best (clipped)."""
    low, high = span
    if high <= low:
        return 1.0
    at = (min(max(float(value), low), high) - low) / (high - low)
    return 1.0 - at if lower_is_better else at


def rewards(game: Game, scoring: Scoring, result: Result, mode: str) -> tuple[float, ...]:
    """Each seat's reward for a finished game (see the module's text)."""
    if mode == "win":
        return result.rewards
    lower = game.info.score_order == "lower"
    if game.info.solo:
        if result.won:
            span, base = scoring.won, 1.0
        else:
            span, base = scoring.lost, -1.0
        if span is None or result.score is None:
            # No score for this outcome: a win is worth its floor, a loss its floor too.
            return (base,)
        return (base + place(result.score, span, lower),)
    span = scoring.points
    if span is None:
        raise ValueError(f"{game.info.title} declares no range for its points")
    return tuple(
        (1.0 if seat in result.winners else -1.0) + place(points, span, lower)
        for seat, points in enumerate(result.scores)
    )


def bounds(game: Game, mode: str) -> tuple[float, float]:
    """The lowest and highest reward a mode can pay in this game."""
    if mode == "win":
        return (0.0, 1.0)
    return (-1.0, 2.0)
