"""Bidding for Russia (option ``russia_bidding``, rule 8.5).

With two players (Germany-Italy against France-Britain) or four (one each of Germany, Italy,
France, Britain), Russia belongs to nobody: each year, at the start of Russia's turn (in 1933
before Russia places its Secrets), every seat makes a sealed bid in £ (``bid 5``; ``bid 0`` is
no bid), one seat after another, each unseen by the others until all have bid. Then the bids
are shown to everyone, and:

- the highest bid wins; the winner pays it from its own powers (never from Russia), taken from
  them in turn order, and plays Russia until the start of Russia's next turn;
- tied highest bidders (only they) bid again, each more than the tied sum if it can afford to;
  those that cannot drop out, and if none can, a public draw picks among the tied;
- if nobody bids, the seat that held Russia keeps it (in 1933 nobody did: every seat then bids
  again as if tied at nothing).

A seat playing Russia this way may not trade Russia's assets (no diplomacy for Russia), and
Russia scores nothing. After the Soviet-German Non-aggression Pact (tile Ru 2) a winner who is
not Germany's player may only search with Russia's police: Russia's turn is its searches (no
tile, no re-arrangement, no movement, no chits, no cashing), and in others' turns it searches
arriving spies but answers with no chit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spyglass.engine import Action

from . import money
from .geography import POWERS
from .notation import action
from .steps import SETTLED

if TYPE_CHECKING:
    from .rules import SpiesState

BID = "bid"  # the kind of a pending decision: a seat's sealed bid


def bidders(state: SpiesState) -> list[str]:
    return state.seating.bidders()


def purse(state: SpiesState, seat: int) -> tuple[str, ...]:
    """The powers that pay a seat's bid: its own, never Russia."""
    return tuple(p for p in POWERS if p != "Russia" and state.seating.fixed.get(p) == seat)


def means(state: SpiesState, seat: int) -> int:
    return sum(state.bank.money[p] for p in purse(state, seat))


def start(state: SpiesState, seats: list[int] | None = None, over: int = -1) -> str | None:
    """Open a round of sealed bids among ``seats`` (all), each more than ``over``; SETTLED if
    nobody can bid (a draw settles it at once)."""
    voices = {state.seating.fixed[p]: p for p in bidders(state)}
    seats = sorted(voices) if seats is None else seats
    able = [s for s in seats if means(state, s) > over]
    state.auction.bids = {}
    state.auction.bid_over = over
    if not able:
        return _draw(state, seats)
    state.pending[:0] = [(BID, voices[s], None) for s in able]
    state.say(
        "bidding for Russia (rule 8.5): "
        + ("sealed bids" if over < 0 else f"the tied bid again, more than £{over}")
    )
    return None


def bid_actions(state: SpiesState, power: str) -> list[Action]:
    seat = state.seating.fixed[power]
    low = max(0, state.auction.bid_over + 1)
    return [action("bid", n) for n in range(low, means(state, seat) + 1)]


def apply_bid(state: SpiesState, amount: int) -> str | None:
    """A seat's sealed bid; once all have bid, SETTLED if the bids decide (else a new round)."""
    _, power, _ = state.pending.pop(0)
    seat = state.seating.fixed[power]
    state.auction.bids[seat] = amount
    state.say(f"seat {seat} bids £{amount} for Russia", [seat], f"seat {seat} makes a sealed bid")
    if state.pending and state.pending[0][0] == BID:
        return None
    return _open(state)


def _open(state: SpiesState) -> str | None:
    bids = dict(state.auction.bids)
    state.say(
        "the bids for Russia: " + ", ".join(f"seat {s} £{n}" for s, n in sorted(bids.items()))
    )
    for seat, amount in bids.items():
        money.floor(state, purse(state, seat), amount)
    top = max(bids.values())
    tied = sorted(s for s, n in bids.items() if n == top)
    if top == 0 and state.auction.bid_over < 0 and state.auction.russia_seat is not None:
        state.say(f"nobody bids: seat {state.auction.russia_seat} keeps Russia")
        return _done(state)
    if len(tied) > 1 or top == 0:
        return start(state, tied, top)
    return _win(state, tied[0], top)


def _draw(state: SpiesState, seats: list[int]) -> str:
    seat = seats[state.rng.below(len(seats))]
    state.say(f"no tied seat can bid more: a draw gives Russia to seat {seat}")
    return _win(state, seat, max(state.auction.bid_over, 0))


def _win(state: SpiesState, seat: int, amount: int) -> str:
    owed = amount
    for power in purse(state, seat):
        part = min(owed, state.bank.money[power])
        if part:
            money.change(state, power, -part)
            owed -= part
    state.auction.russia_seat = seat
    state.auction.russia_held.add(seat)
    state.say(f"seat {seat} pays £{amount} and plays Russia until Russia's next turn")
    return _done(state)


def _done(state: SpiesState) -> str:
    state.auction.bids, state.auction.bid_over = {}, -1
    return SETTLED


def view(state: SpiesState, observer: int | None) -> dict[str, Any] | None:
    if state.seating.russia != "bid":
        return None
    return {
        "russia_seat": state.auction.russia_seat,
        "bids": {
            str(s): n if observer == s else "sealed" for s, n in sorted(state.auction.bids.items())
        },
        "more_than": state.auction.bid_over if state.auction.bid_over >= 0 else None,
    }


def resample(state: SpiesState, observer: int | None, rng: Any) -> None:
    """Sealed bids the observer has not seen: any sum the bidder could have bid."""
    low = max(0, state.auction.bid_over + 1)
    for seat in list(state.auction.bids):
        if seat != observer:
            high = max(low, means(state, seat))
            state.auction.bids[seat] = low + rng.below(high - low + 1)


def why_not(state: SpiesState, power: str) -> str:
    seat = state.seating.fixed[power]
    low = max(0, state.auction.bid_over + 1)
    return (
        f"seat {seat} bids for Russia: 'bid N' with N from {low} to what its powers hold "
        f"(£{means(state, seat)}; rule 8.5)"
    )


def describe(state: SpiesState, amount: int) -> str:
    if amount == 0:
        return "Make no bid for Russia this year (a sealed bid of nothing)."
    return f"Bid £{amount} for Russia (sealed; paid only if it wins; rule 8.5)."
