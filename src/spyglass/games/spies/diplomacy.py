"""Diplomacy (rules 3.9 and 4.3): trade offers of money, Action Chits and foreign Secrets.

On its own turn, during spy movement (nobody at sea, nothing waiting), a power may approach
another power played by another seat: ``approach France`` costs one Action Point and opens one
offer. The offer is built step by step, so that the list of moves stays short and every offer
is reachable:

- ``offer £5`` / ``ask £5``: money to give / to ask for, once a side, from a fixed ladder of
  sums (what a power gives is never more than it has);
- ``offer Papers`` / ``ask Papers``: one Action Chit of that kind, once per chit (a power offers
  only chits it holds; it asks for kinds, no more chits than the other holds, since it cannot
  see the other's hand);
- ``offer X3 to Fr2``: a foreign Secret one of its pieces controls passes to a piece of the
  other power in the same city that controls nothing; ``ask X5 to Ge2``: the other way round
  (rule 3.9: only foreign Secrets, never the giver's originals);
- ``send`` puts the offer to the other power; ``withdraw`` drops it (the point stays spent).

The other power's seat then decides at once (rule 4.3): ``accept`` (offered only if it holds
what is asked) or ``refuse``. Each approach carries one offer: a further offer, to the same
power or another, is a further approach and a further Action Point (3.9 charges again for
talks taken up after other actions). Haggling itself belongs to the table talk (the web app's
message channel), which moves nothing.

What others learn: that an approach was made and whether it was accepted are public; the
offer is seen only by the two powers' seats (the other by the time it is sent). Once a trade
is made, Secrets change hands on the map for all to see, money on the Bank Track (unless money
is kept secret: option ``secret_money``), and the chit counts change; which chits passed is
known to the two seats only. A seat remembers the chits it knows another power holds (handed to
it in a trade, or shown in an offer) until that power's hand changes out of its sight (see
``remember``); determinization keeps those chits in that hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from spyglass.engine import Action

from . import chits, memory, police
from .money import LADDER
from .notation import action
from .pieces import ACTIVE, IN_PLAY

if TYPE_CHECKING:
    from .rules import SpiesState

TALKS = "talks"  # the kind of a pending decision: the other power answers an offer
MONEY, CHIT, SECRET = "money", "chit", "secret"
SEND, WITHDRAW = action("send", None), action("withdraw", None)
ACCEPT, REFUSE = action("accept", None), action("refuse", None)
KINDS = ("approach", "offer", "ask", "send", "withdraw")  # the initiator's moves


@dataclass(frozen=True, slots=True)
class Offer:
    """An offer being built (``sent`` False) or awaiting an answer. ``give`` and ``ask`` hold
    items: (MONEY, sum), (CHIT, kind), (SECRET, label, receiving piece)."""

    initiator: str
    partner: str
    give: tuple[tuple[Any, ...], ...] = ()
    ask: tuple[tuple[Any, ...], ...] = ()
    sent: bool = False

    def to_json(self) -> list[object]:
        return [self.initiator, self.partner, [list(i) for i in self.give],
                [list(i) for i in self.ask], self.sent]  # fmt: skip

    @classmethod
    def from_json(cls, data: list[Any]) -> Offer:
        initiator, partner, give, ask, sent = data
        return cls(initiator, partner, tuple(tuple(i) for i in give),
                   tuple(tuple(i) for i in ask), sent)  # fmt: skip


def money_of(items: tuple[tuple[Any, ...], ...]) -> int:
    return sum(i[1] for i in items if i[0] == MONEY)


def chits_of(items: tuple[tuple[Any, ...], ...]) -> list[str]:
    return [i[1] for i in items if i[0] == CHIT]


def secrets_of(items: tuple[tuple[Any, ...], ...]) -> list[tuple[str, str]]:
    return [(i[1], i[2]) for i in items if i[0] == SECRET]


# ------------------------------------------------------------------------- who may talk


def may_trade(state: SpiesState, power: str, other: str) -> bool:
    """Whether ``power`` and ``other`` may trade: two powers of different seats (rule 7.0 lets
    nothing pass between a seat's two powers), neither of them Russia held by bidding (8.5)."""
    if power == other or state.controller(power) == state.controller(other):
        return False
    return not any(state.bid_for_russia(p) for p in (power, other))


def partners(state: SpiesState) -> list[str]:
    return [p.name for p in state.edition.powers if may_trade(state, state.power, p.name)]


def approach_actions(state: SpiesState) -> list[Action]:
    """``approach X`` for each power the power to play may trade with (one Action Point)."""
    if (
        state.turn.voyage is not None
        or state.turn.action_points < 1
        or state.talks.offer is not None
    ):
        return []
    return [action("approach", p) for p in partners(state)]


# ------------------------------------------------------------------------- building an offer


def _free_pieces(state: SpiesState, power: str, city: str) -> list[str]:
    """``power``'s active pieces in ``city`` that control no Secret."""
    busy = {s.holder for s in state.board.secrets.values() if s.holder is not None}
    spies = [s.label for s in state.board.spies.values()
             if s.power == power and s.status == ACTIVE and s.place == city]  # fmt: skip
    return [p for p in spies + police.units_in(state, power, city) if p not in busy]


def may_receive(state: SpiesState, label: str, piece: str) -> bool:
    """A police unit takes its own power's original only in the city it started in (3.7)."""
    secret = state.board.secrets[label]
    if piece in state.board.police and secret.origin == state.piece_power(piece):
        return secret.place == secret.home
    return True


def _tradeable(state: SpiesState, giver: str, taker: str, used: set[str]) -> list[tuple[str, str]]:
    """(Secret, receiving piece) pairs: a foreign Secret (to ``giver``) that a piece of
    ``giver`` controls, to a free piece of ``taker`` in its city; ``used``: the Secrets and
    pieces already in the offer."""
    found = []
    for secret in state.board.secrets.values():
        if secret.status != IN_PLAY or secret.holder is None or secret.label in used:
            continue
        if secret.origin == giver or state.piece_power(secret.holder) != giver:
            continue
        for piece in _free_pieces(state, taker, secret.place):
            if piece not in used and may_receive(state, secret.label, piece):
                found.append((secret.label, piece))
    return found


def compose_actions(state: SpiesState) -> list[Action]:
    """The steps open while the offer is being built."""
    offer = state.talks.offer
    assert offer is not None
    me, other = offer.initiator, offer.partner
    actions = []
    if not money_of(offer.give):
        actions += [action("offer", (MONEY, n)) for n in LADDER if n <= state.bank.money[me]]
    if not money_of(offer.ask):
        known = state.sees_money(state.controller(me), other)
        top = state.bank.money[other] if known else LADDER[-1]
        actions += [action("ask", (MONEY, n)) for n in LADDER if n <= top]
    left = Counter(state.hands.chits[me]) - Counter(chits_of(offer.give))
    actions += [action("offer", (CHIT, k)) for k in sorted(left)]
    if len(chits_of(offer.ask)) < len(state.hands.chits[other]):
        actions += [action("ask", (CHIT, c.name)) for c in state.edition.chits]
    used = {label for label, _ in secrets_of(offer.give) + secrets_of(offer.ask)}
    used |= {piece for _, piece in secrets_of(offer.give) + secrets_of(offer.ask)}
    actions += [action("offer", (SECRET, s, p)) for s, p in _tradeable(state, me, other, used)]
    actions += [action("ask", (SECRET, s, p)) for s, p in _tradeable(state, other, me, used)]
    return [*actions, SEND, WITHDRAW]


def answer_actions(state: SpiesState) -> list[Action]:
    """The other power accepts only if it holds what is asked of it."""
    offer = state.talks.offer
    assert offer is not None
    hand = Counter(state.hands.chits[offer.partner])
    able = not Counter(chits_of(offer.ask)) - hand
    able = able and money_of(offer.ask) <= state.bank.money[offer.partner]
    return [ACCEPT, REFUSE] if able else [REFUSE]


# ------------------------------------------------------------------------- applying


def apply(state: SpiesState, act: Action) -> None:
    kind = act.kind
    if kind == "approach":
        state.turn.action_points -= 1
        state.talks.offer = Offer(state.power, act.target)
        state.turn.approached.add(act.target)
        state.say(f"{state.power} approaches {act.target} (1 Action Point)")
    elif kind in ("offer", "ask"):
        offer = state.talks.offer
        assert offer is not None
        if kind == "offer":
            state.talks.offer = replace(offer, give=(*offer.give, act.target))
        else:
            state.talks.offer = replace(offer, ask=(*offer.ask, act.target))
    elif kind == "withdraw":
        offer = state.talks.offer
        assert offer is not None
        state.talks.offer = None
        state.say(f"{offer.initiator} makes {offer.partner} no offer")
    elif kind == "send":
        _send(state)
    elif kind == "accept":
        _trade(state)
    else:  # refuse
        offer = state.talks.offer
        assert offer is not None
        state.pending.pop(0)
        state.talks.offer = None
        state.say(f"{offer.partner} refuses {offer.initiator}'s offer")


def _send(state: SpiesState) -> None:
    assert state.talks.offer is not None
    offer = replace(state.talks.offer, sent=True)
    state.talks.offer = offer
    seats = {state.controller(offer.initiator), state.controller(offer.partner)}
    state.say(
        f"{offer.initiator} offers {offer.partner} {spell_items(offer.give)} for "
        f"{spell_items(offer.ask)}",
        seats,
        f"{offer.initiator} makes {offer.partner} an offer",
    )
    state.pending.insert(0, (TALKS, offer.partner, None))


def spell_items(items: tuple[tuple[Any, ...], ...]) -> str:
    if not items:
        return "nothing"
    words = []
    if money_of(items):
        words.append(f"£{money_of(items)}")
    words += chits_of(items)
    words += [f"Secret {s} (to {p})" for s, p in secrets_of(items)]
    return ", ".join(words)


def _trade(state: SpiesState) -> None:
    offer = state.talks.offer
    assert offer is not None
    state.pending.pop(0)
    state.talks.offer = None
    me, other = offer.initiator, offer.partner
    give, ask = offer.give, offer.ask
    state.transfer_money(me, other, money_of(give), money_of(ask))
    for chit in chits_of(give):
        state.hands.chits[me].remove(chit)
        state.hands.chits[other].append(chit)
    for chit in chits_of(ask):
        state.hands.chits[other].remove(chit)
        state.hands.chits[me].append(chit)
    state.hands.chits[me].sort()
    state.hands.chits[other].sort()
    remember(state, me, other, chits_of(give), chits_of(ask))
    for label, piece in secrets_of(give) + secrets_of(ask):
        state.set_holder(label, piece)
    seats = {state.controller(me), state.controller(other)}
    public = [f"£{n} from {p}" for p, n in ((me, money_of(give)), (other, money_of(ask)))
              if n and not state.secret_money]  # fmt: skip
    public += [f"Secret {s} to {p}" for s, p in secrets_of(give) + secrets_of(ask)]
    counts = [f"{len(chits_of(side))} chit(s) from {p}"
              for p, side in ((me, give), (other, ask)) if chits_of(side)]  # fmt: skip
    state.say(
        f"{other} accepts: {me} gives {spell_items(give)} and {other} gives {spell_items(ask)}",
        seats,
        f"{other} accepts {me}'s offer: " + ("; ".join(public + counts) or "nothing passes"),
    )
    for power in (me, other):  # a trade may take a hand over the limit of ten
        if len(state.hands.chits[power]) > chits.HAND_LIMIT:
            state.pending.insert(0, (chits.SURPLUS, power, None))


# ------------------------------------------------------------------------- what seats remember


def remember(state: SpiesState, me: str, other: str, given: list[str], got: list[str]) -> None:
    """The two seats of a trade know the chits each handed the other; a hand that lost chits
    out of a third seat's sight makes that seat forget what it knew of it."""
    a, b = state.controller(me), state.controller(other)
    memory.adjust(state, a, other, add=given, remove=got)
    memory.adjust(state, b, me, add=got, remove=given)
    if given:
        memory.forget(state, me, keep={a, b})
    if got:
        memory.forget(state, other, keep={a, b})


def known_chits(state: SpiesState, observer: int | None, power: str) -> Counter[str]:
    """The chits ``observer`` knows ``power`` holds: remembered from trades, and those in an
    offer it has seen that ``power`` is making."""
    if observer is None:
        return Counter()
    known = Counter(state.talks.chit_memory.get((observer, power), ()))
    offer = state.talks.offer
    if offer is not None and offer.initiator == power and sees_offer(state, observer):
        known |= Counter(chits_of(offer.give))
    return known


def sees_offer(state: SpiesState, observer: int | None) -> bool:
    """The initiator's seat sees the offer as it is built, the partner's once it is sent."""
    offer = state.talks.offer
    if offer is None or observer is None:
        return False
    if state.is_over or observer == state.controller(offer.initiator):
        return True
    return offer.sent and observer == state.controller(offer.partner)


# ------------------------------------------------------------------------- words


def describe(state: SpiesState, act: Action) -> str:
    kind, target = act.kind, act.target
    if kind == "approach":
        return f"Open talks with {target} and make it one offer (1 Action Point)."
    if kind in ("offer", "ask"):
        verb = "Give" if kind == "offer" else "Ask for"
        if target[0] == MONEY:
            return f"{verb} £{target[1]} in this offer."
        if target[0] == CHIT:
            return f"{verb} an Action Chit {target[1]} in this offer."
        return f"{verb} Secret {target[1]}, to be controlled by {target[2]}, in this offer."
    if kind == "send":
        offer = state.talks.offer
        assert offer is not None
        return (
            f"Offer {offer.partner} {spell_items(offer.give)} for {spell_items(offer.ask)}; "
            "it accepts or refuses at once."
        )
    if kind == "withdraw":
        return "Make no offer after all (the Action Point stays spent)."
    offer = state.talks.offer
    assert offer is not None
    if kind == "accept":
        return f"Accept: receive {spell_items(offer.give)} and give {spell_items(offer.ask)}."
    return "Refuse the offer: nothing changes hands."


def question(state: SpiesState) -> str:
    offer = state.talks.offer
    assert offer is not None
    return f"{offer.partner} answers {offer.initiator}'s offer ('accept' or 'refuse')"


def view(state: SpiesState, observer: int | None) -> dict[str, Any] | None:
    offer = state.talks.offer
    if offer is None:
        return None
    shown: dict[str, Any] = {"from": offer.initiator, "to": offer.partner, "sent": offer.sent}
    if sees_offer(state, observer):
        shown["give"] = spell_items(offer.give)
        shown["ask"] = spell_items(offer.ask)
    return shown


def why_not(state: SpiesState, act: Action) -> str:
    """Why a move is refused while an offer is being built."""
    if act.kind == "offer":
        return (
            "you offer money you have (one sum, from the ladder "
            f"{', '.join(str(n) for n in LADDER)}), chits you hold, or a foreign Secret your "
            "piece controls to a free piece of the other power in that city (rule 3.9)"
        )
    if act.kind == "ask":
        return (
            "you ask one sum from the ladder, chits by kind (no more than the other holds), or "
            "a Secret foreign to the other power that its piece controls, for a free piece of "
            "yours in that city (rule 3.9)"
        )
    return "finish the offer first: 'send' or 'withdraw' (rule 3.9)"


def why_not_approach(state: SpiesState, power: str) -> str:
    if state.turn.voyage is not None:
        return f"{state.turn.moving} is at sea: nothing else happens until it lands (rule 3.61)"
    if state.turn.action_points < 1:
        return "an approach costs one Action Point and none is left (rule 3.9)"
    return (
        f"{power} is not a power you may trade with: another seat's power, and no Russia held "
        "by bidding (rules 3.9, 7.0, 8.5)"
    )
