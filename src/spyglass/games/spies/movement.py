"""Spy movement (rules 3.6 and 3.61).

Each city or sea zone a spy enters is one space and costs one Action Point; a spy moves at most
five spaces a turn, and a player finishes one spy's movement before starting another's. By rail
or air a spy steps to a joined city. By sea it puts to sea from a port to the ship symbol of the
port's zone (and rolls the average die: the most spaces the voyage may take, counting the
put-to-sea space and the landing), sails from ship symbol to adjoining ship symbol, and lands at
a port of the zone it is in. It may roll again at the ship symbol where it put to sea, for one
more Action Point and one more space of its five; the new roll replaces the old one. A spy never
ends its movement at sea: a move that would leave it no way to land is not offered.

Moves: ``Ge3 Vienna`` (rail or air), ``Ge3 embark Baltic``, ``Ge3 sail North-Sea``,
``Ge3 land Hamburg``, ``Ge3 reroll``, and ``end`` to end the turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from spyglass.components.dice import AVERAGE_DIE
from spyglass.engine import Action

from . import control, police
from .geography import AIR, RAIL
from .notation import action
from .pieces import ACTIVE
from .steps import DONE

if TYPE_CHECKING:
    from .rules import SpiesState

SPACES = 5  # per spy per turn (rule 3.6)
LAND = frozenset((RAIL, AIR))
END = action("end", None)


@dataclass(frozen=True, slots=True)
class Voyage:
    """A spy at sea: the rolled limit, the spaces of the voyage so far (the put-to-sea space
    included, a wasted re-roll not), and whether it may still roll again."""

    limit: int
    used: int
    may_reroll: bool


def spaces_left(state: SpiesState, label: str) -> int:
    """What ``label`` may still move this turn: its five spaces less those used, and no more
    than the Action Points left."""
    used = state.turn.spaces if label == state.turn.moving else 0
    return min(SPACES - used, state.turn.action_points)


def movable(state: SpiesState) -> list[str]:
    """The spies of the power to move that may still move: the one moving now (the only one
    while it is at sea) and those that have not moved this turn."""
    if state.turn.voyage is not None:
        return [state.turn.moving]  # type: ignore[list-item]
    return [
        s.label
        for s in state.board.spies.values()
        if s.power == state.power and s.status == ACTIVE and s.label not in state.turn.moved
    ]


def move_actions(state: SpiesState) -> list[Action]:
    graph = state.edition.map.graph
    zones = state.edition.map.zones
    actions = []
    for label in movable(state):
        left = spaces_left(state, label)
        if left < 1:
            continue
        place = state.board.spies[label].place
        voyage = state.turn.voyage if label == state.turn.moving else None
        if voyage is None:
            for city in graph.neighbours(place, LAND):
                actions.append(action("move", (label, city)))
            if left >= 2:  # one space to put to sea and one to land
                for sea in state.edition.map.cities[place].sea:
                    actions.append(action("embark", (label, sea)))
            continue
        zone = zones[place]
        if voyage.used + 1 <= voyage.limit:
            for port in zone.ports:
                actions.append(action("land", (label, port)))
        if left >= 2 and voyage.used + 2 <= voyage.limit:
            for other in zone.adjacent:
                actions.append(action("sail", (label, other)))
        if voyage.may_reroll and left >= 2:
            actions.append(action("reroll", label))
    if state.turn.voyage is None:
        actions.append(END)
    return actions


def apply_move(state: SpiesState, action: Action) -> str | None:
    """A move of a spy; ``end`` ends the turn (returns DONE)."""
    if action.kind == "end":
        state.turn.finish_moving()
        return DONE
    label = action.target if action.kind == "reroll" else action.target[0]
    if label != state.turn.moving:
        state.turn.finish_moving()
        state.turn.moving = label
        state.turn.spaces = 0
    state.turn.spaces += 1
    state.turn.action_points -= 1
    spy = state.board.spies[label]
    power = spy.power
    if action.kind == "reroll":
        voyage = state.turn.voyage
        assert voyage is not None
        roll = AVERAGE_DIE.roll(state.rng)
        state.turn.voyage = Voyage(roll, voyage.used, True)
        state.say(f"{power} rolls again for {label} (one more Action Point): {roll}")
        return None
    there = action.target[1]
    state.board.spies[label] = replace(spy, place=there)
    if action.kind == "move":
        kinds = state.edition.map.graph.routes(spy.place)[there]
        how = " or ".join(k for k in (RAIL, AIR) if k in kinds)
        state.say(f"{power} moves {label} by {how} from {spy.place} to {there}")
    elif action.kind == "embark":
        roll = AVERAGE_DIE.roll(state.rng)
        state.turn.voyage = Voyage(roll, 1, True)
        state.say(
            f"{label} puts to sea from {spy.place} into the {there}: "
            f"the voyage may last {roll} spaces"
        )
    elif action.kind == "sail":
        voyage = state.turn.voyage
        assert voyage is not None
        state.turn.voyage = Voyage(voyage.limit, voyage.used + 1, False)
        state.say(f"{label} sails from the {spy.place} to the {there}")
    else:  # land
        state.turn.voyage = None
        state.say(f"{label} lands at {there}")
    control.carry(state, label, there)
    if spaces_left(state, label) == 0 and state.turn.voyage is None:
        state.turn.finish_moving()
    if action.kind in ("move", "land"):
        police.arrivals(state, label)  # rule 4.1: the police there may search at once
    return None
