"""A tuned policy for Spies!: the game's bot with its valuation constants searched again.

The bot (``games.spies.bot``) weighs everything it may do in points: a Secret by its printed
value at the year's multiple, and beside it an Action Chit, a £, an active spy and an Action
Point at fixed worths written by hand (``bot.WEIGHTS``), with a cost for sea spaces in its
routes, £ kept back for a Discovery and the margin a trade must clear. Those worths decide
where its spies go (a Secret, or a city a tile will reward), which tiles it plays, what its
police search for and which offers it makes and takes.

Measured against the bot, seat for seat at four players, the chit's worth is what matters (the
worth of the chits tiles award to spies in their cities, of tiles that draw chits, of cashing a
Secret and of a capture). With 4 points where the bot has 2 (the rest the bot's), two seats took
63.5% of the wins over 200 tables against two of the bot, with 1 only 33.5%; the worths of a
spy, a £ and an Action Point, halved or doubled alone, moved the share 5 points at most. A
search of all seven worths by self-play against the bot (Optuna's TPE, 21 trials of 200 tables,
seeds 200-299) found nothing better: on 1,000 fresh tables (seeds 5000-5499) its best trial took
60.2% of the wins (602 won alone to 398), the chit at 4 alone 60.6% (606 to 394). So this policy
is the bot with one worth changed, :data:`WEIGHTS`. Like the bot it reads only what the seat may
know; it values another power's side of an offer with its own worths, so what it expects the bot
to accept is a model.
"""

from __future__ import annotations

from spyglass.engine import Action, Rng
from spyglass.games.spies import bot
from spyglass.games.spies.rules import SpiesState

from .weights import chosen as with_weights

#: Raised whenever the weights or the way they are used change.
VERSION = 1

#: The bot's weights (``bot.WEIGHTS``), as tuned: an Action Chit worth 4 points, not 2.
WEIGHTS: dict[str, float] = {**bot.WEIGHTS, "chit": 4.0}


class Policy:
    """The tuned policy with its weights (``WEIGHTS`` unless given): call it like a bot."""

    __slots__ = ("weights",)

    def __init__(self, weights: dict[str, float] | None = None) -> None:
        self.weights = with_weights("spies", WEIGHTS, weights)

    def __call__(self, state: SpiesState, rng: Rng) -> Action:
        return bot.decide(state, rng, self.weights)
