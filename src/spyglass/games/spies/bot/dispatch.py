"""The bot's entry point: which decision this is, handed to the part that makes it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from spyglass.engine import Action, Rng

from .. import chits, diplomacy, police, reactions
from ..steps import POLICE, SECRETS, SPIES

if TYPE_CHECKING:
    from ..rules import SpiesState
from .answers import answer, return_chit
from .context import REFUSALS, WEIGHTS, Context
from .moving import move
from .policing import arrival, rearrange, search
from .setup import place_police, place_secret, place_spy
from .tiles import choose_tile
from .trading import answer_offer, compose

KNOWN = {"secret", "police", "spy", "play", "discard", "relocate", "control", "release", "cash",
         "done", "search", "pass", "move", "embark", "sail", "land", "reroll", "end", "chit",
         "return", "approach"}  # fmt: skip


def unknown(actions: list[Action], rng: Rng) -> Action:
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
    return decide(state, rng, WEIGHTS)


def decide(state: SpiesState, rng: Rng, weights: Mapping[str, float]) -> Action:
    """The bot's move for the seat to play, valued with ``weights`` (named as in
    :data:`~.context.WEIGHTS`)."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    pending = state.pending[0] if state.pending else None
    power = pending[1] if pending is not None else state.power
    ctx = Context(state, power, weights)
    if pending is not None and pending[0] == diplomacy.TALKS:
        return answer_offer(ctx, actions)
    if state.talks.offer is not None and not state.talks.offer.sent:
        return compose(ctx, actions)
    kinds = {a.kind for a in actions}
    if not kinds <= KNOWN and not (kinds & KNOWN - {"pass", "done", "end"}):
        return unknown(actions, rng)
    if pending is not None:
        kind = pending[0]
        if kind == chits.SURPLUS:
            return return_chit(ctx, actions)
        if kind == reactions.REACT and state.contest is not None:
            return answer(ctx, actions)
        if kind == police.ARRIVAL and pending[2] is not None:  # an arrival names its spy
            return arrival(ctx, actions, pending[2])
        return unknown(actions, rng)
    known = [a for a in actions if a.kind in KNOWN] or actions
    phase = state.phase
    if phase == SECRETS:
        return place_secret(ctx, known)
    if phase == POLICE:
        return place_police(ctx, known)
    if phase == SPIES:
        return place_spy(ctx, known)
    if phase == "tile":
        return choose_tile(ctx, [a for a in known if a.kind in ("play", "discard")] or known)
    if phase == "rearrange":
        return rearrange(ctx, known)
    if phase == "search":
        return search(ctx, known)
    if phase == "move":
        return move(ctx, known)
    return unknown(actions, rng)
