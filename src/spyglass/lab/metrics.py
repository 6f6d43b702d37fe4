"""Game metrics: what a game is like to play, from the outcomes of a run.

The measures TAG reports for its games, per game and option set: decisions per game (moves
with more than one legal action), the branching factor (legal actions per move: mean and
distribution, at every move and at decisions only), the share of forced moves, game length,
score margins (the winner's lead over the best of the rest) and each seat's distribution of
finishing places; and, apart because it depends on the machine, the time per decision of each
agent. Turn positions have their own module (:mod:`.positions`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import spyglass

from .outcome import GameOutcome
from .stats import distribution, histogram_distribution

if TYPE_CHECKING:
    from .simulate import SimResult


def places(outcome: GameOutcome, lower_is_better: bool = False) -> tuple[int, ...]:
    """Each seat's finishing place: the winners share 1st; the others follow by score, equal
    scores sharing the better place (standard competition ranking: 1, 2, 2, 4)."""
    n = len(outcome.scores)
    winners = set(outcome.winners)
    sign = 1.0 if lower_is_better else -1.0
    result = [1] * n
    rest = sorted((s for s in range(n) if s not in winners), key=lambda s: sign * outcome.scores[s])
    first = len(winners) + 1 if winners else 1
    for i, seat in enumerate(rest):
        previous = rest[i - 1] if i else None
        if previous is not None and outcome.scores[previous] == outcome.scores[seat]:
            result[seat] = result[previous]
        else:
            result[seat] = first + i
    return tuple(result)


def margin(outcome: GameOutcome, lower_is_better: bool = False) -> float | None:
    """How far the winners' best score is ahead of the best of the others (None when every
    seat or no seat won)."""
    winners = set(outcome.winners)
    losers = [s for s in range(len(outcome.scores)) if s not in winners]
    if not winners or not losers:
        return None
    best = min if lower_is_better else max
    lead = best(outcome.scores[s] for s in winners) - best(outcome.scores[s] for s in losers)
    return -lead if lower_is_better else lead


def branching_histogram(outcomes: Sequence[GameOutcome], decisions_only: bool = False) -> list:
    total: Counter[int] = Counter()
    for outcome in outcomes:
        for legal, moves in outcome.branching:
            if legal > 1 or not decisions_only:
                total[legal] += moves
    return sorted(total.items())


def game_metrics(result: SimResult) -> dict[str, Any]:
    """The metrics of a run (JSON-ready); every figure follows from the seeds and agents."""
    measured = [o for o in result.outcomes if o.measured]
    lower = spyglass.load(result.game).info.score_order == "lower"
    moves = sum(sum(o.moves) for o in measured)
    decisions = sum(sum(o.decisions) for o in measured)
    every = branching_histogram(measured)
    solo = result.players == 1
    seats = []
    if not solo:
        for seat in range(result.players):
            counts = Counter(places(o, lower)[seat] for o in result.outcomes)
            seats.append(
                {
                    "seat": seat,
                    "agent": result.agents[seat],
                    "places": [counts.get(p, 0) for p in range(1, result.players + 1)],
                    "mean_place": (
                        sum(p * c for p, c in counts.items()) / result.games
                        if result.games
                        else None
                    ),
                }
            )
    margins = [m for o in result.outcomes if (m := margin(o, lower)) is not None]
    return {
        "games": len(measured),
        "length": distribution([o.length for o in measured]),
        "decisions": distribution([sum(o.decisions) for o in measured]),
        "forced_share": (moves - decisions) / moves if moves else None,
        "branching": histogram_distribution(every),
        "branching_at_decisions": histogram_distribution(
            branching_histogram(measured, decisions_only=True)
        ),
        "branching_histogram": [list(pair) for pair in every],
        "score_margin": None if solo else distribution(margins),
        "places": seats,
    }


def timing(result: SimResult) -> list[dict[str, Any]]:
    """Time per decision of each agent (milliseconds): over all its decisions, and the
    distribution of its per-game means. It depends on the machine and its load, so it is kept
    out of the reproducible summary."""
    rows = []
    for agent in dict.fromkeys(result.agents):
        seats = [s for s, name in enumerate(result.agents) if name == agent]
        timed = [o for o in result.outcomes if len(o.seconds) == result.players]
        seconds = sum(o.seconds[s] for o in timed for s in seats)
        count = sum(o.decisions[s] for o in timed for s in seats)
        per_game = [
            1000 * sum(o.seconds[s] for s in seats) / made
            for o in timed
            if (made := sum(o.decisions[s] for s in seats))
        ]
        rows.append(
            {
                "agent": agent,
                "seats": seats,
                "games": len(timed),
                "decisions": count,
                "ms_per_decision": 1000 * seconds / count if count else None,
                "per_game": distribution(per_game),
            }
        )
    return rows
