"""The statistics of a simulation, as one JSON-ready dict (what the CLI prints and saves)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .positions import turn_positions
from .stats import distribution, rate

__all__ = ["rate", "seat_results", "summarize"]

if TYPE_CHECKING:
    from .simulate import SimResult


def seat_results(result: SimResult) -> list[dict[str, Any]]:
    """Per seat: wins (a shared win counts as a win), win share (a shared win split), scores."""
    seats = []
    for seat in range(result.players):
        wins = sum(1 for o in result.outcomes if seat in o.winners)
        seats.append(
            {
                "seat": seat,
                "agent": result.agents[seat],
                "wins": rate(wins, result.games),
                "win_share": result.seat_wins(seat) / result.games if result.games else None,
                "score": distribution([o.scores[seat] for o in result.outcomes]),
            }
        )
    return seats


def summarize(result: SimResult) -> dict[str, Any]:
    solo = result.players == 1
    return {
        "game": result.game,
        "agents": list(result.agents),
        "players": result.players,
        "seed": result.seed,
        "options": result.options,
        "games": result.games,
        # how many games the run was asked for (more than ``games`` if it was interrupted)
        "planned": result.planned if result.planned is not None else result.games,
        "interrupted": result.interrupted,
        # solo: games won; multiplayer: games seat 0 won (every seat is under "seats")
        "win_rate": rate(result.wins, result.games),
        # the rulebook's score (solo), over the games that have one
        "score": distribution(result.scores()) if solo else None,
        "score_of_won_games": (
            distribution([o.score for o in result.outcomes if o.won and o.score is not None])
            if solo
            else None
        ),
        "length": distribution([o.length for o in result.outcomes]),
        "seats": seat_results(result),
        "metrics": result.metrics(),
        "turn_positions": turn_positions(result.outcomes, result.players),
    }
