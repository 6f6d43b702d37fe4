"""Action Chits played on your own turn, during spy movement (rules 3.8, 5.1, 5.2).

Each costs its £ and Action Points (``chits.cost``) and goes back to the cup, face up:

- ``Discovery Ge1 X3``: spy Ge1 takes Secret X3 in its city: at once if nobody holds it, only
  by being stronger if an enemy piece does; a Counterspy is compared as rule 3.5 says. Needed
  for every Secret that is not your own original lying uncontrolled in your home territory.
- ``Drop X3 Ge2``: the Secret a spy of yours holds goes at once to another of your spies
  anywhere, or to a police unit in your capital (others with pieces there may Intercept).
- ``Sanction Ge1 Fr2``: Ge1 kills the enemy spy Fr2 in its city if at least as strong.
- ``Escape Ge3``: your captured spy Ge3 returns to your capital, off the captor's record.
- ``Cover Ge1``: until your next turn Ge1 cannot be searched for, Sanctioned, or robbed of its
  Secret by a Discovery.
- ``Recruit Ge3``: your Sanctioned spy Ge3 (never the Cousin) returns in your capital.

Papers, Intercept and Double Cross are only answers (``reactions``). No Discovery, Drop or
Sanction is played in a spy haven (5.1); a chit is never played while the moving spy is at sea.
Everything the others may answer runs as a contest in ``reactions``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spyglass.engine import Action

from . import chits, police
from .notation import action
from .pieces import ACTIVE, CAPTURED, IN_PLAY, SANCTIONED, Secret
from .reactions import (
    COVER,
    CROSS,
    DISCOVERY,
    DROP,
    ESCAPE,
    INTERCEPT,
    SANCTION,
    Contest,
    describe_answer,
    involved,
    start,
)

if TYPE_CHECKING:
    from .rules import SpiesState

PLAYED = ("Discovery", "Drop", "Sanction", "Escape", "Cover", "Recruit")


def chit_actions(state: SpiesState) -> list[Action]:
    """The chits the power to play may play now (in its movement, nobody at sea)."""
    if state.turn.voyage is not None:
        return []
    power = state.power
    kinds = chits.usable(state, power, PLAYED)
    if not kinds:
        return []
    mine = [s for s in state.board.spies.values() if s.power == power]
    active = [s for s in mine if s.status == ACTIVE]
    havens = {s.label for s in active if state.edition.map.cities[s.place].haven}
    busy: set[str | None] = {s.holder for s in state.board.secrets.values() if s.holder is not None}
    actions = []
    if "Discovery" in kinds:
        for spy in active:
            if spy.label in havens or spy.label in busy:
                continue
            for secret in state.board.secrets.values():
                if secret.place == spy.place and discoverable(state, secret, power):
                    actions.append(action("chit", ("Discovery", spy.label, secret.label)))
    if "Drop" in kinds:
        for secret in state.board.secrets.values():
            holder = secret.holder
            if holder is None or holder not in state.board.spies or holder in havens:
                continue
            if state.board.spies[holder].power != power or not droppable(secret, power):
                continue
            for piece in receivers(state, power, secret, busy):
                actions.append(action("chit", ("Drop", secret.label, piece)))
    if "Sanction" in kinds:
        for spy in active:
            if spy.label in havens:
                continue
            for victim in state.board.spies.values():
                if (
                    victim.place == spy.place
                    and victim.label not in state.board.covered
                    and police.enemies(state, power, victim)
                ):
                    actions.append(action("chit", ("Sanction", spy.label, victim.label)))
    for kind, status in (("Escape", CAPTURED), ("Recruit", SANCTIONED), ("Cover", ACTIVE)):
        if kind in kinds:
            for spy in mine:
                if spy.status != status or (kind == "Cover" and spy.label in state.board.covered):
                    continue
                if kind == "Recruit" and spy.cousin:
                    continue
                actions.append(action("chit", (kind, spy.label)))
    return actions


def discoverable(state: SpiesState, secret: Secret, power: str) -> bool:
    """Whether a spy of ``power`` in the Secret's city may play Discovery on it: a Secret in
    play that the power could not simply take (rule 3.7), not held by one of its own pieces or
    its partner power's (rule 7.0), nor by a spy under Cover, and never the partner power's
    original (7.0 forbids it in that power's home territory; we forbid it anywhere, so that
    a seat cannot spring its own Counterspies on itself for the reward)."""
    if secret.status != IN_PLAY:
        return False
    seat = state.controller(power)
    if secret.holder is not None:
        owner = state.piece_power(secret.holder)
        return state.controller(owner) != seat and secret.holder not in state.board.covered
    if secret.origin == power:
        return state.territory(secret.place) != power
    return secret.origin is None or state.controller(secret.origin) != seat


def droppable(secret: Secret, power: str) -> bool:
    """A settled original of the power's own never moves (rule 3.7)."""
    return secret.origin != power or secret.loose


