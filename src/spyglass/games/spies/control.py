"""Secrets (rule 3.7): who controls them, how control passes, carrying and cashing, and the
Counterspy's strength comparison (rules 3.5 and 5.2).

A Secret in play is uncontrolled, or controlled by the one spy or police unit on top of it
(each piece controls one Secret at most). In this slice control changes hands by:

- ``X3 to Ge1``: an own piece in the Secret's city takes it over, from nobody or from another
  own piece. From nobody only for the power's original Secret in its home territory (a spy
  anywhere there, a police unit only in the city the Secret started in); a foreign Secret is
  taken only with a Discovery chit (``plays``) or from a spy just Sanctioned. A recaptured
  original passes to a police unit only in its starting city. Police hand Secrets to each
  other while re-arranging; spies pass them to and from spies and police while moving. Each
  piece takes control at most once a turn.
- ``X3 release``: the spy leaves the Secret uncontrolled in its city.
- Moving: a spy carries the Secret it controls, unless it is the power's own original Secret
  still settled in its starting city (that one it only guards: moving away leaves it).
- ``X3 cash``: a spy in its power's capital on its turn cashes a foreign Secret for £20 and an
  Action Chit; the Secret goes face up on the record under the year it was taken.

An original Secret becomes *loose* when moved away from its starting city, and settles again
once it lies there uncontrolled or under one of its power's police units: then its own spies
may guard it but not carry it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spyglass.engine import Action

from . import chits, money
from .captures import capture
from .notation import action
from .pieces import ACTIVE, CASHED, IN_PLAY, REMOVED, Secret

if TYPE_CHECKING:
    from .rules import SpiesState

CASH_MONEY = 20  # rule 3.7


def _pieces(state: SpiesState, power: str) -> dict[str, str]:
    """The power's active pieces on the map: label -> city."""
    found = {s.label: s.place for s in state.board.spies.values()
             if s.power == power and s.status == ACTIVE}  # fmt: skip
    found.update((u.label, u.city) for u in state.board.police.values() if u.power == power)
    return found


def may_take(state: SpiesState, secret: Secret, piece: str, power: str) -> bool:
    """Whether ``piece`` (of ``power``, in the Secret's city, free) may take control of it."""
    police = piece in state.board.police
    if secret.holder is None:
        if secret.origin != power or state.territory(secret.place) != power:
            return False  # anything else needs a Discovery chit
        return not police or secret.place == secret.home
    if state.piece_power(secret.holder) != power:
        return False  # enemy-controlled: only by Discovery, or from a victim of a Sanction
    if police and secret.origin == power:
        return secret.place == secret.home
    return True


def control_actions(state: SpiesState, police_phase: bool) -> list[Action]:
    """Control moves of the power to play: in the re-arrangement between police units, while
    moving with a spy on at least one side."""
    if state.turn.voyage is not None:
        return []
    power = state.power
    pieces = _pieces(state, power)
    busy = {s.holder for s in state.board.secrets.values() if s.holder is not None}
    capital = state.edition.map.capital(power)
    cities = set(pieces.values())
    actions = []
    for secret in state.board.secrets.values():
        if secret.status != IN_PLAY or secret.place not in cities:
            continue
        holder = secret.holder
        if holder is not None and state.piece_power(holder) != power:
            continue
        held_by_spy = holder is not None and holder in state.board.spies
        for piece, city in pieces.items():
            if city != secret.place or piece in busy or piece in state.turn.took:
                continue
            spy = piece in state.board.spies
            if police_phase and (spy or held_by_spy):
                continue
            if not police_phase and not (spy or held_by_spy):
                continue
            if may_take(state, secret, piece, power):
                actions.append(action("control", (secret.label, piece)))
        if held_by_spy and not police_phase:
            actions.append(action("release", secret.label))
            if secret.origin != power and secret.place == capital:
                actions.append(action("cash", secret.label))
    return actions


def apply_control(state: SpiesState, label: str, piece: str) -> None:
    secret = state.board.secrets[label]
    before = secret.holder
    state.turn.took.add(piece)
    state.set_holder(label, piece)
    if before is None:
        state.say(f"{piece} takes control of Secret {label} in {secret.place}")
    else:
        state.say(f"{before} passes Secret {label} to {piece} in {secret.place}")


