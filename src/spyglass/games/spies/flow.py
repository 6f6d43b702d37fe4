"""The order of play: one table of what follows each phase on each event (rules 2.4-2.9, 3.1-3.9,
7.0 and 8.5's bidding).

The rule modules never call each other to move the game on: a function that ends a step returns
an event (a piece placed, bids settled, a step done, a step cut short by rule 8.5), and
:func:`advance` looks up ``FLOW[phase][event]``, the step that begins next. A step that has
nothing to do at once (a power with no tile of the year, no police on the map, no spy to search
for) returns the next event itself, so one table holds every path through a year, as
boardgame.io's phase map does.

Set-up places the Secrets, then the police, then (after the Action Chits are drawn) the spies,
power by power; each year every power then takes a turn: its event tile, police re-arrangement,
searches and movement, until the final year is complete. With bidding for Russia, the bids open
Russia's Secrets in 1933 and Russia's turn in later years.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import bidding, deployment, events, police
from .geography import POWERS
from .steps import (
    DONE,
    MOVE,
    OVER,
    PLACED,
    POLICE,
    REARRANGE,
    RESTRICTED,
    SEARCH,
    SECRETS,
    SET_UP,
    SETTLED,
    SETUP_PHASES,
    SPIES,
    TILE,
)

if TYPE_CHECKING:
    from .rules import SpiesState


FIRST_YEAR, LAST_YEAR = 1933, 1939

#: A step: it enters a phase (or moves the set-up on) and returns the event that ends it at
#: once, or None when a decision is awaited.
Step = Callable[["SpiesState"], "str | None"]


def advance(state: SpiesState, event: str | None) -> None:
    """Follow the table from ``event`` until a step waits for a decision."""
    while event is not None:
        event = FLOW[state.phase][event](state)


# ---------------------------------------------------------------- set-up (rules 2.4-2.8, 8.5)


def next_placement(state: SpiesState) -> str | None:
    """Move on to the next power with pieces to place, or the next set-up step."""
    while deployment.remaining(state, state.power) == 0:
        state.power_index += 1
        if state.power_index == len(POWERS):
            state.power_index = 0
            step = SETUP_PHASES.index(state.phase) + 1
            if step == len(SETUP_PHASES):
                return SET_UP
            state.phase = SETUP_PHASES[step]
            if state.phase == SPIES:
                deployment.draw_chits(state)
    return None


def after_placing(state: SpiesState) -> str | None:
    """A piece is placed: the next placement; with bidding for Russia, the first bids come just
    before Russia places its Secrets (8.5)."""
    event = next_placement(state)
    if (
        event is None
        and state.phase == SECRETS
        and state.bid_for_russia(state.power)
        and state.auction.russia_seat is None
        and not state.pending
    ):
        return bidding.start(state)
    return event


def first_turn(state: SpiesState) -> str | None:
    state.say(f"{state.year} begins")
    return begin_turn(state)


# ---------------------------------------------------------------- a power's turn (3.1-3.9)


def begin_turn(state: SpiesState) -> str | None:
    """The start of a power's turn: a fresh 12 Action Points and per-turn limits; with bidding,
    Russia's turn opens with the year's bids (8.5; 1933's came at set-up)."""
    state.turn.begin()
    covered = state.board.covered
    for label in [s for s, p in covered.items() if p == state.power]:
        del covered[label]  # Cover lasts until the start of its power's next turn
    state.say(f"{state.year}: {state.power}'s turn")
    state.phase = TILE
    if state.bid_for_russia(state.power) and state.year > FIRST_YEAR:
        return bidding.start(state)
    return begin_tile(state)


def begin_tile(state: SpiesState) -> str | None:
    """Rule 3.21: the turn opens with an event tile played or discarded; a power with no tile of
    the year (nor an "Any Year" one) goes straight on to its police."""
    state.phase = TILE
    if state.russia_restricted(state.power):
        state.say("after the Pact, Russia's bidder may only search with its police (8.5)")
        return RESTRICTED
    if events.has_tile(state):
        return None
    state.say(f"{state.power} has no Event Tile it may play or discard this year")
    return DONE


def begin_rearrangement(state: SpiesState) -> str | None:
    """Rule 3.3; a power with no police on the map goes straight on to its searches."""
    state.phase = REARRANGE
    if not any(u.power == state.power for u in state.board.police.values()):
        return DONE
    return None


def begin_searches(state: SpiesState) -> str | None:
    """Searches follow the re-arrangement (rule 3.4); with no enemy spy to search for, the turn
    goes on to movement."""
    state.phase = SEARCH
    if not police.search_actions(state):
        return searches_over(state)
    return None


def searches_over(state: SpiesState) -> str:
    """After the Pact a bidder only searches with Russia (8.5): its turn ends with them."""
    return RESTRICTED if state.russia_restricted(state.power) else DONE


def begin_movement(state: SpiesState) -> str | None:
    state.phase = MOVE
    return None


def end_turn(state: SpiesState) -> str | None:
    """The next power's turn, or the next year's first, or the end of the game."""
    state.say(f"{state.power} ends its turn with {state.turn.action_points} Action Points unused")
    state.power_index += 1
    if state.power_index == len(POWERS):
        state.power_index = 0
        if state.year == state.last_year:
            state.phase = OVER
            state.say(f"{state.year} is complete: the game is over")
            return None
        state.year += 1
        state.say(f"{state.year} begins")
        for label in state.board.secrets:  # with two players, Russia's new player looks
            state.look(label)
    return begin_turn(state)


#: phase -> event -> the step that follows.
FLOW: dict[str, dict[str, Step]] = {
    SECRETS: {PLACED: after_placing, SETTLED: next_placement},
    POLICE: {PLACED: after_placing},
    SPIES: {PLACED: after_placing, SET_UP: first_turn},
    TILE: {SETTLED: begin_tile, DONE: begin_rearrangement, RESTRICTED: begin_searches},
    REARRANGE: {DONE: begin_searches},
    SEARCH: {DONE: begin_movement, RESTRICTED: end_turn},
    MOVE: {DONE: end_turn},
    OVER: {},
}


def enter(state: SpiesState, step: Step) -> None:
    """Begin ``step`` now and follow the table from there (tests build positions this way)."""
    advance(state, step(state))
