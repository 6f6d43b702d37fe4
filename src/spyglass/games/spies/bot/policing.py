"""The bot's police: re-arrangement, searches, and searching arriving spies (3.3, 3.4, 4.1)."""

from __future__ import annotations

from collections import Counter

from spyglass.engine import Action

from .. import police
from ..pieces import IN_PLAY
from .context import Context, pick
from .knowledge import Dist, greater, mean, total


def _capture_gain(ctx: Context, spy: str, force: Dist) -> float:
    strength = ctx.know.spy_strength(spy)
    held = ctx.held(spy)
    worth = mean(strength) * ctx.mult + 3 * ctx.pound_points + ctx.chit_points
    if held is not None:
        worth += ctx.secret_worth(held) * 0.5
    return greater(force, strength) * worth


def _station_values(ctx: Context) -> dict[str, tuple[list[str], float]]:
    """For each city the power's police may stand in: the enemy spies there that could be
    searched for, and the worth of the own Secrets there (more with enemy spies near)."""
    state = ctx.state
    places = police.stations(state, ctx.power)
    enemies = [s for s in state.board.spies.values() if police.searchable(state, ctx.power, s)]
    values: dict[str, tuple[list[str], float]] = {}
    for city in places:
        here = [s.label for s in enemies if s.place == city]
        guard = 0.0
        for secret in state.board.secrets.values():
            if secret.status == IN_PLAY and secret.place == city and secret.origin == ctx.power:
                _, _, value = ctx.know.outlook(secret.label, 0, True)
                near = sum(1 for s in enemies if ctx.dist[city].get(s.place, 99) <= 3)
                guard += value * ctx.mult * 0.3 * (1 + 0.5 * near)
        values[city] = (here, guard)
    return values


def _police_plan(ctx: Context) -> dict[str, str]:
    """Where each police unit should stand: units, strongest first, where they add most."""
    state = ctx.state
    places = police.stations(state, ctx.power)
    values = _station_values(ctx)
    units = sorted((u for u in state.board.police.values() if u.power == ctx.power),
                   key=lambda u: (u.label not in state.turn.relocated, -u.strength))  # fmt: skip
    plan: dict[str, str] = {}
    count: Counter[str] = Counter()
    force: dict[str, list[Dist]] = {}
    for unit in units:  # units already moved stay where they are
        if unit.label in state.turn.relocated:
            plan[unit.label] = unit.city
            count[places.get(unit.city, unit.city)] += 1
            force.setdefault(unit.city, []).append({unit.strength: 1.0})
    for unit in units:
        if unit.label in plan:
            continue
        best, best_gain = unit.city, -1.0
        for city, group in places.items():
            limit = 1 if group == police.OVERSEAS else police.PER_CITY
            if count[group] >= limit:
                continue
            spies, guard = values[city]
            before = force.get(city, [])
            after = [*before, {unit.strength: 1.0}]
            gain = sum(
                _capture_gain(ctx, s, total(after)) - _capture_gain(ctx, s, total(before))
                for s in spies
            )
            gain += guard * (1.0 if not before else 0.3)
            gain += 0.05 if city == unit.city else 0.0
            if gain > best_gain:
                best, best_gain = city, gain
        plan[unit.label] = best
        count[places.get(best, best)] += 1
        force.setdefault(best, []).append({unit.strength: 1.0})
    return plan


def rearrange(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    plan = _police_plan(ctx)
    moves = {a.target: a for a in actions if a.kind == "relocate"}
    for label, city in plan.items():
        if state.board.police[label].city != city and (label, city) in moves:
            return moves[label, city]
    done = [a for a in actions if a.kind == "done"]
    for act in actions:  # police take control of own Secrets in their cities
        if act.kind == "control":
            label, piece = act.target
            holder = state.board.secrets[label].holder
            if holder is None or (
                holder in state.board.police
                and state.board.police[holder].strength < state.board.police[piece].strength
            ):
                return act
    if done:
        return done[0]
    # Still over a limit (the plan's moves were not allowed): move a unit out of a crowded city
    # to an empty one.
    crowd = Counter(u.city for u in state.board.police.values() if u.power == ctx.power)
    relocations = [a for a in actions if a.kind == "relocate"]
    relocations.sort(
        key=lambda a: (-crowd[state.board.police[a.target[0]].city], crowd[a.target[1]])
    )
    return (relocations or actions)[0]


def search(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    best, best_value = None, 0.0
    for act in actions:
        if act.kind != "search":
            continue
        spy = state.board.spies[act.target]
        units = police.units_in(state, ctx.power, spy.place)
        chance = greater(ctx.know.force(units), ctx.know.spy_strength(spy.label))
        free = spy.place in state.turn.paid or state.turn.free_searches
        cost = 0 if free else ctx.ap_points
        value = _capture_gain(ctx, spy.label, ctx.know.force(units)) - cost
        if chance > 0 and value > best_value:
            best, best_value = act, value
    return best if best is not None else pick(actions, ("done", None))


def arrival(ctx: Context, actions: list[Action], label: str) -> Action:
    state = ctx.state
    spy = state.board.spies[label]
    units = police.units_in(state, ctx.power, spy.place)
    chance = greater(ctx.know.force(units), ctx.know.spy_strength(label))
    return pick(actions, ("search", label) if chance > 0 else ("pass", None))
