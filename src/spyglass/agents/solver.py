"""The exact solver as a player, for games with nothing hidden after the deal (Syndicate).

Where every card is face up and nothing is left to chance, the seat's view is the whole
position, so solving it is fair play, and the solved line is the best play there is. The agent
solves once, remembers the line position by position, and solves again only if the game leaves
it (a hint asked in a position the line never reached). With a time cap (``milliseconds``,
CPU time) a position the solver cannot settle in time is played by the game's bot instead.
"""

from __future__ import annotations

import json

from spyglass.engine import Action, Game, IllegalAction, RulesError, Seat, State
from spyglass.engine.rng import as_rng

from .clock import check_milliseconds

#: Games whose positions hide nothing (the view is the whole table) and never draw on chance
#: after the deal: for them the clairvoyant solver is an exact one.
PERFECT_INFORMATION = frozenset({"syndicate"})
#: The solver's allowance per position when no time cap is given (CPU seconds): far beyond
#: what any Syndicate deal needs (the slowest of 10,000 took a few seconds).
UNCAPPED_SECONDS = 600.0


def _position(state: State) -> str:
    """A position as the seat sees it, which in these games is all of it."""
    return json.dumps(state.view(0)["table"], sort_keys=True)


class SolverAgent:
    name = "solver"

    def __init__(self, seed: int | None = None, *, milliseconds: float | None = None) -> None:
        self.milliseconds = check_milliseconds(milliseconds, "the solver")
        self.rng = as_rng(seed)
        self.plan: dict[str, str] = {}  # position -> the solved move there
        self.last_solved = False  # whether the last decision ran the solver

    @staticmethod
    def plays(game: Game) -> bool:
        """Only games with nothing hidden after the deal."""
        return game.info.id in PERFECT_INFORMATION

    def choose(self, seat: Seat) -> Action:
        legal = seat.legal_actions
        if not legal:
            raise IllegalAction(f"seat {seat.player} has no move to make")
        game_id = seat.game.info.id
        if not self.plays(seat.game):
            known = ", ".join(sorted(PERFECT_INFORMATION))
            raise RulesError(
                f"the solver plays games with nothing hidden ({known}); {game_id} hides cards:"
                " try pimc or ismcts"
            )
        self.last_solved = False
        if len(legal) == 1:
            return legal[0]
        state = seat.determinize(self.rng)  # nothing is hidden: this is the position itself
        key = _position(state)
        if key not in self.plan:
            self._solve(state)
        move = self.plan.get(key)
        if move is None:  # out of time, or no line wins: the bot plays
            bot = seat.game.spec.bot
            assert bot is not None
            move = bot(state, self.rng).text
        return next(a for a in legal if a.text == move)

    def _solve(self, state: State) -> None:
        from spyglass.agents.solvers import bound  # noqa: PLC0415 - the solvers load on demand

        self.last_solved = True
        seconds = UNCAPPED_SECONDS if self.milliseconds is None else self.milliseconds / 1000
        found = bound(state, seconds=seconds)
        if not found.won:
            return
        walk = state.clone()
        for move in found.moves:
            if walk.is_over:
                break
            self.plan[_position(walk)] = move
            walk.apply(move)
