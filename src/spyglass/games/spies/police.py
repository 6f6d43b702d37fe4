"""Police: re-arrangement (rule 3.3) and searches (3.4 on your turn, 4.1 for arriving spies).

**Re-arrangement** is free: the power moves its units among the home cities with its police
symbol and its capital (two units per city at most) and its overseas home cities (one unit
overseas at most). Each unit moves at most once, straight to where the player wants it; a move
may leave a city over its limit for a moment, provided units that have not moved yet are there
to leave it (so every arrangement the rule allows can be reached, and ``done`` is offered only
once the limits hold). ``GeP1 Hamburg`` moves a unit; ``done`` ends the re-arrangement.

**Searches on your turn** come next: ``search Fr2`` searches for the enemy spy Fr2 in a city with
your police. The first search in a city costs one Action Point, the others there nothing; each
enemy spy is searched for at most once a turn. ``done`` ends the searches.

**Arriving spies**: each time an enemy spy enters a city holding your police during its power's
turn, you decide at once (``search Ge1`` or ``pass``), at no cost; you are the seat to move.

Every search first lets the spy's owner answer with a chit (``reactions``); a spy under Cover is
not searched for at all. The comparison itself and the capture are in ``captures`` (the
reactions and control resolve them too), named here as well for the modules that read them
from here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from spyglass.engine import Action

from . import reactions
from .captures import CAPTURE_MONEY, capture, compare, units_in
from .notation import action
from .pieces import ACTIVE, Spy

if TYPE_CHECKING:
    from .rules import SpiesState

PER_CITY = 2  # rules 2.5 and 3.3
OVERSEAS = "overseas"  # all overseas home cities share one place for one unit
ARRIVAL = "arrival"
DONE = action("done", None)
PASS = action("pass", None)


# ------------------------------------------------------------------------- re-arrangement


_STATIONS: dict[tuple[str, tuple[str, ...]], dict[str, str]] = {}


def stations(state: SpiesState, power: str) -> dict[str, str]:
    """Where ``power``'s police may stand, each city with the group it counts in for the limits:
    itself if it has the power's police symbol or is its capital, OVERSEAS for an overseas home
    city (memoised: it changes only when a tile annexes a country)."""
    homes = state.home_cities(power)
    key = (power, homes)
    found = _STATIONS.get(key)
    if found is None:
        found = _STATIONS[key] = {}
        for city in homes:
            info = state.edition.map.cities[city]
            if state.is_overseas(city):
                found[city] = OVERSEAS
            elif info.police or info.capital:
                found[city] = city
    return found


def station(state: SpiesState, power: str, city: str) -> str | None:
    """The group ``city`` counts in for ``power``'s police limits; None where police may not go."""
    return stations(state, power).get(city)


def _limit(group: str | None) -> int:
    return 1 if group == OVERSEAS else PER_CITY if group is not None else 0


def _counts(state: SpiesState, power: str) -> tuple[Counter[str | None], Counter[str | None]]:
    """Units per group, and units per group that have not moved in this re-arrangement."""
    here: Counter[str | None] = Counter()
    unmoved: Counter[str | None] = Counter()
    for unit in state.board.police.values():
        if unit.power == power:
            group = station(state, power, unit.city)
            here[group] += 1
            if unit.label not in state.turn.relocated:
                unmoved[group] += 1
    return here, unmoved


def arranged(state: SpiesState, power: str) -> bool:
    here, _ = _counts(state, power)
    return all(n <= _limit(g) for g, n in here.items())


def rearrange_actions(state: SpiesState) -> list[Action]:
    power = state.power
    here, unmoved = _counts(state, power)
    places = stations(state, power)
    actions = []
    for unit in state.board.police.values():
        if unit.power != power or unit.label in state.turn.relocated:
            continue
        origin = places.get(unit.city)
        for city, group in places.items():
            if city == unit.city:
                continue
            # The unit leaves its group unmoved and arrives moved: both groups must still be
            # able to shed any excess through units that have not moved yet.
            if group == origin:
                if here[group] - _limit(group) > unmoved[group] - 1:
                    continue
            elif here[group] + 1 - _limit(group) > unmoved[group]:
                continue
            actions.append(action("relocate", (unit.label, city)))
    return actions


