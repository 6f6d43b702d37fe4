"""A tuned policy for Dead Center: the game's bot with its static value's weights searched again.

The bot (``games.dead_center.bot``) judges each play by the expected value of the next turn
under a static value of the cabin: the kills made, the zombies left ready to die, supports close
to killing, the chance the next card can kill and, against it, the chance it fits no pile.
Those terms' weights were set by hand. This policy plays the same bot with weights searched by
self-play (Optuna's TPE, on deals apart from the strength run's): :data:`WEIGHTS`. It reads
what the bot reads: the cabin, the face-up zombies, the set of face-down ones and the deck's
contents, never its order.
"""

from __future__ import annotations

from spyglass.engine import Action, Rng
from spyglass.games.dead_center import bot
from spyglass.games.dead_center.rules import DeadCenterState

from .weights import chosen as with_weights

#: Raised whenever the weights or the way they are used change.
VERSION = 1

#: The bot's weights (``bot.WEIGHTS``), as tuned.
WEIGHTS: dict[str, float] = {
    "kill": 78.18,
    "ready": 31.30,
    "ready_floor": 0.854,
    "partial": 4.381,
    "stuck": 363.5,
    "hidden": 1.283,
    "next_kill": 61.19,
}


class Policy:
    """The tuned policy with its weights (``WEIGHTS`` unless given): call it like a bot."""

    __slots__ = ("weights",)

    def __init__(self, weights: dict[str, float] | None = None) -> None:
        self.weights = with_weights("dead-center", WEIGHTS, weights)

    def __call__(self, state: DeadCenterState, rng: Rng) -> Action:
        return bot.decide(state, rng, self.weights)
