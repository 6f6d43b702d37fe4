"""Action Chits in hand: drawing from the cup, the hand limit of ten, and paying for a play.

A chit is drawn at random from the cup (a cup has no order). A power never holds more than ten
chits (rule 3.21): when a draw takes it over, it returns chits of its choice to the cup at once,
one decision per chit (``return Papers``), before anything else happens.

Playing a chit (rules 3.8 and 4.2) costs its £ and, in the power's own turn, its Action Points;
the chit goes back to the cup and everyone sees which it was. What the chits do is in ``plays``
(on your own turn) and ``reactions`` (the answers in the middle of another action).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.engine import Action

from . import memory
from . import money as money_
from .notation import action

if TYPE_CHECKING:
    from .rules import SpiesState

HAND_LIMIT = 10
SURPLUS = "surplus"


def draw(state: SpiesState, power: str, count: int = 1) -> None:
    """``power`` draws ``count`` chits at random from the cup (fewer if the cup runs dry)."""
    for _ in range(count):
        if not state.hands.cup:
            state.say(f"the cup is empty: {power} draws no Action Chit")
            return
        chit = state.hands.cup.pop(state.rng.below(len(state.hands.cup)))
        hand = state.hands.chits[power]
        hand.append(chit)
        hand.sort()
        state.say(
            f"{power} draws the Action Chit {chit}",
            [state.controller(power)],
            f"{power} draws an Action Chit",
        )
    if len(state.hands.chits[power]) > HAND_LIMIT and (SURPLUS, power, None) not in state.pending:
        state.pending.insert(0, (SURPLUS, power, None))  # before anything else happens


def surplus_actions(state: SpiesState, power: str) -> list[Action]:
    return [action("return", chit) for chit in sorted(set(state.hands.chits[power]))]


def apply_return(state: SpiesState, power: str, chit: str) -> None:
    state.hands.chits[power].remove(chit)
    state.hands.cup.append(chit)
    state.hands.cup.sort()
    memory.forget(state, power, keep={state.controller(power)})  # returned out of sight
    state.say(
        f"{power} returns the Action Chit {chit} to the cup (ten at most)",
        [state.controller(power)],
        f"{power} returns an Action Chit to the cup (ten at most)",
    )
    if len(state.hands.chits[power]) <= HAND_LIMIT:
        state.pending.pop(0)


def cost(state: SpiesState, power: str, chit: str) -> tuple[int, int]:
    """What playing ``chit`` costs ``power`` now: £, and Action Points in its own turn only."""
    kind = state.edition.chit(chit)
    own = state.phase != "over" and power == state.power
    return kind.money, kind.action_points if own else 0


def affordable(state: SpiesState, power: str, chit: str) -> bool:
    money, points = cost(state, power, chit)
    return state.bank.money[power] >= money and state.turn.action_points >= points


def usable(state: SpiesState, power: str, kinds: tuple[str, ...]) -> list[str]:
    """The chits among ``kinds`` that ``power`` holds and can pay for now."""
    hand = state.hands.chits[power]
    return [k for k in kinds if k in hand and affordable(state, power, k)]


def may_answer(state: SpiesState, power: str | None, kinds: tuple[str, ...]) -> bool:
    """Whether ``power`` is asked to answer with one of ``kinds``: from public facts only (it
    holds some chit, and it can pay for one of those kinds), so that being asked tells the
    other seats nothing about its hand (nor, with secret money, about its money)."""
    if power is None or not state.hands.chits[power] or state.russia_restricted(power):
        return False  # after the Pact a bidder plays no chit for Russia (8.5)
    if state.secret_money:  # its money is hidden too: asked whenever it holds a chit
        return True
    return any(affordable(state, power, k) for k in kinds)


def pay(state: SpiesState, power: str, chit: str, what: str) -> None:
    """``power`` plays ``chit`` (it goes back to the cup, face up for all to see) for ``what``."""
    money, points = cost(state, power, chit)
    state.hands.chits[power].remove(chit)
    state.hands.cup.append(chit)
    state.hands.cup.sort()
    memory.played(state, power, chit)
    money_.change(state, power, -money)
    state.turn.action_points -= points
    price = f"£{money}" + (f" and {points} Action Point{'s' * (points > 1)}" if points else "")
    state.say(f"{power} plays {chit} ({price}): {what}")
