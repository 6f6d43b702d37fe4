"""A tuned policy for Espionage: the game's bot with beliefs fitted to how the bot plays.

The bot (``games.espionage.bot``) guesses each other player's role from the cards they played
on it, with likelihoods written by hand: a secret says "spy" six times as loudly as "agent",
police say "agent" four times as loudly as "spy". Counted over heuristic self-play the cards
say much less: agents and spy masters pass secrets in 33-53% of their plays on others (they
often have nothing better to play) against a spy's 51-77%, police come from every role but the
spy (14-31% of their plays; a spy's 5%), and the strong signs are elsewhere: the spy master's
refusal to reject (7 rejections in 5,479 plays) and the civilian's reluctance to pass secrets
(11-27%). This policy plays the same valuations with

- evidence fitted to the bot's play: the chance that a player of each role plays a secret,
  police, a rejection or a card of no meaning on a player of each role (:data:`COUNTS`, from
  :func:`fit_counts`: 300 four-player games of the bot against itself, seeds 300000-300299,
  plus one of each as a prior), cards of no meaning included;
- a prior counted from the cards the seat has seen (its role card, its hand, the cards played
  to and by it): three red faces in hand make a spy master rarer at the table;
- the valuations' constants searched again by self-play against the bot (Optuna's TPE, seats
  alternating, on tables apart from the strength run's): :data:`WEIGHTS`. They matter little:
  with the bot's own constants the beliefs alone took 52.6% and 53.5% of the wins over two sets
  of 4,000 tables, with these 53.1% and 53.7%.

Like the bot it reads only what the seat may know. Its evidence describes the bot's play at
four players; at other counts and against other players it is a model, not a measurement.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng
from spyglass.games.espionage import bot
from spyglass.games.espionage.meanings import Role, role_of
from spyglass.games.espionage.rules import EspionageState

from .weights import chosen as with_weights

#: Raised whenever the weights, the evidence or the way they are used change.
VERSION = 1

#: The bot's valuation constants (``bot.WEIGHTS``), as tuned for this policy.
WEIGHTS: dict[str, float] = {
    **bot.WEIGHTS,
    "expected_secret": 19.81,
    "spy_rejection": 1.124,
    "spy_master_share": 6.508,
    "spy_to_agent": 0.87,
    "master_police": 0.948,
    "master_rejects_double": 0.501,
    "master_rejection_cost": 0.439,
    "agent_repeat": 1.622,
    "agent_loss": 1.033,
    "agent_face": 1.074,
}

#: The kinds of card a player can play on another, in the order of :data:`COUNTS`' entries.
KINDS = ("secret", "police", "rejection", "nothing")
#: The roles in the order of :data:`COUNTS`' rows and columns (the bot's, the enum's order).
ORDER = bot.ROLES

Counts = dict[Role, tuple[tuple[int, ...], ...]]

#: Plays of the bot on another player, by the giver's role (rows), the receiver's role
#: (columns, as :data:`ORDER`) and the kind of card (as :data:`KINDS`): ``fit_counts()``.
COUNTS: Counts = {
    Role.SPY: (
        (5563, 353, 722, 581),
        (1379, 127, 585, 230),
        (2597, 220, 1263, 422),
        (724, 49, 211, 85),
        (1441, 166, 957, 279),
    ),
    Role.SPY_MASTER: (
        (816, 651, 2, 629),
        (326, 145, 2, 180),
        (728, 286, 0, 427),
        (175, 68, 0, 85),
        (486, 174, 3, 296),
    ),
    Role.COUNTER_ESPIONAGE: (
        (1499, 1340, 625, 1128),
        (661, 293, 171, 295),
        (1374, 643, 382, 661),
        (300, 166, 93, 191),
        (942, 455, 294, 493),
    ),
    Role.DOUBLE_AGENT: (
        (446, 153, 181, 301),
        (151, 51, 61, 100),
        (304, 102, 106, 203),
        (46, 17, 21, 27),
        (161, 71, 79, 142),
    ),
    Role.CIVILIAN: (
        (362, 755, 722, 1353),
        (246, 232, 212, 421),
        (603, 499, 478, 772),
        (119, 97, 132, 196),
        (417, 313, 287, 532),
    ),
}

FIT_GAMES, FIT_SEED = 300, 300_000


def chances(counts: Counts) -> dict[tuple[Role, str], dict[Role, float]]:
    """(receiver's role, kind) -> for each giver's role, the chance that its play on that
    receiver is of that kind, each count plus one (so that no kind is ever impossible)."""
    table: dict[tuple[Role, str], dict[Role, float]] = {}
    for giver, row in counts.items():
        for receiver, kinds in zip(ORDER, row, strict=True):
            total = sum(kinds) + len(KINDS)
            for kind, count in zip(KINDS, kinds, strict=True):
                table.setdefault((receiver, kind), {})[giver] = (count + 1) / total
    return table


CHANCES = chances(COUNTS)


def kind_of(card: Card) -> str:
    """Which of :data:`KINDS` a played card is."""
    return bot.kind(card) or "nothing"


def fitted(card: Card, receiver: Role) -> dict[Role, float]:
    """The evidence of a card received, as the bot plays (``bot.Evidence``)."""
    return CHANCES[receiver, kind_of(card)]


def fit_counts(
    games: int = FIT_GAMES, seed: int = FIT_SEED
) -> dict[Role, tuple[tuple[int, ...], ...]]:
    """Count the bot's plays on others in ``games`` four-player games of it against itself
    (game k dealt and played with seed ``seed + k``), as :data:`COUNTS`."""
    from spyglass.games import REGISTRY  # noqa: PLC0415 - only for refitting

    game = REGISTRY.load("espionage")
    seen: Counter[tuple[Role, Role, str]] = Counter()
    for k in range(games):
        state = cast(EspionageState, game.new_state(players=4, seed=seed + k))
        rng = Rng(seed + k)
        while not state.is_over:
            before = len(state.plays)
            state.apply(bot.choose(state, rng))
            if len(state.plays) == before + 1:  # not a city's last play (a new deal clears it)
                play = state.plays[-1]
                if play.giver != play.receiver:
                    roles = state.role_cards
                    seen[
                        role_of(roles[play.giver]),
                        role_of(roles[play.receiver]),
                        kind_of(play.card),
                    ] += 1
    return {
        giver: tuple(tuple(seen[giver, receiver, kind] for kind in KINDS) for receiver in ORDER)
        for giver in ORDER
    }


class Policy:
    """The tuned policy with its weights (``WEIGHTS`` unless given): call it like a bot."""

    __slots__ = ("weights",)

    def __init__(self, weights: dict[str, float] | None = None) -> None:
        self.weights = with_weights("espionage", WEIGHTS, weights)

    def __call__(self, state: EspionageState, rng: Rng) -> Action:
        return bot.decide(state, rng, self.weights, fitted, counted=True)
