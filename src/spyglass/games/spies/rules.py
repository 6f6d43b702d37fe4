"""Spies! (the Long Game): the state machine.

Built so far: set-up (rules 2.1-2.9) and a power's turn of 12 Action Points (3.1): the event
tile played or discarded (3.2, in ``events``), police re-arrangement (3.3), searches (3.4, and
4.1 for arriving spies in other powers' turns), capture (3.5), spy movement (3.6, 3.61), the
control, carrying and cashing of Secrets (3.7), Action Chits played on the turn (3.8, in
``plays``) and as answers in the middle of an action (4.2, in ``reactions``), spy havens and
Cousins (5.1, 5.2), diplomacy (3.9, 4.3, in ``diplomacy``), the seating of rule 7.0 and the
options 8.1-8.5 (``seats``, ``bidding``) and secret money (``money``). The turn begins at
``begin_turn``.

Decisions that interrupt the flow (a search of an arriving spy, returning chits over the limit
of ten, also in the middle of a tile's awards, an answer with a chit, the answer to an offer,
a sealed bid for Russia) wait in ``pending``; an answer and a return go to its head, arrivals
queue behind. While one waits, the seat playing
the power that must decide is the one to move.

Set-up draws from three shuffled decks, so that a stacked deck fixes it: ``secrets`` (the 40
Secret cards: each power draws its allotment in turn order, the last eight go to the SECRET
cities in map order), ``tiles`` (the 15 random Event Tiles: three to each power in turn order)
and ``chits`` (the Action Chits: each power draws its allotment after placing police; the rest
stay in the cup).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from spyglass.engine import Action, Result, Rng, RulesError, State, plural

from . import (
    bidding,
    chits,
    control,
    deployment,
    diplomacy,
    events,
    money,
    movement,
    plays,
    police,
    reactions,
    seats,
)
from .deployment import PHASES, POLICE, SECRETS, SPIES
from .diplomacy import TALKS, Offer
from .edition import EDITION, Edition
from .geography import POWERS
from .hidden import resample
from .movement import Voyage, apply_move, move_actions, spaces_left
from .notation import spell
from .pieces import CASHED, IN_PLAY, PoliceUnit, Secret, Spy
from .reactions import REACT, Contest
from .views import table_view

ACTION_POINTS = 12  # rule 3.1
FIRST_YEAR, LAST_YEAR = 1933, 1939
TILE, REARRANGE, SEARCH, MOVE, OVER = "tile", "rearrange", "search", "move", "over"
TURN_PHASES = (TILE, REARRANGE, SEARCH, MOVE)
COLOUR_TILE_POINTS = 2  # rule 6.0
ALLIANCE_PENALTY = 20  # rule 8.1
ALLIANCES = (  # rule 8.1: (power, its ally, the other camp)
    ("Germany", "Italy", ("Britain", "France")),
    ("Italy", "Germany", ("Britain", "France")),
    ("France", "Britain", ("Germany", "Italy")),
    ("Britain", "France", ("Germany", "Italy")),
)


def _tokens(edition: Edition) -> dict[str, str]:
    """Every card token of the three decks, by its lower-case spelling."""
    tokens = [s.id for s in edition.secrets] + [c.name for c in edition.chits]
    tokens += [tile_token(t.id) for t in edition.tiles]
    return {t.lower(): t for t in tokens}


def _typed(kind: str, target: Any) -> Action:
    """A move read from typed text (not memoised: the text may name anything)."""
    return Action(kind, (), target, spell(kind, target))


def _tile_draws(tile: Any) -> int:
    """The most chits a tile can hand out: every power rewarded in every city it names."""
    chit_awards = sum(a.amount * len(a.cities) for a in tile.awards if a.unit == "c")
    extra = tile.effect.count if tile.effect is not None else 0
    return len(POWERS) * chit_awards + extra


def _tile_money(tile: Any) -> int:
    """The most £ a tile can hand out: every power rewarded in every city it names."""
    return len(POWERS) * sum(a.amount * len(a.cities) for a in tile.awards if a.unit == "£")


def tile_token(tile_id: str) -> str:
    """A tile's one-word token: "Ge 1" -> "Ge1"."""
    return tile_id.replace(" ", "")


_TOKENS = _tokens(EDITION)
_HOMES: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[str, ...]] = {}
_TILE_NUMBER = {tile_token(t.id): t.number for t in EDITION.tiles}


def parse_token(text: str) -> str:
    """A Secret id, an Action Chit name or a tile token, as the decks spell them."""
    token = _TOKENS.get(str(text).strip().lower())
    if token is None:
        raise RulesError(f"{text!r} is not a Secret, an Action Chit or an Event Tile")
    return token


