"""A game's own look-ahead as a player, where the game has one (Foursquare).

The game's ``lookahead`` module (in its package) is an exact expectimax over the unseen cards
on the game's light model of a position: Foursquare's searches its bot's grid.

The generic search (``agents.expectimax``) searches every move alike; a game's own look-ahead
knows where its game is decided and how its bot ranks moves, and so can spend a deeper search
only there (Foursquare: two cards deep once the grid is nearly full, on the bot's best
placements of each card), for little more CPU than one card deep everywhere. The agent gives
the game's search a determinization of the seat (the search reads from it only what the seat
knows: the grid and the ranks left in the deck, not their order) and plays the placement it
values most, ties going to the game's bot's move.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from spyglass.engine import Action, Game, IllegalAction, RulesError, Seat
from spyglass.engine.rng import as_rng

from .clock import Deadline, check_clock, check_milliseconds
from .heuristic import to_move


def model(game: Game) -> ModuleType | None:
    """The solo game's ``lookahead`` module, or None where it has none."""
    if not game.info.solo:
        return None
    try:
        return import_module(f"{game.spec.package}.lookahead")
    except ImportError:
        return None


class LookaheadAgent:
    """``depth`` (cards searched once the game is close to being decided; 1 or more),
    ``width`` (placements of each card searched on below the root, the best by the bot's
    score), ``piles`` (the deeper search starts once this many piles stand; one card deep
    before), ``milliseconds`` (time a decision may take: the one-card values are always
    computed, the deeper ones only while time is left, as in expectimax) and ``clock``
    (``agents.clock``). See the game's ``lookahead`` module."""

    name = "lookahead"

    def __init__(
        self,
        seed: int | None = None,
        *,
        depth: int = 2,
        width: int = 2,
        piles: int = 15,
        milliseconds: float | None = None,
        clock: str = "cpu",
    ) -> None:
        if int(depth) < 1:
            raise RulesError("lookahead needs a depth of 1 or more cards")
        if int(width) < 1:
            raise RulesError("lookahead needs a width of 1 or more placements")
        if int(piles) < 0:
            raise RulesError("lookahead's piles is a number of piles, 0 or more")
        self.milliseconds = check_milliseconds(milliseconds, "lookahead")
        self.rng = as_rng(seed)
        self.depth, self.width, self.piles = int(depth), int(width), int(piles)
        self.clock = check_clock(clock, "lookahead")

    @staticmethod
    def plays(game: Game) -> bool:
        """The games that offer a look-ahead of their own (Foursquare)."""
        return model(game) is not None

    def choose(self, seat: Seat) -> Action:
        legal, _ = to_move(seat)
        if len(legal) == 1:
            return legal[0]
        deadline = Deadline.after(self.milliseconds, self.clock)
        game = seat.game
        search = model(game)
        if search is None:
            raise RulesError(
                f"lookahead plays the solo games with a look-ahead of their own; {game.info.id}"
                " has none: try expectimax"
            )
        state = seat.determinize(self.rng, log=False)
        bot = game.spec.bot
        favoured = bot(state, self.rng).text if bot is not None else ""
        chosen = search.choose(state, self.depth, self.width, self.piles, favoured, deadline.passed)
        for action in legal:
            if action == chosen:
                return action
        raise IllegalAction(f"the {game.info.id} look-ahead chose a move that is not legal")
