"""A police strength comparison (rules 3.4, 4.1) and a spy's capture (rule 3.5).

A **strength comparison** shows the counters to the two sides: the spy's owner sees the police
units' faces and the searcher sees the spy's. The police (both units together if there are two)
capture the spy only if strictly stronger. The captor puts the spy on its Time and Victory
Record (face up: the record is the public score track) and gains £3 and an Action Chit; a
Secret the spy controlled stays in the city, uncontrolled.

Searches (``police``), the answers to them (``reactions``) and Counterspies (``control``) all
end here, so this module imports none of them: the three import it, and not each other in a
circle.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import chits, money
from .pieces import CAPTURED

if TYPE_CHECKING:
    from .rules import SpiesState

CAPTURE_MONEY = 3  # rule 3.5


def units_in(state: SpiesState, power: str, city: str) -> list[str]:
    return [u.label for u in state.board.police.values() if u.power == power and u.city == city]


def compare(state: SpiesState, power: str, label: str) -> bool:
    """A police strength comparison (rules 3.4, 4.1): both sides see the counters; the spy is
    captured if the police are strictly stronger. Returns whether it was."""
    spy = state.board.spies[label]
    units = units_in(state, power, spy.place)
    force = sum(state.board.police[u].strength for u in units)
    captured = force > spy.strength
    state.reveal(units, state.controller(spy.power))
    state.reveal([label], state.controller(power))
    state.board.comparisons.append((tuple(units), label, captured))
    outcome = "captured" if captured else "no effect"
    state.say(
        f"{power} searches for {label} in {spy.place}: police {'+'.join(units)} strength "
        f"{force} against the spy's {spy.strength}: {outcome}",
        {state.controller(power), state.controller(spy.power)},
        f"{power} searches for {label} in {spy.place} with police {'+'.join(units)}: {outcome}",
    )
    if captured:
        capture(state, label, power)
    return captured


def capture(state: SpiesState, label: str, captor: str | None) -> None:
    """``label`` is captured (rule 3.5): onto ``captor``'s record with £3 and a chit, or into the
    box of spies captured in neutral countries (``captor`` None), with no reward."""
    spy = state.board.spies[label]
    state.board.spies[label] = replace(spy, status=CAPTURED, captor=captor, year=state.year)
    state.board.covered.pop(label, None)
    if label == state.turn.moving:
        state.turn.finish_moving()
    held = state.held_by(label)
    if held is not None:
        state.set_holder(held, None)
        state.say(f"Secret {held} stays in {spy.place}, uncontrolled")
    if captor is None:
        state.say(f"{label} goes to the box of spies captured in neutral countries")
        return
    state.publish([label])
    money.change(state, captor, CAPTURE_MONEY)
    state.say(
        f"{captor} puts {label} ({spy.face}) on its record under {state.year} "
        f"and gains £{CAPTURE_MONEY} and an Action Chit"
    )
    chits.draw(state, captor)
