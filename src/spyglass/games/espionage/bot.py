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
"""

from __future__ import annotations

from spyglass.engine import Action, Rng

from .meanings import POLICE, REJECTION, SECRET, Role, role_of
from .rules import EspionageState

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
EXPECTED_SECRET = 8  # a typical secret's value, for plays whose payoff is a future secret


def beliefs(state: EspionageState, seat: int) -> list[dict[Role, float]]:
    """For every player, the chance of each role as this seat sees it."""
    own = role_of(state.role_cards[seat])
    result = []
    for other in range(state.players):
        if other == seat:
            result.append({r: float(r is own) for r in ROLES})
            continue
        weights: dict[Role, float] = {r: PRIOR[r] - (1 if r is own else 0) for r in ROLES}
        for play in state.plays:
            if play.giver == other and play.receiver == seat:
                kind = _kind(play.card)
                if kind is not None:
                    for role in ROLES:
                        weights[role] *= LIKELIHOOD[kind][role]
        total = sum(weights.values())
        result.append({r: w / total for r, w in weights.items()})
    return result


def likelihood(state: EspionageState, seat: int) -> float:
    """How likely the cards ``seat`` received this city are, under the model of play above,
    if the other players hold the roles dealt in ``state`` (up to a constant: for weighing the
    determinizations of a search against each other, as the evidence of the plays suggests)."""
    weight = 1.0
    for play in state.plays:
        if play.receiver == seat and play.giver != seat:
            kind = _kind(play.card)
            if kind is not None:
                weight *= LIKELIHOOD[kind][role_of(state.role_cards[play.giver])]
    return weight


def _kind(card: int) -> str | None:
    if SECRET[card]:
        return "secret"
    if POLICE[card]:
        return "police"
    if REJECTION[card]:
        return "rejection"
    return None


def choose(state: EspionageState, rng: Rng) -> Action:
    moves = state.legal_actions()
    seat = state.current_player
    assert seat is not None  # a bot is asked only while the game goes on
    role = role_of(state.role_cards[seat])
    belief = beliefs(state, seat)
    unit = state.unit
    value = VALUERS[role]
    return max(moves, key=lambda m: value(m, belief[m.target], unit, state) + rng.random() * 1e-3)


def _spy(move: Action, b: dict[Role, float], unit: int, state: EspionageState) -> float:
    card = move.cards[0]
    if SECRET[card]:
        return SECRET[card] * (3 * b[Role.SPY_MASTER] + b[Role.SPY])
    if REJECTION[card]:
        return unit / 20 * (b[Role.COUNTER_ESPIONAGE] + b[Role.DOUBLE_AGENT]) * 0.5
    return 0.0


def _spy_master(move: Action, b: dict[Role, float], unit: int, state: EspionageState) -> float:
    card = move.cards[0]
    if POLICE[card]:
        return EXPECTED_SECRET * b[Role.SPY]
    if REJECTION[card]:
        return unit / 10 * b[Role.DOUBLE_AGENT] - unit / 20 * (b[Role.SPY] + b[Role.SPY_MASTER])
    return 0.0


def _agent(move: Action, b: dict[Role, float], unit: int, state: EspionageState) -> float:
    card = move.cards[0]
    if not POLICE[card]:
        return 0.0
    seat = state.current_player
    already = sum(
        1 for p in state.plays if p.giver == seat and p.receiver == move.target and POLICE[p.card]
    )
    face = card.rank > 10  # a 10 cannot arrest a spy master
    gain = b[Role.SPY] * (unit / 10 + EXPECTED_SECRET)
    if face:
        gain += b[Role.SPY_MASTER] * (unit / 5 + EXPECTED_SECRET)
    loss = b[Role.DOUBLE_AGENT] * unit / 5 + b[Role.CIVILIAN] * unit / 10
    return (gain - loss) / (1 + 2 * already)


def _double_agent(move: Action, b: dict[Role, float], unit: int, state: EspionageState) -> float:
    value = SECRET[move.cards[0]]
    if not value:
        return 0.0
    if value % 2 == 0:
        return value * (5 * b[Role.SPY_MASTER] + 2 * b[Role.SPY])
    return -value * (6 * b[Role.SPY_MASTER] + 3 * b[Role.SPY])


def _civilian(move: Action, b: dict[Role, float], unit: int, state: EspionageState) -> float:
    value = SECRET[move.cards[0]]
    return -value * (b[Role.SPY] + 2 * b[Role.SPY_MASTER])


VALUERS = {
    Role.SPY: _spy,
    Role.SPY_MASTER: _spy_master,
    Role.COUNTER_ESPIONAGE: _agent,
    Role.DOUBLE_AGENT: _double_agent,
    Role.CIVILIAN: _civilian,
}
