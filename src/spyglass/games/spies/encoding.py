"""Spies! for learning libraries: every move as an index, and the map as a seat sees it.

Moves carry no cards: each is a kind and a target (``Ge3 Vienna`` is ``move`` aimed at
``("Ge3", "Vienna")``), so the universe lists, kind by kind, every target the edition allows.
Piece labels are fixed by the edition (a power's spies are its abbreviation and 1 to its spy
count, "GeP1" its police units, "X1" to "X40" the Secrets, in the order they are placed), so
the universe is the same in every game with the same options; only bidding for Russia (8.5)
adds a kind.

The observation follows the view's lists: one entry per spy, police unit and Secret (its place,
its standing and the face when the seat may see it), one per power (seat, money, chits, tiles,
what it has still to place), then the turn, the contest waiting for answers, the offer on the
table and the sealed bids. Histories that grow with the game (every strength comparison and
duel) are encoded by their latest entry: the seat saw each one as it happened. The Secret cards'
ids never reach a view (a seat sees a Secret's face), so the card vocabulary is the Action
Chits and Event Tiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Feature,
    Keys,
    Labelled,
    Number,
    Scoring,
    Zone,
    unique,
)

from .bidding import BID
from .chits import HAND_LIMIT, SURPLUS
from .control import CASH_MONEY
from .deployment import PHASES
from .diplomacy import CHIT, MONEY, SECRET, TALKS
from .edition import EDITION, RANDOM_DRAW, SECRETS, TILES_PER_POWER
from .geography import POWERS
from .money import LADDER
from .observer import observer
from .pieces import ACTIVE, CAPTURED, CASHED, IN_PLAY, REMOVED, SANCTIONED, spy_face
from .police import ARRIVAL, CAPTURE_MONEY
from .reactions import (
    AVOID,
    AVOIDANCE,
    COUNTERSPY,
    COVER,
    COVER_CHIT,
    CROSS,
    DISCOVERY,
    DOUBLE_CROSS,
    DROP,
    ESCAPE,
    INTERCEPT,
    INTERCEPT_CHIT,
    REACT,
    SANCTION,
    SEARCH,
    SPOILS,
)
from .rules import ACTION_POINTS, FIRST_YEAR, LAST_YEAR, OVER, TURN_PHASES, tile_token

YEARS = tuple(range(FIRST_YEAR, LAST_YEAR + 1))
GAME_MAP = EDITION.map
CITIES = tuple(GAME_MAP.cities)
ZONES = tuple(GAME_MAP.zones)
PORTS = tuple(c for c in CITIES if GAME_MAP.cities[c].port)
ABBR = {p.name: p.abbr for p in EDITION.powers}

#: Every label a piece can carry: spies and police per power, in turn order, then the Secrets.
SPIES = tuple(f"{p.abbr}{i}" for p in EDITION.powers for i in range(1, len(p.spies) + 2))
POLICE = tuple(f"{p.abbr}P{i}" for p in EDITION.powers for i in range(1, len(p.police) + 1))
PIECES = SPIES + POLICE
SECRET_LABELS = tuple(f"X{i}" for i in range(1, SECRETS + 1))

SECRET_FACES = tuple(sorted({s.face for s in EDITION.secrets}))
SPY_KINDS = tuple(
    sorted(
        {(s, False) for p in EDITION.powers for s in p.spies}
        | {(p.cousin, True) for p in EDITION.powers}
    )
)
SPY_FACES = tuple(spy_face(s, c) for s, c in SPY_KINDS)
POLICE_STRENGTHS = tuple(sorted({s for p in EDITION.powers for s in p.police}))
CHITS = tuple(c.name for c in EDITION.chits)
TILES = tuple(tile_token(t.id) for t in EDITION.tiles)

PHASE_NAMES = (*PHASES, *TURN_PHASES, OVER)
CONTEST_KINDS = (SEARCH, SANCTION, DISCOVERY, COUNTERSPY, ESCAPE, DROP, SPOILS)
STAGES = (AVOID, COVER, CROSS, INTERCEPT, SPOILS)
PENDING = (SURPLUS, REACT, TALKS, BID, ARRIVAL)
DUELS = (SANCTION, DISCOVERY, "counterspy")
OUTCOMES = ("killed", "failed", "backfire", "won", "lost", "cousin", "captured", "stood")
AWARDS = tuple(
    sorted(
        {f"{a.amount}{a.unit}" for t in EDITION.tiles for a in t.awards}
        | {
            f"{t.effect.count}c"
            for t in EDITION.tiles
            if t.effect and t.effect.kind == "draw_chits"
        }
    )
)

# ---------------------------------------------------------------------- capacities

#: Every Action Chit of the edition: the most one hand could hold.
CHIT_COUNT = sum(c.count for c in EDITION.chits)
#: Power-turns in a game: each power once a year (bidding adds no turn).
TURNS = len(POWERS) * len(YEARS)
MOST_SECRETS = max(p.secrets for p in EDITION.powers)
MOST_POLICE = max(len(p.police) for p in EDITION.powers)
MOST_SPIES = max(len(p.spies) + 1 for p in EDITION.powers)
FEWEST_SPIES = min(len(p.spies) + 1 for p in EDITION.powers)
#: A power's tiles in hand: its own seven and the random ones it drew (2.3).
TILE_HAND = TILES_PER_POWER + RANDOM_DRAW
#: The awards one tile hands out: every power with a spy in each city it names, and the
#: tile's own draw of chits.
AWARDS_AT_ONCE = max(
    len(POWERS) * sum(len(a.cities) for a in t.awards)
    + (t.effect is not None and t.effect.kind == "draw_chits")
    for t in EDITION.tiles
)
#: Sanctioned markers: each comes from one Sanction (two Action Points, own turn only) and
#: kills an active spy; a killed spy is active again only through a Recruit (two Action Points)
#: (an escape from a record only undoes a capture). So markers <= spies + Recruits and
#: 2 * (markers + Recruits) <= the Action Points of the whole game.
_SANCTION_AP = EDITION.chit("Sanction").action_points
_RECRUIT_AP = EDITION.chit("Recruit").action_points
MARKERS = (TURNS * ACTION_POINTS + len(SPIES) * _RECRUIT_AP) // (_SANCTION_AP + _RECRUIT_AP)
#: The most £ all powers can hold together, so the most a seat can bid for Russia: the starting
#: money, every £ award of every tile (each is played once) to every power, every Secret cashed
#: once, and a capture of each spy. A spy is captured again only after an Escape from the
#: record or a Recruit, each costing at least the capture's reward, so recaptures add nothing.
MOST_MONEY = (
    sum(p.money for p in EDITION.powers)
    + sum(
        len(POWERS) * a.amount * len(a.cities)
        for t in EDITION.tiles
        for a in t.awards
        if a.unit == "£"
    )
    + SECRETS * CASH_MONEY
    + len(SPIES) * CAPTURE_MONEY
)


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    return _encoding(bool(options.get("russia_bidding", False)), players)


@cache
def _encoding(bidding: bool, players: int) -> Encoding:
    seats = tuple(range(players))
    return Encoding(
        cards=unique([*CHITS, *TILES]),
        actions=_actions(bidding),
        observation=_observation(seats),
        # A power's victory points at the end; 200 is beyond any game seen in self-play.
        scoring=Scoring(points=(0, 200), text="victory points"),
        observer=observer,
    )


# ---------------------------------------------------------------------- actions


def _power_of(label: str) -> str:
    return next(p for p, a in ABBR.items() if label.startswith(a))


def _homes(power: str) -> tuple[str, ...]:
    """Every city that can be ``power``'s home territory: its own, and the countries its tiles
    annex."""
    return tuple(
        c
        for c in CITIES
        if (country := GAME_MAP.countries[GAME_MAP.cities[c].country]).power == power
        or (country.annexed_by is not None and country.annexed_by[0] == power)
    )


def _actions(bidding: bool) -> tuple[ActionKind, ...]:
    set_up = tuple(c for c in CITIES if GAME_MAP.home_power(c) is not None)
    relocations = tuple((unit, city) for unit in POLICE for city in _homes(_power_of(unit)))
    spy_and = _product(SPIES, CITIES)
    chits = (
        *(("Discovery", spy, secret) for spy in SPIES for secret in SECRET_LABELS),
        *(("Drop", secret, piece) for secret in SECRET_LABELS for piece in PIECES),
        *(
            ("Sanction", spy, victim)
            for spy in SPIES
            for victim in SPIES
            if _power_of(spy) != _power_of(victim)
        ),
        *((kind, spy) for kind in ("Escape", "Recruit", "Cover") for spy in SPIES),
        # Answers in a contest: the chit alone, or Intercept with the piece that takes over.
        *((kind,) for kind in unique([*AVOIDANCE[SEARCH], COVER_CHIT, DOUBLE_CROSS])),
        *((INTERCEPT_CHIT, piece) for piece in PIECES),
    )
    items = (
        *((MONEY, n) for n in LADDER),
        *((CHIT, name) for name in CHITS),
        *((SECRET, secret, piece) for secret in SECRET_LABELS for piece in PIECES),
    )
    kinds = [
        ActionKind("secret", targets=_product(SECRET_FACES, set_up)),
        ActionKind("police", targets=_product(POLICE_STRENGTHS, set_up)),
        ActionKind("spy", targets=tuple((s, c, city) for s, c in SPY_KINDS for city in CITIES)),
        ActionKind("play", targets=TILES),
        ActionKind("discard", targets=TILES),
        ActionKind("return", targets=CHITS),
        ActionKind("relocate", targets=relocations),
        ActionKind("search", targets=SPIES),
        ActionKind("move", targets=spy_and),
        ActionKind("embark", targets=_product(SPIES, ZONES)),
        ActionKind("sail", targets=_product(SPIES, ZONES)),
        ActionKind("land", targets=_product(SPIES, PORTS)),
        ActionKind("reroll", targets=SPIES),
        ActionKind("control", targets=_product(SECRET_LABELS, PIECES)),
        ActionKind("release", targets=SECRET_LABELS),
        ActionKind("cash", targets=SECRET_LABELS),
        ActionKind("chit", targets=chits),
        ActionKind("approach", targets=POWERS),
        ActionKind("offer", targets=items),
        ActionKind("ask", targets=items),
        *(ActionKind(k) for k in ("done", "pass", "end", "send", "withdraw", "accept", "refuse")),
    ]
    if bidding:
        kinds.append(ActionKind("bid", targets=tuple(range(MOST_MONEY + 1))))
    return tuple(kinds)


def _product(first: tuple[Any, ...], second: tuple[Any, ...]) -> tuple[tuple[Any, Any], ...]:
    return tuple((a, b) for a in first for b in second)


# ---------------------------------------------------------------------- observation


def _observation(seats: tuple[int, ...]) -> tuple[Feature, ...]:
    places = CITIES + ZONES
    return (
        Category("year", YEARS),
        Category("phase", PHASE_NAMES),
        Category("power", tuple(POWERS)),
        Number("action_points", ACTION_POINTS),
        Category("moving.spy", SPIES),
        Number("moving.spaces", 5),
        Number("moving.voyage.limit", 6),
        Number("moving.voyage.used", 6),
        Number("moving.voyage.may_reroll"),
        # This turn so far: the spies moved, the police relocated (the power's own), the enemy
        # spies searched for, the cities searched (one per police unit at most).
        Each("moved", MOST_SPIES, (Category("", SPIES),)),
        Each("relocated", MOST_POLICE, (Category("", POLICE),)),
        Each("searched", len(SPIES) - FEWEST_SPIES, (Category("", SPIES),)),
        Each("paid", MOST_POLICE, (Category("", CITIES),)),
        # One tile a turn at most.
        Each(
            "tiles_played",
            TURNS,
            (Category("power", tuple(POWERS)), Category("tile", TILES)),
        ),
        Each(
            "awards_to_make",
            AWARDS_AT_ONCE,
            (Category("power", tuple(POWERS)), Category("award", AWARDS)),
        ),
        Keys(
            "annexed",
            tuple(c for c, info in GAME_MAP.countries.items() if info.annexed_by is not None),
            (Category("", tuple(POWERS)),),
        ),
        Category("last_year", YEARS),
        Number("pact"),
        Number("free_searches"),
        # The decision at the head of the queue (the seat to move is in the header).
        Category("pending.0.kind", PENDING),
        Category("pending.0.power", tuple(POWERS)),
        Category("pending.0.spy", SPIES + SECRET_LABELS),
        # The latest strength comparisons (everyone sees them).
        Each("searches.-1.police", MOST_POLICE, (Category("", POLICE),)),
        Category("searches.-1.spy", SPIES),
        Number("searches.-1.captured"),
        Category("duels.-1.kind", DUELS),
        Category("duels.-1.spy", SPIES),
        Category("duels.-1.against", PIECES + SECRET_LABELS),
        Category("duels.-1.outcome", OUTCOMES),
        Category("contest.kind", CONTEST_KINDS),
        Category("contest.actor", tuple(POWERS)),
        Category("contest.spy", SPIES),
        Category("contest.stage", STAGES),
        Category("contest.target", PIECES),
        Category("contest.secret", SECRET_LABELS),
        Number("contest.double_crosses", 4),
        Keys("covered", SPIES, (Category("", tuple(POWERS)),)),
        Each(
            "sanctioned_markers",
            MARKERS,
            (Category("power", tuple(POWERS)), Number("value", 3), Category("year", YEARS)),
        ),
        # Secrets shown by a Discovery to be no Counterspy: only plain Secret cards can be.
        Each(
            "no_counterspy",
            sum(1 for s in EDITION.secrets if not s.counterspy),
            (Category("", SECRET_LABELS),),
        ),
        *_offer(),
        Category("bidding.russia_seat", seats),
        Keys("bidding.bids", tuple(str(s) for s in seats), (Number("", 100),)),
        Number("bidding.more_than", 100),
        Each("powers", len(POWERS), _power(seats)),
        Each(
            "spies",
            len(SPIES),
            (
                Category("label", SPIES),
                Category("place", places),
                Category("status", (ACTIVE, CAPTURED, SANCTIONED)),
                Category("captor", tuple(POWERS)),
                Category("year", YEARS),
                Category("face", SPY_FACES),
            ),
        ),
        Each(
            "police",
            len(POLICE),
            (
                Category("label", POLICE),
                Category("city", CITIES),
                Category("strength", POLICE_STRENGTHS),
            ),
        ),
        # The Secrets in the order of their labels (X1, X2, ...), as they are placed.
        Each(
            "secrets",
            SECRETS,
            (
                Category("origin", tuple(POWERS)),
                Category("home", CITIES),
                Category("place", places),
                Category("holder", PIECES),
                Category("status", (IN_PLAY, CASHED, REMOVED)),
                Category("record", tuple(POWERS)),
                Category("taken", YEARS),
                Number("loose"),
                Category("face", SECRET_FACES),
            ),
        ),
    )


def _offer() -> tuple[Feature, ...]:
    """The offer on the table: who makes it to whom, whether it is sent, and (to the two seats
    in it) what each side gives: "£5, Papers, Secret X3 (to Fr2)" is read as the sum, the chits
    and, per Secret and per receiving piece, whether it is in."""
    parts = r", |\(to |\)"
    labels = ("£", *(f"Secret {s} " for s in SECRET_LABELS), *PIECES)
    sides: list[Feature] = []
    for side in ("give", "ask"):
        sides += [
            Zone(f"offer.{side}"),
            Labelled(f"offer.{side}", parts, labels, (Number("", max(LADDER)),)),
        ]
    return (
        Category("offer.from", tuple(POWERS)),
        Category("offer.to", tuple(POWERS)),
        Number("offer.sent"),
        *sides,
    )


def _power(seats: tuple[int, ...]) -> tuple[Feature, ...]:
    """One power: a count where the seat may not look, the faces or cards where it may."""
    return (
        Category("seat", seats),
        Number("money", 100, (0, MOST_MONEY / 100)),
        Each("secrets_to_place", MOST_SECRETS, (Category("", SECRET_FACES),)),
        Number("secrets_to_place", MOST_SECRETS),
        Each("police_to_place", MOST_POLICE, (Number("", max(POLICE_STRENGTHS)),)),
        Number("police_to_place", MOST_POLICE),
        Each("spies_to_place", MOST_SPIES, (Category("", SPY_FACES),)),
        Number("spies_to_place", MOST_SPIES),
        Zone("chits"),
        # Above ten while a surplus waits to be returned (draws come several at a time).
        Number("chits", HAND_LIMIT, (0, CHIT_COUNT / HAND_LIMIT)),
        Number("points", 100, (0, 3)),
        Zone("tiles.hand"),
        Number("tiles.hand", TILE_HAND),
        Zone("tiles.discarded"),
        Number("tiles.discarded", TILE_HAND),
        Zone("tiles.own_unplayed"),
    )
