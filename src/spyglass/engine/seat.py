"""What an agent sees: a seat's view and moves, and guesses at what it cannot see."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .action import Action
from .rng import Rng

if TYPE_CHECKING:
    from .game import Game
    from .state import State


class Seat:
    """The only handle an agent gets on a game.

    It holds the seat's view, its legal actions (empty when it is not this seat's turn), the
    game (rules and options), and a sample state in which everything hidden from the seat has
    already been resampled, so that nothing reachable from a Seat reveals the true state.
    """

    __slots__ = ("_sample", "game", "legal_actions", "player", "view")

    def __init__(
        self,
        player: int | None,
        view: dict[str, Any],
        legal_actions: list[Action],
        game: Game,
        sample: State,
    ) -> None:
        self.player = player
        self.view = view
        self.legal_actions = legal_actions
        self.game = game
        self._sample = sample

    @property
    def players(self) -> int:
        return self._sample.players

    def determinize(self, rng: Rng | int | None = None, *, log: bool = True) -> State:
        """A full state consistent with everything this seat knows (hidden parts resampled).
        ``log=False`` skips the log (for searches that apply many moves to many samples)."""
        return self._sample.determinize(self.player, rng, log=log)

    def parse(self, text: str) -> Action:
        return self._sample.parse(text)

    def describe(self, action: Action | str) -> str:
        return self._sample.describe(action)

    def __repr__(self) -> str:
        return f"<Seat {self.player} of {self.game.info.id}, {len(self.legal_actions)} moves>"
