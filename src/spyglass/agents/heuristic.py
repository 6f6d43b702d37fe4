"""The heuristic agent: each game's own bot, run on a determinization of the seat."""

from __future__ import annotations

from spyglass.engine import Action, IllegalAction, RulesError, Seat
from spyglass.engine.rng import as_rng


class HeuristicAgent:
    """Delegates to the game's bot. The bot gets a state sampled from what the seat knows, so
    it cannot peek at hidden cards even by accident."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = as_rng(seed)

    def choose(self, seat: Seat) -> Action:
        bot = seat.game.spec.bot
        if bot is None:
            raise RulesError(f"{seat.game.info.id} has no heuristic bot")
        if not seat.legal_actions:
            raise IllegalAction(f"seat {seat.player} has no move to make")
        if len(seat.legal_actions) == 1:
            return seat.legal_actions[0]
        sample = seat.determinize(self.rng)
        chosen = bot(sample, self.rng)
        for action in seat.legal_actions:
            if action == chosen:
                return action
        raise IllegalAction(
            f"the {seat.game.info.id} bot chose a move that is not legal", str(chosen)
        )
