"""Heuristics for Espionage, one per role, acting on what the seat can infer.

Beliefs: each other player's role starts from the deck's composition (20 red number cards make
spies, 6 red faces spy masters, 13 spades agents, 3 club faces double agents, 10 club numbers
civilians) and is updated by the cards that player has played on this seat this city: secrets
come from spies, double agents and careless civilians; police from agents and from spy masters
fishing for secrets; rejections from those who distrust us. Each legal play is then valued for
the bot's role:

- spy: secrets to likely spy masters (worth three times) and spies; rejections on likely agents
  and double agents (they lose points);
- spy master: police on likely spies (they must answer with their best secret), rejections on
  likely double agents, never on spies;
- counter-espionage agent: police on whoever passed it secrets or rejected it (likely spies and
  spy masters), weighing the bonus against the penalty for arresting a double agent or a
  civilian; a face card for a suspected spy master;
- double agent: even secrets on likely spy masters and spies, odd secrets anywhere else;
- innocent civilian: never a secret to a likely spy or spy master.

The constants of these valuations are named in :data:`WEIGHTS`, and :func:`decide` plays them
with other weights, another model of the evidence and a prior counted from the cards the seat
has seen: the tuned policy (``agents.policies.espionage``) is this bot so refitted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng

from .meanings import POLICE, REJECTION, SECRET, Role, role_of
from .rules import EspionageState, decks_for

ROLES = tuple(Role)
#: Role cards in one deck: red numbers, red faces, spades, club faces, club numbers.
PRIOR = {
    Role.SPY: 20,
    Role.SPY_MASTER: 6,
    Role.COUNTER_ESPIONAGE: 13,
    Role.DOUBLE_AGENT: 3,
    Role.CIVILIAN: 10,
}
#: How likely each role is to play each kind of card on us (relative weights).
LIKELIHOOD: dict[str, dict[Role, float]] = {
    "secret": {
        Role.SPY: 6,
        Role.DOUBLE_AGENT: 5,
        Role.CIVILIAN: 3,
        Role.SPY_MASTER: 1,
        Role.COUNTER_ESPIONAGE: 1,
    },
    "police": {
        Role.COUNTER_ESPIONAGE: 6,
        Role.SPY_MASTER: 4,
        Role.SPY: 1.5,
        Role.DOUBLE_AGENT: 1.5,
        Role.CIVILIAN: 1.5,
    },
    "rejection": {
        Role.SPY: 3,
        Role.SPY_MASTER: 4,
        Role.COUNTER_ESPIONAGE: 3,
        Role.DOUBLE_AGENT: 2,
        Role.CIVILIAN: 3,
    },
}
#: The constants of the valuations below, by name.
WEIGHTS: dict[str, float] = {
    "expected_secret": 8.0,  # a typical secret's value, for plays whose payoff is a future secret
    "spy_rejection": 0.5,  # a spy's rejection of a likely agent or double agent: share of P/20
    "spy_master_share": 3.0,  # a spy's secret to a likely spy master: times its value
    "spy_to_agent": 0.0,  # a spy's secret to a likely agent: times its value, lost
    "master_police": 1.0,  # a spy master's police on a likely spy: times an expected secret
    "master_rejects_double": 1.0,  # a spy master's rejection of a likely double agent: of P/10
    "master_rejection_cost": 1.0,  # ... of a likely spy or spy master: of P/20, lost
    "agent_repeat": 2.0,  # an agent's police on a seat already policed counts 1 / (1 + this x n)
    "agent_loss": 1.0,  # an agent's penalties for arresting a double agent or a civilian: times
    "agent_face": 1.0,  # an agent's face card on a likely spy master: times its gain
}

#: What a card received says about its giver: (the card, the receiver's role) -> a relative
#: likelihood for each role the giver may hold.
Evidence = Callable[[Card, Role], Mapping[Role, float]]
_SILENT = dict.fromkeys(ROLES, 1.0)


def written(card: Card, receiver: Role) -> Mapping[Role, float]:
    """The bot's own model of the evidence: :data:`LIKELIHOOD` by the kind of card (cards of no
    kind say nothing)."""
    found = kind(card)
    return _SILENT if found is None else LIKELIHOOD[found]


def beliefs(
    state: EspionageState, seat: int, evidence: Evidence = written, counted: bool = False
) -> list[dict[Role, float]]:
    """For every player, the chance of each role as this seat sees it: a prior (the deck's role
    cards but the seat's own, or with ``counted`` the role cards among the cards the seat has
    not seen) times the ``evidence`` of each card that player has played on this seat."""
    own = role_of(state.role_cards[seat])
    if counted:
        pool = _unseen_roles(state, seat)
        prior = {r: float(pool[r]) for r in ROLES}
    else:
        prior = {r: PRIOR[r] - (1 if r is own else 0) for r in ROLES}
    result = []
    for other in range(state.players):
        if other == seat:
            result.append({r: float(r is own) for r in ROLES})
            continue
        weights = dict(prior)
        for play in state.plays:
            if play.giver == other and play.receiver == seat:
                says = evidence(play.card, own)
                for role in ROLES:
                    weights[role] *= says[role]
        total = sum(weights.values())
        result.append({r: w / total for r, w in weights.items()})
    return result


def _unseen_roles(state: EspionageState, seat: int) -> Counter[Role]:
    """The roles the cards this seat has not seen this city would deal: every deck's role cards
    (:data:`PRIOR` each) but those of the cards it has seen (each card is seen once)."""
    decks = decks_for(state.players)
    pool = Counter({role: count * decks for role, count in PRIOR.items()})
    seen = [state.role_cards[seat], *state.hands[seat]]
    seen += [p.card for p in state.plays if state.visible(p, seat)]
    pool.subtract(role_of(card) for card in seen)
    return pool


def likelihood(state: EspionageState, seat: int) -> float:
    """How likely the cards ``seat`` received this city are, under the model of play above,
    if the other players hold the roles dealt in ``state`` (up to a constant: for weighing the
    determinizations of a search against each other, as the evidence of the plays suggests)."""
    own = role_of(state.role_cards[seat])
    weight = 1.0
    for play in state.plays:
        if play.receiver == seat and play.giver != seat:
            weight *= written(play.card, own)[role_of(state.role_cards[play.giver])]
    return weight


def kind(card: Card) -> str | None:
    """A played card's meaning: "secret", "police", "rejection" or None (no meaning)."""
    if SECRET[card]:
        return "secret"
    if POLICE[card]:
        return "police"
    if REJECTION[card]:
        return "rejection"
    return None


