"""The heuristic agent: each game's own bot, run on a determinization of the seat."""

from __future__ import annotations

from spyglass.engine import Action, IllegalAction, RulesError, Seat
from spyglass.engine.rng import Rng, as_rng


def to_move(seat: Seat) -> tuple[list[Action], int]:
    """The legal moves of the seat and its player, for an agent asked to move it: an
    IllegalAction where it has none (a spectator's seat, or a seat not to move)."""
    legal, player = seat.legal_actions, seat.player
    if not legal or player is None:
        raise IllegalAction(f"seat {seat.player} has no move to make")
    return legal, player


def bot_move(seat: Seat, rng: Rng, log: bool = True) -> Action:
    """The game's bot's move for ``seat``, chosen on a determinization drawn with ``rng`` (the
    bot never sees the true state); ``log=False`` samples without the game's log (faster, for
    searches that do not read it)."""
    bot = seat.game.spec.bot
    if bot is None:
        raise RulesError(f"{seat.game.info.id} has no heuristic bot")
    chosen = bot(seat.determinize(rng, log=log), rng)
    for action in seat.legal_actions:
        if action == chosen:
            return action
    raise IllegalAction(f"the {seat.game.info.id} bot chose a move that is not legal", str(chosen))


class HeuristicAgent:
    """Delegates to the game's bot. The bot gets a state sampled from what the seat knows, so
    it cannot peek at hidden cards even by accident."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = as_rng(seed)

    def choose(self, seat: Seat) -> Action:
        if seat.game.spec.bot is None:
            raise RulesError(f"{seat.game.info.id} has no heuristic bot")
        if not seat.legal_actions:
            raise IllegalAction(f"seat {seat.player} has no move to make")
        if len(seat.legal_actions) == 1:
            return seat.legal_actions[0]
        return bot_move(seat, self.rng)
