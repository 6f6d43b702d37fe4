"""Observations of a Spies table for learning libraries, kept between steps.

The view (``views.table_view``) draws the map, the record grid, the prompts and the lines for
people, and asks the rules, piece by piece, who may see each face: far more than the encoded
features need, at every step. This observer is an incremental one (``adapters.incremental``):
each part reads from the state the few plain values its features depend on, and only the parts
whose values changed since the seat's last observation are written again, most often one spy
and the turn's counters.

- The pieces: one item per spy, police unit and Secret, its value the piece itself (a frozen
  record, replaced whenever the piece moves, changes hands or is turned up) and whether the
  seat sees its face. Who sees the faces of a power's pieces, who sees its hands and money, and
  which seat plays it change only with the year, the end and Russia's bids: they are worked out
  once per seat for each of those (``Sight``), by the rules' own ``sees_*`` methods.
- The powers: one item per power, its value what the seat may see of it (hands and reserves
  where it may look, their sizes where it may not).
- The rest of the table: small groups of features (the turn, the piece moving, this turn's
  moves, tiles, contests, the offer, the bids), each read as plain values and, when they
  change, built into the part of the table the view would show and encoded by the encoder's
  own writers.

Tests hold every observation equal to the encoding of ``view(seat)``, at every step of whole
games at every table size, seat by seat and in any order.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import compress
from operator import eq, is_not, itemgetter
from typing import TYPE_CHECKING, Any

from . import bidding, diplomacy
from .edition import EDITION
from .geography import POWERS
from .pieces import spy_face
from .rules import OVER, tile_token

if TYPE_CHECKING:
    from .rules import SpiesState

_NOBODY: frozenset[int | None] = frozenset()
#: Each power's own tiles, by power: the manifest everyone knows.
_OWN_TILES = {p: tuple(tile_token(t.id) for t in EDITION.tiles if t.power == p) for p in POWERS}


class Seen:
    """What a seat may see of the powers at one moment: per power, in the order of POWERS,
    (the seat that plays it, or None while Russia awaits its first bid; whether the seat knows
    its pieces' faces; sees its hands; sees its money), the faces by power, and whether the
    game is over (every face turned up). Made once per key by :class:`Sight` and never
    changed: the same object means the same sight."""

    __slots__ = ("faces", "over", "powers")

    def __init__(self, powers: tuple[tuple[Any, bool, bool, bool], ...], over: bool) -> None:
        self.powers = powers
        self.over = over
        self.faces = {power: seen[1] for power, seen in zip(POWERS, powers, strict=True)}


class Sight:
    """A seat's :class:`Seen`. It changes only with the year, the end of the game and Russia's
    bids, so it is worked out once per seat for each of those, by the rules' own methods, and
    the same object is handed out again while they stay as they are."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        self._memo: dict[tuple[Any, ...], Seen] = {}

    def __call__(self, state: SpiesState, seat: int) -> Seen:
        over = state.phase == OVER
        auction = state.auction
        key = (seat, state.year, over, auction.russia_seat, frozenset(auction.russia_held))
        found = self._memo.get(key)
        if found is None:
            found = Seen(
                tuple(
                    (
                        None
                        if state.bid_for_russia(power) and auction.russia_seat is None
                        else state.controller(power),
                        state.sees_faces(seat, power),
                        state.sees_hand(seat, power),
                        state.sees_money(seat, power),
                    )
                    for power in POWERS
                ),
                over,
            )
            if len(self._memo) >= 4096:
                self._memo.clear()
            self._memo[key] = found
        return found


def observer(encoder: Any) -> Any:
    """The incremental observer of Spies! for ``encoder`` (its ``Encoding.observer``)."""
    return encoder.incremental(
        encoder.group(_table_values, *_table_parts(encoder)), _board_part(encoder)
    )


# ---------------------------------------------------------------------- the rest of the table


def _table_values(state: SpiesState, seat: int) -> tuple[Any, ...]:
    """What each of the table's parts (``_table_parts``, in their order) reads, in one call:
    the turn (year, phase, power; the Action Points; the spy moving; this turn's moves),
    tiles played and awards, annexations, the decision pending, the latest comparison and
    duel, the contest, spies under Cover, Sanctioned markers, Secrets shown plain, the bids,
    and the offer: who makes it to whom, and each side to the seats that see it."""
    turn, board, offer = state.turn, state.board, state.talks.offer
    if offer is None:
        head = give = ask = None
    else:
        head = (offer.initiator, offer.partner, offer.sent)
        give, ask = (offer.give, offer.ask) if diplomacy.sees_offer(state, seat) else (None, None)
    return (
        (
            state.year,
            state.phase,
            state.power_index,
            state.last_year,
            state.pact,
            turn.free_searches,
        ),
        turn.action_points,
        (turn.moving, turn.spaces, turn.voyage),
        frozenset(turn.moved),
        frozenset(turn.relocated),
        frozenset(turn.searched),
        frozenset(turn.paid),
        (tuple(state.hands.played), tuple(turn.awarding)),
        tuple(state.annexed.items()),
        tuple(state.pending[:1]),
        (tuple(board.comparisons[-1:]), tuple(board.duels[-1:])),
        state.contest,
        tuple(board.covered.items()),
        tuple(board.markers),
        frozenset(board.plain),
        bidding.view(state, seat),
        head,
        give,
        ask,
    )


def _table_parts(encoder: Any) -> list[Any]:
    """The features outside the lists of powers and pieces: the turn's counters and moves
    (changed by most actions) written straight from the state's values; the other groups
    built as the view shows them and written by the encoder's own writers."""
    roots: dict[str, list[str]] = {}
    for feature in encoder.declaration.observation:
        roots.setdefault(feature.path.split(".")[0], []).append(feature.path)
    parts = _turn_parts(encoder)
    for name in ("year", "phase", "power", "action_points", "last_year", "pact"):
        del roots[name]
    for name in ("free_searches", "moving", "moved", "relocated", "searched", "paid"):
        del roots[name]
    groups: list[tuple[tuple[str, ...], Callable[[Any, int], Any], Callable[[Any], Any]]] = [
        (
            ("tiles_played", "awards_to_make"),
            lambda state, seat: (tuple(state.hands.played), tuple(state.turn.awarding)),
            _tiles,
        ),
        (("annexed",), lambda state, seat: tuple(state.annexed.items()), _annexed),
        (("pending",), lambda state, seat: tuple(state.pending[:1]), _pending),
        (
            ("searches", "duels"),
            lambda state, seat: (
                tuple(state.board.comparisons[-1:]),
                tuple(state.board.duels[-1:]),
            ),
            _history,
        ),
        (("contest",), lambda state, seat: state.contest, _contest),
        (("covered",), lambda state, seat: tuple(state.board.covered.items()), _covered),
        (("sanctioned_markers",), lambda state, seat: tuple(state.board.markers), _markers),
        (
            ("no_counterspy",),
            lambda state, seat: frozenset(state.board.plain),
            lambda plain: {"no_counterspy": sorted(plain)},
        ),
        (("bidding",), bidding.view, lambda shown: {"bidding": shown}),
    ]
    for names, read, shown in groups:
        paths = list(dict.fromkeys(path for name in names for path in roots.pop(name)))
        # Kept by value: these groups come back to the same few values (no contest, one
        # pending reaction), and each write builds a piece of the table for generic writers.
        written = encoder.remembered(_written(encoder.table_writer(*paths), shown))
        parts.append(encoder.part(read, written, *paths))
    parts += _offer_parts(encoder, roots.pop("offer"))
    left = set(roots) - {"powers", "spies", "police", "secrets"}
    if left:
        raise ValueError(f"spies observer: no part writes {sorted(left)}")
    return parts


def _turn_parts(encoder: Any) -> list[Any]:
    """The year, phase and power; the Action Points; the spy moving; this turn's moves: the
    entries of their categories and numbers, written directly (as the encoder would write the
    view's values)."""
    year, phase, power, last_year = (
        _one_hot(encoder, p) for p in ("year", "phase", "power", "last_year")
    )
    pact, free, points = (encoder.at(p) for p in ("pact", "free_searches", "action_points"))
    points_scale = encoder.feature_at("action_points").scale
    spy = _one_hot(encoder, "moving.spy")
    spaces, limit, used, reroll = (
        (encoder.at(p), encoder.feature_at(p).scale)
        for p in (
            "moving.spaces",
            "moving.voyage.limit",
            "moving.voyage.used",
            "moving.voyage.may_reroll",
        )
    )

    def write_turn(value: tuple[Any, ...]) -> dict[int, float]:
        now, step, index, last, pacted, freed = value
        out = {pact: 1.0 if pacted else 0.0, free: 1.0 if freed else 0.0}
        for positions, v in (
            (year, now),
            (phase, step),
            (power, POWERS[index] if step != OVER else None),
            (last_year, last),
        ):
            at = positions.get(v)
            if at is not None:
                out[at] = 1.0
        return out

    def write_moving(value: tuple[Any, int, Any]) -> dict[int, float]:
        moving, moved, voyage = value
        if moving is None:
            return {}
        out = {spaces[0]: moved / spaces[1]}
        at = spy.get(moving)
        if at is not None:
            out[at] = 1.0
        if voyage is not None:
            out[limit[0]] = voyage.limit / limit[1]
            out[used[0]] = voyage.used / used[1]
            out[reroll[0]] = (1.0 if voyage.may_reroll else 0.0) / reroll[1]
        return out

    def list_writer(path: str) -> Callable[[frozenset[str]], list[int]]:
        """The entries of this turn's list at ``path`` (sorted, as the view lists it)."""
        start, stride, capacity, positions = _each_one_hot(encoder, path)

        def write(items: frozenset[str]) -> list[int]:
            ones = []
            for i, item in enumerate(sorted(items)[:capacity]):
                at = positions.get(item)
                if at is not None:
                    ones.append(start + i * stride + at)
            return ones

        return write

    return [
        encoder.part(
            lambda state, seat: (
                state.year,
                state.phase,
                state.power_index,
                state.last_year,
                state.pact,
                state.turn.free_searches,
            ),
            write_turn,
            "year",
            "phase",
            "power",
            "last_year",
            "pact",
            "free_searches",
        ),
        encoder.part(
            lambda state, seat: state.turn.action_points,
            lambda left: {points: left / points_scale},
            "action_points",
        ),
        encoder.part(
            lambda state, seat: (state.turn.moving, state.turn.spaces, state.turn.voyage),
            write_moving,
            *(p for p in encoder.declaration_paths() if p.startswith("moving.")),
        ),
        # This turn's lists, each on its own: a spy that finishes moving changes one.
        encoder.part(
            lambda state, seat: frozenset(state.turn.moved), list_writer("moved"), "moved"
        ),
        encoder.part(
            lambda state, seat: frozenset(state.turn.relocated),
            list_writer("relocated"),
            "relocated",
        ),
        encoder.part(
            lambda state, seat: frozenset(state.turn.searched),
            list_writer("searched"),
            "searched",
        ),
        encoder.part(lambda state, seat: frozenset(state.turn.paid), list_writer("paid"), "paid"),
    ]


def _one_hot(encoder: Any, path: str) -> dict[Any, int]:
    """The entry of each value of the category at ``path``."""
    start = encoder.at(path)
    return {v: start + i for i, v in enumerate(encoder.feature_at(path).values)}


def _each_one_hot(encoder: Any, path: str) -> tuple[int, int, int, dict[Any, int]]:
    """A list of categories at ``path``: its start, the width of an item, the capacity and
    the position of each value in an item."""
    feature = encoder.feature_at(path)
    (category,) = feature.features
    return (
        encoder.at(path),
        len(category.values),
        feature.capacity,
        {v: i for i, v in enumerate(category.values)},
    )


def _offer_parts(encoder: Any, paths: list[str]) -> list[Any]:
    """The offer on the table: who makes it to whom and whether it is sent (everyone sees
    that); and each side's items, to the seats that see the offer (``diplomacy.view``), each
    side rewritten only when an item is added to it."""
    head = [p for p in paths if p.rsplit(".", 1)[1] in ("from", "to", "sent")]
    write_head = encoder.table_writer(*head)

    def read_head(state: SpiesState, seat: int) -> Any:
        offer = state.talks.offer
        return None if offer is None else (offer.initiator, offer.partner, offer.sent)

    def written_head(value: Any) -> dict[int, float]:
        if value is None:
            return {}
        initiator, partner, sent = value
        return write_head({"offer": {"from": initiator, "to": partner, "sent": sent}})

    parts = [encoder.part(read_head, encoder.remembered(written_head), *head)]
    for side in ("give", "ask"):
        write_side = encoder.table_writer(f"offer.{side}")

        def read_side(state: SpiesState, seat: int, side: str = side) -> Any:
            offer = state.talks.offer
            if offer is None or not diplomacy.sees_offer(state, seat):
                return None
            return getattr(offer, side)

        def written_side(items: Any, side: str = side, write: Any = write_side) -> dict[int, float]:
            if items is None:
                return {}
            return write({"offer": {side: diplomacy.spell_items(items)}})

        # A side's items spelled as the view does, then parsed by the labelled writer: kept
        # by value, as offers are built an item at a time from the same few items.
        # Spelled as the view does and parsed by the labelled writer: kept by value, as
        # offers are built an item at a time from the same few items.
        parts.append(encoder.part(read_side, encoder.remembered(written_side), f"offer.{side}"))
    return parts


def _written(
    write: Callable[[dict[str, Any]], dict[int, float]], shown: Callable[[Any], dict[str, Any]]
) -> Callable[[Any], dict[int, float]]:
    return lambda value: write(shown(value))


def _tiles(value: tuple[tuple[Any, ...], tuple[Any, ...]]) -> dict[str, Any]:
    played, awarding = value
    return {
        "tiles_played": [{"power": power, "tile": tile} for power, tile, _ in played],
        "awards_to_make": [
            {"power": power, "award": f"{amount}{unit}"} for power, unit, amount, _ in awarding
        ],
    }


def _annexed(value: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    return {"annexed": dict(value)}


def _pending(value: tuple[tuple[str, str, str | None], ...]) -> dict[str, Any]:
    return {"pending": [{"kind": kind, "power": power, "spy": spy} for kind, power, spy in value]}


def _history(value: tuple[tuple[Any, ...], tuple[Any, ...]]) -> dict[str, Any]:
    searches, duels = value
    return {
        "searches": [
            {"police": list(units), "spy": spy, "captured": captured}
            for units, spy, captured in searches
        ],
        "duels": [
            {"kind": kind, "spy": spy, "against": other, "outcome": outcome}
            for kind, spy, other, outcome in duels
        ],
    }


def _contest(contest: Any) -> dict[str, Any]:
    if contest is None:
        return {"contest": None}
    return {
        "contest": {
            "kind": contest.kind,
            "actor": contest.actor,
            "spy": contest.spy,
            "stage": contest.stage,
            "target": contest.target,
            "secret": contest.secret,
            "double_crosses": contest.crosses,
        }
    }


def _covered(value: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    return {"covered": dict(value)}


def _markers(value: tuple[tuple[str, str, int, int], ...]) -> dict[str, Any]:
    return {
        "sanctioned_markers": [
            {"power": power, "value": points, "year": year} for power, _, points, year in value
        ]
    }


# ---------------------------------------------------------------------- powers and pieces

#: A power's entry of each dict the state keeps by power, in the order of POWERS.
_BY_POWER = itemgetter(*POWERS)
#: The lists of pieces, in the order of the board part's slots (after the powers).
_PIECES = ("spies", "police", "secrets")


def _board_part(encoder: Any) -> Any:
    """The powers, spies, police units and Secrets: one part over the four lists, read
    together (what a seat sees of each depends on the same sight, worked out once a step)."""
    spies = _categories(encoder, "spies")
    write_spy = _item(
        spies,
        lambda value: (
            (spy := value[0]).label,
            spy.place,
            spy.status,
            spy.captor,
            spy.year,
            spy_face(spy.strength, spy.cousin) if value[1] else None,
        ),
    )
    write_unit = _item(
        _categories(encoder, "police"),
        lambda value: (
            (unit := value[0]).label,
            unit.city,
            unit.strength if value[1] else None,
        ),
    )
    card = EDITION.secret
    write_secret = _item(
        _categories(encoder, "secrets"),
        lambda value: (
            (s := value[0]).origin,
            s.home,
            s.place,
            s.holder,
            s.status,
            s.record,
            s.taken,
            s.loose,
            card(s.card).face if value[1] else None,
        ),
    )
    return encoder.lists(
        Board(),
        ("powers", encoder.remembered(_power_writer(encoder))),
        ("spies", write_spy),
        ("police", write_unit),
        ("secrets", write_secret),
    )


class Board:
    """The reader of the board part: the five powers' items, then each spy, police unit and
    Secret paired with whether the seat sees its face. It keeps per seat what it last read
    and what it made of it, and hands back the very objects it made while the values they
    come from are equal: the whole value when nothing changed, each list whose pieces and
    sight are unchanged (so the observer passes over it by identity), and within a list each
    pair whose piece is unchanged (a step that moves one spy makes one new pair).

    Everything is compared with the table read now, never trusted from the table's identity
    or its step: the pieces (frozen records, replaced when they change) by identity, the
    hands, reserves and purses and what each seat has seen of each piece by value (against
    copies: the state changes those lists and dicts in place). So a clone, a determinization,
    another table observed in between or a change made in place behind the observer's back
    gives what the view gives. The sight (:class:`Seen`) is compared by identity: the same
    object is the same sight, a new one is read as a change."""

    __slots__ = ("_last", "_sight")

    def __init__(self) -> None:
        self._sight = Sight()
        # Per seat: [sight, known (a copy), the pieces per list, money, the lists of hands
        # and reserves (copies), the points at the end, the value handed out].
        self._last: dict[int, list[Any]] = {}

    def __call__(self, state: SpiesState, seat: int) -> tuple[tuple[Any, ...], ...]:
        seen = self._sight(state, seat)
        board = state.board
        known = board.known
        pieces = (
            tuple(board.spies.values()),
            tuple(board.police.values()),
            tuple(board.secrets.values()),
        )
        money = _BY_POWER(state.bank.money)
        hands = state.hands
        held = (
            *_BY_POWER(state.hand_secrets),
            *_BY_POWER(state.reserve_police),
            *_BY_POWER(state.reserve_spies),
            *_BY_POWER(hands.chits),
            *_BY_POWER(hands.tiles),
            *_BY_POWER(hands.discarded),
            hands.played,
        )
        points = tuple(map(state.final_points().get, POWERS)) if seen.over else None
        last = self._last.get(seat)
        if last is None:
            last = self._last[seat] = [None, None, _NO_PIECES, None, (), None, None]
        was_seen, was_known, had, had_money, had_held, had_points, value = last
        # Compared once each, in C: the lists live against the copies kept (list equality
        # tests identity first, item by item, and makes nothing).
        same = list(map(eq, pieces, had))
        same_seen = seen is was_seen
        same_holdings = (
            same_seen
            and money == had_money
            and len(held) == len(had_held)
            and all(map(eq, held, had_held))
            and points == had_points
        )
        same_faces = same_seen and known == was_known
        if same_holdings and same_faces and all(same):
            return value
        if same_holdings:
            powers = value[0]
        else:
            powers = _powers(seen, money, tuple(map(tuple, held)), points)
            had_held = [list(x) for x in held]
        lists = [powers]
        for k in range(3):
            if same[k] and same_faces:
                lists.append(value[k + 1])
            else:
                made = None if value is None else value[k + 1]
                sighting = (seat, seen, known, k < 2)
                lists.append(_pairs(pieces[k], had[k], made, same_faces, sighting))
        last[:] = (
            seen,
            was_known if same_faces else dict(known),
            pieces,
            money,
            had_held,
            points,
            tuple(lists),
        )
        return last[6]


#: The pieces and pairs of a seat not observed yet.
_NO_PIECES: tuple[tuple[Any, ...], ...] = ((), (), ())
#: The seat, its sight, what each seat has seen of each piece, and whether the pieces are
#: seen by their power's faces (spies and police; a Secret only by itself).
_Sighting = tuple[int, Seen, dict[str, frozenset[int | None]], bool]


def _pairs(
    pieces: tuple[Any, ...],
    before: tuple[Any, ...],
    made: tuple[tuple[Any, bool], ...] | None,
    same_faces: bool,
    sighting: _Sighting,
) -> tuple[tuple[Any, bool], ...]:
    """Each piece with whether the seat sees its face: at the end every face; else its
    power's faces (spies and police) or this very piece seen. With ``same_faces`` (the sight
    and what was seen as when ``made`` was paired from ``before``), the pairs of the pieces
    still in their place are those made before: a few pieces replaced or added are paired
    alone."""
    if same_faces and made is not None:
        # The pieces replaced (map stops at the shorter list), then those added.
        changed = list(compress(range(len(pieces)), map(is_not, pieces, before)))
        if len(changed) + len(pieces) - len(before) < 4:
            out = list(made[: len(pieces)])
            for i in changed:
                out[i] = _pair(pieces[i], sighting)
            out += [_pair(piece, sighting) for piece in pieces[len(before) :]]
            return tuple(out)
    seat, seen, known, by_power = sighting
    if seen.over:
        return tuple([(piece, True) for piece in pieces])
    if not by_power:
        return tuple([(piece, seat in known.get(piece.label, _NOBODY)) for piece in pieces])
    faces = seen.faces
    return tuple(
        [(piece, faces[piece.power] or seat in known.get(piece.label, _NOBODY)) for piece in pieces]
    )


def _pair(piece: Any, sighting: _Sighting) -> tuple[Any, bool]:
    seat, seen, known, by_power = sighting
    if seen.over:
        return (piece, True)
    return (
        piece,
        (by_power and seen.faces[piece.power]) or seat in known.get(piece.label, _NOBODY),
    )


def _powers(
    seen: Seen, money: tuple[int, ...], held: tuple[tuple[Any, ...], ...], points: Any
) -> tuple[tuple[Any, ...], ...]:
    """Each power's item: what the seat may see of it (hands and reserves where it may look,
    their sizes where it may not). ``held``: by power, the Secrets, police and spies to
    place, the chits, the tiles in hand and discarded; then the tiles played."""
    n = len(POWERS)
    secrets, police, spies, chits, tiles, discarded = (held[k * n : (k + 1) * n] for k in range(6))
    gone = {tile for _, tile, _ in held[-1]}

    def unplayed(power: str) -> tuple[str, ...]:
        """A power's own tiles not played yet (the manifest everyone knows, in its order)."""
        return tuple([t for t in _OWN_TILES[power] if t not in gone])

    items = []
    for i, (power, (seat_of, faces, hand, rich)) in enumerate(
        zip(POWERS, seen.powers, strict=True)
    ):
        items.append(
            (
                power,
                seat_of,
                money[i] if rich else None,
                secrets[i] if hand else len(secrets[i]),
                police[i] if faces else len(police[i]),
                spies[i] if faces else len(spies[i]),
                chits[i] if hand else len(chits[i]),
                None if points is None else points[i],
                (tiles[i], tuple(t for t, _ in discarded[i]))
                if hand
                else (len(tiles[i]), len(discarded[i]), unplayed(power)),
            )
        )
    return tuple(items)


def _power_writer(encoder: Any) -> Callable[[tuple[Any, ...]], dict[int, float]]:
    write = encoder.item_writer("powers")
    secret = EDITION.secret

    def shown(item: tuple[Any, ...]) -> dict[int, float]:
        _, seat, money, secrets, police, spies, chits, points, tiles = item
        if len(tiles) == 2:
            held: dict[str, Any] = {"hand": list(tiles[0]), "discarded": list(tiles[1])}
        else:
            held = {"hand": tiles[0], "discarded": tiles[1], "own_unplayed": list(tiles[2])}
        return write(
            {
                "seat": seat,
                "money": money,
                "secrets_to_place": sorted(secret(c).face for c in secrets)
                if isinstance(secrets, tuple)
                else secrets,
                "police_to_place": sorted(police, reverse=True)
                if isinstance(police, tuple)
                else police,
                "spies_to_place": sorted(spy_face(s, c) for s, c in spies)
                if isinstance(spies, tuple)
                else spies,
                "chits": list(chits) if isinstance(chits, tuple) else chits,
                "points": points,
                "tiles": held,
            }
        )

    return shown


def _categories(encoder: Any, path: str) -> tuple[dict[Any, int], ...]:
    """Per feature of an item of the list at ``path``, the entry (from the item's start) of
    each value: of each category's values, and of True for a number read as a flag."""
    parts, inner = [], 0
    for child in encoder.feature_at(path).features:
        values = getattr(child, "values", None)
        if values is None:  # a number: only a flag is met among the pieces' features
            if child.scale != 1 or child.bounds != (0, 1):
                raise ValueError(f"spies observer: {path}.{child.path} is no flag")
            parts.append({True: inner})
        elif child.prefix or child.contains:
            raise ValueError(f"spies observer: {path}.{child.path} is matched by more than ==")
        else:
            parts.append({v: inner + i for i, v in enumerate(values)})
        inner += encoder.width(child)
    return tuple(parts)


def _item(
    entries: tuple[dict[Any, int], ...], values: Callable[[Any], tuple[Any, ...]]
) -> Callable[[Any], list[int]]:
    """A writer of an item whose features are all categories (or flags): the entry of each
    of its ``values``, where the feature has one (found in C)."""
    found = partial(is_not, None)  # not None

    def write(value: Any) -> list[int]:
        # typeshed's filter takes a partial for a type guard here: it is a plain test.
        return list(filter(found, map(dict.get, entries, values(value))))  # type: ignore[arg-type]

    return write
