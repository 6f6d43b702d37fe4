"""Set-up (rules 2.4, 2.5, 2.8): each power in turn order places its Secrets, then its police,
then (after the Action Chits are drawn) its spies, one piece per decision.

A move names what is on the piece's face and the city: ``secret 3c2 Berlin`` (a Counterspy of
value 3 and strength 2), ``police 2 Hamburg``, ``spy 3 Paris``, ``cousin Vienna``. The piece gets
the next public label of its power.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.engine import Action

from .notation import action
from .pieces import PoliceUnit, Secret, Spy, spy_face
from .steps import PLACED, POLICE, SECRETS, SETUP_PHASES

if TYPE_CHECKING:
    from .rules import SpiesState

PHASES = SETUP_PHASES  # in order
POLICE_PER_CITY = 2  # rules 2.5 and 3.3
OVERSEAS_POLICE = 1


def deploy_actions(state: SpiesState) -> list[Action]:
    power = state.power
    if state.phase == SECRETS:
        faces = sorted({state.edition.secret(c).face for c in state.hand_secrets[power]})
        return [
            action("secret", (face, city)) for city in secret_cities(state, power) for face in faces
        ]
    if state.phase == POLICE:
        strengths = sorted(set(state.reserve_police[power]), reverse=True)
        return [
            action("police", (s, city)) for city in police_cities(state, power) for s in strengths
        ]
    kinds = sorted(set(state.reserve_spies[power]), key=lambda k: (k[1], -k[0]))
    return [
        action("spy", (strength, cousin, city))
        for city in spy_cities(state, power)
        for strength, cousin in kinds
    ]


def secret_cities(state: SpiesState, power: str) -> list[str]:
    """Home cities (overseas included) without a Secret yet: one per city (rule 2.4)."""
    taken = {s.place for s in state.board.secrets.values()}
    return [c for c in state.home_cities(power) if c not in taken]


def police_cities(state: SpiesState, power: str) -> list[str]:
    """Cities with the power's police symbol or its capital holding fewer than two units, and
    overseas home cities while no unit is overseas (rule 2.5)."""
    game_map = state.edition.map
    count: dict[str, int] = {}
    for unit in state.board.police.values():
        count[unit.city] = count.get(unit.city, 0) + 1
    overseas_used = any(
        state.is_overseas(u.city) for u in state.board.police.values() if u.power == power
    )
    cities = []
    for city in state.home_cities(power):
        info = game_map.cities[city]
        if state.is_overseas(city):
            if not overseas_used:
                cities.append(city)
        elif (info.police or info.capital) and count.get(city, 0) < POLICE_PER_CITY:
            cities.append(city)
    return cities


def spy_cities(state: SpiesState, power: str) -> list[str]:
    """Any city; foreign ones only while fewer than the printed number of the power's spies
    are abroad (rules 2.1 and 2.8: the extra spy, and at least one spy, stay at home)."""
    homes = set(state.home_cities(power))
    abroad = sum(1 for s in state.board.spies.values() if s.power == power and s.place not in homes)
    if abroad < state.edition.power(power).foreign_spies:
        return list(state.edition.map.cities)
    return [c for c in state.edition.map.cities if c in homes]


def apply_deploy(state: SpiesState, action: Action) -> str:
    power = state.power
    seats = state.informed_seats(power)
    if action.kind == "secret":
        face, city = action.target
        card = next(
            c for c in sorted(state.hand_secrets[power]) if state.edition.secret(c).face == face
        )
        state.hand_secrets[power].remove(card)
        label = state.next_label("X")
        state.board.secrets[label] = Secret(label, card, power, city, city)
        state.look(label)
        state.say(
            f"{power} places Secret {label} ({face}) in {city}",
            seats,
            f"{power} places Secret {label} face down in {city}",
        )
    elif action.kind == "police":
        strength, city = action.target
        state.reserve_police[power].remove(strength)
        label = state.next_label(f"{state.abbr(power)}P")
        state.board.police[label] = PoliceUnit(label, power, strength, city)
        state.say(
            f"{power} places police {label} (strength {strength}) in {city}",
            seats,
            f"{power} places police {label} face down in {city}",
        )
    else:
        strength, cousin, city = action.target
        state.reserve_spies[power].remove((strength, cousin))
        label = state.next_label(state.abbr(power))
        state.board.spies[label] = Spy(label, power, strength, cousin, city)
        face = spy_face(strength, cousin)
        what = f"the Cousin, strength {strength}" if cousin else f"strength {face}"
        state.say(
            f"{power} places spy {label} ({what}) in {city}",
            seats,
            f"{power} places spy {label} face down in {city}",
        )
    return PLACED


def draw_chits(state: SpiesState) -> None:
    """Each power draws its Action Chits from the top of the cup, after the police (2.6)."""
    hands = state.hands
    for p in state.edition.powers:
        drawn, hands.cup[: p.chits] = hands.cup[: p.chits], []
        hands.chits[p.name] = sorted(drawn)
        state.say(
            f"{p.name} draws chits {', '.join(drawn)}",
            [state.controller(p.name)],
            f"{p.name} draws {p.chits} Action Chits",
        )
    hands.cup.sort()  # a cup has no order: later draws are random


def why_not(state: SpiesState, action: Action) -> str:
    """The one set-up rule that forbids ``action`` (a move of the right kind for this step)."""
    power = state.power
    target = action.target if isinstance(action.target, tuple) else ()
    city = target[-1] if target else None
    cities = state.edition.map.cities
    if not isinstance(city, str) or city not in cities:
        return f"there is no city {city!r} on the map (type 'map' to list them)"
    homes = state.home_cities(power)
    if state.phase == SECRETS:
        faces = sorted({state.edition.secret(c).face for c in state.hand_secrets[power]})
        if target[0] not in faces:
            return (
                f"{power} holds no Secret {target[0]} to place: it holds {', '.join(faces)}"
                " (rule 2.4)"
            )
        if city not in homes:
            return f"{power}'s Secrets go in its own home cities, and {city} is not one (rule 2.4)"
        return f"{city} already holds a Secret: no more than one per city (rule 2.4)"
    if state.phase == POLICE:
        left = sorted(set(state.reserve_police[power]), reverse=True)
        if target[0] not in left:
            shown = ", ".join(map(str, left))
            return f"{power} has no police unit of strength {target[0]} left: {shown} (rule 2.5)"
        if city not in homes:
            return f"police are placed in {power}'s home cities, and {city} is not one (rule 2.5)"
        if state.is_overseas(city):
            return f"{power} already has its one police unit overseas (rule 2.5)"
        info = cities[city]
        if not (info.police or info.capital):
            return (
                f"{city} has no police symbol and is not the capital: police go to cities with"
                " the symbol or to the capital (rule 2.5)"
            )
        return f"{city} already holds two police units: no more than two per city (rule 2.5)"
    piece = (target[0], target[1]) if len(target) == 3 else None
    if piece not in state.reserve_spies[power]:
        spies_left = ", ".join(sorted(spy_face(s, c) for s, c in set(state.reserve_spies[power])))
        return f"{power} has no such spy left to place: {spies_left} (rule 2.8)"
    limit = state.edition.power(power).foreign_spies
    return (
        f"{power} already has {limit} spies in foreign territory, the most its printed number"
        f" allows: the rest start at home (rules 2.1 and 2.8)"
    )


def remaining(state: SpiesState, power: str) -> int:
    """Pieces ``power`` still has to place in the current set-up step."""
    if state.phase == SECRETS:
        return len(state.hand_secrets[power])
    if state.phase == POLICE:
        return len(state.reserve_police[power])
    return len(state.reserve_spies[power])