def apply_relocate(state: SpiesState, label: str, city: str) -> None:
    unit = state.board.police[label]
    state.board.police[label] = replace(unit, city=city)
    state.turn.relocated.add(label)
    state.say(f"{unit.power} moves police {label} from {unit.city} to {city}")
    held = state.held_by(label)
    if held is not None:
        state.set_holder(held, None)
        state.say(f"Secret {held} stays in {unit.city}, uncontrolled (rule 3.7)")


# ------------------------------------------------------------------------- searches


def enemies(state: SpiesState, power: str, spy: Spy) -> bool:
    """Whether ``power``'s police search for ``spy``: another power, played by another seat (a
    seat's two powers never search each other's spies: rule 7.0 lets nothing pass between them)."""
    return (
        spy.status == ACTIVE
        and spy.power != power
        and state.controller(spy.power) != state.controller(power)
    )


def searchable(state: SpiesState, power: str, spy: Spy) -> bool:
    """An enemy spy that is not under Cover (rule 4.2's Cover chit)."""
    return enemies(state, power, spy) and spy.label not in state.board.covered


def search_actions(state: SpiesState) -> list[Action]:
    """The enemy spies the power may still search for this turn (rule 3.4)."""
    power = state.power
    cities = {u.city for u in state.board.police.values() if u.power == power}
    actions = []
    for spy in state.board.spies.values():
        if (
            spy.place in cities
            and spy.label not in state.turn.searched
            and searchable(state, power, spy)
            and (
                spy.place in state.turn.paid
                or state.turn.free_searches
                or state.turn.action_points >= 1
            )
        ):
            actions.append(action("search", spy.label))
    return actions


def apply_search(state: SpiesState, label: str) -> None:
    spy = state.board.spies[label]
    state.turn.searched.add(label)
    if spy.place not in state.turn.paid and state.turn.free_searches:
        state.turn.paid.add(spy.place)
        state.say(f"{state.power} searches {spy.place} (free: the tile's effect)")
    elif spy.place not in state.turn.paid:
        state.turn.paid.add(spy.place)
        state.turn.action_points -= 1
        state.say(f"{state.power} searches {spy.place} (one Action Point)")
    search(state, state.power, label)


def search(state: SpiesState, power: str, label: str) -> None:
    """``power``'s police search for ``label``: its owner may first answer with a chit."""
    owner = state.board.spies[label].power
    reactions.start(
        state, reactions.Contest(reactions.SEARCH, power, owner, label, reactions.AVOID)
    )


def arrivals(state: SpiesState, label: str) -> None:
    """A spy has entered a city: every power with police there may search for it (rule 4.1)."""
    spy = state.board.spies[label]
    for power in sorted({u.power for u in state.board.police.values() if u.city == spy.place}):
        if searchable(state, power, spy):
            state.pending.append((ARRIVAL, power, label))


def arrival_actions(state: SpiesState, label: str) -> list[Action]:
    return [action("search", label), PASS]


def apply_arrival(state: SpiesState, power: str, action: Action) -> None:
    _, _, label = state.pending.pop(0)
    assert label is not None  # an arrival names its spy
    spy = state.board.spies[label]
    if action.kind == "pass":
        state.say(f"{power} lets {label} pass through {spy.place}")
    elif spy.status == ACTIVE and spy.label not in state.board.covered:
        search(state, power, label)


__all__ = [
    "ARRIVAL",
    "CAPTURE_MONEY",
    "DONE",
    "PASS",
    "capture",
    "compare",
    "units_in",
]
