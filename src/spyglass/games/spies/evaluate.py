"""Each seat's chance of winning a Spies! position, for searches that stop playouts early.

The model projects every scoring power's final points and turns the seats' projections into
win chances with a softmax whose temperature shrinks as the game runs out:

- **points banked** (rule 6.0, by ``SpiesState.final_points``, options 8.1 included): cashed
  Secrets, captured spies, Sanctioned markers, own-colour tiles, and the originals still at home,
  counted at the *final* year's multiple, which is what they will score if they stay;
- **points on the way**: a foreign Secret a power's piece holds is worth its points (at the
  multiple of the year it was taken) and the £20 and chit of cashing it, times the chance of
  bringing it to the capital (a loose own original likewise, back to its starting city): nothing
  if it is out of reach in the turns left, CARRY less for every space of the way;
- **means**: money and Action Chits, worth a little while turns remain to use them.

A seat scores as rule 7.0 and option 8.2 say (its better power, its lower one, or the sum).
The temperature (points) is TEMPERATURE[0] + TEMPERATURE[1] x the share of the game left,
fitted on heuristic self-play (``benchmarks/spies_ismcts.py --calibrate``). A finished game
gives its real result. The state is only read.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from .bot.routes import distances
from .control import CASH_MONEY
from .geography import POWERS
from .pieces import IN_PLAY

if TYPE_CHECKING:
    from .rules import SpiesState

#: The softmax temperature in points: at the end of the game, and added at its start.
TEMPERATURE = (2.0, 20.0)
CARRY = 0.85  # the chance kept for every space a carried Secret still has to go
POLICE_CARRY = 0.5  # a police unit holding a Secret away from home waits for a spy
POUND_POINTS = 0.1  # points a £ is worth while turns remain (chits cost money)
CHIT_POINTS = 1.0  # points an Action Chit in hand is worth while turns remain
CASH_POINTS = CASH_MONEY * POUND_POINTS + CHIT_POINTS  # what cashing pays besides the points
SPACES_PER_TURN = 5  # a spy moves at most five spaces a turn (rule 3.6)


def evaluate(state: SpiesState) -> tuple[float, ...]:
    """Each seat's estimated chance of winning, like ``Result.rewards`` (they sum to 1)."""
    if state.is_over:
        result = state.result
        assert result is not None
        return result.rewards
    scores = seat_scores(state)
    temperature = TEMPERATURE[0] + TEMPERATURE[1] * share_left(state)
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def share_left(state: SpiesState) -> float:
    """The share of the game's power-turns still to come (1 at set-up, near 0 in the last
    turn)."""
    edition = state.edition
    first = min(edition.record)
    turns = (state.last_year - first + 1) * len(POWERS)
    done = (state.year - first) * len(POWERS) + state.power_index
    return max(0.0, min(1.0, 1.0 - done / turns))


#: How a seat's powers' points combine (option ``two_power_score``).
_COMBINE: dict[str, Callable[[list[float]], float]] = {
    "best": max,
    "lower": min,
    "combined": sum,
}


def seat_scores(state: SpiesState) -> list[float]:
    """Each seat's projected score: its powers' projected points combined as the options say."""
    points = projected_points(state)
    mode = state.options.get("two_power_score", "best")
    combine = _COMBINE[mode]
    mine: list[list[float]] = [[] for _ in range(state.players)]
    for power, value in points.items():
        mine[state.controller(power)].append(value)
    return [float(combine(values)) if values else 0.0 for values in mine]


def projected_points(state: SpiesState) -> dict[str, float]:
    """Each scoring power's points banked (rule 6.0, originals at the final multiple) and the
    expected worth of what it carries and holds."""
    points = {p: float(v) for p, v in _at_the_end(state).final_points().items()}
    edition = state.edition
    record = edition.record
    dist = distances(edition)
    left = share_left(state)
    order = {power: index for index, power in enumerate(POWERS)}
    for secret in state.board.secrets.values():
        holder = secret.holder
        if secret.status != IN_PLAY or holder is None:
            continue
        spy = state.board.spies.get(holder)
        power = spy.power if spy is not None else state.board.police[holder].power
        if power not in points:
            continue
        card = edition.secret(secret.card)
        if secret.origin == power:
            if not secret.loose or secret.place == secret.home:
                continue  # at home it is banked already
            target, year, bonus = secret.home, state.last_year, 0.0
        else:
            year = secret.taken if secret.taken is not None else state.year
            target, bonus = edition.map.capital(power), CASH_POINTS
        city = spy.place if spy is not None else state.board.police[holder].city
        way = dist[city].get(target, 99)
        turns = state.last_year - state.year + (order[power] >= state.power_index)
        if way > SPACES_PER_TURN * turns:
            continue  # it cannot get there before the game ends
        chance = CARRY**way * (POLICE_CARRY if spy is None and way else 1.0)
        multiple = record[min(year, max(record))]
        value = card.value * (multiple // 2 if card.counterspy else multiple)
        points[power] += chance * (value + bonus)
    for power in points:
        means = POUND_POINTS * state.bank.money[power] + CHIT_POINTS * len(state.hands.chits[power])
        points[power] += left * means
    return points


def _at_the_end(state: SpiesState) -> SpiesState:
    """A shallow view of ``state`` in its last year, so that rule 6.0's count values the
    originals at home at the final multiple (the view shares every container with the state
    and is only read)."""
    view = type(state).__new__(type(state))
    view.__dict__.update(state.__dict__)
    view.year = state.last_year
    return view
