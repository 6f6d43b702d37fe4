"""Actions that others may answer with chits (rules 3.4-3.5, 4.2, 5.2), played out step by step.

A **contest** is one action that opens a window for chits: a search (either kind), a Sanction, a
Discovery (and the Counterspy it may uncover), an Escape from a record, a Drop. It runs through
stages; at each one the power that may answer is asked, and while it decides the seat playing it
is the one to move (a ``REACT`` entry at the head of ``pending``):

- ``avoid``: the owner of a searched spy may play Papers, Escape or Cover; the owner of a spy
  that uncovered a Counterspy may play Escape. Either way the strength comparison does not take
  place (Cover also shields the spy until its power's next turn).
- ``cover``: the owner of the spy a Sanction aims at, or of the spy controlling the Secret a
  Discovery aims at, may play Cover: the chit's play fails.
- ``cross``: once a Sanction, Discovery or Escape has come out in the actor's favour, the other
  power involved may reverse it with a Double Cross; the first may reverse that with another,
  and so on (rule 4.2: only those two). An odd number of Double Crosses reverses the action;
  the action takes effect only when the chain is over.
- ``intercept``: each other power with a free spy or police unit in a Drop's city, in turn
  order after the dropper, may play Intercept: that piece takes the Secret and the Drop fails.
- ``spoils``: after a Sanction stands, the assassin may take the Secret its victim controlled.

A power is asked whenever public facts allow it to answer (it holds a chit, and it could pay for
one of the kinds that fit), so that being asked tells nobody what it holds; it may always pass.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from spyglass.engine import Action

from . import captures, chits, control
from .notation import action
from .pieces import ACTIVE, REMOVED, SANCTIONED

if TYPE_CHECKING:
    from .rules import SpiesState

REACT = "react"  # the kind of a pending decision that belongs to the contest
SEARCH, SANCTION, DISCOVERY, COUNTERSPY, ESCAPE, DROP = (
    "search", "sanction", "discovery", "counterspy", "escape", "drop",
)  # fmt: skip
AVOID, COVER, CROSS, INTERCEPT, SPOILS = "avoid", "cover", "cross", "intercept", "spoils"
PAPERS, ESCAPE_CHIT, COVER_CHIT, DOUBLE_CROSS, INTERCEPT_CHIT = (
    "Papers", "Escape", "Cover", "Double-Cross", "Intercept",
)  # fmt: skip
AVOIDANCE = {SEARCH: (PAPERS, ESCAPE_CHIT, COVER_CHIT), COUNTERSPY: (ESCAPE_CHIT,)}
PASS = action("pass", None)
KILLED, FAILED, BACKFIRE = "killed", "failed", "backfire"  # a Sanction's outcomes


@dataclass(frozen=True, slots=True)
class Contest:
    """An action open to answers. ``actor``: the power whose action it is; ``other``: the other
    power involved (None if nobody may answer it); ``spy``: the spy searched for, or the one
    acting; ``target``: the victim (Sanction), the receiving piece (Drop); ``secret``: the
    Secret aimed at (Discovery, Counterspy, Drop) or the victim's (spoils); ``crosses``: Double
    Crosses so far; ``asking``: powers still to ask (Intercept)."""

    kind: str
    actor: str
    other: str | None
    spy: str
    stage: str
    target: str | None = None
    secret: str | None = None
    crosses: int = 0
    asking: tuple[str, ...] = ()

    def to_json(self) -> list[object]:
        return [self.kind, self.actor, self.other, self.spy, self.stage, self.target,
                self.secret, self.crosses, list(self.asking)]  # fmt: skip


def involved(state: SpiesState, power: str | None, actor: str) -> str | None:
    """``power`` if it may answer ``actor``'s action: another power, played by another seat
    (rule 7.0 treats a seat's two powers apart but lets nothing pass between them)."""
    if power is None or power == actor or state.controller(power) == state.controller(actor):
        return None
    return power


# ------------------------------------------------------------------------- running a contest


def start(state: SpiesState, contest: Contest) -> None:
    state.contest = contest
    advance(state)


def decider(state: SpiesState, contest: Contest) -> str | None:
    """The power to answer at this stage (None: nobody)."""
    if contest.stage == AVOID:
        return state.board.spies[contest.spy].power
    if contest.stage == COVER:
        victim = decider_spy(state, contest)
        return state.board.spies[victim].power if victim in state.board.spies else None
    if contest.stage == CROSS:
        doer, undoer = _sides(state, contest)
        return undoer if contest.crosses % 2 == 0 else doer
    if contest.stage == INTERCEPT:
        return contest.asking[0] if contest.asking else None
    return contest.actor  # spoils


def _sides(state: SpiesState, contest: Contest) -> tuple[str, str | None]:
    """Who did the action a Double Cross would reverse, and who may reverse it."""
    if contest.kind in (SEARCH, COUNTERSPY):  # the Escape of the spy's owner
        owner = state.board.spies[contest.spy].power
        return owner, contest.actor if owner != contest.actor else contest.other
    return contest.actor, contest.other


def _kinds(contest: Contest) -> tuple[str, ...]:
    if contest.stage == AVOID:
        return AVOIDANCE[contest.kind]
    return {COVER: (COVER_CHIT,), CROSS: (DOUBLE_CROSS,), INTERCEPT: (INTERCEPT_CHIT,)}[
        contest.stage
    ]


def advance(state: SpiesState) -> None:
    """Ask whoever may answer at this stage, or move on without asking."""
    contest = state.contest
    if contest is None:
        return
    power = decider(state, contest)
    if contest.stage == SPOILS:
        state.pending.insert(0, (REACT, contest.actor, contest.secret))  # its decider
    elif contest.stage == INTERCEPT and power is not None and not _free(state, power, contest):
        state.contest = replace(contest, asking=contest.asking[1:])
        advance(state)
    elif power is not None and chits.may_answer(state, power, _kinds(contest)):
        state.pending.insert(0, (REACT, power, contest.spy))
    else:
        _go_on(state, None)


def reaction_actions(state: SpiesState) -> list[Action]:
    contest = state.contest
    assert contest is not None
    power = decider(state, contest)
    assert power is not None
    if contest.stage == SPOILS:
        return [action("control", (contest.secret, contest.spy)), PASS]
    if contest.stage == INTERCEPT:
        if not chits.usable(state, power, (INTERCEPT_CHIT,)):
            return [PASS]
        return [action("chit", (INTERCEPT_CHIT, p)) for p in _free(state, power, contest)] + [PASS]
    return [action("chit", (k,)) for k in chits.usable(state, power, _kinds(contest))] + [PASS]


def _free(state: SpiesState, power: str, contest: Contest) -> list[str]:
    """``power``'s pieces in the Drop's city that control no Secret (they may intercept)."""
    city = state.board.spies[contest.spy].place
    busy = {s.holder for s in state.board.secrets.values() if s.holder is not None}
    spies = [s.label for s in state.board.spies.values()
             if s.power == power and s.status == ACTIVE and s.place == city]  # fmt: skip
    return [p for p in spies + captures.units_in(state, power, city) if p not in busy]


def answer(state: SpiesState, act: Action) -> None:
    """Apply the deciding power's answer (a chit or ``pass``)."""
    state.pending.pop(0)
    contest = state.contest
    assert contest is not None
    power = decider(state, contest)
    assert power is not None
    if contest.stage == SPOILS:
        state.contest = None
        if act.kind == "control":
            control.apply_control(state, contest.secret, contest.spy)  # type: ignore[arg-type]
        else:
            state.say(f"{contest.spy} leaves Secret {contest.secret} where it lies")
        return
    if act.kind == "pass":
        state.say(f"{power} plays no chit")
        _go_on(state, None)
        return
    chit = act.target[0]
    if contest.stage == INTERCEPT:
        _intercept(state, contest, power, act.target[1])
        return
    shielded = contest.spy if contest.stage == AVOID else decider_spy(state, contest)
    what = {
        PAPERS: f"{contest.spy} shows its papers: no strength comparison",
        ESCAPE_CHIT: f"{contest.spy} slips away: no strength comparison",
        COVER_CHIT: f"{shielded} takes cover until {power}'s next turn",
        DOUBLE_CROSS: f"a Double Cross against the {_what(contest)}",
    }[chit]
    chits.pay(state, power, chit, what)
    if chit == COVER_CHIT:
        assert shielded is not None  # Cover is offered only with a spy to shield
        state.board.covered[shielded] = power
    _go_on(state, chit)


def decider_spy(state: SpiesState, contest: Contest) -> str | None:
    """The spy a Cover answer shields at the ``cover`` stage (None at other stages)."""
    if contest.stage != COVER:
        return None
    if contest.kind == SANCTION:
        return contest.target
    return state.board.secrets[contest.secret].holder  # type: ignore[index]


def _what(contest: Contest) -> str:
    return {SEARCH: "Escape", COUNTERSPY: "Escape", SANCTION: "Sanction",
            DISCOVERY: "Discovery", ESCAPE: "Escape", DROP: "Drop"}[contest.kind]  # fmt: skip


def _go_on(state: SpiesState, chit: str | None) -> None:
    """The stage is over with ``chit`` played (None: nobody answered): on to the next."""
    contest = state.contest
    assert contest is not None
    stage = contest.stage
    if stage == AVOID:
        if chit == ESCAPE_CHIT:
            state.contest = replace(contest, stage=CROSS)
            advance(state)
        else:
            _resolve_avoidance(state, contest, avoided=chit is not None)
    elif stage == COVER:
        if chit is not None:
            state.contest = None
            state.say(f"the {contest.kind.capitalize()} fails: its target is under Cover")
        elif contest.kind == SANCTION:
            _sanction(state, contest)
        else:
            _discovery(state, contest)
    elif stage == CROSS:
        if chit is not None:
            state.contest = replace(contest, crosses=contest.crosses + 1)
            advance(state)
        else:
            _finish(state, contest, reversed_=contest.crosses % 2 == 1)
    elif stage == INTERCEPT:
        state.contest = replace(contest, asking=contest.asking[1:])
        if state.contest.asking:
            advance(state)
        else:
            _deliver(state, contest)


# ------------------------------------------------------------------------- the outcomes


def _resolve_avoidance(state: SpiesState, contest: Contest, avoided: bool) -> None:
    """A search or a Counterspy's comparison: avoided by a chit, or made."""
    state.contest = None
    if contest.kind == SEARCH:
        spy = state.board.spies[contest.spy]
        if avoided:
            state.say(f"{contest.actor}'s search for {contest.spy} in {spy.place} finds nothing")
        elif spy.status == ACTIVE:
            captures.compare(state, contest.actor, contest.spy)
        return
    label = contest.secret
    assert label is not None
    if avoided:
        state.board.secrets[label] = replace(
            state.board.secrets[label], holder=None, status=REMOVED
        )
        state.say(f"the Counterspy {label} leaves play without a comparison")
    else:
        control.counterspy(state, contest.spy, label)


def _finish(state: SpiesState, contest: Contest, reversed_: bool) -> None:
    """The Double Cross chain is over: the action stands, or is reversed (no effect at all)."""
    state.contest = None
    if contest.kind in (SEARCH, COUNTERSPY):
        if reversed_:
            state.say(f"the Escape is reversed: {contest.spy} faces the comparison")
        _resolve_avoidance(state, contest, avoided=not reversed_)
        return
    if reversed_:
        state.say(f"the {_what(contest)} is reversed: it has no effect")
        return
    if contest.kind == SANCTION:
        _kill(state, contest)
    elif contest.kind == DISCOVERY:
        spy, label = contest.spy, contest.secret
        state.turn.took.add(spy)
        state.set_holder(label, spy)  # type: ignore[arg-type]
        state.say(f"{spy} takes control of Secret {label}")
    else:
        _escape(state, contest)


def _sanction(state: SpiesState, contest: Contest) -> None:
    """The comparison of a Sanction (both sides see the counters; the outcome is public)."""
    attacker, victim = state.board.spies[contest.spy], state.board.spies[contest.target]  # type: ignore[index]
    state.reveal([attacker.label], state.controller(victim.power))
    state.reveal([victim.label], state.controller(attacker.power))
    if victim.cousin and not attacker.cousin:
        outcome = BACKFIRE
    else:
        outcome = KILLED if attacker.strength >= victim.strength else FAILED
    state.board.duels.append((SANCTION, attacker.label, victim.label, outcome))
    if outcome == BACKFIRE:
        state.contest = None
        state.publish([victim.label])
        state.say(
            f"{victim.label} is {victim.power}'s Cousin: only a Cousin may Sanction it (rule "
            f"5.2); {attacker.label} is killed instead"
        )
        kill(state, attacker.label, victim.power)
        return
    state.say(
        f"Sanction: {attacker.label} ({attacker.face}) against {victim.label} ({victim.face}): "
        + ("the victim falls" if outcome == KILLED else "it fails"),
        {state.controller(attacker.power), state.controller(victim.power)},
        f"Sanction: {attacker.label} against {victim.label}: "
        + ("the victim falls" if outcome == KILLED else "it fails"),
    )
    if outcome == FAILED:
        state.contest = None
        return
    state.contest = replace(contest, stage=CROSS)
    advance(state)


def _kill(state: SpiesState, contest: Contest) -> None:
    victim = contest.target
    assert victim is not None
    held = state.held_by(victim)
    kill(state, victim, contest.actor)
    if held is not None and state.held_by(contest.spy) is None:
        state.contest = Contest(SPOILS, contest.actor, None, contest.spy, SPOILS, secret=held)
        advance(state)


def kill(state: SpiesState, label: str, killer: str) -> None:
    """``label`` goes to the Sanctioned Spies box, face up; ``killer`` takes a Sanctioned marker
    of its strength, under the year (rules 5.2 and 6.0)."""
    spy = state.board.spies[label]
    state.board.spies[label] = replace(spy, status=SANCTIONED, captor=None, year=state.year)
    if label == state.turn.moving:
        state.turn.finish_moving()
    state.board.covered.pop(label, None)
    held = state.held_by(label)
    if held is not None:
        state.set_holder(held, None)
        state.say(f"Secret {held} stays in {spy.place}, uncontrolled")
    state.publish([label])
    state.board.markers.append((killer, label, spy.strength, state.year))
    state.say(
        f"{label} ({spy.face}) goes to the Sanctioned Spies box; {killer} takes a Sanctioned "
        f"marker of {spy.strength} under {state.year}"
    )


def _discovery(state: SpiesState, contest: Contest) -> None:
    """A Discovery after its Cover window: the strength comparison with an enemy holder, then a
    Counterspy's comparison, or control of the Secret once the Double Crosses are over."""
    label, spy = contest.secret, state.board.spies[contest.spy]
    assert label is not None
    secret = state.board.secrets[label]
    holder = secret.holder
    if holder is not None:
        force = (state.board.spies.get(holder) or state.board.police[holder]).strength
        owner = state.piece_power(holder)
        won = spy.strength > force
        state.reveal([spy.label], state.controller(owner))
        state.reveal([holder], state.controller(spy.power))
        state.board.duels.append((DISCOVERY, spy.label, holder, "won" if won else "lost"))
        state.say(
            f"Discovery: {spy.label} ({spy.strength}) against {holder} ({force}): "
            + ("the spy is stronger" if won else "the holder keeps the Secret"),
            {state.controller(spy.power), state.controller(owner)},
            f"Discovery: {spy.label} against {holder}: "
            + ("the spy is stronger" if won else "the holder keeps the Secret"),
        )
        if not won:
            state.contest = None
            return
    card = state.edition.secret(secret.card)
    if card.counterspy and secret.origin != spy.power:  # its own power's trap spares it
        captor = control.captor_of(state, spy.label, label)
        state.publish([label])
        state.say(f"Secret {label} is a Counterspy ({card.face})")
        state.contest = Contest(
            COUNTERSPY, spy.power, involved(state, captor, spy.power), spy.label, AVOID,
            secret=label,
        )  # fmt: skip
        advance(state)
        return
    if secret.origin != spy.power:  # everyone now knows it was no Counterspy
        state.board.plain.add(label)
    state.contest = replace(contest, stage=CROSS)
    advance(state)


def _escape(state: SpiesState, contest: Contest) -> None:
    spy = state.board.spies[contest.spy]
    capital = state.edition.map.capital(spy.power)
    where = (
        f"{spy.captor}'s record" if spy.captor else "the box of spies captured in neutral countries"
    )
    state.board.spies[spy.label] = replace(
        spy, status=ACTIVE, place=capital, captor=None, year=None
    )
    state.say(f"{spy.label} escapes from {where} and returns to {capital}")


def _intercept(state: SpiesState, contest: Contest, power: str, piece: str) -> None:
    label = contest.secret
    assert label is not None
    chits.pay(state, power, INTERCEPT_CHIT, f"{piece} intercepts the Drop of Secret {label}")
    state.contest = None
    state.set_holder(label, piece)


def _deliver(state: SpiesState, contest: Contest) -> None:
    """Nobody intercepted: the Secret goes to the receiving piece, wherever it is."""
    state.contest = None
    label, piece = contest.secret, contest.target
    assert label is not None and piece is not None
    secret = state.board.secrets[label]
    there = (
        state.board.spies[piece].place
        if piece in state.board.spies
        else state.board.police[piece].city
    )
    state.board.secrets[label] = replace(secret, place=there, loose=secret.origin is not None)
    state.turn.took.add(piece)
    state.set_holder(label, piece)
    state.say(f"Secret {label} reaches {piece} in {there}")


# ------------------------------------------------------------------------- words


def question(state: SpiesState) -> str:
    """What the deciding power is asked, in a few words (status line, illegal moves)."""
    contest = state.contest
    assert contest is not None
    power = decider(state, contest)
    if contest.stage == SPOILS:
        take = f"'{contest.secret} to {contest.spy}'"
        return f"{power} may take Secret {contest.secret} from its victim ({take} or 'pass')"
    if contest.stage == AVOID:
        what = "a search" if contest.kind == SEARCH else "the Counterspy"
        kinds = " or ".join(AVOIDANCE[contest.kind])
        return f"{power} may answer {what} of {contest.spy} with {kinds}, or pass"
    if contest.stage == COVER:
        return f"{power} may answer the {contest.kind.capitalize()} with Cover, or pass"
    if contest.stage == CROSS:
        return f"{power} may reverse the {_what(contest)} with a Double Cross, or pass (rule 4.2)"
    return f"{power} may Intercept the Drop of Secret {contest.secret} with a piece there, or pass"


def why_not(state: SpiesState) -> str:
    return (
        f"{question(state)}; only the chits it holds and can pay for are offered (rules 4.2, 3.8)"
    )


def describe_pass(state: SpiesState) -> str:
    contest = state.contest
    assert contest is not None
    if contest.stage == SPOILS:
        return f"Leave Secret {contest.secret} uncontrolled."
    if contest.stage == AVOID:
        return f"Play no chit: {contest.spy} faces the strength comparison."
    if contest.stage == CROSS:
        return f"Let the {_what(contest)} stand as it is now."
    if contest.stage == INTERCEPT:
        return "Let the Drop go by."
    return f"Play no Cover: the {contest.kind.capitalize()} goes ahead."


def describe_answer(state: SpiesState, target: tuple[str, ...]) -> str:
    contest = state.contest
    assert contest is not None
    power = decider(state, contest)
    assert power is not None
    chit = target[0]
    money, points = chits.cost(state, power, chit)
    price = f"£{money}" + (f" and {points} Action Points" if points else "")
    effect = {
        PAPERS: f"{contest.spy} avoids this police strength comparison",
        ESCAPE_CHIT: f"{contest.spy} avoids this strength comparison",
        COVER_CHIT: "the spy cannot be searched for, Sanctioned or robbed by a Discovery "
        f"until {power}'s next turn",
        DOUBLE_CROSS: f"reverse the {_what(contest)}",
        INTERCEPT_CHIT: f"{target[-1]} takes Secret {contest.secret} and the Drop fails",
    }[chit]
    return f"Play {chit} ({price}): {effect}."
