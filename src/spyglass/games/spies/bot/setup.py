"""The bot's set-up: placing Secrets, police and spies (rules 2.4-2.8)."""

from __future__ import annotations

from collections import Counter

from spyglass.engine import Action

from .. import plays, police
from .context import Context, pick
from .routes import exposure


def place_secret(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    faces = {a.target[0] for a in actions}
    cards = {
        state.edition.secret(c).face: state.edition.secret(c) for c in state.hand_secrets[ctx.power]
    }
    plain = sorted((f for f in faces if not cards[f].counterspy), key=lambda f: -cards[f].value)
    expose = exposure(ctx.edition)

    def safe(city: str) -> float:
        info = ctx.map.cities[city]
        guarded = 20 if info.capital else 10 if info.police else 0
        return guarded + expose[city] - (5 if state.is_overseas(city) else 0)

    if plain:
        face = plain[0]
        cities = [a.target[1] for a in actions if a.target[0] == face]
        return pick(actions, ("secret", (face, max(cities, key=safe))))
    face = max(faces, key=lambda f: (cards[f].counterspy, cards[f].value))
    cities = [a.target[1] for a in actions if a.target[0] == face]
    return pick(actions, ("secret", (face, min(cities, key=safe))))


def place_police(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    strength = max(a.target[0] for a in actions)
    there = Counter(u.city for u in state.board.police.values())
    values: dict[str, float] = {}
    for secret in state.board.secrets.values():
        if secret.origin == ctx.power:
            _, _, value = ctx.know.outlook(secret.label, 0, True)
            card = ctx.know.card(secret.label)
            bait = card is not None and state.edition.secret(card).counterspy
            values[secret.place] = values.get(secret.place, 0.0) + (0.5 if bait else value)
    expose = exposure(ctx.edition)

    def score(city: str) -> float:
        base = values.get(city, 0.0) + (1.5 if ctx.map.cities[city].capital else 0.0)
        base += 1.0 / (1 + expose[city])
        return base * (1.0 if there[city] == 0 else 0.4)

    cities = [a.target[1] for a in actions if a.target[0] == strength]
    return pick(actions, ("police", (strength, max(cities, key=score))))


def place_spy(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    homes = set(state.home_cities(ctx.power))
    crowd = Counter(s.place for s in state.board.spies.values())
    mine = Counter(s.place for s in state.board.spies.values() if s.power == ctx.power)
    policed = {u.city for u in state.board.police.values()}
    home_dist = ctx.dist[ctx.capital]

    def city_value(city: str) -> float:
        if city in homes:
            return 3.0 if city == ctx.capital else 0.0
        value = 0.0
        for secret in state.board.secrets.values():
            if secret.place != city or not plays.discoverable(state, secret, ctx.power):
                continue
            owner = state.territory(city)
            if owner is None or police.station(state, owner, city) is None:
                value += 6.0  # neutral, or a city no police may ever enter
            elif city not in policed:
                value += 3.0
        if ctx.map.cities[city].haven:
            value = 0.0  # no Discovery in a haven
        return value - 0.5 * home_dist.get(city, 20) - 2.0 * crowd[city] - 5.0 * mine[city]

    def score(act: Action) -> float:
        strength, cousin, city = act.target
        value = city_value(city)
        quality = strength + (2.5 if cousin else 0.0)  # the Cousin fears no Counterspy
        return value + (quality if city not in homes else -quality)

    return max(actions, key=score)