class SpiesState(State):
    parse_card = staticmethod(parse_token)
    notation_help = (
        "set-up: 'secret 3 Berlin', 'police 2 Hamburg', 'spy 3 Paris', 'cousin Vienna'; "
        "police: 'GeP1 Hamburg', 'done'; searches: 'search Fr2', 'pass', 'done'; "
        "moves: 'Ge3 Vienna', 'Ge3 embark Baltic', 'Ge3 sail North-Sea', 'Ge3 land Kiel', "
        "'Ge3 reroll', 'end'; tiles: 'play Ge4', 'discard R8'; "
        "Secrets: 'X3 to Ge1', 'X3 release', 'X3 cash'; "
        "chits: 'Discovery Ge1 X3', 'Drop X3 Ge2', 'Sanction Ge1 Fr2', 'Escape Ge3', "
        "'Cover Ge1', 'Recruit Ge3', 'return Papers'; answers: 'Papers', 'Escape', 'Cover', "
        "'Double-Cross', 'Intercept GeP1', 'pass'; diplomacy: 'approach France', 'offer £5', "
        "'offer Papers', 'offer X3 to Fr2', 'ask £5', 'ask Drop', 'ask X5 to Ge2', 'send', "
        "'withdraw', 'accept', 'refuse'; bidding for Russia: 'bid 5'"
    )

    edition: Edition
    year: int
    phase: str
    power_index: int
    annexed: dict[str, str]  # country -> power (event tiles)
    last_year: int  # 1939, or 1938 after the Polish Crisis (rule 2.9)
    pact: bool  # the Soviet-German Non-aggression Pact has been played
    free_searches: bool  # this turn's searches cost nothing (a tile's effect)
    played: list[tuple[str, str, int]]  # (power, tile, year) face up: public
    discarded: dict[str, list[tuple[str, int]]]  # power -> (tile, year) face down: hidden
    awarding: list[tuple[str, str, int, str]]  # a played tile's awards still to make
    money: dict[str, int]
    hand_secrets: dict[str, list[str]]
    reserve_police: dict[str, list[int]]
    reserve_spies: dict[str, list[tuple[int, bool]]]
    spies: dict[str, Spy]
    police: dict[str, PoliceUnit]
    secrets: dict[str, Secret]
    chits: dict[str, list[str]]
    cup: list[str]
    tiles: dict[str, list[str]]
    labels: dict[str, int]
    action_points: int
    moving: str | None
    spaces: int
    voyage: Voyage | None
    moved: set[str]
    pending: list[tuple[str, str, str | None]]  # (kind, deciding power, spy label)
    known: dict[str, frozenset[int | None]]  # piece label -> seats that have seen its face
    comparisons: list[tuple[tuple[str, ...], str, bool]]  # (police, spy, captured): public
    relocated: set[str]  # police units moved in this re-arrangement
    searched: set[str]  # spies searched for this turn
    paid: set[str]  # cities searched this turn (one Action Point each)
    took: set[str]  # pieces that took control of a Secret this turn
    approached: set[str]  # powers approached this turn (3.9): public, bots read it
    contest: Contest | None  # an action open to answers with chits (reactions.py)
    covered: dict[str, str]  # spy -> its power: under Cover until that power's next turn
    markers: list[tuple[str, str, int, int]]  # Sanctioned markers: (power, spy, value, year)
    duels: list[tuple[str, str, str, str]]  # public outcomes of Sanctions, Discoveries and
    # Counterspies: (kind, spy, other piece or Secret, outcome)
    plain: set[str]  # Secrets a Discovery showed to be no Counterspy (public)
    offer: Offer | None  # diplomacy: the offer being built or awaiting its answer
    chit_memory: dict[tuple[int, str], list[str]]  # (seat, power) -> chits it knows are held
    russia_seat: int | None  # rule 8.5: the seat that won Russia (None before the first bid)
    russia_held: set[int]  # rule 8.5: seats that have played Russia
    bids: dict[int, int]  # rule 8.5: this round's sealed bids by seat
    bid_over: int  # rule 8.5: a re-bid must exceed this (-1: the first round)
    ledger: list[tuple[str, tuple[str, ...], int, tuple[int, int] | None]]  # secret money
    trades: list[tuple[str, str, int, int, tuple[int, ...]]]  # secret money: the trades' sums

    # ---------------------------------------------------------------- set-up

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[str]]:
        seats.seating(options, players)  # a combination of options the rules forbid fails here
        return {
            "secrets": [s.id for s in EDITION.secrets],
            "tiles": [tile_token(t.id) for t in EDITION.tiles if t.power is None],
            "chits": [c.name for c in EDITION.chits for _ in range(c.count)],
            # Each power's seven tiles of its colour (2.3) are handed out, never shuffled; they
            # are listed so that the count of every card on the table covers them too.
            "own_tiles": [tile_token(t.id) for t in EDITION.tiles if t.power is not None],
        }

    @classmethod
    def shuffle_deck(
        cls, name: str, cards: Sequence[Any], rng: Rng, options: Mapping[str, Any], players: int
    ) -> list[Any]:
        if name == "own_tiles":
            return list(cards)  # by power, in the edition's order: nothing random
        return super().shuffle_deck(name, cards, rng, options, players)

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # Set-up: every decision places one piece. Then, per turn:
        # - the tile step is one decision, and each chit its awards draw may be returned;
        # - re-arrangement: each police unit moves once, control passes between police (each
        #   piece takes control once a turn), then "done"; searches: each enemy spy once, then
        #   "done";
        # - everything that spends an Action Point (moves, re-rolls, chits played on the turn)
        #   is at most 12; "end" closes the turn; each move into a city brings at most one
        #   arrival decision (police stand only in their own home cities, so one power's);
        #   taking, releasing and cashing Secrets are at most three per own piece;
        # - a contest (a search of either kind, or a chit played on the turn) asks at most 8
        #   questions answered without a chit (avoid or Cover, a Counterspy's Escape, the end of
        #   a Double Cross chain, the spoils, four powers asked to Intercept); every answer that
        #   is a chit uses a chit held at the start of the turn (ten per power at most) or drawn
        #   during it (tile awards, captures, cashes), and each drawn chit may be returned.
        pieces = sum(p.secrets + len(p.police) + len(p.spies) + 1 for p in EDITION.powers)
        units = max(len(p.police) for p in EDITION.powers)
        spies = sum(len(p.spies) + 1 for p in EDITION.powers)
        own = max(len(p.police) + len(p.spies) + 1 for p in EDITION.powers)
        tile_draws = max(_tile_draws(t) for t in EDITION.tiles)
        contests = spies + ACTION_POINTS
        draws = tile_draws + contests + 2 * own
        answers = len(POWERS) * chits.HAND_LIMIT + draws
        per_turn = (
            1
            + (units + own + 1)
            + (spies + 1)
            + ACTION_POINTS
            + (1 + ACTION_POINTS)
            + 3 * own
            + 8 * contests
            + answers
            + draws
        )
        # - diplomacy: each approach spends an Action Point (so at most 12), and its offer is
        #   built one item at a time, each item at most once: two sums, the offerer's chits
        #   (ten at most), chits asked (no more than the other holds, ten at most), Secrets
        #   each way (each to a distinct receiving piece of the power receiving); then send or
        #   withdraw, the answer, and up to ten chits returned by each side over the limit.
        talks = 2 + 2 * chits.HAND_LIMIT + 2 * own + 2 + 2 * chits.HAND_LIMIT
        per_turn += ACTION_POINTS * talks
        turns = len(POWERS) * (LAST_YEAR - FIRST_YEAR + 1)
        total = pieces + turns * per_turn + 2 * (spies + len(EDITION.secrets))
        if seats.seating(options, players).russia == seats.BID:
            # Rule 8.5: a round of sealed bids a year, then re-bids among the tied, each higher
            # than the last, so no more rounds than the most money a seat could hold: the
            # money at the start and every £ that can come into the game, per turn a tile's
            # awards, captures (searches and arrivals) and cashed Secrets.
            income = max(_tile_money(t) for t in EDITION.tiles)
            income += police.CAPTURE_MONEY * (spies + ACTION_POINTS) + control.CASH_MONEY * own
            most = sum(p.money for p in EDITION.powers) + turns * income
            total += (LAST_YEAR - FIRST_YEAR + 1) * players * (most + 2)
        return total

    def _setup(self) -> None:
        edition = self.edition = EDITION
        self.russia_seat, self.russia_held, self.bids, self.bid_over = None, set(), {}, -1
        self.offer, self.chit_memory, self.ledger, self.trades = None, {}, [], []
        self.year = FIRST_YEAR
        self.annexed = {}
        self.last_year, self.pact, self.free_searches = LAST_YEAR, False, False
        self.played, self.discarded, self.awarding = [], {p: [] for p in POWERS}, []
        self.labels = {}
        self.money = {p.name: p.money for p in edition.powers}
        self.spies, self.police, self.secrets = {}, {}, {}
        self.reserve_police = {p.name: list(p.police) for p in edition.powers}
        self.reserve_spies = {
            p.name: [(s, False) for s in p.spies] + [(p.cousin, True)] for p in edition.powers
        }
        self.action_points = ACTION_POINTS
        self.moving, self.spaces, self.voyage, self.moved = None, 0, None, set()
        self.pending, self.known, self.comparisons = [], {}, []
        self.relocated, self.searched, self.paid, self.took = set(), set(), set(), set()
        self.approached = set()
        self.contest, self.covered, self.markers, self.duels, self.plain = None, {}, [], [], set()
        for power in POWERS:
            who = (
                "goes to the highest bidder"
                if self.bid_for_russia(power)
                else f"is played by seat {self.controller(power)}"
            )
            self._say(f"{power} {who}; it starts with £{self.money[power]}")
        self._deal_secrets(list(self._decks["secrets"]))
        self._deal_tiles(list(self._decks["tiles"]))
        self.chits = {p: [] for p in POWERS}
        self.cup = list(self._decks["chits"])  # drawn from the top after the police (2.6)
        self.phase, self.power_index = SECRETS, 0

    def _deal_secrets(self, order: list[str]) -> None:
        self.hand_secrets = {}
        for p in self.edition.powers:
            self.hand_secrets[p.name] = sorted(order[: p.secrets])
            del order[: p.secrets]
            faces = " ".join(self.edition.secret(c).face for c in self.hand_secrets[p.name])
            self._say(
                f"{p.name} draws Secrets {faces}",
                self.informed_seats(p.name),
                f"{p.name} draws {plural(p.secrets, 'Secret')}",
            )
        for city, card in zip(
            [c.id for c in self.edition.map.cities.values() if c.secret], order, strict=True
        ):
            label = self.next_label("X")
            self.secrets[label] = Secret(label, card, None, city, city)
        self._say("a Secret is placed face down in each SECRET city")

    def _deal_tiles(self, order: list[str]) -> None:
        self.tiles = {}
        for power in POWERS:
            own = [tile_token(t.id) for t in self.edition.tiles if t.power == power]
            drawn, order[:3] = order[:3], []
            self.tiles[power] = self.sort_tiles(own + drawn)
            self._say(
                f"{power} draws random tiles {' '.join(drawn)}",
                self.informed_seats(power),
                f"{power} draws three random tiles",
            )

    def _draw_chits(self) -> None:
        for p in self.edition.powers:
            drawn, self.cup[: p.chits] = self.cup[: p.chits], []
            self.chits[p.name] = sorted(drawn)
            self._say(
                f"{p.name} draws chits {', '.join(drawn)}",
                [self.controller(p.name)],
                f"{p.name} draws {p.chits} Action Chits",
            )
        self.cup.sort()  # a cup has no order: later draws are random

    def after_deploy(self) -> None:
        """Move on to the next power with pieces to place, or the next set-up step; with
        bidding for Russia, the first bids come just before Russia places its Secrets (8.5)."""
        self._deploy_next()
        if (
            self.phase == SECRETS
            and self.bid_for_russia(self.power)
            and self.russia_seat is None
            and not self.pending
        ):
            bidding.start(self)

    def _deploy_next(self) -> None:
        while deployment.remaining(self, self.power) == 0:
            self.power_index += 1
            if self.power_index == len(POWERS):
                self.power_index = 0
                step = PHASES.index(self.phase) + 1
                if step == len(PHASES):
                    self._say(f"{self.year} begins")
                    self.begin_turn()
                    return
                self.phase = PHASES[step]
                if self.phase == SPIES:
                    self._draw_chits()

    # ---------------------------------------------------------------- who is who

    @property
    def power(self) -> str:
        return POWERS[self.power_index]

    @property
    def seating(self) -> seats.Seating:
        # Computed once per state (copies share it): it is asked for millions of times in a
        # long run. Hand-built test positions may change the table size afterwards.
        cached = self.__dict__.get("_seating")
        if cached is None or cached.players != self.players:
            cached = self.__dict__["_seating"] = seats.seating(self.options, self.players)
        return cached

    def controller(self, power: str) -> int:
        return self.seating.controller(power, min(self.year, LAST_YEAR), self.russia_seat)

    def powers_of(self, seat: int) -> list[str]:
        return [p for p in POWERS if self.controller(p) == seat]

    def informed_seats(self, power: str) -> set[int]:
        """The seats that have played ``power``: they know its pieces' faces."""
        if self.bid_for_russia(power):
            return set(self.russia_held)
        seating = self.seating
        seat = seating.fixed.get(power)
        if seat is not None:
            return {seat}
        last = min(self.year, LAST_YEAR)
        return {seating.controller(power, y, None) for y in range(FIRST_YEAR, last + 1)}

    def bid_for_russia(self, power: str) -> bool:
        """Whether ``power`` is Russia played by its highest bidder (rule 8.5)."""
        return power == seats.RUSSIA and self.seating.russia == seats.BID

    def russia_restricted(self, power: str) -> bool:
        """After the Pact, a bidder who is not Germany's player only searches with Russia's
        police (rule 8.5)."""
        return (
            self.pact
            and self.bid_for_russia(power)
            and self.russia_seat != self.controller("Germany")
        )

    @property
    def secret_money(self) -> bool:
        return bool(self.options.get("secret_money", False))

    def sees_money(self, observer: int | None, power: str) -> bool:
        """Money is public unless the option keeps it secret: then a seat sees its own powers'
        money (and everyone's once the game is over)."""
        return not self.secret_money or self.is_over or observer == self.controller(power)

    def transfer_money(self, me: str, other: str, give: int, ask: int) -> None:
        money.transfer(self, me, other, give, ask)

    def sees_faces(self, observer: int | None, power: str) -> bool:
        """Whether ``observer`` knows the faces of ``power``'s spies and police: it has played
        that power (or the game is over and everything is turned up for the score)."""
        return self.is_over or observer in self.informed_seats(power)

    def sees_hand(self, observer: int | None, power: str) -> bool:
        """The seat playing ``power`` now sees its hands (chits, tiles, Secrets to place)."""
        return self.is_over or (observer is not None and observer == self.controller(power))

    def sees_piece(self, observer: int | None, label: str, power: str) -> bool:
        """Whether ``observer`` knows the face of the spy or police unit ``label``: its power's
        faces, or this one seen in a strength comparison or turned up on a record."""
        return self.sees_faces(observer, power) or observer in self.known.get(label, ())

    def sees_secret(self, observer: int | None, secret: Secret) -> bool:
        """A seat knows a Secret's face once it has been allowed to look at it (its own
        original while no other power controls it, a foreign one it controls: rule 2.4), and
        remembers it; cashed and removed Secrets lie face up."""
        return self.is_over or observer in self.known.get(secret.label, ())

    def reveal(self, labels: Any, seats: Any) -> None:
        """``seats`` have now seen the faces of the pieces ``labels``."""
        seats = frozenset(seats) if not isinstance(seats, int) else frozenset((seats,))
        for label in labels:
            self.known[label] = self.known.get(label, frozenset()) | seats

    def publish(self, labels: Any) -> None:
        """The pieces ``labels`` lie face up: everyone, spectators included, sees them."""
        self.reveal(labels, {None, *range(self.players)})

    def look(self, label: str) -> None:
        """The seats allowed to look at Secret ``label`` now do (rule 2.4)."""
        secret = self.secrets[label]
        holder = self.piece_power(secret.holder) if secret.holder else None
        seats = set()
        if secret.origin is not None and holder in (None, secret.origin):
            seats.add(self.controller(secret.origin))
        if holder is not None:
            seats.add(self.controller(holder))
        self.reveal([label], seats)

    def piece_power(self, label: str) -> str:
        piece = self.spies.get(label) or self.police[label]
        return piece.power

    def held_by(self, piece: str) -> str | None:
        """The Secret that ``piece`` controls, if any."""
        for secret in self.secrets.values():
            if secret.holder == piece:
                return secret.label
        return None

    def set_holder(self, label: str, piece: str | None) -> None:
        """Put ``piece`` (None: nobody) in control of Secret ``label``, noting the year it is
        taken from its owner (rule 3.7) and who may now look at it."""
        secret = self.secrets[label]
        before = self.piece_power(secret.holder) if secret.holder else None
        after = self.piece_power(piece) if piece else None
        taken = secret.taken
        if after is not None and after != secret.origin:
            if secret.origin is None:
                taken = self.year if taken is None else taken
            elif before == secret.origin or (before is None and not secret.loose):
                taken = self.year
        self.secrets[label] = replace(secret, holder=piece, taken=taken)
        self.settle(label)
        self.look(label)

    def settle(self, label: str) -> None:
        """A loose original Secret lying in its starting city uncontrolled, or under one of its
        power's police units, is settled there again (rule 3.7)."""
        secret = self.secrets[label]
        if (
            secret.loose
            and secret.place == secret.home
            and (
                secret.holder is None
                or (
                    secret.holder in self.police
                    and self.piece_power(secret.holder) == secret.origin
                )
            )
        ):
            self.secrets[label] = replace(secret, loose=False)

    def abbr(self, power: str) -> str:
        return self.edition.power(power).abbr

    def next_label(self, prefix: str) -> str:
        self.labels[prefix] = self.labels.get(prefix, 0) + 1
        return f"{prefix}{self.labels[prefix]}"

    # ---------------------------------------------------------------- territory

    def territory(self, city: str) -> str | None:
        """The power whose home territory ``city`` is now (annexations included)."""
        country = self.edition.map.cities[city].country
        return self.annexed.get(country) or self.edition.map.countries[country].power

    def home_cities(self, power: str) -> tuple[str, ...]:
        """The cities of ``power``'s home territory now (memoised: they change only when a tile
        annexes a country)."""
        key = (power, tuple(sorted(self.annexed.items())))
        cities = _HOMES.get(key)
        if cities is None:
            cities = _HOMES[key] = tuple(
                c for c in self.edition.map.cities if self.territory(c) == power
            )
        return cities

    def is_overseas(self, city: str) -> bool:
        return self.edition.map.overseas(city)

    # ---------------------------------------------------------------- tiles

    @staticmethod
    def is_random_tile(token: str) -> bool:
        return token.startswith("R")

    @staticmethod
    def sort_tiles(tokens: list[str]) -> list[str]:
        return sorted(tokens, key=_TILE_NUMBER.__getitem__)

    def visible_tiles(self, power: str, hand: bool) -> Any:
        """A power's tiles as a seat sees them. Its own seven are public (the manifest), so all
        know which of them are not yet played: they are in its hand or among its discards."""
        discarded = [t for t, _ in self.discarded[power]]
        if hand:
            return {"hand": list(self.tiles[power]), "discarded": discarded}
        played = {t for _, t, _ in self.played}
        own = [
            tile_token(t.id)
            for t in self.edition.tiles
            if t.power == power and tile_token(t.id) not in played
        ]
        return {"hand": len(self.tiles[power]), "discarded": len(discarded), "own_unplayed": own}

    # ---------------------------------------------------------------- the turn

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _current(self) -> int:
        if self.pending:
            return self.controller(self.pending[0][1])
        return self.controller(self.power)

    def _legal_actions(self) -> list[Action]:
        if self.phase == OVER:
            return []
        if self.pending:
            kind, power, spy = self.pending[0]
            if kind == chits.SURPLUS:
                return chits.surplus_actions(self, power)
            if kind == REACT:
                return reactions.reaction_actions(self)
            if kind == TALKS:
                return diplomacy.answer_actions(self)
            if kind == bidding.BID:
                return bidding.bid_actions(self, power)
            return police.arrival_actions(self, spy)  # type: ignore[arg-type]
        if self.phase == TILE:
            return events.tile_actions(self)
        if self.phase == REARRANGE:
            actions = police.rearrange_actions(self) + control.control_actions(self, True)
            return [*actions, police.DONE] if police.arranged(self, self.power) else actions
        if self.phase == SEARCH:
            return [*police.search_actions(self), police.DONE]
        if self.phase == MOVE:
            if self.offer is not None:
                return diplomacy.compose_actions(self)
            actions = move_actions(self) + control.control_actions(self, False)
            return actions + plays.chit_actions(self) + diplomacy.approach_actions(self)
        return deployment.deploy_actions(self)

    def _apply(self, action: Action) -> None:
        kind = action.kind
        if self.pending:
            head, power = self.pending[0][:2]
            if kind == "return":
                chits.apply_return(self, power, action.target)
            elif self.pending[0][0] == REACT:
                reactions.answer(self, action)
            elif self.pending[0][0] == TALKS:
                diplomacy.apply(self, action)
            elif self.pending[0][0] == bidding.BID:
                bidding.apply_bid(self, action.target)
            else:
                police.apply_arrival(self, power, action)
            # A spy captured or killed meanwhile is no longer searched for on its arrival.
            self.pending = [
                p for p in self.pending
                if p[0] != police.ARRIVAL or self.spies[p[2]].status == "active"  # type: ignore[index]
            ]  # fmt: skip
            if not self.pending and self.phase == TILE and head != bidding.BID:
                events.resume(self)
        elif self.phase == TILE:
            events.apply_tile(self, kind, action.target)
        elif kind == "chit":
            plays.apply_chit(self, action.target)
        elif kind in diplomacy.KINDS:
            diplomacy.apply(self, action)
        elif kind == "control":
            control.apply_control(self, *action.target)
        elif kind == "release":
            control.apply_release(self, action.target)
        elif kind == "cash":
            control.apply_cash(self, action.target)
        elif self.phase == REARRANGE:
            if kind == "relocate":
                police.apply_relocate(self, *action.target)
            else:
                self._say(f"{self.power} has re-arranged its police")
                self.start_searches()
        elif self.phase == SEARCH:
            if kind == "search":
                police.apply_search(self, action.target)
            elif self.russia_restricted(self.power):
                self.end_turn()  # after the Pact a bidder only searches with Russia (8.5)
            else:
                self.phase = MOVE
        elif self.phase == MOVE:
            apply_move(self, action)
        else:
            deployment.apply_deploy(self, action)

    def begin_turn(self) -> None:
        """The start of a power's turn: a fresh 12 Action Points and per-turn limits; with
        bidding, Russia's turn opens with the year's bids (8.5; 1933's came at set-up)."""
        self.action_points = ACTION_POINTS
        self.moved, self.relocated, self.searched = set(), set(), set()
        self.paid, self.took, self.approached = set(), set(), set()
        self.free_searches = False
        ended = [s for s, p in self.covered.items() if p == self.power]
        for label in ended:  # Cover lasts until the start of its power's next turn
            del self.covered[label]
        self._say(f"{self.year}: {self.power}'s turn")
        if self.bid_for_russia(self.power) and self.year > FIRST_YEAR:
            self.phase = TILE
            bidding.start(self)
            return
        self.start_tile_step()

    def after_bidding(self) -> None:
        """The bids are settled: set-up goes on, or Russia's turn begins."""
        if self.phase in PHASES:
            self._deploy_next()
        else:
            self.start_tile_step()

    def start_tile_step(self) -> None:
        """Rule 3.21: the turn opens with an event tile played or discarded; a power with no
        tile of the year (nor an "Any Year" one) goes straight on to its police."""
        if self.russia_restricted(self.power):
            self._say("after the Pact, Russia's bidder may only search with its police (8.5)")
            self.start_searches()
        elif events.has_tile(self):
            self.phase = TILE
        else:
            self._say(f"{self.power} has no Event Tile it may play or discard this year")
            self.start_rearrangement()

    def start_rearrangement(self) -> None:
        """Rule 3.3; a power with no police on the map goes straight on to its searches."""
        self.phase = REARRANGE
        if not any(u.power == self.power for u in self.police.values()):
            self.start_searches()

    def start_searches(self) -> None:
        """Searches follow the re-arrangement (rule 3.4); with no enemy spy to search for, the
        turn goes on to movement."""
        self.phase = SEARCH
        if not police.search_actions(self):
            if self.russia_restricted(self.power):
                self.end_turn()
            else:
                self.phase = MOVE

    def finish_moving(self) -> None:
        if self.moving is not None:
            self.moved.add(self.moving)
        self.moving, self.spaces, self.voyage = None, 0, None

    def end_turn(self) -> None:
        self._say(f"{self.power} ends its turn with {self.action_points} Action Points unused")
        self.power_index += 1
        if self.power_index == len(POWERS):
            self.power_index = 0
            if self.year == self.last_year:
                self.phase = OVER
                self._say(f"{self.year} is complete: the game is over")
                return
            self.year += 1
            self._say(f"{self.year} begins")
            for label in self.secrets:  # with two players, Russia's new player looks
                self.look(label)
        self.begin_turn()

    # ---------------------------------------------------------------- the end

    def power_points(self, power: str) -> int:
        """Victory points of ``power`` as rule 6.0 counts them if the game ended with this
        position (see :meth:`score_sheet`)."""
        return self.score_sheet(power)["points"]

    def score_sheet(self, power: str) -> dict[str, Any]:
        """Rule 6.0's count for ``power``, item by item: its original Secrets still in play in
        their starting cities and not enemy-controlled, at the multiple of the final year (1939,
        or 1938 after the Polish Crisis: they are placed in that column when the game ends); the
        foreign Secrets it cashed, at the multiple of the year each was taken; the spies it
        captured and its Sanctioned markers, at the multiple of their years; 2 for each tile of
        its own colour played. A Counterspy counts half the multiple, rounded down."""
        record = self.edition.record
        final = record[self.last_year]
        home = cashed = 0
        for secret in self.secrets.values():
            card = self.edition.secret(secret.card)
            if secret.status == CASHED and secret.record == power:
                multiple = record[secret.taken]  # type: ignore[index]
                cashed += card.value * (multiple // 2 if card.counterspy else multiple)
            elif secret.status == IN_PLAY and secret.origin == power:
                if secret.place != secret.home:
                    continue
                if secret.holder is not None and self.piece_power(secret.holder) != power:
                    continue
                home += card.value * (final // 2 if card.counterspy else final)
        captured = sum(
            spy.strength * record[spy.year]  # type: ignore[index]
            for spy in self.spies.values()
            if spy.captor == power
        )
        markers = sum(  # Sanctioned markers (5.2, 6.0)
            value * record[year] for killer, _, value, year in self.markers if killer == power
        )
        own = sum(1 for p, t, _ in self.played if p == power and not self.is_random_tile(t))
        tiles = COLOUR_TILE_POINTS * own
        return {
            "points": home + cashed + captured + markers + tiles,
            "secrets_at_home": home,
            "home_multiple": f"{self.last_year} ×{final}",
            "secrets_cashed": cashed,
            "spies_captured": captured,
            "sanctioned_markers": markers,
            "own_tiles_played": tiles,
        }

    def final_points(self) -> dict[str, int]:
        """Each scoring power's points, after rule 8.1's penalties when that option is on (a
        power loses 20 if its ally trails both powers of the other camp, judged on the points
        before any penalty). Russia scores nothing when it changes hands (7.0, 8.5)."""
        return {power: sheet["points"] for power, sheet in self.final_sheets().items()}

    def final_sheets(self) -> dict[str, dict[str, Any]]:
        """:meth:`score_sheet` for each scoring power, with rule 8.1's penalty as an item when
        that option is on."""
        points = {p: self.power_points(p) for p in POWERS if self.seating.scoring(p)}
        sheets = {}
        for power, total in points.items():
            sheet = self.score_sheet(power)
            sheet["points"] = total  # power_points may be replaced (tests)
            sheets[power] = sheet
        if self.options.get("historical_alliances", False):
            for power, ally, rivals in ALLIANCES:
                penalty = -ALLIANCE_PENALTY if all(points[ally] < points[r] for r in rivals) else 0
                sheets[power]["alliance_penalty"] = penalty
                sheets[power]["points"] += penalty
        return sheets

    def _result(self) -> Result:
        sheets = self.final_sheets()
        points = {power: sheet["points"] for power, sheet in sheets.items()}
        mode = self.options.get("two_power_score", "best")
        mine = {s: [p for p in points if self.controller(p) == s] for s in range(self.players)}
        if mode == "best":
            # Rule 7.0: each power is scored on its own, as if a player of its own; the
            # highest power wins for its seat, the richer power breaking a tie.
            score = {s: max(points[p] for p in mine[s]) for s in mine}
            top = max(score.values())
            leaders = [p for p in points if points[p] == top]
            richest = max(self.money[p] for p in leaders)
            winners = {self.controller(p) for p in leaders if self.money[p] == richest}
        else:  # 8.2: the lower of a seat's powers, or their sum
            pick = min if mode == "lower" else sum
            score = {s: pick(points[p] for p in mine[s]) for s in mine}
            top = max(score.values())
            purse = {s: sum(self.money[p] for p in mine[s]) for s in mine}
            richest = max(purse[s] for s in mine if score[s] == top)
            winners = {s for s in mine if score[s] == top and purse[s] == richest}
        ordered = tuple(sorted(winners))
        return Result(
            scores=tuple(float(score[s]) for s in range(self.players)),
            winners=ordered,
            detail=tuple({p: sheets[p] for p in mine[s]} for s in range(self.players)),
            summary=" and ".join(f"seat {s}" for s in ordered)
            + f" wins with {plural(top, 'point')}",
        )

    # ---------------------------------------------------------------- views

    def _view(self, observer: int | None) -> dict[str, Any]:
        return table_view(self, observer)

    def _snapshot(self) -> dict[str, Any]:
        return {
            "year": self.year,
            "phase": self.phase,
            "power": self.power_index,
            "annexed": dict(sorted(self.annexed.items())),
            "last_year": self.last_year,
            "pact": self.pact,
            "free_searches": self.free_searches,
            "played": [list(p) for p in self.played],
            "discarded": {p: [list(d) for d in v] for p, v in self.discarded.items()},
            "awarding": [list(a) for a in self.awarding],
            "money": dict(self.money),
            "hand_secrets": {p: list(v) for p, v in self.hand_secrets.items()},
            "reserve_police": {p: list(v) for p, v in self.reserve_police.items()},
            "reserve_spies": {p: [list(k) for k in v] for p, v in self.reserve_spies.items()},
            "spies": [[s.label, s.power, s.strength, s.cousin, s.place, s.status, s.captor,
                       s.year] for s in self.spies.values()],
            "police": [[u.label, u.power, u.strength, u.city] for u in self.police.values()],
            "secrets": [[s.label, s.card, s.origin, s.home, s.place, s.holder, s.status,
                         s.taken, s.loose, s.record] for s in self.secrets.values()],
            "chits": {p: list(v) for p, v in self.chits.items()},
            "cup": list(self.cup),
            "tiles": {p: list(v) for p, v in self.tiles.items()},
            "labels": dict(sorted(self.labels.items())),
            "action_points": self.action_points,
            "moving": self.moving,
            "spaces": self.spaces,
            "voyage": None if self.voyage is None else [
                self.voyage.limit, self.voyage.used, self.voyage.may_reroll],
            "moved": sorted(self.moved),
            "pending": [list(p) for p in self.pending],
            "known": {k: sorted(v, key=lambda s: -1 if s is None else s)
                      for k, v in sorted(self.known.items())},
            "comparisons": [[list(u), s, c] for u, s, c in self.comparisons],
            "relocated": sorted(self.relocated),
            "searched": sorted(self.searched),
            "paid": sorted(self.paid),
            "took": sorted(self.took),
            "approached": sorted(self.approached),
            "contest": None if self.contest is None else self.contest.to_json(),
            "covered": dict(sorted(self.covered.items())),
            "markers": [list(m) for m in self.markers],
            "duels": [list(d) for d in self.duels],
            "plain": sorted(self.plain),
            "offer": None if self.offer is None else self.offer.to_json(),
            "chit_memory": [[seat, power, list(v)]
                            for (seat, power), v in sorted(self.chit_memory.items())],
            "russia_seat": self.russia_seat,
            "russia_held": sorted(self.russia_held),
            "bids": {str(k): v for k, v in sorted(self.bids.items())},
            "bid_over": self.bid_over,
            "ledger": money.ledger_json(self),
            "trades": [[a, b, g, k, list(w)] for a, b, g, k, w in self.trades],
        }  # fmt: skip

    def _resample(self, observer: int | None, rng: Rng) -> None:
        resample(self, observer, rng)

    def _copy_containers(self) -> None:
        self.annexed = dict(self.annexed)
        self.played = list(self.played)
        self.discarded = {p: list(v) for p, v in self.discarded.items()}
        self.awarding = list(self.awarding)
        self.money = dict(self.money)
        self.hand_secrets = {p: list(v) for p, v in self.hand_secrets.items()}
        self.reserve_police = {p: list(v) for p, v in self.reserve_police.items()}
        self.reserve_spies = {p: list(v) for p, v in self.reserve_spies.items()}
        self.spies = dict(self.spies)
        self.police = dict(self.police)
        self.secrets = dict(self.secrets)
        self.chits = {p: list(v) for p, v in self.chits.items()}
        self.cup = list(self.cup)
        self.tiles = {p: list(v) for p, v in self.tiles.items()}
        self.labels = dict(self.labels)
        self.moved = set(self.moved)
        self.pending = list(self.pending)
        self.known = dict(self.known)
        self.comparisons = list(self.comparisons)
        self.relocated = set(self.relocated)
        self.searched = set(self.searched)
        self.paid = set(self.paid)
        self.took = set(self.took)
        self.approached = set(self.approached)
        self.covered = dict(self.covered)
        self.markers = list(self.markers)
        self.duels = list(self.duels)
        self.plain = set(self.plain)
        self.chit_memory = dict(self.chit_memory)
        self.russia_held = set(self.russia_held)
        self.bids = dict(self.bids)
        self.ledger = list(self.ledger)
        self.trades = list(self.trades)

    def _cards(self) -> list[str]:
        cards = [s.card for s in self.secrets.values()]
        cards += [c for hand in self.hand_secrets.values() for c in hand]
        cards += [c for hand in self.chits.values() for c in hand] + self.cup
        cards += [t for hand in self.tiles.values() for t in hand]
        cards += [t for pile in self.discarded.values() for t, _ in pile]
        cards += [t for _, t, _ in self.played]
        return cards

    # ---------------------------------------------------------------- words

    def _parse(self, text: str) -> Action | None:
        """Read a move in any case, with places by id or printed name ("Ge3 Königsberg",
        "ge3 land le havre"), legal or not (so that an illegal one is told why)."""
        words = text.split()
        if not words:
            return None
        head = words[0].lower()
        if head == "end" and len(words) == 1:
            return movement.END
        if head in ("done", "pass") and len(words) == 1:
            return police.DONE if head == "done" else police.PASS
        if head in ("send", "withdraw", "accept", "refuse") and len(words) == 1:
            return _typed(head, None)
        if head == "approach" and len(words) == 2:
            power = next((p for p in POWERS if p.lower() == words[1].lower()), words[1])
            return _typed(head, power)
        if head == "bid" and len(words) == 2:
            amount = words[1].strip("£")
            return _typed(head, int(amount)) if amount.isdigit() else None
        if head in ("offer", "ask") and len(words) >= 2:
            return self._parse_item(head, words[1:])
        if head in (events.PLAY, events.DISCARD) and len(words) == 2:
            token = _TOKENS.get(words[1].lower(), words[1])
            return _typed(head, token)
        chit = next((c.name for c in self.edition.chits if c.name.lower() == head), None)
        if chit is not None:
            return _typed("chit", (chit, *(self._piece(w) for w in words[1:])))
        if head == "search" and len(words) == 2:
            return _typed("search", self._label(words[1]))
        if head == "return" and len(words) == 2:
            chit = next((c.name for c in self.edition.chits if c.name.lower() == words[1].lower()),
                        words[1])  # fmt: skip
            return _typed("return", chit)
        secret = next((s for s in self.secrets if s.lower() == head), None)
        if secret is not None:
            if len(words) == 3 and words[1].lower() == "to":
                return _typed("control", (secret, self._label(words[2])))
            if len(words) == 2 and words[1].lower() in ("release", "cash"):
                return _typed(words[1].lower(), secret)
            return None
        unit = next((u for u in self.police if u.lower() == head), None)
        if unit is not None:
            city = self.edition.map.find(" ".join(words[1:]))
            return None if city is None else _typed("relocate", (unit, city))
        if head in ("secret", "police", "spy") and len(words) >= 3:
            city = self.edition.map.find(" ".join(words[2:]))
            if city is None:
                return None
            face = words[1].lower()
            if head == "secret":
                return _typed("secret", (face, city))
            if not face.isdigit():
                return None
            if head == "police":
                return _typed("police", (int(face), city))
            return _typed("spy", (int(face), False, city))
        if head == "cousin" and len(words) >= 2:
            city = self.edition.map.find(" ".join(words[1:]))
            strength = self.edition.power(self.power).cousin
            return None if city is None else _typed("spy", (strength, True, city))
        label = next((s for s in self.spies if s.lower() == head), words[0])
        if len(words) == 2 and words[1].lower() == "reroll":
            return _typed("reroll", label)
        kind = words[1].lower() if len(words) > 2 else ""
        if kind in ("embark", "sail", "land"):
            place = self.edition.map.find(" ".join(words[2:]))
            return None if place is None else _typed(kind, (label, place))
        place = self.edition.map.find(" ".join(words[1:])) if len(words) > 1 else None
        return None if place is None else _typed("move", (label, place))

    def _parse_item(self, head: str, words: list[str]) -> Action | None:
        """``offer £5`` (or ``offer 5``), ``offer Papers``, ``offer X3 to Fr2``."""
        amount = words[0].strip("£")
        if len(words) == 1 and amount.isdigit():
            return _typed(head, (diplomacy.MONEY, int(amount)))
        chit = next((c.name for c in self.edition.chits if c.name.lower() == words[0].lower()),
                    None)  # fmt: skip
        if len(words) == 1 and chit is not None:
            return _typed(head, (diplomacy.CHIT, chit))
        if len(words) == 3 and words[1].lower() == "to":
            return _typed(head, (diplomacy.SECRET, self._piece(words[0]), self._label(words[2])))
        return None

    def _piece(self, text: str) -> str:
        """A spy, police unit or Secret label as typed, in any case."""
        lower = text.lower()
        found = next((s for s in self.secrets if s.lower() == lower), None)
        return found if found is not None else self._label(text)

    def _label(self, text: str) -> str:
        """A piece label as typed, in any case."""
        lower = text.lower()
        for label in (*self.spies, *self.police):
            if label.lower() == lower:
                return label
        return text

    def _why_illegal(self, action: Action) -> str:
        if self.pending:
            kind, power, spy = self.pending[0]
            if kind == chits.SURPLUS:
                return f"{power} holds more than ten Action Chits: it returns one first (3.21)"
            if kind == REACT:
                return reactions.why_not(self)
            if kind == TALKS:
                if action.kind == "accept":
                    return f"{power} does not hold all that the offer asks of it (rule 3.9)"
                return diplomacy.question(self) + " (rule 4.3)"
            if kind == bidding.BID:
                return bidding.why_not(self, power)
            return (
                f"{power} first decides whether to search for {spy} (rule 4.1): 'search {spy}'"
                " or 'pass'"
            )
        if self.phase == TILE:
            if action.kind in (events.PLAY, events.DISCARD):
                return (
                    f"{self.power} holds no such tile for {self.year}: a tile is played or "
                    "discarded only in its years, an Any Year tile in any year (rule 3.21)"
                )
            return f"{self.power} first plays or discards an Event Tile (rule 3.21)"
        if self.offer is not None:
            return diplomacy.why_not(self, action)
        if action.kind in diplomacy.KINDS or action.kind in ("accept", "refuse", "bid"):
            if action.kind == "approach" and self.phase == MOVE:
                return diplomacy.why_not_approach(self, action.target)
            if action.kind == "approach":
                return "diplomacy is opened during spy movement (rule 3.9)"
            return "there is no offer or bid to make or answer now (rules 3.9, 4.3, 8.5)"
        if action.kind in ("control", "release", "cash"):
            return self._why_not_control(action)
        if action.kind == "chit":
            if self.phase != MOVE:
                return "Action Chits are played during spy movement (rule 3.8)"
            return plays.why_not(self, action.target)
        if self.phase == REARRANGE:
            if action.kind == "relocate":
                return (
                    "police go to home cities with the police symbol or the capital, two per "
                    "city, one overseas at most, and each unit moves once (rule 3.3)"
                )
            if action.kind == "done":
                return "a city holds more police than the limits allow (rule 3.3)"
            return f"{self.power} re-arranges its police first ('done' ends it; rule 3.3)"
        if self.phase == SEARCH:
            if action.kind == "search":
                return (
                    "only an enemy spy in a city with your police, once a turn, and the first "
                    "search in a city costs one Action Point (rule 3.4)"
                )
            return f"{self.power} searches first ('done' ends the searches; rule 3.4)"
        if action.kind in ("search", "relocate", "done", "pass", "return", "play", "discard"):
            return "that belongs to another step of the turn (rules 3.3, 3.4, 4.1)"
        if self.phase in PHASES:
            if action.kind != {SECRETS: "secret", POLICE: "police", SPIES: "spy"}[self.phase]:
                return f"it is set-up: {self.power} places its {self.phase} (rules 2.4-2.8)"
            return deployment.why_not(self, action)
        if action.kind == "end" and self.voyage is not None:
            return f"{self.moving} is at sea: a spy may not end its movement at sea (rule 3.61)"
        label = action.target if action.kind == "reroll" else (action.target or (None,))[0]
        spy = self.spies.get(label) if isinstance(label, str) else None
        if spy is None or spy.power != self.power:
            return f"{label} is not a spy of {self.power}"
        if self.voyage is not None and label != self.moving:
            return f"finish moving {self.moving} first: it is at sea (rules 3.6 and 3.61)"
        if self.action_points == 0:
            return "no Action Points are left this turn (rule 3.1)"
        if label in self.moved:
            return f"{label} has already moved this turn: one spy at a time (rule 3.6)"
        if spaces_left(self, label) == 0:
            return f"{label} has moved its {movement.SPACES} spaces this turn (rule 3.6)"
        if action.kind in ("embark", "sail", "reroll"):
            return (
                "the spy could not land in time: a voyage must end in a port within the "
                "roll and the spy's spaces and Action Points (rule 3.61)"
            )
        return "no rail line, air line or sea move joins those places (rule 3.6)"

    def _why_not_control(self, action: Action) -> str:
        label = action.target if action.kind != "control" else action.target[0]
        secret = self.secrets.get(label)
        if secret is None or secret.status != IN_PLAY:
            return f"{label} is not a Secret in play"
        if self.voyage is not None:
            return f"{self.moving} is at sea: nothing else happens until it lands (rule 3.61)"
        if secret.holder is not None and self.piece_power(secret.holder) != self.power:
            return f"{label} is enemy-controlled: only a Discovery chit takes it (rule 3.7)"
        if action.kind == "cash":
            return (
                "only a spy controlling a foreign Secret in its own capital cashes it, on its "
                "own turn (rule 3.7)"
            )
        if action.kind == "release":
            return "only a spy of yours controlling the Secret leaves it (rule 3.7)"
        return (
            "the piece must be yours, in the Secret's city, controlling nothing and not have "
            "taken control this turn; from nobody only your original Secret in your home "
            "territory (a police unit only in its starting city), else a Discovery chit; police "
            "pass Secrets while re-arranging, spies while moving (rule 3.7)"
        )

    def _describe(self, action: Action) -> str:
        kind, target = action.kind, action.target
        if kind in diplomacy.KINDS or kind in ("accept", "refuse"):
            return diplomacy.describe(self, action)
        if kind == "bid":
            return bidding.describe(self, target)
        if kind == "done":
            what = "re-arranging police" if self.phase == REARRANGE else "searching"
            return f"Finish {what}."
        if kind == "pass":
            if self.pending[0][0] == REACT:
                return reactions.describe_pass(self)
            return f"Let {self.pending[0][2]} go by without a search."
        if kind == "chit":
            return plays.describe(self, action.target)
        if kind == "search":
            spy = self.spies[target]
            free = bool(self.pending) or spy.place in self.paid or self.free_searches
            cost = "free" if free else "1 Action Point"
            return f"Search for {target} in {spy.place} with your police there ({cost})."
        if kind == "return":
            return f"Return the Action Chit {target} to the cup (ten at most)."
        if kind in (events.PLAY, events.DISCARD):
            tile = self.edition.tile(target)
            awards = ", ".join(str(a) for a in tile.awards)
            if kind == events.DISCARD:
                return f"Discard {tile.id}, {tile.title!r}, face down (free)."
            effect = events.effect_text(tile)
            then = f"; then {effect}" if effect else ""
            return f"Play {tile.id}, {tile.title!r}: {awards}{then} (1 Action Point)."
        if kind == "relocate":
            unit = self.police[target[0]]
            return f"Move police {target[0]} from {unit.city} to {target[1]} (free)."
        if kind == "control":
            secret = self.secrets[target[0]]
            source = "uncontrolled" if secret.holder is None else f"held by {secret.holder}"
            return f"Put {target[1]} in control of Secret {target[0]} ({source}) (free)."
        if kind == "release":
            return f"Leave Secret {target} uncontrolled where it is (free)."
        if kind == "cash":
            return "Cash this foreign Secret in your capital: £20 and an Action Chit."
        if kind == "secret":
            face, city = target
            return f"Place a Secret ({face}) face down in {city}."
        if kind == "police":
            return f"Place a police unit of strength {target[0]} face down in {target[1]}."
        if kind == "spy":
            strength, cousin, city = target
            what = (
                f"your Cousin (strength {strength})" if cousin else f"a spy of strength {strength}"
            )
            return f"Place {what} face down in {city}."
        if kind == "end":
            return f"End {self.power}'s turn ({self.action_points} Action Points unused)."
        label = target if kind == "reroll" else target[0]
        cost = "1 Action Point"
        if kind == "reroll":
            return (
                f"Roll the average die again for {label}'s voyage ({cost} and one of its "
                "five spaces; the new roll replaces the old)."
            )
        place = target[1]
        if kind == "move":
            here = self.spies[label].place
            kinds = " or ".join(sorted(self.edition.map.graph.routes(here)[place]))
            return f"Move {label} by {kinds} from {here} to {place} ({cost})."
        if kind == "embark":
            return (
                f"Put {label} to sea in the {place} and roll the average die for the "
                f"voyage's length ({cost})."
            )
        if kind == "sail":
            return f"Sail {label} to the {place} ({cost})."
        return f"Land {label} at {place} ({cost})."
