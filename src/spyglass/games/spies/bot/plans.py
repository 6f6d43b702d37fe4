"""The bot's plans for its spies: targets (Secrets to take, spies to hunt, award cities)
and the ways there."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spyglass.engine import Action

from .. import plays, police
from ..events import fits
from ..movement import spaces_left
from ..pieces import ACTIVE, IN_PLAY

if TYPE_CHECKING:
    from ..edition import Tile
from .context import Context
from .knowledge import at_least, greater, mean
from .routes import route_costs


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


def discovery_value(ctx: Context, spy_label: str, secret_label: str, moves_left: int) -> float:
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
    lost = trap * (strength * ctx.mult * (captor is not None) + ctx.spy_points)
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
            unit = ctx.chit_points if award.unit == "c" else ctx.pound_points
            for city in award.cities:
                if state.territory(city) != ctx.power:
                    found[city] = found.get(city, 0.0) + chance * award.amount * unit
    return found


def plan_spies(ctx: Context) -> dict[str, tuple[str, float]]:
    """Each active spy's destination and priority: home with a Secret; else the Secret (or the
    award city) it is best placed to take, the best ones first while Discovery chits last."""
    state = ctx.state
    plans: dict[str, tuple[str, float]] = {}
    free = []
    for spy in ctx.own_spies():
        home = _home_of(ctx, spy.label)
        if home is not None:
            cash = ctx.cash_worth() if home == ctx.capital else 0
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
            value = discovery_value(ctx, spy.label, secret.label, 5)
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
                value = sanction_value(ctx, spy.label, victim.label)
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
            return ctx.sea_cost
        return 1.0 + scale * ctx.danger(place, label)

    return weight


def step_towards(ctx: Context, label: str, target: str, actions: list[Action]) -> Action | None:
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
        ideal = min((ctx.sea_cost + costs.get(z, float("inf")) for z in zone.adjacent),
                    default=float("inf"))  # fmt: skip
        if ideal + 1.5 < best_cost and spaces_left(state, label) >= 3:
            return reroll
    if at_sea and best is None:
        best = next((a for a in actions if a.kind in ("land", "sail")), None)
    return best


def carrier_cannot_reach(ctx: Context, label: str) -> bool:
    state = ctx.state
    spy = state.board.spies[label]
    left = spaces_left(state, label) if label not in state.turn.moved else 0
    return ctx.dist[spy.place].get(ctx.capital, 99) > left


def sanction_value(ctx: Context, assassin: str, victim: str) -> float:
    state = ctx.state
    if not ctx.can_pay("Sanction", ctx.reserve):
        return 0.0
    mine = state.board.spies[assassin]
    strength = ctx.know.spy_strength(victim)
    cousin = 0.0 if mine.cousin else ctx.know.cousin_chance(victim)
    kill = at_least({mine.strength: 1.0}, strength) * (1 - cousin)
    gain = mean(strength) * ctx.mult + ctx.spy_points
    held = ctx.held(victim)
    if held is not None and ctx.held(assassin) is None:
        gain += (
            ctx.secret_worth(held)
            if state.board.secrets[held].origin == ctx.power
            else (ctx.know.outlook(held, mine.strength, mine.cousin)[0] * ctx.mult * 0.7)
        )
    loss = cousin * (mine.strength * ctx.mult + ctx.spy_points + 2)
    return kill * gain - loss - 4 * ctx.pound_points - 2 * ctx.ap_points - 3.0
