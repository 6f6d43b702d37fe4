"""The bot's diplomacy (rules 3.9, 4.3): valuing an offer for both sides, answering, and
choosing whom to approach with what."""

from __future__ import annotations

from collections import Counter
from math import comb

from spyglass.engine import Action

from .. import diplomacy
from ..money import LADDER
from ..pieces import ACTIVE, CAPTURED, CASHED, IN_PLAY, SANCTIONED
from .context import Context, pick
from .knowledge import mean

#: What a first chit of each kind is worth to a power for its use, in points; each further chit
#: of a kind it already holds is worth ``DUPLICATE`` times the one before.
CHIT_USE = {"Discovery": 4.0, "Papers": 2.0, "Escape": 2.0, "Cover": 1.5, "Drop": 1.5,
            "Sanction": 1.5, "Double-Cross": 1.2, "Intercept": 0.8, "Recruit": 0.5}  # fmt: skip


DUPLICATE = 0.5


#: £: below SHORT a power cannot pay for a few chit plays; above AMPLE it can pay for all it is
#: likely to play. A £ counts twice, once, or 0.6 times the bot's ``pound`` weight.
SHORT, AMPLE = 6, 15


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
    points = value * record[min(year, max(record))] + ctx.cash_worth()
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
    """What ``change`` £ are worth to ``who``: the bot's ``pound`` weight a £, twice that below
    SHORT (money it would need to play its chits), 0.6 times that above AMPLE. Money kept secret
    from the seat is taken to be ample."""
    state = ctx.state
    have = state.bank.money[who] if state.sees_money(ctx.seat, who) else 2 * AMPLE

    def worth(money: int) -> float:
        pounds = min(money, AMPLE) + min(money, SHORT) + 0.6 * max(0, money - AMPLE)
        return ctx.pound_points * pounds

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


def answer_offer(ctx: Context, actions: list[Action]) -> Action:
    """Accept an offer that nets the power more than its ``margin``, its rival's gain counted
    against it by how dangerous that rival is; else refuse."""
    state = ctx.state
    offer = state.talks.offer
    refuse = pick(actions, ("refuse", None))
    accept = next((a for a in actions if a.kind == "accept"), None)
    if accept is None or offer is None or not state.seating.scoring(ctx.power):
        return refuse
    theirs, mine = _gains(ctx, offer)
    return accept if _net(ctx, ctx.power, offer.initiator, mine, theirs) > ctx.margin else refuse


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


def _secret_plans(ctx: Context, other: str, ap_cost: float) -> list[Plan]:
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
        if mine + theirs <= ctx.margin:
            continue  # no surplus to share
        budget = rich if selling else state.bank.money[me]
        for amount in (0, *(n for n in LADDER if n <= budget)):
            offer = base
            if amount:
                money = ((diplomacy.MONEY, amount),)
                offer = (diplomacy.Offer(me, other, give=(item,), ask=money) if selling
                         else diplomacy.Offer(me, other, give=money, ask=(item,)))  # fmt: skip
            mine, theirs = _gains(ctx, offer)
            if _net(ctx, other, me, theirs, mine) <= ctx.margin:
                continue  # the other side would refuse
            plans.append((_net(ctx, me, other, mine, theirs) - ap_cost, offer))
    return plans


def _chit_plans(ctx: Context, other: str, ap_cost: float) -> list[Plan]:
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
                if _net(ctx, other, me, theirs, mine) > ctx.margin:
                    expected += chance * _net(ctx, me, other, mine, theirs)
            plans.append((expected - ap_cost, offer))
    return plans


def _best_offer(ctx: Context, partner: str | None, ap_cost: float) -> diplomacy.Offer | None:
    """The offer most worth an approach (to ``partner``, or to any power not yet approached
    this turn), if one nets more than the ``margin`` once the approach's Action Point
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
    return offer if value > ctx.margin else None


def approach(ctx: Context, actions: list[Action], ap_cost: float | None = None) -> Action | None:
    """``approach X`` when an offer to X is worth its Action Point (looked for between spies'
    movements only: a search per step would cost more than the trades bring). At the end of the
    turn the points left would go unused, so an approach costs nothing then (``ap_cost`` 0), and
    it is looked for once whichever spy moved last; else it costs the bot's ``action_point``."""
    if not any(a.kind == "approach" for a in actions):
        return None
    if ap_cost is None:
        ap_cost = ctx.ap_points
    if ap_cost and ctx.state.turn.moving is not None:
        return None
    offer = _best_offer(ctx, None, ap_cost)
    if offer is None:
        return None
    return next((a for a in actions if a.kind == "approach" and a.target == offer.partner), None)


def compose(ctx: Context, actions: list[Action]) -> Action:
    """Build the planned offer item by item, then send it; withdraw if it no longer pays (the
    approach's Action Point is spent by now: it no longer counts)."""
    offer = ctx.state.talks.offer
    assert offer is not None
    plan = _best_offer(ctx, offer.partner, ap_cost=0.0)
    withdraw = pick(actions, ("withdraw", None))
    if plan is None:
        return withdraw
    for kind, planned, made in (("offer", plan.give, offer.give), ("ask", plan.ask, offer.ask)):
        if not set(made) <= set(planned):
            return withdraw
        for item in planned:
            if item not in made:
                return next((a for a in actions if a.kind == kind and a.target == item), withdraw)
    return pick(actions, ("send", None))
