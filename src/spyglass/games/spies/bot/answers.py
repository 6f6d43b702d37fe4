"""The bot's answers in the middle of an action (rule 4.2) and the chits it returns over ten."""

from __future__ import annotations

from collections import Counter

from spyglass.engine import Action

from .. import police, reactions
from ..pieces import CAPTURED, SANCTIONED
from .context import KEEP, Context, pick
from .knowledge import at_least, greater, mean


def _search_risk(ctx: Context, contest: reactions.Contest) -> float:
    state = ctx.state
    spy = state.board.spies[contest.spy]
    units = police.units_in(state, contest.actor, spy.place)
    return greater(ctx.know.force(units), {spy.strength: 1.0})


def answer(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    contest = state.contest
    assert contest is not None
    offered = {a.target[0]: a for a in actions if a.kind == "chit"}
    passing = pick(actions, ("pass", None))
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
            if chit in offered and stake > ctx.edition.chit(chit).money * ctx.pound_points + 0.5:
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
    return mean(ctx.know.spy_strength(spy)) * ctx.mult + ctx.spy_points


def return_chit(ctx: Context, actions: list[Action]) -> Action:
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
