"""The parts the game's state is made of, each a dataclass the state owns and copies with it.

The state (``rules.SpiesState``) keeps where the game stands (year, phase, the power to play,
the set-up reserves, the decisions waiting); everything else lies in one of these parts, so that
a rule module names the parts it works on (``state.bank.money``, ``state.turn.action_points``)
and a reader sees at a glance which rules touch which facts:

- :class:`Bank`: the powers' money and, with secret money (``money``), what each seat can know
  of it;
- :class:`Board`: the pieces on the map and what is known of their faces;
- :class:`Turn`: the current turn's Action Points and limits (reset when a turn begins);
- :class:`Talks`: diplomacy's offer and what seats remember of others' chits;
- :class:`Hands`: Action Chits, the cup and the Event Tiles, held, discarded and played;
- :class:`Auction`: bidding for Russia (rule 8.5).

Each part's ``copy`` copies its containers (their items are immutable), which is all a clone of
the state needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .diplomacy import Offer
    from .movement import Voyage
    from .pieces import PoliceUnit, Secret, Spy

#: A secret-money ledger entry (``money``): (power, the powers it concerns, amount, trade).
LedgerEntry = tuple[str, tuple[str, ...], int, "tuple[int, int] | None"]
#: A trade's sums under secret money: (power, other, given, asked, the seats that saw it).
Trade = tuple[str, str, int, int, tuple[int, ...]]


@dataclass(slots=True)
class Bank:
    money: dict[str, int]
    ledger: list[LedgerEntry] = field(default_factory=list)  # secret money
    trades: list[Trade] = field(default_factory=list)  # secret money: the trades' sums

    def copy(self) -> Bank:
        return Bank(dict(self.money), list(self.ledger), list(self.trades))


@dataclass(slots=True)
class Board:
    spies: dict[str, Spy] = field(default_factory=dict)
    police: dict[str, PoliceUnit] = field(default_factory=dict)
    secrets: dict[str, Secret] = field(default_factory=dict)
    known: dict[str, frozenset[int | None]] = field(default_factory=dict)  # label -> seats
    # that have seen its face
    comparisons: list[tuple[tuple[str, ...], str, bool]] = field(default_factory=list)  # (police,
    # spy, captured): public
    # Public outcomes of Sanctions, Discoveries and Counterspies: (kind, spy, other piece or
    # Secret, outcome).
    duels: list[tuple[str, str, str, str]] = field(default_factory=list)
    markers: list[tuple[str, str, int, int]] = field(default_factory=list)  # Sanctioned
    # markers: (power, spy, value, year)
    plain: set[str] = field(default_factory=set)  # Secrets a Discovery showed to be no
    # Counterspy (public)
    covered: dict[str, str] = field(default_factory=dict)  # spy -> its power: under Cover until
    # that power's next turn

    def copy(self) -> Board:
        return Board(
            dict(self.spies),
            dict(self.police),
            dict(self.secrets),
            dict(self.known),
            list(self.comparisons),
            list(self.duels),
            list(self.markers),
            set(self.plain),
            dict(self.covered),
        )


ACTION_POINTS = 12  # rule 3.1


@dataclass(slots=True)
class Turn:
    action_points: int = ACTION_POINTS
    moving: str | None = None  # the spy moving now
    spaces: int = 0  # the spaces it has moved
    voyage: Voyage | None = None  # its voyage, at sea
    moved: set[str] = field(default_factory=set)  # spies that have finished moving
    relocated: set[str] = field(default_factory=set)  # police units moved in the re-arrangement
    searched: set[str] = field(default_factory=set)  # spies searched for this turn
    paid: set[str] = field(default_factory=set)  # cities searched (one Action Point each)
    took: set[str] = field(default_factory=set)  # pieces that took control of a Secret
    approached: set[str] = field(default_factory=set)  # powers approached (3.9): public
    free_searches: bool = False  # this turn's searches cost nothing (a tile's effect)
    awarding: list[tuple[str, str, int, str]] = field(default_factory=list)  # a played tile's
    # awards still to make

    def begin(self) -> None:
        """A fresh turn: 12 Action Points and no limits used (rule 3.1)."""
        self.action_points = ACTION_POINTS
        self.moved, self.relocated, self.searched = set(), set(), set()
        self.paid, self.took, self.approached = set(), set(), set()
        self.free_searches = False

    def finish_moving(self) -> None:
        """The spy moving has finished its movement (rule 3.6: one spy at a time)."""
        if self.moving is not None:
            self.moved.add(self.moving)
        self.moving, self.spaces, self.voyage = None, 0, None

    def copy(self) -> Turn:
        return Turn(
            self.action_points,
            self.moving,
            self.spaces,
            self.voyage,
            set(self.moved),
            set(self.relocated),
            set(self.searched),
            set(self.paid),
            set(self.took),
            set(self.approached),
            self.free_searches,
            list(self.awarding),
        )


@dataclass(slots=True)
class Talks:
    offer: Offer | None = None  # the offer being built or awaiting its answer
    chit_memory: dict[tuple[int, str], list[str]] = field(default_factory=dict)  # (seat,
    # power) -> chits it knows are held (``memory``)

    def copy(self) -> Talks:
        # The lists are replaced, never changed in place (memory.adjust).
        return Talks(self.offer, dict(self.chit_memory))


@dataclass(slots=True)
class Hands:
    chits: dict[str, list[str]]
    cup: list[str]
    tiles: dict[str, list[str]]
    discarded: dict[str, list[tuple[str, int]]]  # power -> (tile, year) face down: hidden
    played: list[tuple[str, str, int]] = field(default_factory=list)  # (power, tile, year)
    # face up: public

    def copy(self) -> Hands:
        return Hands(
            {p: list(v) for p, v in self.chits.items()},
            list(self.cup),
            {p: list(v) for p, v in self.tiles.items()},
            {p: list(v) for p, v in self.discarded.items()},
            list(self.played),
        )


@dataclass(slots=True)
class Auction:
    russia_seat: int | None = None  # the seat that won Russia (None before the first bid)
    russia_held: set[int] = field(default_factory=set)  # seats that have played Russia
    bids: dict[int, int] = field(default_factory=dict)  # this round's sealed bids by seat
    bid_over: int = -1  # a re-bid must exceed this (-1: the first round)

    def copy(self) -> Auction:
        return Auction(self.russia_seat, set(self.russia_held), dict(self.bids), self.bid_over)
