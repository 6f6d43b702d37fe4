"""A heuristic bot for Spies!: one policy that plays whichever powers the deciding seat controls.

It reads the state only through what the deciding seat may know: faces of pieces through
``sees_piece``, Secrets through ``sees_secret``, hands only of the powers the seat plays now.
Everything hidden is replaced by the spread of what it could be: a face-down spy or police unit
by the strengths of its power's pieces the seat has not seen, a face-down Secret by the Secret
cards the seat has not seen. So the bot chooses the same move on the true state and on any
determinization of the seat (the tests check it).

The policy, step by step:

- **set-up**: valuable Secrets go to the capital and the police cities, Counterspies to exposed
  cities without police (bait); police, strongest first, on the cities holding the most valuable
  Secrets; spies (the Cousin and the strongest first) abroad on undefended Secrets near home,
  the weakest at home in the capital.
- **tiles**: play or discard so as to play as many own-colour tiles as their years allow
  (earliest deadline first), counting each tile's awards to the bot's spies against those to
  enemy spies; random tiles are played only when their awards pay.
- **police**: units, strongest first, go where they add most: onto enemy spies (the chance of a
  capture times what it is worth) and onto own Secrets (more when enemy spies are near), then
  take control of the Secrets in their cities. Searches when the capture chance pays for the
  Action Point; arriving spies are always searched for when a capture is possible.
- **movement**: cash foreign Secrets in the capital; spies holding a Secret head for home
  (the capital, or its starting city for an own original) by the route least exposed to enemy
  police, dropping it to the capital with a Drop chit when home is out of reach this turn; free
  spies are matched to the Secrets they could take (expected points of the card, Counterspy
  risk, the holder's strength, the way home) while Discovery chits last, then to enemy spies
  they could Sanction while Sanction chits last, then to the award cities of the tiles likely
  to be played before they move again (the power's own next tile from its hand, the others'
  from the public list of their unplayed tiles); they take the Secret with Discovery on
  arrival. Sanction, Escape and Recruit when they pay; Cover for spies left exposed at the end
  of the turn.
- **answers**: Papers, Cover or Escape when a search, Sanction, Discovery or Counterspy is
  likely to cost more than the chit; Double Cross when a spy or a Secret is at stake;
  Intercept always; the spoils of a Sanction always taken. Over ten chits, the least useful is
  returned.
- **diplomacy**: an offer is valued item by item for both sides as the seat sees them: money
  at POUND_WORTH a £ (more when short, less when ample), a chit by its use (less for copies
  already held and in the last turns), a foreign Secret by its points at the multiple of the year
  it was taken and the cash of cashing it, times the chance of carrying it to the capital in the
  turns left (fewer for every space, and under enemy police); an own original by its points
  back home. The bot accepts when its own gain, less the other side's gain weighted by how
  dangerous that rival is (fully in a two-seat game or against a seat ahead, a tenth against one
  far behind), clears TRADE_MARGIN. Between spies' movements it approaches (one Action Point,
  each power at most once a turn), and again when its turn has nothing left to do but end
  (then the points left are free), with the offer its model of the other bot would accept that
  nets it most: a foreign Secret it cannot bring home sold to a piece of another power in the
  same city that can (or bought the other way), or a chit it needs (Discovery with a free spy,
  Escape or Recruit with a spy to bring back) bought for money, weighed by the chance, from the
  size of the other's hand, that it holds one.
- **unknown decisions** (moves the bot was not written for): refuse or pass when it may, else a
  legal move it knows, else a random legal move.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache
from math import comb
from typing import TYPE_CHECKING

from spyglass.engine import Action, Rng

from . import chits, control, diplomacy, plays, police, reactions
from .events import fits
from .money import LADDER
from .movement import spaces_left
from .pieces import ACTIVE, CAPTURED, CASHED, IN_PLAY, SANCTIONED
from .steps import POLICE, SECRETS, SPIES

if TYPE_CHECKING:
    from .edition import Edition, Tile
    from .rules import SpiesState

Dist = dict[int, float]  # strength -> probability

SEA_COST = 1.25  # a sea space counts a little more: the die may cut the voyage short
CHIT_WORTH = 2.0  # points an Action Chit is worth to the bot, roughly
POUND_WORTH = 0.25  # points a £ is worth
SPY_WORTH = 5.0  # points an active spy is worth for the rest of the game, roughly
AP_WORTH = 0.6  # points an Action Point is worth
MONEY_RESERVE = 2  # £ kept back for a Discovery when other chits are considered
REFUSALS = ("refuse", "decline", "reject", "pass", "no", "done")
#: How much the bot wants to keep each chit (the least wanted is returned over ten).
KEEP = {
    "Discovery": 10.0,
    "Papers": 6.0,
    "Escape": 6.0,
    "Cover": 5.0,
    "Drop": 4.0,
    "Double-Cross": 4.0,
    "Sanction": 3.5,
    "Intercept": 2.5,
    "Recruit": 1.5,
}


# ----------------------------------------------------------------------------- the map


@cache
def distances(edition: Edition) -> dict[str, dict[str, int]]:
    """Spaces between every two places (cities and sea zones) by any route."""
    graph = edition.map.graph
    return {place: graph.distances(place) for place in graph.places}


@cache
def exposure(edition: Edition) -> dict[str, int]:
    """Each city's distance to the nearest place outside its own country's power's territory
    (a neutral or another power's city): how exposed it is to foreign spies."""
    game_map = edition.map
    dist = distances(edition)
    found = {}
    for city in game_map.cities:
        owner = game_map.home_power(city)
        found[city] = min(
            (d for other, d in dist[city].items()
             if other in game_map.cities and game_map.home_power(other) != owner),
            default=99,
        )  # fmt: skip
    return found


def route_costs(edition: Edition, target: str, weight: Callable[[str], float]) -> dict[str, float]:
    """The cost from every place to ``target``: the sum of ``weight`` over the places entered
    (a Dijkstra search outward from the target)."""
    graph = edition.map.graph
    cost = {target: 0.0}
    heap = [(0.0, target)]
    while heap:
        here_cost, here = heapq.heappop(heap)
        if here_cost > cost[here]:
            continue
        step = here_cost + weight(here)
        for there in graph.neighbours(here):
            if step < cost.get(there, float("inf")):
                cost[there] = step
                heapq.heappush(heap, (step, there))
    return cost


# ----------------------------------------------------------------------------- knowledge


def greater(a: Dist, b: Dist) -> float:
    """P(A > B) for independent A and B."""
    return sum(pa * pb for x, pa in a.items() for y, pb in b.items() if x > y)


def at_least(a: Dist, b: Dist) -> float:
    return sum(pa * pb for x, pa in a.items() for y, pb in b.items() if x >= y)


def mean(d: Dist) -> float:
    return sum(x * p for x, p in d.items())


def spread(values: Iterable[int]) -> Dist:
    counts = Counter(values)
    total = sum(counts.values())
    return {v: n / total for v, n in counts.items()} if total else {0: 1.0}


def total(parts: list[Dist]) -> Dist:
    """The distribution of a sum of independent parts."""
    result: Dist = {0: 1.0}
    for part in parts:
        nxt: Dist = {}
        for x, px in result.items():
            for y, py in part.items():
                nxt[x + y] = nxt.get(x + y, 0.0) + px * py
        result = nxt
    return result


class Knowledge:
    """What the seat ``seat`` knows of the table, and its best guesses at the rest."""

    def __init__(self, state: SpiesState, seat: int) -> None:
        self.state, self.seat = state, seat
        self._spy_pools: dict[str, tuple[Dist, float]] = {}
        self._police_pools: dict[str, Dist] = {}
        self._cards: list | None = None
        self._faces: dict[str, tuple[int, bool] | None] = {}
        self._units: dict[str, Dist] = {}
        self._outlooks: dict[tuple[str, int, bool], tuple[float, float, float]] = {}
        self._unseen: dict[tuple[bool, int, bool], tuple[float, float, float]] = {}

    def spy_face(self, label: str) -> tuple[int, bool] | None:
        if label not in self._faces:
            spy = self.state.board.spies[label]
            seen = self.state.sees_piece(self.seat, label, spy.power)
            self._faces[label] = (spy.strength, spy.cousin) if seen else None
        return self._faces[label]

    def _spy_pool(self, power: str) -> tuple[Dist, float]:
        """Strengths of ``power``'s spies this seat has not seen, and the chance that an
        unseen one is its Cousin."""
        if power not in self._spy_pools:
            info = self.state.edition.power(power)
            pool = Counter([(s, False) for s in info.spies] + [(info.cousin, True)])
            for spy in self.state.board.spies.values():
                if spy.power == power:
                    face = self.spy_face(spy.label)
                    if face is not None and pool[face] > 0:
                        pool[face] -= 1
            faces = list(pool.elements())
            cousin = sum(1 for _, c in faces if c) / len(faces) if faces else 0.0
            self._spy_pools[power] = (spread(s for s, _ in faces), cousin)
        return self._spy_pools[power]

    def spy_strength(self, label: str) -> Dist:
        face = self.spy_face(label)
        if face is not None:
            return {face[0]: 1.0}
        return self._spy_pool(self.state.board.spies[label].power)[0]

    def cousin_chance(self, label: str) -> float:
        face = self.spy_face(label)
        if face is not None:
            return float(face[1])
        return self._spy_pool(self.state.board.spies[label].power)[1]

    def unit_strength(self, label: str) -> Dist:
        if label not in self._units:
            self._units[label] = self._unit_strength(label)
        return self._units[label]

    def _unit_strength(self, label: str) -> Dist:
        unit = self.state.board.police[label]
        if self.state.sees_piece(self.seat, label, unit.power):
            return {unit.strength: 1.0}
        if unit.power not in self._police_pools:
            pool = Counter(self.state.edition.power(unit.power).police)
            for other in self.state.board.police.values():
                if other.power == unit.power and self.state.sees_piece(
                    self.seat, other.label, other.power
                ):
                    pool[other.strength] -= 1
            self._police_pools[unit.power] = spread(pool.elements())
        return self._police_pools[unit.power]

    def force(self, units: list[str]) -> Dist:
        return total([self.unit_strength(u) for u in units])

    def card(self, label: str) -> str | None:
        secret = self.state.board.secrets[label]
        return secret.card if self.state.sees_secret(self.seat, secret) else None

    def unseen_cards(self) -> list:
        """The Secret cards this seat has not seen anywhere."""
        if self._cards is None:
            state = self.state
            seen = Counter(self.card(label) for label in state.board.secrets)
            for power, hand in state.hand_secrets.items():
                if state.sees_hand(self.seat, power):
                    seen.update(hand)
            cards = []
            for card in state.edition.secrets:
                if seen[card.id] > 0:
                    seen[card.id] -= 1
                else:
                    cards.append(card)
            self._cards = cards
        return self._cards

    def outlook(self, label: str, strength: int, cousin: bool) -> tuple[float, float, float]:
        """For a spy of ``strength`` taking Secret ``label``: the expected value of the card if
        it is no Counterspy (0 for a Counterspy, which leaves play), the chance that it is one
        that captures the spy, and its expected value as it lies (for defence)."""
        key = (label, strength, cousin)
        if key not in self._outlooks:
            self._outlooks[key] = self._outlook(label, strength, cousin)
        return self._outlooks[key]

    def _outlook(self, label: str, strength: int, cousin: bool) -> tuple[float, float, float]:
        card = self.card(label)
        edition = self.state.edition
        if card is not None:
            info = edition.secret(card)
            trap = float(bool(info.counterspy) and info.counterspy > strength and not cousin)
            return (0.0 if info.counterspy else float(info.value)), trap, float(info.value)
        return self._unseen_outlook(label in self.state.board.plain, strength, cousin)

    def _unseen_outlook(
        self, plain: bool, strength: int, cousin: bool
    ) -> tuple[float, float, float]:
        key = (plain, 0 if plain else strength, cousin or plain)
        if key not in self._unseen:
            cards = self.unseen_cards()
            if plain:
                cards = [c for c in cards if not c.counterspy] or cards
            if not cards:
                return 2.0, 0.0, 2.0
            n = len(cards)
            gain = sum(c.value for c in cards if not c.counterspy) / n
            trap = 0.0 if cousin else sum(1 for c in cards if c.counterspy > strength) / n
            self._unseen[key] = (gain, trap, sum(c.value for c in cards) / n)
        return self._unseen[key]


# ----------------------------------------------------------------------------- context


class Context:
    """One decision: the state, the deciding seat and power, and what the seat knows."""

    def __init__(self, state: SpiesState, power: str) -> None:
        self.state = state
        self.power = power
        self.seat = state.controller(power)
        self.know = Knowledge(state, self.seat)
        self.edition = state.edition
        self.map = state.edition.map
        self.dist = distances(state.edition)
        self.year = min(state.year, max(state.edition.record))
        self.mult = state.edition.record[self.year]
        self.final = state.edition.record[min(state.last_year, max(state.edition.record))]
        self.capital = self.map.capital(power)
        self._danger: dict[tuple[str, int], float] = {}
        self._policed: dict[str, dict[str, list[str]]] = {}  # city -> enemy power -> units
        for unit in state.board.police.values():
            if self.enemy(unit.power):
                self._policed.setdefault(unit.city, {}).setdefault(unit.power, []).append(
                    unit.label
                )
        self._discoveries: dict[tuple[int, bool, str, int], float] = {}
        self._worth: dict[str, float] = {}
        self._rivals: dict[tuple[str, str], float] = {}
        self._chit_values: dict[tuple[str, str, int], float] = {}

    def enemy(self, power: str | None) -> bool:
        return power is not None and self.state.controller(power) != self.seat

    def turns_left(self) -> int:
        """This power's turns after the current year's."""
        return max(0, self.state.last_year - self.state.year)

    def hand(self) -> list[str]:
        return self.state.hands.chits[self.power]

    def can_pay(self, chit: str, reserve: int = 0) -> bool:
        return (
            chit in self.hand()
            and chits.affordable(self.state, self.power, chit)
            and (self.state.bank.money[self.power] - self.edition.chit(chit).money >= reserve)
        )

    def held(self, piece: str) -> str | None:
        return self.state.held_by(piece)

    def secret_worth(self, label: str) -> float:
        """What the Secret ``label`` is worth to this power if it keeps or cashes it."""
        secret = self.state.board.secrets[label]
        _, _, value = self.know.outlook(label, 0, True)
        if secret.origin == self.power:
            return value * self.final
        year = secret.taken if secret.taken is not None else self.year
        return value * self.edition.record[min(year, max(self.edition.record))]

    def spy_worth(self, label: str) -> float:
        if label not in self._worth:
            spy = self.state.board.spies[label]
            worth = spy.strength * self.mult + SPY_WORTH
            held = self.held(label)
            self._worth[label] = worth + (self.secret_worth(held) if held else 0.0)
        return self._worth[label]

    def danger(self, city: str, label: str) -> float:
        """Expected points lost if spy ``label`` stands in ``city`` when the enemy police there
        search it (0 at sea, under Cover, or with no enemy police there)."""
        groups = self._policed.get(city)
        if groups is None or label in self.state.board.covered:
            return 0.0
        spy = self.state.board.spies[label]
        key = (city, spy.strength)
        if key not in self._danger:
            mine = {spy.strength: 1.0}
            risk = sum(greater(self.know.force(units), mine) for units in groups.values())
            self._danger[key] = min(risk, 1.0)
        return self._danger[key] * self.spy_worth(label)

    def own_spies(self, status: str = ACTIVE) -> list:
        return [s for s in self.state.board.spies.values()
                if s.power == self.power and s.status == status]  # fmt: skip


# ----------------------------------------------------------------------------- set-up


def _place_secret(ctx: Context, actions: list[Action]) -> Action:
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
        return _pick(actions, ("secret", (face, max(cities, key=safe))))
    face = max(faces, key=lambda f: (cards[f].counterspy, cards[f].value))
    cities = [a.target[1] for a in actions if a.target[0] == face]
    return _pick(actions, ("secret", (face, min(cities, key=safe))))


def _place_police(ctx: Context, actions: list[Action]) -> Action:
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
    return _pick(actions, ("police", (strength, max(cities, key=score))))


def _place_spy(ctx: Context, actions: list[Action]) -> Action:
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


# ----------------------------------------------------------------------------- tiles


def _schedulable(tiles: list[Tile], years: range) -> int:
    """How many of ``tiles`` can still be played, one a year in ``years`` (earliest deadline
    first is optimal for unit jobs with windows)."""
    left = list(tiles)
    count = 0
    for year in years:
        fitting = [t for t in left if fits(t, year)]
        if fitting:
            first = min(fitting, key=lambda t: t.years[1] if t.years else 9999)
            left.remove(first)
            count += 1
    return count


def _awards(ctx: Context, tile: Tile) -> float:
    """The net worth of a tile's awards now: to the bot's powers, less half of the enemies'."""
    state = ctx.state
    worth = 0.0
    for award in tile.awards:
        unit = CHIT_WORTH if award.unit == "c" else POUND_WORTH
        for city in award.cities:
            for power in {s.power for s in state.board.spies.values()
                          if s.place == city and s.status == ACTIVE}:  # fmt: skip
                if state.territory(city) == power:
                    continue
                gain = award.amount * unit
                worth += gain if not ctx.enemy(power) else -0.5 * gain
    effect = tile.effect
    if effect is not None:
        if effect.kind == "draw_chits":
            worth += effect.count * CHIT_WORTH
        elif effect.kind in ("free_searches", "annex"):
            worth += 1.0
    return worth


def _tile(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    own = [state.edition.tile(t) for t in state.hands.tiles[ctx.power]
           if state.edition.tile(t).power == ctx.power]  # fmt: skip
    future = range(state.year + 1, state.last_year + 1)

    def score(act: Action) -> float:
        tile = state.edition.tile(act.target)
        rest = [t for t in own if t.id != tile.id]
        later = 2.0 * _schedulable(rest, future)
        if act.kind == "discard":
            return later
        mine = 2.0 if tile.power == ctx.power else 0.0
        return mine + _awards(ctx, tile) - AP_WORTH + later

    return max(actions, key=score)


# ----------------------------------------------------------------------------- police


def _capture_gain(ctx: Context, spy: str, force: Dist) -> float:
    strength = ctx.know.spy_strength(spy)
    held = ctx.held(spy)
    worth = mean(strength) * ctx.mult + 3 * POUND_WORTH + CHIT_WORTH
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


def _rearrange(ctx: Context, actions: list[Action]) -> Action:
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


def _search(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    best, best_value = None, 0.0
    for act in actions:
        if act.kind != "search":
            continue
        spy = state.board.spies[act.target]
        units = police.units_in(state, ctx.power, spy.place)
        chance = greater(ctx.know.force(units), ctx.know.spy_strength(spy.label))
        free = spy.place in state.turn.paid or state.turn.free_searches
        value = _capture_gain(ctx, spy.label, ctx.know.force(units)) - (0 if free else AP_WORTH)
        if chance > 0 and value > best_value:
            best, best_value = act, value
    return best if best is not None else _pick(actions, ("done", None))


def _arrival(ctx: Context, actions: list[Action], label: str) -> Action:
    state = ctx.state
    spy = state.board.spies[label]
    units = police.units_in(state, ctx.power, spy.place)
    chance = greater(ctx.know.force(units), ctx.know.spy_strength(label))
    return _pick(actions, ("search", label) if chance > 0 else ("pass", None))


# ----------------------------------------------------------------------------- movement


def _home_of(ctx: Context, spy: str) -> str | None:
    """Where a spy holding a Secret should take it: the capital for a foreign one, the starting
    city for a loose own original; None if it holds nothing to carry."""
    held = ctx.held(spy)
    if held is None:
        return None
    secret = ctx.state.board.secrets[held]
    if secret.origin == ctx.power:
        return secret.home if secret.loose else None
    return ctx.capital


def _discovery_value(ctx: Context, spy_label: str, secret_label: str, moves_left: int) -> float:
    """Expected points of a Discovery of ``secret_label`` by ``spy_label`` (before costs)."""
    spy = ctx.state.board.spies[spy_label]
    key = (spy.strength, spy.cousin, secret_label, moves_left)
    if key not in ctx._discoveries:
        ctx._discoveries[key] = _discovery(ctx, spy.strength, spy.cousin, secret_label, moves_left)
    return ctx._discoveries[key]


def _discovery(
    ctx: Context, strength: int, cousin: bool, secret_label: str, moves_left: int
) -> float:
    state = ctx.state
    secret = state.board.secrets[secret_label]
    gain, trap, value = ctx.know.outlook(secret_label, strength, cousin)
    win = 1.0
    if secret.holder is not None:
        holder = secret.holder
        face = (ctx.know.spy_strength(holder) if holder in state.board.spies
                else ctx.know.unit_strength(holder))  # fmt: skip
        win = greater({strength: 1.0}, face)
    if secret.origin == ctx.power:
        home = secret.home
        points = value * ctx.final
    else:
        home = ctx.capital
        year = secret.taken if secret.taken is not None else ctx.year
        points = gain * state.edition.record[min(year, max(state.edition.record))]
        if secret.origin is not None and ctx.enemy(secret.origin):
            points += 0.5 * value * ctx.final  # the owner loses it
    way = ctx.dist[secret.place].get(home, 99)
    if way > moves_left + 5 * ctx.turns_left():
        points = 0.0  # it could not be brought home in time
    else:
        points *= max(0.3, 1.0 - 0.04 * way)
    captor = state.territory(secret.place)
    lost = trap * (strength * ctx.mult * (captor is not None) + SPY_WORTH)
    return win * (points - lost)


def _likely_tiles(ctx: Context) -> list[tuple[Tile, float]]:
    """The own-colour tiles each power may play before this power's spies move again, each
    with its chance: this power's from its hand (the one it will play next year), the others'
    from the public manifest (their unplayed own tiles of the year they will play in next)."""
    state = ctx.state
    order = [p.name for p in ctx.edition.powers]
    mine = order.index(ctx.power)
    found: list[tuple[Tile, float]] = []
    for index, power in enumerate(order):
        year = state.year + 1 if index <= mine else state.year
        if year > state.last_year:
            continue
        if power == ctx.power:
            tiles = [state.edition.tile(t) for t in state.hands.tiles[power]]
            fitting = [t for t in tiles if t.power == power and fits(t, year)]
            if fitting:
                found.append((min(fitting, key=lambda t: t.years[1] if t.years else 9999), 1.0))
            continue
        played = {t for _, t, _ in state.hands.played}
        fitting = [t for t in ctx.edition.tiles if t.power == power and fits(t, year)
                   and t.id.replace(" ", "") not in played]  # fmt: skip
        found += [(t, 1.0 / len(fitting)) for t in fitting]
    return found


def _award_cities(ctx: Context) -> dict[str, float]:
    """What a spy standing in each city may expect to collect from the tiles played before the
    power's next movement."""
    state = ctx.state
    found: dict[str, float] = {}
    for tile, chance in _likely_tiles(ctx):
        for award in tile.awards:
            unit = CHIT_WORTH if award.unit == "c" else POUND_WORTH
            for city in award.cities:
                if state.territory(city) != ctx.power:
                    found[city] = found.get(city, 0.0) + chance * award.amount * unit
    return found


def _plan_spies(ctx: Context) -> dict[str, tuple[str, float]]:
    """Each active spy's destination and priority: home with a Secret; else the Secret (or the
    award city) it is best placed to take, the best ones first while Discovery chits last."""
    state = ctx.state
    plans: dict[str, tuple[str, float]] = {}
    free = []
    for spy in ctx.own_spies():
        home = _home_of(ctx, spy.label)
        if home is not None:
            cash = control.CASH_MONEY * POUND_WORTH + CHIT_WORTH if home == ctx.capital else 0
            plans[spy.label] = (home, 100.0 + cash + ctx.secret_worth(ctx.held(spy.label) or ""))
        else:  # free, or guarding an own original at home (it stays there if the spy leaves)
            free.append(spy)
    if not free:
        return plans
    money = state.bank.money[ctx.power]
    discoveries = min(ctx.hand().count("Discovery"), money // 2)
    targets = [s for s in state.board.secrets.values()
               if s.status == IN_PLAY and s.place in ctx.map.cities
               and not ctx.map.cities[s.place].haven
               and plays.discoverable(state, s, ctx.power)]  # fmt: skip
    options = []
    reach = 5 * (ctx.turns_left() + 1)
    for spy in free:
        here = ctx.dist[spy.place]
        for secret in targets:
            way = here.get(secret.place, 99)
            if way > reach:
                continue
            value = _discovery_value(ctx, spy.label, secret.label, 5)
            value -= ctx.danger(secret.place, spy.label) * 0.5
            if value > 0:
                options.append((value / (1 + 0.3 * way), spy.label, secret.label, secret.place))
    options.sort(key=lambda o: -o[0])
    taken = _assign(options, plans, discoveries)
    _plan_hunts(ctx, [s for s in free if s.label not in plans], plans)
    awards = _award_cities(ctx)
    claimed = {place for place, _ in plans.values()}
    for spy in free:
        if spy.label in plans:
            continue
        here = ctx.dist[spy.place]
        best, best_score = spy.place, 0.0
        for score, spy_label, secret_label, place in options:
            mine = spy_label == spy.label and secret_label not in taken
            if mine and place not in claimed and 0.35 * score > best_score:
                best, best_score = place, 0.35 * score
        for city, worth in awards.items():
            if city in claimed:
                continue
            score = (worth - ctx.danger(city, spy.label)) / (1 + 0.3 * here.get(city, 99))
            if score > best_score:
                best, best_score = city, score
        if ctx.danger(best, spy.label) > 0 and best == spy.place:
            best = _safe_spot(ctx, spy.label)
        plans[spy.label] = (best, best_score)
        claimed.add(best)
    return plans


def _plan_hunts(ctx: Context, free: list, plans: dict[str, tuple[str, float]]) -> None:
    """Spies left free go after enemy spies they could Sanction, while Sanction chits last."""
    state = ctx.state
    hunts = min(ctx.hand().count("Sanction"), state.bank.money[ctx.power] // 6)
    if hunts <= 0 or not free:
        return
    victims = [v for v in state.board.spies.values()
               if v.status == ACTIVE and v.place in ctx.map.cities
               and not ctx.map.cities[v.place].haven and v.label not in state.board.covered
               and police.enemies(state, ctx.power, v)]  # fmt: skip
    options = []
    for spy in free:
        here = ctx.dist[spy.place]
        for victim in victims:
            way = here.get(victim.place, 99)
            if way <= 10:
                value = _sanction_value(ctx, spy.label, victim.label)
                value -= 0.5 * ctx.danger(victim.place, spy.label)
                if value > 0:
                    options.append((value / (1 + 0.5 * way), spy.label, victim.label, victim.place))
    options.sort(key=lambda o: -o[0])
    _assign(options, plans, hunts)


def _assign(options: list, plans: dict[str, tuple[str, float]], limit: int) -> set[str]:
    """Greedily, best first: each (score, spy, target, place) option whose spy has no plan yet
    and whose target nobody goes for, at most ``limit`` of them; returns the targets taken."""
    taken: set[str] = set()
    for score, spy_label, target, place in options:
        if len(taken) >= limit:
            break
        if spy_label in plans or target in taken:
            continue
        plans[spy_label] = (place, score)
        taken.add(target)
    return taken


def _safe_spot(ctx: Context, label: str) -> str:
    """The nearest city where the spy is out of the enemy police's reach."""
    here = ctx.dist[ctx.state.board.spies[label].place]
    cities = [c for c in ctx.map.cities if ctx.danger(c, label) == 0]
    return min(cities, key=lambda c: (here.get(c, 99), c))


def _weights(ctx: Context, label: str, carrying: bool) -> Callable[[str], float]:
    scale = 0.5 if carrying else 0.35

    def weight(place: str) -> float:
        if place not in ctx.map.cities:
            return SEA_COST
        return 1.0 + scale * ctx.danger(place, label)

    return weight


def _step(ctx: Context, label: str, target: str, actions: list[Action]) -> Action | None:
    """The legal move of spy ``label`` that brings it nearest ``target`` by its weighted
    route, if it brings it nearer."""
    state = ctx.state
    carrying = ctx.held(label) is not None
    weight = _weights(ctx, label, carrying)
    costs = route_costs(ctx.edition, target, weight)
    here = state.board.spies[label].place
    now = costs.get(here, float("inf"))
    best, best_cost = None, float("inf")
    at_sea = state.turn.voyage is not None and state.turn.moving == label
    reroll = None
    for act in actions:
        if act.kind == "reroll" and act.target == label:
            reroll = act
            continue
        if act.kind not in ("move", "embark", "sail", "land") or act.target[0] != label:
            continue
        there = act.target[1]
        rest = costs.get(there, float("inf"))
        cost = weight(there) + rest
        if (rest < now and cost < best_cost) or (at_sea and best is None):
            best, best_cost = act, cost
    if at_sea and reroll is not None and best is not None and best.kind == "land":
        # A sail the roll forbids would have been better: roll again if it is worth a space.
        zone = ctx.map.zones[here]
        ideal = min((SEA_COST + costs.get(z, float("inf")) for z in zone.adjacent),
                    default=float("inf"))  # fmt: skip
        if ideal + 1.5 < best_cost and spaces_left(state, label) >= 3:
            return reroll
    if at_sea and best is None:
        best = next((a for a in actions if a.kind in ("land", "sail")), None)
    return best


def _carrier_cannot_reach(ctx: Context, label: str) -> bool:
    state = ctx.state
    spy = state.board.spies[label]
    left = spaces_left(state, label) if label not in state.turn.moved else 0
    return ctx.dist[spy.place].get(ctx.capital, 99) > left


def _chit_move(ctx: Context, actions: list[Action]) -> Action | None:
    """A chit worth playing now, on the power's own turn."""
    state = ctx.state
    best, best_value = None, 0.0
    for act in actions:
        if act.kind != "chit":
            continue
        kind = act.target[0]
        value = 0.0
        if kind == "Discovery":
            spy, secret = act.target[1], act.target[2]
            left = spaces_left(state, spy) if spy not in state.turn.moved else 0
            value = _discovery_value(ctx, spy, secret, left) - 2 * POUND_WORTH - AP_WORTH
            value = value if value > 1.0 else 0.0
        elif kind == "Sanction":
            value = _sanction_value(ctx, act.target[1], act.target[2])
        elif kind == "Escape" and ctx.can_pay(kind, MONEY_RESERVE):
            spy = state.board.spies[act.target[1]]
            value = spy.strength * ctx.mult * (spy.captor is not None) + SPY_WORTH - 2
        elif kind == "Recruit" and ctx.can_pay(kind, MONEY_RESERVE) and ctx.turns_left() > 0:
            value = SPY_WORTH - 2
        elif kind == "Drop" and ctx.can_pay(kind):
            label, piece = act.target[1], act.target[2]
            secret = state.board.secrets[label]
            holder = secret.holder
            receiver = state.board.spies.get(piece) or state.board.police.get(piece)
            place = receiver.place if hasattr(receiver, "place") else receiver.city
            if (
                secret.origin != ctx.power
                and place == ctx.capital
                and holder is not None
                and _carrier_cannot_reach(ctx, holder)
            ):
                value = ctx.secret_worth(label) * 0.5 + (1.0 if piece in state.board.spies else 0.0)
        if value > best_value:
            best, best_value = act, value
    return best


def _sanction_value(ctx: Context, assassin: str, victim: str) -> float:
    state = ctx.state
    if not ctx.can_pay("Sanction", MONEY_RESERVE):
        return 0.0
    mine = state.board.spies[assassin]
    strength = ctx.know.spy_strength(victim)
    cousin = 0.0 if mine.cousin else ctx.know.cousin_chance(victim)
    kill = at_least({mine.strength: 1.0}, strength) * (1 - cousin)
    gain = mean(strength) * ctx.mult + SPY_WORTH
    held = ctx.held(victim)
    if held is not None and ctx.held(assassin) is None:
        gain += (
            ctx.secret_worth(held)
            if state.board.secrets[held].origin == ctx.power
            else (ctx.know.outlook(held, mine.strength, mine.cousin)[0] * ctx.mult * 0.7)
        )
    loss = cousin * (mine.strength * ctx.mult + SPY_WORTH + 2)
    return kill * gain - loss - 4 * POUND_WORTH - 2 * AP_WORTH - 3.0


def _cover_value(ctx: Context, label: str) -> float:
    """What Cover saves a spy left where it stands until the power's next turn."""
    state = ctx.state
    spy = state.board.spies[label]
    risk = ctx.danger(spy.place, label)
    held = ctx.held(label)
    if held is not None and any(
        s.place == spy.place and s.status == ACTIVE and ctx.enemy(s.power)
        for s in state.board.spies.values()
    ):
        risk += 0.3 * ctx.secret_worth(held)
    return risk - 2 * POUND_WORTH - AP_WORTH - 1.5


def _control_move(ctx: Context, actions: list[Action]) -> Action | None:
    """Cash, take a Secret the power's police hold in the capital, carry loose originals home."""
    state = ctx.state
    for act in actions:
        if act.kind == "cash":
            return act
    for act in actions:
        if act.kind == "control":
            label, piece = act.target
            secret = state.board.secrets[label]
            if piece not in state.board.spies:
                if secret.origin == ctx.power and secret.place == secret.home:
                    return act  # a recovered original goes under police at home
                continue
            holder = secret.holder
            if holder in state.board.police and secret.origin != ctx.power:
                return act  # then cash it
            if holder is None and secret.origin == ctx.power and secret.place != secret.home:
                return act  # a loose original, to carry home
    for act in actions:
        if act.kind == "release":
            secret = state.board.secrets[act.target]
            if secret.origin == ctx.power and secret.place == secret.home and secret.loose:
                return act  # home again: it settles
    return None


def _move(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    for choose in (_control_move, _chit_move, _approach):
        act = choose(ctx, actions)
        if act is not None:
            return act
    plans = _plan_spies(ctx)
    moving = state.turn.moving
    if moving is not None and moving in plans and spaces_left(state, moving) > 0:
        target = plans[moving][0]
        if state.turn.voyage is not None or state.board.spies[moving].place != target:
            act = _step(ctx, moving, target, actions)
            if act is not None:
                return act
    order = sorted((p, label) for label, (_, p) in plans.items())
    for _, label in reversed(order):
        if label == moving or label in state.turn.moved:
            continue
        target = plans[label][0]
        if state.board.spies[label].place == target:
            continue
        act = _step(ctx, label, target, actions)
        if act is not None:
            return act
    covers = [a for a in actions if a.kind == "chit" and a.target[0] == "Cover"]
    if covers and ctx.can_pay("Cover", MONEY_RESERVE):
        best = max(covers, key=lambda a: _cover_value(ctx, a.target[1]))
        if _cover_value(ctx, best.target[1]) > 0:
            return best
    end = [a for a in actions if a.kind == "end"]
    if end:
        # Nothing else to do this turn: the Action Points left are free for talks.
        act = _approach(ctx, actions, ap_cost=0.0)
        if act is not None:
            return act
    return end[0] if end else actions[0]


# ----------------------------------------------------------------------------- answers


def _search_risk(ctx: Context, contest: reactions.Contest) -> float:
    state = ctx.state
    spy = state.board.spies[contest.spy]
    units = police.units_in(state, contest.actor, spy.place)
    return greater(ctx.know.force(units), {spy.strength: 1.0})


def _answer(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    contest = state.contest
    assert contest is not None
    offered = {a.target[0]: a for a in actions if a.kind == "chit"}
    passing = _pick(actions, ("pass", None))
    if contest.stage == reactions.SPOILS:
        return next((a for a in actions if a.kind == "control"), passing)
    if contest.stage == reactions.INTERCEPT:
        return next((a for a in actions if a.kind == "chit"), passing)
    if contest.stage == reactions.AVOID:
        spy = state.board.spies[contest.spy]
        if contest.kind == reactions.SEARCH:
            risk = _search_risk(ctx, contest)
        else:  # a Counterspy, face up now
            card = state.edition.secret(state.board.secrets[contest.secret].card)  # type: ignore[index]
            risk = float(card.counterspy > spy.strength and not spy.cousin)
        stake = risk * ctx.spy_worth(spy.label)
        for chit in (reactions.PAPERS, reactions.COVER_CHIT, reactions.ESCAPE_CHIT):
            if chit in offered and stake > ctx.edition.chit(chit).money * POUND_WORTH + 0.5:
                return offered[chit]
        return passing
    if contest.stage == reactions.COVER:
        victim = reactions.decider_spy(state, contest)
        attacker = state.board.spies[contest.spy]
        if victim is None or reactions.COVER_CHIT not in offered:
            return passing
        mine = state.board.spies[victim]
        strength = ctx.know.spy_strength(attacker.label)
        if contest.kind == reactions.SANCTION:
            cousin = ctx.know.cousin_chance(attacker.label)
            if mine.cousin:
                risk = cousin * at_least(strength, {mine.strength: 1.0})
            else:
                risk = at_least(strength, {mine.strength: 1.0})
            stake = risk * ctx.spy_worth(victim)
        else:
            held = ctx.held(victim)
            risk = greater(strength, {mine.strength: 1.0})
            stake = risk * (ctx.secret_worth(held) if held else 0.0)
        return offered[reactions.COVER_CHIT] if stake > 2.0 else passing
    if contest.stage == reactions.CROSS and reactions.DOUBLE_CROSS in offered:
        return offered[reactions.DOUBLE_CROSS] if _cross_stake(ctx, contest) > 3.0 else passing
    return passing


def _cross_stake(ctx: Context, contest: reactions.Contest) -> float:
    """What reversing (or keeping) the action in a Double Cross chain is worth to the power: a
    spy's strength at this year's multiple (the victim of a Sanction, the spy of an Escape), or
    the Secret a Discovery takes."""
    if contest.kind == reactions.DISCOVERY:
        label = contest.secret
        assert label is not None
        _, _, value = ctx.know.outlook(label, 0, True)
        return value * ctx.mult
    spy = contest.target if contest.kind == reactions.SANCTION else contest.spy
    assert spy is not None
    return mean(ctx.know.spy_strength(spy)) * ctx.mult + SPY_WORTH


def _return(ctx: Context, actions: list[Action]) -> Action:
    hand = Counter(ctx.hand())
    sanctioned = bool(ctx.own_spies(SANCTIONED))
    captured = bool(ctx.own_spies(CAPTURED))

    def keep(chit: str) -> float:
        base = KEEP.get(chit, 1.0)
        if chit == "Recruit" and sanctioned:
            base += 3.0
        if chit == "Escape" and captured:
            base += 3.0
        return base - 1.5 * (hand[chit] - 1)

    return min((a for a in actions if a.kind == "return"), key=lambda a: keep(a.target))


# ----------------------------------------------------------------------------- diplomacy

#: What a first chit of each kind is worth to a power for its use, in points; each further chit
#: of a kind it already holds is worth ``DUPLICATE`` times the one before.
CHIT_USE = {"Discovery": 4.0, "Papers": 2.0, "Escape": 2.0, "Cover": 1.5, "Drop": 1.5,
            "Sanction": 1.5, "Double-Cross": 1.2, "Intercept": 0.8, "Recruit": 0.5}  # fmt: skip
DUPLICATE = 0.5
SHORT, AMPLE = 6, 15  # £: below SHORT a power cannot pay for a few chit plays; above AMPLE
# it can pay for all it is likely to play: a £ counts twice, once, or 0.6 times POUND_WORTH
CASH_WORTH = control.CASH_MONEY * POUND_WORTH + CHIT_WORTH  # the £20 and the chit of cashing
TRADE_MARGIN = 0.3  # points a trade must net the bot beyond its costs: it trades on clear gains
#: How much a rival's gain counts against the bot, by how far the rival's seat stands ahead of
#: the bot's (points): from RIVAL_FLOOR for a rival far behind to 1 for one ahead by RIVAL_AHEAD.
RIVAL_FLOOR, RIVAL_BEHIND, RIVAL_AHEAD = 0.1, -20.0, 10.0
WANTED = ("Discovery", "Escape", "Recruit")  # kinds the bot buys, when it needs one


def _turns_for(ctx: Context, who: str) -> int:
    """The turns ``who`` still has to move spies in, this year's included if not yet over."""
    state = ctx.state
    order = [p.name for p in ctx.edition.powers]
    this_year = order.index(who) >= state.power_index
    return max(0, state.last_year - state.year) + int(this_year)


def _exposed(ctx: Context, who: str, city: str) -> bool:
    """Police of another seat stand in ``city``: a spy of ``who`` there may be searched for."""
    state = ctx.state
    seat = state.controller(who)
    return any(u.city == city and state.controller(u.power) != seat
               for u in state.board.police.values())  # fmt: skip


def _way_chance(ctx: Context, who: str, city: str, target: str) -> float:
    """The chance that a spy of ``who`` in ``city`` gets to ``target`` before the game ends:
    nothing if it cannot get there in the turns left; a little less for every space and every
    further turn on the way, and less again while it stands under another seat's police."""
    way = ctx.dist[city].get(target, 99)
    turns = _turns_for(ctx, who)
    if turns == 0 or way > 5 * turns:
        return 0.0
    chance = 0.93**way * 0.85 ** max(0, -(-way // 5) - 1)
    return chance * (0.6 if _exposed(ctx, who, city) else 1.0)


def _carry_chance(ctx: Context, who: str, piece: str, target: str) -> float:
    """The chance that ``who`` brings the Secret ``piece`` holds to ``target``: a spy carries
    it; a police unit stays put, so a spy of its power must come and take it over."""
    state = ctx.state
    spy = state.board.spies.get(piece)
    if spy is not None:
        return _way_chance(ctx, who, spy.place, target)
    city = state.board.police[piece].city
    return 0.9 if city == target else 0.5 * _way_chance(ctx, who, city, target)


def _secret_value(ctx: Context, who: str, label: str, piece: str) -> float:
    """What Secret ``label`` under ``who``'s ``piece`` is worth to ``who``: an own original its
    points at the final multiple once back in its starting city; a foreign one its points at
    the multiple of the year it was taken and the £20 and chit of cashing it; each times the
    chance of bringing it there."""
    secret = ctx.state.board.secrets[label]
    _, _, value = ctx.know.outlook(label, 0, True)
    if secret.origin == who:
        return value * ctx.final * _carry_chance(ctx, who, piece, secret.home)
    record = ctx.edition.record
    year = secret.taken if secret.taken is not None else ctx.year
    points = value * record[min(year, max(record))] + CASH_WORTH
    return points * _carry_chance(ctx, who, piece, ctx.map.capital(who))


def _held(ctx: Context, who: str) -> Counter[str]:
    """The chits the deciding seat knows ``who`` holds: all of them for its own powers."""
    state = ctx.state
    if state.sees_hand(ctx.seat, who):
        return Counter(state.hands.chits[who])
    return diplomacy.known_chits(state, ctx.seat, who)


def _chit_value(ctx: Context, who: str, kind: str, held: int) -> float:
    """What one more chit of ``kind`` is worth to ``who`` holding ``held`` of that kind: its use
    (more for an Escape or a Recruit with a spy to bring back), less for copies already held
    and in the last turns."""
    key = (who, kind, held)
    if key not in ctx._chit_values:
        ctx._chit_values[key] = _chit_use(ctx, who, kind, held)
    return ctx._chit_values[key]


def _chit_use(ctx: Context, who: str, kind: str, held: int) -> float:
    use = CHIT_USE.get(kind, 1.0)
    if kind == "Discovery":  # one per spy free to use it: copies beyond that wait their turn
        spies = [s for s in ctx.state.board.spies.values() if s.power == who and s.status == ACTIVE]
        free = sum(1 for s in spies if ctx.held(s.label) is None)
        use *= 1.0 if held < free else 0.5
    if kind in ("Escape", "Recruit"):
        status = CAPTURED if kind == "Escape" else SANCTIONED
        if any(s.power == who and s.status == status and not (kind == "Recruit" and s.cousin)
               for s in ctx.state.board.spies.values()):  # fmt: skip
            use += 2.0
    return use * DUPLICATE**held * min(1.0, _turns_for(ctx, who) / 3)


def _money_value(ctx: Context, who: str, change: int) -> float:
    """What ``change`` £ are worth to ``who``: POUND_WORTH a £, twice that below SHORT (money
    it would need to play its chits), 0.6 times that above AMPLE. Money kept secret from the
    seat is taken to be ample."""
    state = ctx.state
    have = state.bank.money[who] if state.sees_money(ctx.seat, who) else 2 * AMPLE

    def worth(money: int) -> float:
        return POUND_WORTH * (min(money, AMPLE) + min(money, SHORT) + 0.6 * max(0, money - AMPLE))

    return worth(max(0, have + change)) - worth(have)


def _gains(ctx: Context, offer: diplomacy.Offer) -> tuple[float, float]:
    """What ``offer`` brings its initiator and its partner if accepted, as the deciding seat
    values it."""
    state = ctx.state
    me, other = offer.initiator, offer.partner
    give, ask = offer.give, offer.ask
    paid = diplomacy.money_of(give) - diplomacy.money_of(ask)
    mine = _money_value(ctx, me, -paid)
    theirs = _money_value(ctx, other, paid)
    held = {me: _held(ctx, me), other: _held(ctx, other)}
    for giver, taker, items in ((me, other, give), (other, me, ask)):
        for kind in diplomacy.chits_of(items):
            held[giver][kind] -= 1
            loss = _chit_value(ctx, giver, kind, max(0, held[giver][kind]))
            gain = _chit_value(ctx, taker, kind, held[taker][kind])
            held[taker][kind] += 1
            mine, theirs = (
                (mine - loss, theirs + gain) if giver == me else (mine + gain, theirs - loss)
            )
        for label, piece in diplomacy.secrets_of(items):
            holder = state.board.secrets[label].holder
            assert holder is not None
            loss = _secret_value(ctx, giver, label, holder)
            gain = _secret_value(ctx, taker, label, piece)
            mine, theirs = (
                (mine - loss, theirs + gain) if giver == me else (mine + gain, theirs - loss)
            )
    return mine, theirs


def _standing(ctx: Context, power: str) -> float:
    """``power``'s points as the deciding seat can count them (rule 6.0's categories, a hidden
    Secret at the value expected from what the seat knows, originals at the final multiple)."""
    state = ctx.state
    record = ctx.edition.record
    points = 2.0 * sum(
        1 for p, t, _ in state.hands.played if p == power and not state.is_random_tile(t)
    )
    for secret in state.board.secrets.values():
        if secret.status == CASHED and secret.record == power:
            year = secret.taken
        elif secret.status == IN_PLAY and secret.origin == power and secret.place == secret.home:
            if secret.holder is not None and state.piece_power(secret.holder) != power:
                continue
            year = state.last_year
        else:
            continue
        _, _, value = ctx.know.outlook(secret.label, 0, True)
        points += value * record[min(year or ctx.year, max(record))]
    for spy in state.board.spies.values():
        if spy.captor == power and spy.year is not None:
            points += mean(ctx.know.spy_strength(spy.label)) * record[spy.year]
    points += sum(value * record[year] for killer, _, value, year in state.board.markers
                  if killer == power)  # fmt: skip
    return points


def _rival_weight(ctx: Context, who: str, rival: str) -> float:
    """How much a gain of ``rival`` counts against ``who`` (1: as much as its own): in full in
    a two-seat game and against a seat ahead; little against a seat far behind."""
    state = ctx.state
    if state.players == 2:
        return 1.0
    if (who, rival) not in ctx._rivals:
        ctx._rivals[who, rival] = _rival_share(ctx, who, rival)
    return ctx._rivals[who, rival]


def _rival_share(ctx: Context, who: str, rival: str) -> float:
    state = ctx.state
    best: dict[int, float] = {}
    for power in (p.name for p in ctx.edition.powers):
        if state.seating.scoring(power):
            seat = state.controller(power)
            best[seat] = max(best.get(seat, 0.0), _standing(ctx, power))
    ahead = best.get(state.controller(rival), 0.0) - best.get(state.controller(who), 0.0)
    share = (ahead - RIVAL_BEHIND) / (RIVAL_AHEAD - RIVAL_BEHIND)
    return min(1.0, max(RIVAL_FLOOR, share))


def _net(ctx: Context, who: str, rival: str, own: float, theirs: float) -> float:
    return own - _rival_weight(ctx, who, rival) * theirs


def _answer_offer(ctx: Context, actions: list[Action]) -> Action:
    """Accept an offer that nets the power more than TRADE_MARGIN, its rival's gain counted
    against it by how dangerous that rival is; else refuse."""
    state = ctx.state
    offer = state.talks.offer
    refuse = _pick(actions, ("refuse", None))
    accept = next((a for a in actions if a.kind == "accept"), None)
    if accept is None or offer is None or not state.seating.scoring(ctx.power):
        return refuse
    theirs, mine = _gains(ctx, offer)
    return accept if _net(ctx, ctx.power, offer.initiator, mine, theirs) > TRADE_MARGIN else refuse


def _hand_odds(ctx: Context, other: str, kind: str) -> list[tuple[int, float]]:
    """(how many chits of ``kind`` ``other`` holds, chance), from the size of its hand and the
    chits the deciding seat has not seen (hypergeometric), or exactly if the seat knows."""
    state = ctx.state
    size = len(state.hands.chits[other])
    known = _held(ctx, other)
    if sum(known.values()) >= size:
        return [(known[kind], 1.0)]
    seen: Counter[str] = Counter()
    for power in state.powers_of(ctx.seat):
        seen.update(state.hands.chits[power])
    pool = sum(c.count for c in ctx.edition.chits) - sum(seen.values()) - sum(known.values())
    kinds = next(c.count for c in ctx.edition.chits if c.name == kind) - seen[kind] - known[kind]
    draws = size - sum(known.values())
    if pool <= 0 or draws <= 0:
        return [(known[kind], 1.0)]
    kinds = max(0, min(kinds, pool))
    odds = []
    for n in range(min(draws, kinds) + 1):
        chance = comb(kinds, n) * comb(pool - kinds, draws - n) / comb(pool, draws)
        if chance > 0:
            odds.append((known[kind] + n, chance))
    return odds


def _wants(ctx: Context, kind: str) -> bool:
    """The power holds no chit of ``kind`` and has a use for one now."""
    if kind in ctx.hand():
        return False
    if kind == "Discovery":
        return any(ctx.held(s.label) is None for s in ctx.own_spies())
    status = CAPTURED if kind == "Escape" else SANCTIONED
    return any(s.status == status and not (kind == "Recruit" and s.cousin)
               for s in ctx.own_spies(status))  # fmt: skip


Plan = tuple[float, diplomacy.Offer]  # (expected net for the bot, the offer)


def _secret_plans(ctx: Context, other: str, ap_cost: float = AP_WORTH) -> list[Plan]:
    """Foreign Secrets that ``other``'s piece would value more than the power's (or the other
    way round), each for the sum from the ladder that nets the power most while the other side
    (as the power models it) would still accept."""
    state = ctx.state
    me = ctx.power
    plans = []
    pairs = [(True, s, p) for s, p in diplomacy._tradeable(state, me, other, set())]
    pairs += [(False, s, p) for s, p in diplomacy._tradeable(state, other, me, set())]
    rich = state.bank.money[other] if state.sees_money(ctx.seat, other) else 0
    for selling, label, piece in pairs:
        item = (diplomacy.SECRET, label, piece)
        base = (
            diplomacy.Offer(me, other, give=(item,))
            if selling
            else diplomacy.Offer(me, other, ask=(item,))
        )
        mine, theirs = _gains(ctx, base)
        if mine + theirs <= TRADE_MARGIN:
            continue  # no surplus to share
        budget = rich if selling else state.bank.money[me]
        for amount in (0, *(n for n in LADDER if n <= budget)):
            offer = base
            if amount:
                money = ((diplomacy.MONEY, amount),)
                offer = (diplomacy.Offer(me, other, give=(item,), ask=money) if selling
                         else diplomacy.Offer(me, other, give=money, ask=(item,)))  # fmt: skip
            mine, theirs = _gains(ctx, offer)
            if _net(ctx, other, me, theirs, mine) <= TRADE_MARGIN:
                continue  # the other side would refuse
            plans.append((_net(ctx, me, other, mine, theirs) - ap_cost, offer))
    return plans


def _chit_plans(ctx: Context, other: str, ap_cost: float = AP_WORTH) -> list[Plan]:
    """A chit the power needs and has none of, bought for money: the sum that nets most over
    the chances that ``other`` holds one and would sell at that price."""
    state = ctx.state
    me = ctx.power
    if not state.hands.chits[other]:
        return []
    plans = []
    for kind in WANTED:
        if not _wants(ctx, kind):
            continue
        odds = _hand_odds(ctx, other, kind)
        reserve = ctx.edition.chit(kind).money  # enough left to play it
        wanted = _chit_value(ctx, me, kind, 0)
        for amount in (n for n in LADDER if n <= state.bank.money[me] - reserve):
            offer = diplomacy.Offer(me, other, give=((diplomacy.MONEY, amount),),
                                    ask=((diplomacy.CHIT, kind),))  # fmt: skip
            # The sums of _gains for this offer, for each hand the other may hold.
            mine = wanted + _money_value(ctx, me, -amount)
            paid = _money_value(ctx, other, amount)
            expected = 0.0
            for count, chance in odds:
                if not count:
                    continue  # it would have to refuse
                theirs = paid - _chit_value(ctx, other, kind, count - 1)
                if _net(ctx, other, me, theirs, mine) > TRADE_MARGIN:
                    expected += chance * _net(ctx, me, other, mine, theirs)
            plans.append((expected - ap_cost, offer))
    return plans


def _best_offer(
    ctx: Context, partner: str | None = None, ap_cost: float = AP_WORTH
) -> diplomacy.Offer | None:
    """The offer most worth an approach (to ``partner``, or to any power not yet approached
    this turn), if one nets more than TRADE_MARGIN once the approach's Action Point
    (``ap_cost`` points: nothing when the point would go unused, or is already spent) is paid."""
    state = ctx.state
    if partner is not None:
        others = [partner]
    else:
        others = [p for p in diplomacy.partners(state)
                  if p not in state.turn.approached and state.seating.scoring(p)]  # fmt: skip
    if not others or not state.seating.scoring(ctx.power):
        return None
    plans = []
    for other in others:
        plans += _secret_plans(ctx, other, ap_cost) + _chit_plans(ctx, other, ap_cost)
    if not plans:
        return None
    value, offer = max(plans, key=lambda p: (p[0], diplomacy.spell_items(p[1].give)
                                             + diplomacy.spell_items(p[1].ask)))  # fmt: skip
    return offer if value > TRADE_MARGIN else None


def _approach(ctx: Context, actions: list[Action], ap_cost: float = AP_WORTH) -> Action | None:
    """``approach X`` when an offer to X is worth its Action Point (looked for between spies'
    movements only: a search per step would cost more than the trades bring). At the end of the
    turn the points left would go unused, so an approach costs nothing then (``ap_cost`` 0), and
    it is looked for once whichever spy moved last."""
    if not any(a.kind == "approach" for a in actions):
        return None
    if ap_cost and ctx.state.turn.moving is not None:
        return None
    offer = _best_offer(ctx, ap_cost=ap_cost)
    if offer is None:
        return None
    return next((a for a in actions if a.kind == "approach" and a.target == offer.partner), None)


def _compose(ctx: Context, actions: list[Action]) -> Action:
    """Build the planned offer item by item, then send it; withdraw if it no longer pays (the
    approach's Action Point is spent by now: it no longer counts)."""
    offer = ctx.state.talks.offer
    assert offer is not None
    plan = _best_offer(ctx, offer.partner, ap_cost=0.0)
    withdraw = _pick(actions, ("withdraw", None))
    if plan is None:
        return withdraw
    for kind, planned, made in (("offer", plan.give, offer.give), ("ask", plan.ask, offer.ask)):
        if not set(made) <= set(planned):
            return withdraw
        for item in planned:
            if item not in made:
                return next((a for a in actions if a.kind == kind and a.target == item), withdraw)
    return _pick(actions, ("send", None))


# ----------------------------------------------------------------------------- dispatch


def _pick(actions: list[Action], wanted: tuple[str, object]) -> Action:
    kind, target = wanted
    for act in actions:
        if act.kind == kind and act.target == target:
            return act
    return actions[0]


KNOWN = {"secret", "police", "spy", "play", "discard", "relocate", "control", "release", "cash",
         "done", "search", "pass", "move", "embark", "sail", "land", "reroll", "end", "chit",
         "return", "approach"}  # fmt: skip


def _unknown(actions: list[Action], rng: Rng) -> Action:
    """A decision the bot was not written for: refuse or pass if it may, else a move it knows,
    else any legal move."""
    for word in REFUSALS:
        for act in actions:
            if act.kind == word:
                return act
    known = [a for a in actions if a.kind in KNOWN]
    return rng.choice(known or actions)


def choose(state: SpiesState, rng: Rng) -> Action:
    """The bot's move for the seat to play."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    pending = state.pending[0] if state.pending else None
    power = pending[1] if pending is not None else state.power
    ctx = Context(state, power)
    if pending is not None and pending[0] == diplomacy.TALKS:
        return _answer_offer(ctx, actions)
    if state.talks.offer is not None and not state.talks.offer.sent:
        return _compose(ctx, actions)
    kinds = {a.kind for a in actions}
    if not kinds <= KNOWN and not (kinds & KNOWN - {"pass", "done", "end"}):
        return _unknown(actions, rng)
    if pending is not None:
        kind = pending[0]
        if kind == chits.SURPLUS:
            return _return(ctx, actions)
        if kind == reactions.REACT and state.contest is not None:
            return _answer(ctx, actions)
        if kind == police.ARRIVAL:
            return _arrival(ctx, actions, pending[2])
        return _unknown(actions, rng)
    known = [a for a in actions if a.kind in KNOWN] or actions
    phase = state.phase
    if phase == SECRETS:
        return _place_secret(ctx, known)
    if phase == POLICE:
        return _place_police(ctx, known)
    if phase == SPIES:
        return _place_spy(ctx, known)
    if phase == "tile":
        return _tile(ctx, [a for a in known if a.kind in ("play", "discard")] or known)
    if phase == "rearrange":
        return _rearrange(ctx, known)
    if phase == "search":
        return _search(ctx, known)
    if phase == "move":
        return _move(ctx, known)
    return _unknown(actions, rng)
