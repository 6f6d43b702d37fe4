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


class Sight:
    """What a seat may see of each power, in the order of POWERS: (the seat that plays it, or
    None while Russia awaits its first bid; whether the seat knows its pieces' faces; sees its
    hands; sees its money). It changes only with the year, the end of the game and Russia's
    bids, so it is worked out once per seat for each of those, by the rules' own methods."""

    __slots__ = ("_memo",)

    def __init__(self) -> None:
        self._memo: dict[tuple[Any, ...], tuple[tuple[Any, bool, bool, bool], ...]] = {}

    def __call__(self, state: SpiesState, seat: int) -> tuple[tuple[Any, bool, bool, bool], ...]:
        key = (
            seat,
            state.year,
            state.phase == OVER,
            state.auction.russia_seat,
            frozenset(state.auction.russia_held),
        )
        found = self._memo.get(key)
        if found is None:
            found = tuple(
                (
                    None
                    if state.bid_for_russia(power) and state.auction.russia_seat is None
                    else state.controller(power),
                    state.sees_faces(seat, power),
                    state.sees_hand(seat, power),
                    state.sees_money(seat, power),
                )
                for power in POWERS
            )
            if len(self._memo) >= 4096:
                self._memo.clear()
            self._memo[key] = found
        return found


def observer(encoder: Any) -> Any:
    """The incremental observer of Spies! for ``encoder`` (its ``Encoding.observer``)."""
    sight = Sight()
    table_parts = _table_parts(encoder)
    return encoder.incremental(
        *table_parts,
        # A power's purse and hands come back to values seen before: kept by value.
        encoder.items("powers", _powers_reader(sight), encoder.remembered(_power_writer(encoder))),
        *_piece_parts(encoder, sight),
    )


# ---------------------------------------------------------------------- the rest of the table


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
    lists = [_each_one_hot(encoder, p) for p in ("moved", "relocated", "searched", "paid")]

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

    def write_lists(value: tuple[frozenset[str], ...]) -> list[int]:
        ones = []
        for (start, stride, capacity, positions), items in zip(lists, value, strict=True):
            for i, item in enumerate(sorted(items)[:capacity]):
                at = positions.get(item)
                if at is not None:
                    ones.append(start + i * stride + at)
        return ones

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
        encoder.part(
            lambda state, seat: (
                frozenset(state.turn.moved),
                frozenset(state.turn.relocated),
                frozenset(state.turn.searched),
                frozenset(state.turn.paid),
            ),
            write_lists,
            "moved",
            "relocated",
            "searched",
            "paid",
        ),
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


# ---------------------------------------------------------------------- the powers


def _powers_reader(sight: Sight) -> Callable[[SpiesState, int], tuple[Any, ...]]:
    def read(state: SpiesState, seat: int) -> tuple[Any, ...]:
        seen = sight(state, seat)
        played = tuple(state.hands.played)
        final = state.final_points() if state.phase == OVER else None
        money, hand_secrets, chits = state.bank.money, state.hand_secrets, state.hands.chits
        police, spies, tiles, discarded = (
            state.reserve_police,
            state.reserve_spies,
            state.hands.tiles,
            state.hands.discarded,
        )
        items = []
        for power, (seat_of, faces, hand, rich) in zip(POWERS, seen, strict=True):
            items.append(
                (
                    power,
                    seat_of,
                    money[power] if rich else None,
                    tuple(hand_secrets[power]) if hand else len(hand_secrets[power]),
                    tuple(police[power]) if faces else len(police[power]),
                    tuple(spies[power]) if faces else len(spies[power]),
                    tuple(chits[power]) if hand else len(chits[power]),
                    None if final is None else final.get(power),
                    (tuple(tiles[power]), tuple(t for t, _ in discarded[power]))
                    if hand
                    else (len(tiles[power]), len(discarded[power]), played),
                )
            )
        return tuple(items)

    return read


def _power_writer(encoder: Any) -> Callable[[tuple[Any, ...]], dict[int, float]]:
    write = encoder.item_writer("powers")
    secret = EDITION.secret

    def shown(item: tuple[Any, ...]) -> dict[int, float]:
        power, seat, money, secrets, police, spies, chits, points, tiles = item
        if len(tiles) == 2:
            held: dict[str, Any] = {"hand": list(tiles[0]), "discarded": list(tiles[1])}
        else:
            gone = {t for _, t, _ in tiles[2]}
            own = [t for t in _OWN_TILES[power] if t not in gone]
            held = {"hand": tiles[0], "discarded": tiles[1], "own_unplayed": own}
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