def choose(state: EspionageState, rng: Rng) -> Action:
    """The bot's move: :func:`decide` with its own weights and evidence."""
    return decide(state, rng)


def decide(
    state: EspionageState,
    rng: Rng,
    weights: Mapping[str, float] = WEIGHTS,
    evidence: Evidence = written,
    counted: bool = False,
) -> Action:
    """The move the valuation of the seat's role rates highest, with these ``weights`` (see
    :data:`WEIGHTS`), beliefs from this ``evidence`` and prior (see :func:`beliefs`)."""
    moves = state.legal_actions()
    seat = state.current_player
    assert seat is not None  # a bot is asked only while the game goes on
    role = role_of(state.role_cards[seat])
    belief = beliefs(state, seat, evidence, counted)
    unit = state.unit
    value = VALUERS[role]
    return max(
        moves,
        key=lambda m: value(m, belief[m.target], unit, state, weights) + rng.random() * 1e-3,
    )


Valuer = Callable[[Action, dict[Role, float], int, EspionageState, Mapping[str, float]], float]


def _spy(
    move: Action, b: dict[Role, float], unit: int, state: EspionageState, w: Mapping[str, float]
) -> float:
    card = move.cards[0]
    if SECRET[card]:
        return SECRET[card] * (
            w["spy_master_share"] * b[Role.SPY_MASTER]
            + b[Role.SPY]
            - w["spy_to_agent"] * b[Role.COUNTER_ESPIONAGE]
        )
    if REJECTION[card]:
        return unit / 20 * (b[Role.COUNTER_ESPIONAGE] + b[Role.DOUBLE_AGENT]) * w["spy_rejection"]
    return 0.0


def _spy_master(
    move: Action, b: dict[Role, float], unit: int, state: EspionageState, w: Mapping[str, float]
) -> float:
    card = move.cards[0]
    if POLICE[card]:
        return w["expected_secret"] * b[Role.SPY] * w["master_police"]
    if REJECTION[card]:
        return (
            unit / 10 * b[Role.DOUBLE_AGENT] * w["master_rejects_double"]
            - unit / 20 * (b[Role.SPY] + b[Role.SPY_MASTER]) * w["master_rejection_cost"]
        )
    return 0.0


def _agent(
    move: Action, b: dict[Role, float], unit: int, state: EspionageState, w: Mapping[str, float]
) -> float:
    card = move.cards[0]
    if not POLICE[card]:
        return 0.0
    seat = state.current_player
    already = sum(
        1 for p in state.plays if p.giver == seat and p.receiver == move.target and POLICE[p.card]
    )
    face = card.rank > 10  # a 10 cannot arrest a spy master
    expected = w["expected_secret"]
    gain = b[Role.SPY] * (unit / 10 + expected)
    if face:
        gain += b[Role.SPY_MASTER] * (unit / 5 + expected) * w["agent_face"]
    loss = (b[Role.DOUBLE_AGENT] * unit / 5 + b[Role.CIVILIAN] * unit / 10) * w["agent_loss"]
    return (gain - loss) / (1 + w["agent_repeat"] * already)


def _double_agent(
    move: Action, b: dict[Role, float], unit: int, state: EspionageState, w: Mapping[str, float]
) -> float:
    value = SECRET[move.cards[0]]
    if not value:
        return 0.0
    if value % 2 == 0:
        return value * (5 * b[Role.SPY_MASTER] + 2 * b[Role.SPY])
    return -value * (6 * b[Role.SPY_MASTER] + 3 * b[Role.SPY])


def _civilian(
    move: Action, b: dict[Role, float], unit: int, state: EspionageState, w: Mapping[str, float]
) -> float:
    value = SECRET[move.cards[0]]
    return -value * (b[Role.SPY] + 2 * b[Role.SPY_MASTER])


VALUERS: dict[Role, Valuer] = {
    Role.SPY: _spy,
    Role.SPY_MASTER: _spy_master,
    Role.COUNTER_ESPIONAGE: _agent,
    Role.DOUBLE_AGENT: _double_agent,
    Role.CIVILIAN: _civilian,
}
