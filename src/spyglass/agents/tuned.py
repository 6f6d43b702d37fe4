"""The tuned agent: a game's tuned policy (``agents.policies``), its bot where it has none."""

from __future__ import annotations

from typing import Any

from spyglass.engine import Action, Bot, IllegalAction, RulesError, Seat
from spyglass.engine.rng import as_rng

from .policies import policy, weight_names


class TunedAgent:
    """Plays the game's tuned policy on a determinization of the seat (the policy reads only
    what the seat may know, but it is given nothing else). Keyword arguments replace some of
    the policy's weights, so that ``spyglass tune`` can search them again."""

    name = "tuned"

    def __init__(self, seed: int | None = None, **weights: Any) -> None:
        self.rng = as_rng(seed)
        unknown = sorted(set(weights) - weight_names())
        if unknown:
            raise RulesError(
                f"no tuned policy has a weight {unknown[0]!r}; their weights: "
                + ", ".join(sorted(weight_names()))
            )
        self.weights = {name: float(value) for name, value in weights.items()}
        self._policies: dict[str, Bot] = {}

    def policy(self, seat: Seat) -> Bot:
        game = seat.game
        found = self._policies.get(game.info.id)
        if found is None:
            found = policy(game.info.id, game.spec.bot, self.weights)
            self._policies[game.info.id] = found
        return found

    def choose(self, seat: Seat) -> Action:
        legal = seat.legal_actions
        if not legal:
            raise IllegalAction(f"seat {seat.player} has no move to make")
        play = self.policy(seat)
        if len(legal) == 1:
            return legal[0]
        chosen = play(seat.determinize(self.rng, log=False), self.rng)
        for action in legal:
            if action == chosen:
                return action
        raise IllegalAction(
            f"the {seat.game.info.id} policy chose a move that is not legal", str(chosen)
        )
