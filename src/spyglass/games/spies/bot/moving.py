"""The bot's moves on its turn: chits played, control of Secrets, and the next step of
the spy moving."""

from __future__ import annotations

from spyglass.engine import Action

from ..movement import spaces_left
from ..pieces import ACTIVE, Spy
from .context import Context
from .plans import carrier_cannot_reach, discovery_value, plan_spies, sanction_value, step_towards
from .trading import approach


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
            value = discovery_value(ctx, spy, secret, left) - 2 * ctx.pound_points - ctx.ap_points
            value = value if value > 1.0 else 0.0
        elif kind == "Sanction":
            value = sanction_value(ctx, act.target[1], act.target[2])
        elif kind == "Escape" and ctx.can_pay(kind, ctx.reserve):
            spy = state.board.spies[act.target[1]]
            value = spy.strength * ctx.mult * (spy.captor is not None) + ctx.spy_points - 2
        elif kind == "Recruit" and ctx.can_pay(kind, ctx.reserve) and ctx.turns_left() > 0:
            value = ctx.spy_points - 2
        elif kind == "Drop" and ctx.can_pay(kind):
            label, piece = act.target[1], act.target[2]
            secret = state.board.secrets[label]
            holder = secret.holder
            receiver = state.board.spies.get(piece) or state.board.police.get(piece)
            assert receiver is not None  # a Drop names one of the power's pieces
            place = receiver.place if isinstance(receiver, Spy) else receiver.city
            if (
                secret.origin != ctx.power
                and place == ctx.capital
                and holder is not None
                and carrier_cannot_reach(ctx, holder)
            ):
                value = ctx.secret_worth(label) * 0.5 + (1.0 if piece in state.board.spies else 0.0)
        if value > best_value:
            best, best_value = act, value
    return best


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
    return risk - 2 * ctx.pound_points - ctx.ap_points - 1.5


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


def move(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    for choose in (_control_move, _chit_move, approach):
        act = choose(ctx, actions)
        if act is not None:
            return act
    plans = plan_spies(ctx)
    moving = state.turn.moving
    if moving is not None and moving in plans and spaces_left(state, moving) > 0:
        target = plans[moving][0]
        if state.turn.voyage is not None or state.board.spies[moving].place != target:
            act = step_towards(ctx, moving, target, actions)
            if act is not None:
                return act
    order = sorted((p, label) for label, (_, p) in plans.items())
    for _, label in reversed(order):
        if label == moving or label in state.turn.moved:
            continue
        target = plans[label][0]
        if state.board.spies[label].place == target:
            continue
        act = step_towards(ctx, label, target, actions)
        if act is not None:
            return act
    covers = [a for a in actions if a.kind == "chit" and a.target[0] == "Cover"]
    if covers and ctx.can_pay("Cover", ctx.reserve):
        best = max(covers, key=lambda a: _cover_value(ctx, a.target[1]))
        if _cover_value(ctx, best.target[1]) > 0:
            return best
    end = [a for a in actions if a.kind == "end"]
    if end:
        # Nothing else to do this turn: the Action Points left are free for talks.
        act = approach(ctx, actions, ap_cost=0.0)
        if act is not None:
            return act
    return end[0] if end else actions[0]