def apply_release(state: SpiesState, label: str) -> None:
    secret = state.board.secrets[label]
    state.say(f"{secret.holder} leaves Secret {label} uncontrolled in {secret.place}")
    state.set_holder(label, None)


def apply_cash(state: SpiesState, label: str) -> None:
    power = state.power
    secret = state.board.secrets[label]
    year = secret.taken if secret.taken is not None else state.year
    state.board.secrets[label] = replace(
        secret, holder=None, status=CASHED, record=power, taken=year
    )
    state.publish([label])
    money.change(state, power, CASH_MONEY)
    face = state.edition.secret(secret.card).face
    state.say(
        f"{power} cashes Secret {label} ({face}) in {secret.place}: £{CASH_MONEY} and an "
        f"Action Chit; the Secret goes on its record under {year}"
    )
    chits.draw(state, power)


def carry(state: SpiesState, spy: str, place: str) -> None:
    """``spy`` has moved to ``place``: the Secret it controls goes along, or stays behind if it
    is the power's own settled original."""
    label = state.held_by(spy)
    if label is None:
        return
    secret = state.board.secrets[label]
    if secret.origin == state.board.spies[spy].power and not secret.loose:
        state.set_holder(label, None)
        state.say(f"{spy} leaves Secret {label} in {secret.place}: a settled original stays")
        return
    state.board.secrets[label] = replace(secret, place=place, loose=secret.origin is not None)
    state.settle(label)


def counterspy(state: SpiesState, spy_label: str, label: str) -> bool:
    """A spy has discovered Secret ``label`` (rule 3.5): if it is a Counterspy, its strength is
    compared with the spy's and it leaves play, face up. Returns whether the spy was captured.

    The captor is the power whose piece controls the Counterspy, or else the power whose
    original Secret it is; in a neutral country the spy goes to the box of spies captured there
    and nobody gains anything. A Cousin is never captured by a Counterspy (rule 5.2)."""
    secret = state.board.secrets[label]
    card = state.edition.secret(secret.card)
    if not card.counterspy:
        return False
    spy = state.board.spies[spy_label]
    captor = captor_of(state, spy_label, label)
    looker = state.piece_power(secret.holder) if secret.holder else secret.origin
    state.board.secrets[label] = replace(secret, holder=None, status=REMOVED)
    state.publish([label])
    if looker is not None and looker != spy.power:
        state.reveal([spy_label], state.controller(looker))  # it looks at the spy's strength
    outcome = "cousin" if spy.cousin else "captured" if card.counterspy > spy.strength else "stood"
    state.board.duels.append(("counterspy", spy_label, label, outcome))
    if spy.cousin:
        state.publish([spy_label])  # everyone learns it is the Cousin
        state.say(f"Secret {label} is a Counterspy ({card.face}); {spy_label} is a Cousin, "
                   "never caught by one: the Counterspy leaves play")  # fmt: skip
        return False
    caught = card.counterspy > spy.strength
    state.say(
        f"Secret {label} is a Counterspy ({card.face}): "
        + ("it captures the spy" if caught else "the spy is as strong: no effect")
        + "; the Counterspy leaves play",
        {state.controller(spy.power)} | ({state.controller(looker)} if looker else set()),
        f"Secret {label} is a Counterspy ({card.face}): "
        + ("it captures " + spy_label if caught else "no effect")
        + "; it leaves play",
    )
    if caught:
        capture(state, spy_label, captor)
    return caught


def captor_of(state: SpiesState, spy_label: str, label: str) -> str | None:
    """Who would capture ``spy_label`` with the Counterspy ``label``: the power whose piece
    controls it, else the power whose original it is; nobody (None: the neutral-country box)
    in a neutral country, nor the spy's own power."""
    secret = state.board.secrets[label]
    spy = state.board.spies[spy_label]
    captor = state.piece_power(secret.holder) if secret.holder else secret.origin
    if state.territory(spy.place) is None or captor == spy.power:
        return None
    return captor