# ---------------------------------------------------------------------- the pieces


def _piece_parts(encoder: Any, sight: Sight) -> list[Any]:
    """Spies, police units and Secrets: an item per piece, (the piece, whether the seat sees
    its face), written straight into the categories of its features."""

    def faces(state: SpiesState, seat: int) -> dict[str, bool]:
        return {power: seen[1] for power, seen in zip(POWERS, sight(state, seat), strict=True)}

    def shown(
        pieces: dict[str, Any], seat: int, known: dict[str, frozenset[int | None]], faces: Any
    ) -> tuple[tuple[Any, bool], ...]:
        """Each piece with whether ``seat`` sees its face: at the end every face (``faces``
        True); else its power's faces (``faces`` by power; None for Secrets, which have no
        such power) or this very piece seen (``known``)."""
        if faces is True:
            return tuple([(piece, True) for piece in pieces.values()])
        if faces is None:
            return tuple(
                [(piece, seat in known.get(piece.label, _NOBODY)) for piece in pieces.values()]
            )
        return tuple(
            [
                (piece, faces[piece.power] or seat in known.get(piece.label, _NOBODY))
                for piece in pieces.values()
            ]
        )

    def kept(pieces: Callable[[SpiesState], dict[str, Any]], by_power: bool) -> Any:
        """A reader of one kind of piece that works the faces out again only when the pieces,
        what the seats have seen or who sees a power's faces changed since it last did so for
        that seat."""
        last: dict[int, tuple[Any, tuple[tuple[Any, bool], ...]]] = {}

        def read(state: SpiesState, seat: int) -> tuple[tuple[Any, bool], ...]:
            found = pieces(state)
            seen = True if state.phase == OVER else faces(state, seat) if by_power else None
            key = (tuple(found.values()), tuple(state.board.known.items()), seen)
            cached = last.get(seat)
            if cached is not None and cached[0] == key:
                return cached[1]
            items = shown(found, seat, state.board.known, seen)
            last[seat] = (key, items)
            return items

        return read

    place = _categories(encoder, "spies")
    write_spy = _item(
        place,
        lambda spy, shown: (
            spy.label,
            spy.place,
            spy.status,
            spy.captor,
            spy.year,
            spy_face(spy.strength, spy.cousin) if shown else None,
        ),
    )
    write_unit = _item(
        _categories(encoder, "police"),
        lambda unit, shown: (unit.label, unit.city, unit.strength if shown else None),
    )
    secret_parts = _categories(encoder, "secrets")
    loose = next(offset for offset, positions in secret_parts if positions is None)
    card = EDITION.secret

    def write_secret(value: tuple[Any, bool]) -> list[int]:
        s, shown = value
        face = card(s.card).face if shown else None
        values = (s.origin, s.home, s.place, s.holder, s.status, s.record, s.taken, None, face)
        ones = [
            offset + at
            for (offset, positions), v in zip(secret_parts, values, strict=True)
            if positions is not None and (at := positions.get(v)) is not None
        ]
        if s.loose:  # the one number among a Secret's features
            ones.append(loose)
        return ones

    return [
        encoder.items("spies", kept(lambda state: state.board.spies, True), write_spy),
        encoder.items("police", kept(lambda state: state.board.police, True), write_unit),
        encoder.items("secrets", kept(lambda state: state.board.secrets, False), write_secret),
    ]


def _categories(encoder: Any, path: str) -> list[tuple[int, dict[Any, int] | None]]:
    """Per feature of an item of the list at ``path``: its offset in the item and, for a
    category, the position of each value (None for a number)."""
    parts, inner = [], 0
    for child in encoder.feature_at(path).features:
        values = getattr(child, "values", None)
        parts.append((inner, None if values is None else {v: i for i, v in enumerate(values)}))
        inner += encoder.width(child)
    return parts


def _item(
    parts: list[tuple[int, dict[Any, int] | None]], values: Callable[[Any, bool], tuple[Any, ...]]
) -> Callable[[tuple[Any, bool]], list[int]]:
    """A writer of an item whose features are all categories: the entry of each value."""

    def write(value: tuple[Any, bool]) -> list[int]:
        return [
            offset + at
            for (offset, positions), v in zip(parts, values(*value), strict=True)
            if positions is not None and (at := positions.get(v)) is not None
        ]

    return write
