"""The game's state and the engine's hooks (Spies!, the Long Game rules v2.3).

``SpiesState`` keeps where the game stands (year, phase, the power to play, the set-up reserves,
the decisions waiting) and owns the parts in ``parts`` (bank, board, turn, talks, hands,
auction). The rules are free functions in their modules: set-up (``deployment``), the event tile
(``events``), police and searches (``police``, ``captures``), movement (``movement``), Secrets
(``control``), chits (``chits``, ``plays``, ``reactions``), diplomacy (``diplomacy``), bidding for
Russia (``bidding``), secret money (``money``), the seating (``seats``). ``_apply`` hands a move to
its module; a module that ends a step returns an event and ``flow`` (one table) says what comes
next. Typed moves and the sentences about them are in ``words``.

Decisions that interrupt the flow (a search of an arriving spy, returning chits over the limit
of ten, also in the middle of a tile's awards, an answer with a chit, the answer to an offer,
a sealed bid for Russia) wait in ``pending``; an answer and a return go to its head, arrivals
queue behind. While one waits, the seat playing the power that must decide is the one to move.

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

from spyglass.engine import Action, Result, Rng, State, plural

from . import (
    bidding,
    chits,
    control,
    deployment,
    diplomacy,
    events,
    flow,
    money,
    plays,
    police,
    reactions,
    seats,
    words,
)
from .diplomacy import TALKS
from .edition import EDITION, Edition
from .flow import FIRST_YEAR, LAST_YEAR
from .geography import POWERS
from .hidden import resample
from .movement import apply_move, move_actions
from .notation import parse_token, tile_token
from .parts import ACTION_POINTS, Auction, Bank, Board, Hands, Talks, Turn
from .pieces import CASHED, IN_PLAY, Secret
from .reactions import REACT, Contest
from .steps import MOVE, OVER, REARRANGE, SEARCH, SECRETS, TILE, TURN_PHASES
from .views import table_view

__all__ = [
    "ACTION_POINTS",
    "FIRST_YEAR",
    "LAST_YEAR",
    "OVER",
    "TURN_PHASES",
    "SpiesState",
    "parse_token",
    "tile_token",
]

COLOUR_TILE_POINTS = 2  # rule 6.0
ALLIANCE_PENALTY = 20  # rule 8.1
ALLIANCES = (  # rule 8.1: (power, its ally, the other camp)
    ("Germany", "Italy", ("Britain", "France")),
    ("Italy", "Germany", ("Britain", "France")),
    ("France", "Britain", ("Germany", "Italy")),
    ("Britain", "France", ("Germany", "Italy")),
)


def _tile_draws(tile: Any) -> int:
    """The most chits a tile can hand out: every power rewarded in every city it names."""
    chit_awards = sum(a.amount * len(a.cities) for a in tile.awards if a.unit == "c")
    extra = tile.effect.count if tile.effect is not None else 0
    return len(POWERS) * chit_awards + extra


def _tile_money(tile: Any) -> int:
    """The most £ a tile can hand out: every power rewarded in every city it names."""
    return len(POWERS) * sum(a.amount * len(a.cities) for a in tile.awards if a.unit == "£")


_HOMES: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[str, ...]] = {}
_TILE_NUMBER = {tile_token(t.id): t.number for t in EDITION.tiles}


class SpiesState(State):
    # mypy reads the engine's ClassVar callable as a method: a static function is what it means.
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
    phase: str  # a set-up step or a step of the turn (``flow``)
    power_index: int
    annexed: dict[str, str]  # country -> power (event tiles)
    last_year: int  # 1939, or 1938 after the Polish Crisis (rule 2.9)
    pact: bool  # the Soviet-German Non-aggression Pact has been played
    labels: dict[str, int]  # the last label number given, by prefix
    hand_secrets: dict[str, list[str]]  # set-up: each power's Secrets still to place
    reserve_police: dict[str, list[int]]  # set-up: police strengths still to place
    reserve_spies: dict[str, list[tuple[int, bool]]]  # set-up: (strength, cousin) to place
    pending: list[tuple[str, str, str | None]]  # (kind, deciding power, spy label)
    contest: Contest | None  # an action open to answers with chits (reactions.py)
    # The parts (``parts``):
    bank: Bank
    board: Board
    turn: Turn
    talks: Talks
    hands: Hands
    auction: Auction

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
        self.auction, self.talks = Auction(), Talks()
        self.bank = Bank({p.name: p.money for p in edition.powers})
        self.board, self.turn = Board(), Turn()
        self.hands = Hands({}, [], {}, {p: [] for p in POWERS})
        self.year = FIRST_YEAR
        self.annexed = {}
        self.last_year, self.pact = LAST_YEAR, False
        self.labels = {}
        self.reserve_police = {p.name: list(p.police) for p in edition.powers}
        self.reserve_spies = {
            p.name: [(s, False) for s in p.spies] + [(p.cousin, True)] for p in edition.powers
        }
        self.pending, self.contest = [], None
        for power in POWERS:
            who = (
                "goes to the highest bidder"
                if self.bid_for_russia(power)
                else f"is played by seat {self.controller(power)}"
            )
            self.say(f"{power} {who}; it starts with £{self.bank.money[power]}")
        decks = self._decks
        assert decks is not None  # a state is set up from its decks
        self._deal_secrets(list(decks["secrets"]))
        self._deal_tiles(list(decks["tiles"]))
        self.hands.chits = {p: [] for p in POWERS}
        self.hands.cup = list(decks["chits"])  # drawn from the top after the police (2.6)
        self.phase, self.power_index = SECRETS, 0

    def _deal_secrets(self, order: list[str]) -> None:
        self.hand_secrets = {}
        for p in self.edition.powers:
            self.hand_secrets[p.name] = sorted(order[: p.secrets])
            del order[: p.secrets]
            faces = " ".join(self.edition.secret(c).face for c in self.hand_secrets[p.name])
            self.say(
                f"{p.name} draws Secrets {faces}",
                self.informed_seats(p.name),
                f"{p.name} draws {plural(p.secrets, 'Secret')}",
            )
        for city, card in zip(
            [c.id for c in self.edition.map.cities.values() if c.secret], order, strict=True
        ):
            label = self.next_label("X")
            self.board.secrets[label] = Secret(label, card, None, city, city)
        self.say("a Secret is placed face down in each SECRET city")

    def _deal_tiles(self, order: list[str]) -> None:
        self.hands.tiles = {}
        for power in POWERS:
            own = [tile_token(t.id) for t in self.edition.tiles if t.power == power]
            drawn, order[:3] = order[:3], []
            self.hands.tiles[power] = self.sort_tiles(own + drawn)
            self.say(
                f"{power} draws random tiles {' '.join(drawn)}",
                self.informed_seats(power),
                f"{power} draws three random tiles",
            )

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
        return self.seating.controller(power, min(self.year, LAST_YEAR), self.auction.russia_seat)

    def powers_of(self, seat: int) -> list[str]:
        return [p for p in POWERS if self.controller(p) == seat]

    def informed_seats(self, power: str) -> set[int]:
        """The seats that have played ``power``: they know its pieces' faces."""
        if self.bid_for_russia(power):
            return set(self.auction.russia_held)
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
            and self.auction.russia_seat != self.controller("Germany")
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
        return self.sees_faces(observer, power) or observer in self.board.known.get(label, ())

    def sees_secret(self, observer: int | None, secret: Secret) -> bool:
        """A seat knows a Secret's face once it has been allowed to look at it (its own
        original while no other power controls it, a foreign one it controls: rule 2.4), and
        remembers it; cashed and removed Secrets lie face up."""
        return self.is_over or observer in self.board.known.get(secret.label, ())

    def reveal(self, labels: Any, seats: Any) -> None:
        """``seats`` have now seen the faces of the pieces ``labels``."""
        seats = frozenset(seats) if not isinstance(seats, int) else frozenset((seats,))
        for label in labels:
            self.board.known[label] = self.board.known.get(label, frozenset()) | seats

    def publish(self, labels: Any) -> None:
        """The pieces ``labels`` lie face up: everyone, spectators included, sees them."""
        self.reveal(labels, {None, *range(self.players)})

    def look(self, label: str) -> None:
        """The seats allowed to look at Secret ``label`` now do (rule 2.4)."""
        secret = self.board.secrets[label]
        holder = self.piece_power(secret.holder) if secret.holder else None
        seats = set()
        if secret.origin is not None and holder in (None, secret.origin):
            seats.add(self.controller(secret.origin))
        if holder is not None:
            seats.add(self.controller(holder))
        self.reveal([label], seats)

    def piece_power(self, label: str) -> str:
        piece = self.board.spies.get(label) or self.board.police[label]
        return piece.power

    def held_by(self, piece: str) -> str | None:
        """The Secret that ``piece`` controls, if any."""
        for secret in self.board.secrets.values():
            if secret.holder == piece:
                return secret.label
        return None

    def set_holder(self, label: str, piece: str | None) -> None:
        """Put ``piece`` (None: nobody) in control of Secret ``label``, noting the year it is
        taken from its owner (rule 3.7) and who may now look at it."""
        secret = self.board.secrets[label]
        before = self.piece_power(secret.holder) if secret.holder else None
        after = self.piece_power(piece) if piece else None
        taken = secret.taken
        if after is not None and after != secret.origin:
            if secret.origin is None:
                taken = self.year if taken is None else taken
            elif before == secret.origin or (before is None and not secret.loose):
                taken = self.year
        self.board.secrets[label] = replace(secret, holder=piece, taken=taken)
        self.settle(label)
        self.look(label)

    def settle(self, label: str) -> None:
        """A loose original Secret lying in its starting city uncontrolled, or under one of its
        power's police units, is settled there again (rule 3.7)."""
        secret = self.board.secrets[label]
        if (
            secret.loose
            and secret.place == secret.home
            and (
                secret.holder is None
                or (
                    secret.holder in self.board.police
                    and self.piece_power(secret.holder) == secret.origin
                )
            )
        ):
            self.board.secrets[label] = replace(secret, loose=False)

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

    def is_random_tile(self, token: str) -> bool:
        """A tile of no power's colour (one of the fifteen random tiles). Decided by the
        edition's tile, not by the token's spelling: Russia's own tiles ("Ru1") begin with the
        random tiles' "R" too."""
        return self.edition.tile(token).power is None

    @staticmethod
    def sort_tiles(tokens: list[str]) -> list[str]:
        return sorted(tokens, key=_TILE_NUMBER.__getitem__)

    def visible_tiles(self, power: str, hand: bool) -> Any:
        """A power's tiles as a seat sees them. Its own seven are public (the manifest), so all
        know which of them are not yet played: they are in its hand or among its discards."""
        discarded = [t for t, _ in self.hands.discarded[power]]
        if hand:
            return {"hand": list(self.hands.tiles[power]), "discarded": discarded}
        played = {t for _, t, _ in self.hands.played}
        own = [
            tile_token(t.id)
            for t in self.edition.tiles
            if t.power == power and tile_token(t.id) not in played
        ]
        return {
            "hand": len(self.hands.tiles[power]),
            "discarded": len(discarded),
            "own_unplayed": own,
        }

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
            if self.talks.offer is not None:
                return diplomacy.compose_actions(self)
            actions = move_actions(self) + control.control_actions(self, False)
            return actions + plays.chit_actions(self) + diplomacy.approach_actions(self)
        return deployment.deploy_actions(self)

    def _apply(self, action: Action) -> None:
        # Each rule module applies the move and returns the event that ends its step, if the
        # step is over; ``flow`` says what follows.
        kind = action.kind
        event: str | None = None
        if self.pending:
            head, power = self.pending[0][:2]
            if kind == "return":
                chits.apply_return(self, power, action.target)
            elif head == REACT:
                reactions.answer(self, action)
            elif head == TALKS:
                diplomacy.apply(self, action)
            elif head == bidding.BID:
                flow.advance(self, bidding.apply_bid(self, action.target))
            else:
                police.apply_arrival(self, power, action)
            # A spy captured or killed meanwhile is no longer searched for on its arrival.
            self.pending = [
                p for p in self.pending
                if p[0] != police.ARRIVAL or self.board.spies[p[2]].status == "active"  # type: ignore[index]
            ]  # fmt: skip
            if not self.pending and self.phase == TILE and head != bidding.BID:
                event = events.resume(self)
        elif self.phase == TILE:
            event = events.apply_tile(self, kind, action.target)
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
                self.say(f"{self.power} has re-arranged its police")
                event = flow.DONE
        elif self.phase == SEARCH:
            if kind == "search":
                police.apply_search(self, action.target)
            else:
                event = flow.searches_over(self)
        elif self.phase == MOVE:
            event = apply_move(self, action)
        else:
            event = deployment.apply_deploy(self, action)
        flow.advance(self, event)

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
        for secret in self.board.secrets.values():
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
        captured = 0
        for spy in self.board.spies.values():
            if spy.captor == power:  # a captured spy has the year of its capture
                captured += spy.strength * record[spy.year]  # type: ignore[index]
        markers = sum(  # Sanctioned markers (5.2, 6.0)
            value * record[year] for killer, _, value, year in self.board.markers if killer == power
        )
        own = sum(1 for p, t, _ in self.hands.played if p == power and not self.is_random_tile(t))
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
            richest = max(self.bank.money[p] for p in leaders)
            winners = {self.controller(p) for p in leaders if self.bank.money[p] == richest}
        else:  # 8.2: the lower of a seat's powers, or their sum
            pick = min if mode == "lower" else sum
            score = {s: pick(points[p] for p in mine[s]) for s in mine}
            top = max(score.values())
            purse = {s: sum(self.bank.money[p] for p in mine[s]) for s in mine}
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
            "free_searches": self.turn.free_searches,
            "played": [list(p) for p in self.hands.played],
            "discarded": {p: [list(d) for d in v] for p, v in self.hands.discarded.items()},
            "awarding": [list(a) for a in self.turn.awarding],
            "money": dict(self.bank.money),
            "hand_secrets": {p: list(v) for p, v in self.hand_secrets.items()},
            "reserve_police": {p: list(v) for p, v in self.reserve_police.items()},
            "reserve_spies": {p: [list(k) for k in v] for p, v in self.reserve_spies.items()},
            "spies": [[s.label, s.power, s.strength, s.cousin, s.place, s.status, s.captor,
                       s.year] for s in self.board.spies.values()],
            "police": [[u.label, u.power, u.strength, u.city] for u in self.board.police.values()],
            "secrets": [[s.label, s.card, s.origin, s.home, s.place, s.holder, s.status,
                         s.taken, s.loose, s.record] for s in self.board.secrets.values()],
            "chits": {p: list(v) for p, v in self.hands.chits.items()},
            "cup": list(self.hands.cup),
            "tiles": {p: list(v) for p, v in self.hands.tiles.items()},
            "labels": dict(sorted(self.labels.items())),
            "action_points": self.turn.action_points,
            "moving": self.turn.moving,
            "spaces": self.turn.spaces,
            "voyage": None if self.turn.voyage is None else [
                self.turn.voyage.limit, self.turn.voyage.used, self.turn.voyage.may_reroll],
            "moved": sorted(self.turn.moved),
            "pending": [list(p) for p in self.pending],
            "known": {k: sorted(v, key=lambda s: -1 if s is None else s)
                      for k, v in sorted(self.board.known.items())},
            "comparisons": [[list(u), s, c] for u, s, c in self.board.comparisons],
            "relocated": sorted(self.turn.relocated),
            "searched": sorted(self.turn.searched),
            "paid": sorted(self.turn.paid),
            "took": sorted(self.turn.took),
            "approached": sorted(self.turn.approached),
            "contest": None if self.contest is None else self.contest.to_json(),
            "covered": dict(sorted(self.board.covered.items())),
            "markers": [list(m) for m in self.board.markers],
            "duels": [list(d) for d in self.board.duels],
            "plain": sorted(self.board.plain),
            "offer": None if self.talks.offer is None else self.talks.offer.to_json(),
            "chit_memory": [[seat, power, list(v)]
                            for (seat, power), v in sorted(self.talks.chit_memory.items())],
            "russia_seat": self.auction.russia_seat,
            "russia_held": sorted(self.auction.russia_held),
            "bids": {str(k): v for k, v in sorted(self.auction.bids.items())},
            "bid_over": self.auction.bid_over,
            "ledger": money.ledger_json(self),
            "trades": [[a, b, g, k, list(w)] for a, b, g, k, w in self.bank.trades],
        }  # fmt: skip

    def _resample(self, observer: int | None, rng: Rng) -> None:
        resample(self, observer, rng)

    def _copy_containers(self) -> None:
        self.annexed = dict(self.annexed)
        self.labels = dict(self.labels)
        self.hand_secrets = {p: list(v) for p, v in self.hand_secrets.items()}
        self.reserve_police = {p: list(v) for p, v in self.reserve_police.items()}
        self.reserve_spies = {p: list(v) for p, v in self.reserve_spies.items()}
        self.pending = list(self.pending)
        self.bank = self.bank.copy()
        self.board = self.board.copy()
        self.turn = self.turn.copy()
        self.talks = self.talks.copy()
        self.hands = self.hands.copy()
        self.auction = self.auction.copy()

    def _cards(self) -> list[str]:
        cards = [s.card for s in self.board.secrets.values()]
        cards += [c for hand in self.hand_secrets.values() for c in hand]
        cards += [c for hand in self.hands.chits.values() for c in hand] + self.hands.cup
        cards += [t for hand in self.hands.tiles.values() for t in hand]
        cards += [t for pile in self.hands.discarded.values() for t, _ in pile]
        cards += [t for _, t, _ in self.hands.played]
        return cards

    # ---------------------------------------------------------------- words (``words``)

    def _parse(self, text: str) -> Action | None:
        return words.parse(self, text)

    def _why_illegal(self, action: Action) -> str:
        return words.why_illegal(self, action)

    def _describe(self, action: Action) -> str:
        return words.describe(self, action)

    # ---------------------------------------------------------------- for the rule modules

    def say(self, text: str, seats: Any = None, others: str | None = None) -> None:
        """Log an event; with ``seats``, only those seats read ``text`` and the rest ``others``
        (the rule modules' one way into the log)."""
        self._say(text, seats, others)

    def forget_legal(self) -> None:
        """Drop the cached legal moves, after changing a position by hand (tests, tools)."""
        self._legal = None