def receivers(state: SpiesState, power: str, secret: Secret, busy: set[str | None]) -> list[str]:
    """The pieces a Drop may deliver to: the power's other active spies and its police units in
    its capital, that control no Secret (a loose original of its own goes to police only in the
    city it started in)."""
    capital = state.edition.map.capital(power)
    found = [s.label for s in state.board.spies.values()
             if s.power == power and s.status == ACTIVE and s.label != secret.holder]  # fmt: skip
    if secret.origin != power or secret.home == capital:
        found += police.units_in(state, power, capital)
    return [p for p in found if p not in busy]


def apply_chit(state: SpiesState, target: tuple[str, ...]) -> None:
    power = state.power
    kind = target[0]
    if kind == "Discovery":
        spy, label = target[1], target[2]
        secret = state.board.secrets[label]
        chits.pay(state, power, kind, f"{spy} tries to take Secret {label} in {secret.place}")
        other = state.piece_power(secret.holder) if secret.holder else secret.origin
        start(state, Contest(DISCOVERY, power, involved(state, other, power), spy, COVER,
                             secret=label))  # fmt: skip
    elif kind == "Drop":
        label, piece = target[1], target[2]
        secret = state.board.secrets[label]
        holder = secret.holder
        assert holder is not None
        chits.pay(state, power, kind, f"{holder} drops Secret {label} for {piece}")
        start(state, Contest(DROP, power, None, holder, INTERCEPT, target=piece, secret=label,
                             asking=_interceptors(state, power)))  # fmt: skip
    elif kind == "Sanction":
        spy, victim = target[1], target[2]
        chits.pay(
            state, power, kind, f"{spy} tries to kill {victim} in {state.board.spies[spy].place}"
        )
        other = involved(state, state.board.spies[victim].power, power)
        start(state, Contest(SANCTION, power, other, spy, COVER, target=victim))
    elif kind == "Escape":
        escaper = state.board.spies[target[1]]
        chits.pay(state, power, kind, f"{escaper.label} tries to escape")
        other = involved(state, escaper.captor, power)
        start(state, Contest(ESCAPE, power, other, escaper.label, CROSS))
    elif kind == "Cover":
        chits.pay(state, power, kind, f"{target[1]} takes cover until {power}'s next turn")
        state.board.covered[target[1]] = power
    else:  # Recruit
        recruit = state.board.spies[target[1]]
        capital = state.edition.map.capital(power)
        chits.pay(state, power, kind, f"{recruit.label} is recruited again in {capital}")
        state.board.spies[recruit.label] = replace(recruit, status=ACTIVE, place=capital, year=None)


def _interceptors(state: SpiesState, power: str) -> tuple[str, ...]:
    """The other powers, in turn order after ``power``, played by other seats."""
    order = list(state.edition.powers)
    names = [p.name for p in order]
    i = names.index(power)
    after = names[i + 1 :] + names[:i]
    return tuple(p for p in after if involved(state, p, power))


def why_not(state: SpiesState, target: tuple[str, ...]) -> str:
    kind = target[0] if target else ""
    if state.turn.voyage is not None:
        return f"{state.turn.moving} is at sea: nothing else happens until it lands (rule 3.61)"
    if kind not in PLAYED:
        return f"{kind} is played only in answer to another power's action (rule 4.2)"
    if kind not in state.hands.chits[state.power]:
        return f"{state.power} holds no {kind} chit"
    if not chits.affordable(state, state.power, kind):
        money, points = chits.cost(state, state.power, kind)
        return f"{kind} costs £{money} and {points} Action Points (rule 3.8)"
    return {
        "Discovery": "a spy of yours controlling nothing, outside a spy haven (5.1), on a Secret "
        "in its city that you cannot simply take and that no spy under Cover holds "
        "(rules 3.7, 7.0)",
        "Drop": "a Secret your spy holds outside a spy haven (5.1), to another of your spies or "
        "a police unit in your capital that controls nothing; a settled original never "
        "moves (3.7)",
        "Sanction": "your spy, outside a spy haven (5.1), on an enemy spy in its city that is "
        "not under Cover",
        "Escape": "only a captured spy of yours escapes",
        "Cover": "only an active spy of yours not already under Cover",
        "Recruit": "only a Sanctioned spy of yours, never the Cousin (5.2)",
    }[kind]


def describe(state: SpiesState, target: tuple[str, ...]) -> str:
    if state.contest is not None:
        return describe_answer(state, target)
    kind = target[0]
    money, points = chits.cost(state, state.power, kind)
    price = f"£{money} and {points} Action Point{'s' * (points > 1)}"
    what = {
        "Discovery": lambda: f"{target[1]} tries to take Secret {target[2]}",
        "Drop": lambda: (
            f"Secret {target[1]} goes at once to {target[2]} (others there may Intercept)"
        ),
        "Sanction": lambda: f"{target[1]} tries to kill {target[2]}",
        "Escape": lambda: f"{target[1]} escapes to your capital",
        "Cover": lambda: f"{target[1]} is under Cover until your next turn",
        "Recruit": lambda: f"{target[1]} returns in your capital",
    }[kind]()
    return f"Play {kind} ({price}): {what}."
