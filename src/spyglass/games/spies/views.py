"""What a seat sees of the table (DESIGN.md section 3), and the map drawn from the coordinates.

Positions, labels and owners of every piece are public (the counters lie face down on the map);
faces are shown only to the seats that may look (see hidden.py for the same rules applied to
determinization). Money is public (the Bank Track) unless the option ``secret_money`` is on.

Besides the structured lists (for bots and the browser's map) the view carries lines made for
reading: ``powers_summary`` (one row per power: seat, money, chits, Secrets to place, tiles,
points at the end), ``talks`` (the offer on the table) and ``russia_bidding`` (rule 8.5).
"""

from __future__ import annotations

from functools import cache
from math import cos, radians
from typing import TYPE_CHECKING, Any

from spyglass.engine import plural

from . import bidding, chits, diplomacy, reactions
from .edition import EDITION, Edition, Tile
from .events import effect_text
from .geography import AIR, LANE, PORT, POWERS, RAIL
from .pieces import spy_face
from .reactions import REACT, question

if TYPE_CHECKING:
    from .rules import SpiesState

MAP_WIDTH = 1000  # the map's box; height follows the projection


def base_map(edition: Edition = EDITION) -> dict[str, Any]:
    """Places and routes (they never change), fresh for each view: a consumer may change what
    it is given without touching the game's map or another view."""
    places, routes, width, height = _drawn_map(edition)
    return {
        "places": [dict(p) for p in places],
        "routes": [dict(r) for r in routes],
        "width": width,
        "height": height,
    }


@cache
def _drawn_map(edition: Edition) -> tuple[tuple[Any, ...], tuple[Any, ...], int, int]:
    """An equirectangular projection of the cities' latitudes and longitudes, squeezed by the
    cosine of the middle latitude; its places and routes as tuples of (key, value) pairs."""
    game_map = edition.map
    points = [(c.lat, c.lon) for c in game_map.cities.values()]
    points += [(z.lat, z.lon) for z in game_map.zones.values()]
    lats = [p[0] for p in points]
    lons = [p[1] for p in points]
    squeeze = cos(radians((min(lats) + max(lats)) / 2))
    span = (max(lons) - min(lons)) * squeeze
    margin = 30
    scale = (MAP_WIDTH - 2 * margin) / span
    height = round((max(lats) - min(lats)) * scale + 2 * margin)

    def xy(lat: float, lon: float) -> tuple[float, float]:
        x = margin + (lon - min(lons)) * squeeze * scale
        y = margin + (max(lats) - lat) * scale
        return round(x, 1), round(y, 1)

    places = []
    for city in game_map.cities.values():
        x, y = xy(city.lat, city.lon)
        owner = game_map.home_power(city.id)
        style = "capital" if city.capital else "haven" if city.haven else (
            "secret" if city.secret else "home" if owner else "neutral")  # fmt: skip
        group = city.country.replace("-", " ")
        places.append(
            {"id": city.id, "label": city.label, "x": x, "y": y, "style": style, "group": group}
        )
    for zone in game_map.zones.values():
        x, y = xy(zone.lat, zone.lon)
        places.append(
            {
                "id": zone.id,
                "label": zone.label,
                "x": x,
                "y": y,
                "style": "sea",
                "group": "Sea zones",
            }
        )
    routes = [{"from": a, "to": b, "label": "", "style": RAIL} for a, b in game_map.rail]
    routes += [{"from": a, "to": b, "label": "", "style": AIR} for a, b in game_map.air]
    for zone in game_map.zones.values():
        routes += [{"from": p, "to": zone.id, "label": "", "style": PORT} for p in zone.ports]
        routes += [
            {"from": zone.id, "to": z, "label": "", "style": LANE}
            for z in zone.adjacent
            if zone.id < z
        ]
    return (
        tuple(tuple(p.items()) for p in places),
        tuple(tuple(r.items()) for r in routes),
        MAP_WIDTH,
        height,
    )


def spy_json(state: SpiesState, observer: int | None, spy: Any) -> dict[str, Any]:
    """A spy as ``observer`` sees it: its face only where the rules show it."""
    shown = state.sees_piece(observer, spy.label, spy.power)
    return {
        "label": spy.label,
        "power": spy.power,
        "place": spy.place,
        "status": spy.status,
        "captor": spy.captor,
        "year": spy.year,
        "face": spy_face(spy.strength, spy.cousin) if shown else None,
    }


def police_json(state: SpiesState, observer: int | None, unit: Any) -> dict[str, Any]:
    """A police unit as ``observer`` sees it: its strength only where the rules show it."""
    shown = state.sees_piece(observer, unit.label, unit.power)
    return {
        "label": unit.label,
        "power": unit.power,
        "city": unit.city,
        "strength": unit.strength if shown else None,
    }


def secret_json(state: SpiesState, observer: int | None, secret: Any) -> dict[str, Any]:
    """A Secret as ``observer`` sees it: its face only where the rules show it."""
    face = state.edition.secret(secret.card).face if state.sees_secret(observer, secret) else None
    return {
        "label": secret.label,
        "origin": secret.origin,
        "home": secret.home,
        "place": secret.place,
        "holder": secret.holder,
        "status": secret.status,
        "record": secret.record,
        "taken": secret.taken,
        "loose": secret.loose,
        "face": face,
    }


def table_view(state: SpiesState, observer: int | None) -> dict[str, Any]:
    edition = state.edition
    spies = [spy_json(state, observer, spy) for spy in state.board.spies.values()]
    police = [police_json(state, observer, u) for u in state.board.police.values()]
    secrets = [secret_json(state, observer, s) for s in state.board.secrets.values()]
    powers = []
    for power in POWERS:
        informed = state.sees_faces(observer, power)
        hand = state.sees_hand(observer, power)
        powers.append({
            "power": power,
            "seat": (
                None if state.bid_for_russia(power) and state.auction.russia_seat is None
                else state.controller(power)
            ),
            "money": state.bank.money[power] if state.sees_money(observer, power) else None,
            "secrets_to_place": (
                sorted(edition.secret(c).face for c in state.hand_secrets[power])
                if hand else len(state.hand_secrets[power])
            ),
            "police_to_place": (
                sorted(state.reserve_police[power], reverse=True)
                if informed else len(state.reserve_police[power])
            ),
            "spies_to_place": (
                sorted(spy_face(s, c) for s, c in state.reserve_spies[power])
                if informed else len(state.reserve_spies[power])
            ),
            "chits": list(state.hands.chits[power]) if hand else len(state.hands.chits[power]),
            "points": state.final_points().get(power) if state.is_over else None,
            "tiles": state.visible_tiles(power, hand),
        })  # fmt: skip
    moving = None
    if state.turn.moving is not None:
        voyage = state.turn.voyage
        moving = {
            "spy": state.turn.moving,
            "spaces": state.turn.spaces,
            "voyage": None if voyage is None else {
                "limit": voyage.limit, "used": voyage.used, "may_reroll": voyage.may_reroll},
        }  # fmt: skip
    return {
        "edition": edition.label,
        "year": state.year,
        "phase": state.phase,
        "power": state.power if state.phase != "over" else None,
        "action_points": state.turn.action_points,
        "moving": moving,
        "moved": sorted(state.turn.moved),
        "relocated": sorted(state.turn.relocated),
        "searched": sorted(state.turn.searched),
        "paid": sorted(state.turn.paid),
        "took": sorted(state.turn.took),
        "tiles_played": [
            {"power": power, "tile": tile, "year": year} for power, tile, year in state.hands.played
        ],
        "awards_to_make": [
            {"power": power, "award": f"{amount}{unit}", "city": city}
            for power, unit, amount, city in state.turn.awarding
        ],
        "annexed": dict(sorted(state.annexed.items())),
        "last_year": state.last_year,
        "pact": state.pact,
        "free_searches": state.turn.free_searches,
        "pending": [
            {"kind": kind, "power": power, "spy": spy} for kind, power, spy in state.pending
        ],
        "searches": [
            {"police": list(units), "spy": spy, "captured": captured}
            for units, spy, captured in state.board.comparisons
        ],
        "duels": [
            {"kind": kind, "spy": spy, "against": other, "outcome": outcome}
            for kind, spy, other, outcome in state.board.duels
        ],
        "contest": None
        if state.contest is None
        else {
            "kind": state.contest.kind,
            "actor": state.contest.actor,
            "spy": state.contest.spy,
            "stage": state.contest.stage,
            "target": state.contest.target,
            "secret": state.contest.secret,
            "double_crosses": state.contest.crosses,
            "question": question(state) if state.pending and state.pending[0][0] == REACT else None,
        },
        "covered": dict(sorted(state.board.covered.items())),
        "sanctioned_markers": [
            {"power": power, "spy": spy, "value": value, "year": year}
            for power, spy, value, year in state.board.markers
        ],
        "no_counterspy": sorted(state.board.plain),
        "status": status_line(state),
        "offer": diplomacy.view(state, observer),
        "talks": talks_line(state, observer),
        "bidding": bidding.view(state, observer),
        "russia_bidding": bidding_line(state, observer),
        "powers_summary": powers_rows(state, powers),
        "action_track": action_track(state),
        "bank": bank(powers),
        "record": record_grid(state, spies, secrets, observer),
        "events": event_rows(state),
        "tiles_in_hand": tiles_in_hand(state, observer),
        "manifest": tile_manifest(state),
        "prompt": prompt(state, observer),
        "offer_panel": offer_panel(state, observer),
        "you": [] if observer is None else state.powers_of(observer),
        "powers": powers,
        "spies": spies,
        "police": police,
        "secrets": secrets,
        "cup": len(state.hands.cup),
        "map": {**base_map(edition), "pieces": map_pieces(state, spies, police, secrets)},
    }


def map_pieces(
    state: SpiesState, spies: list[dict[str, Any]], police: list[dict[str, Any]],
    secrets: list[dict[str, Any]]
) -> list[dict[str, Any]]:  # fmt: skip
    edition = state.edition
    colour = {p.name: p.colour for p in edition.powers}
    pieces = []

    def piece(place: str, power: str, label: str) -> dict[str, Any]:
        return {"place": place, "owner": state.controller(power), "label": label,
                "colour": colour[power]}  # fmt: skip

    for spy in spies:
        if spy["status"] == "active":
            face = f":{short_face(spy['face'])}" if spy["face"] else ""
            pieces.append(piece(spy["place"], spy["power"], spy["label"] + face))
    for unit in police:
        strength = f":{unit['strength']}" if unit["strength"] else ""
        pieces.append(piece(unit["city"], unit["power"], unit["label"] + strength))
    for secret in secrets:
        if secret["status"] != "in play":
            continue
        face = f":{secret['face']}" if secret["face"] else ""
        pieces.append(
            {
                "place": secret["place"],
                "owner": None,
                "label": secret["label"] + face,
                "colour": "#222222",
            }
        )
    return pieces


def short_face(face: str) -> str:
    """A spy's face as a map label shows it: "cousin 2" -> "c2" (moves still name the spy by
    its label alone, "Ge1")."""
    return face.replace("cousin ", "c")


def powers_rows(state: SpiesState, powers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per power for people: its chits as the row's cards (face down when hidden),
    the rest as a note."""
    rows = []
    for entry in powers:
        held = entry["chits"]
        cards = list(held) if isinstance(held, list) else [None] * held
        money = "£ hidden" if entry["money"] is None else f"£{entry['money']}"
        notes = [money]
        to_place = entry["secrets_to_place"]
        if to_place:
            count = len(to_place) if isinstance(to_place, list) else to_place
            shown = f" ({' '.join(to_place)})" if isinstance(to_place, list) else ""
            notes.append(f"{plural(count, 'Secret')} to place{shown}")
        tiles = entry["tiles"]
        if isinstance(tiles["hand"], list):
            notes.append(f"tiles {' '.join(tiles['hand']) or 'none'}")
            if tiles["discarded"]:
                notes.append(f"discarded {' '.join(tiles['discarded'])}")
        else:
            notes.append(f"{plural(tiles['hand'], 'tile')}, {tiles['discarded']} discarded")
        if not held:
            notes.append("no chits")
        if entry["points"] is not None:
            notes.append(plural(entry["points"], "point"))
        # the seat in the note, not the title: a number in a row's title would make the row
        # a target of the moves that name that number (a bid for Russia)
        seat = entry["seat"]
        notes.append("no seat yet" if seat is None else f"seat {seat}")
        rows.append({"title": entry["power"], "cards": cards, "note": " · ".join(notes)})
    return rows


def talks_line(state: SpiesState, observer: int | None) -> str | None:
    shown = diplomacy.view(state, observer)
    if shown is None:
        return None
    if "give" not in shown:
        return f"{shown['from']} is making {shown['to']} an offer."
    state_word = "awaits the answer" if shown["sent"] else "is being made"
    return (
        f"{shown['from']} offers {shown['to']} {shown['give']} for {shown['ask']} ({state_word})."
    )


def bidding_line(state: SpiesState, observer: int | None) -> str | None:
    shown = bidding.view(state, observer)
    if shown is None:
        return None
    holder = shown["russia_seat"]
    text = "Russia: nobody yet" if holder is None else f"Russia: seat {holder}"
    if shown["bids"]:
        text += "; bids " + ", ".join(f"seat {s} {v if v == 'sealed' else f'£{v}'}"
                                      for s, v in shown["bids"].items())  # fmt: skip
    return text + "."


def status_line(state: SpiesState) -> str:
    if state.phase == "over":
        return f"The game is over ({state.year})."
    if state.phase in ("secrets", "police", "spies"):
        return f"Set-up: {state.power} places its {state.phase}."
    if state.pending:
        kind, power, spy = state.pending[0]
        if kind == "surplus":
            return f"{power} holds more than ten Action Chits and returns one."
        if kind == REACT:
            return question(state) + "."
        if kind == diplomacy.TALKS:
            return diplomacy.question(state) + "."
        if kind == bidding.BID:
            return f"Seat {state.controller(power)} makes a sealed bid for Russia (rule 8.5)."
        return f"{power} may search for {spy}, which has just arrived."
    step = {
        "tile": "playing or discarding an Event Tile",
        "rearrange": "re-arranging police",
        "search": "searching",
        "move": "moving spies",
    }
    text = (
        f"{state.year}: {state.power}'s turn ({step[state.phase]}), "
        f"{state.turn.action_points} Action Points left"
    )
    if state.talks.offer is not None:
        text += f"; making {state.talks.offer.partner} an offer ('send' or 'withdraw')"
    if state.turn.moving is not None:
        text += f"; moving {state.turn.moving} ({state.turn.spaces} of 5 spaces)"
        if state.turn.voyage is not None:
            text += f", at sea (voyage {state.turn.voyage.used} of {state.turn.voyage.limit})"
    return text + "."


# ------------------------------------------------------------------------- the table's panels
# What the browser draws beside the map (layout regions of kinds track, text, grid, rows,
# banner and columns), built only from what the observer may see.

ACTION_POINTS = 12  # rule 3.1: the points of a power's turn


def action_track(state: SpiesState) -> dict[str, Any]:
    """The turn's Action Points as a track of twelve spaces: those spent, those left."""
    if state.phase == "over":
        return {"spaces": ACTION_POINTS, "used": ACTION_POINTS, "caption": "The game is over."}
    if state.phase in ("secrets", "police", "spies"):
        caption = f"Set-up: the turns start in {state.year} with Germany."
        return {"spaces": ACTION_POINTS, "used": 0, "caption": caption}
    left = state.turn.action_points
    caption = f"{state.year}, {state.power}: {left} of {ACTION_POINTS} left"
    return {
        "spaces": ACTION_POINTS,
        "used": ACTION_POINTS - left,
        "caption": caption,
        "owner": state.power,
    }


def bank(powers: list[dict[str, Any]]) -> dict[str, str]:
    """Each power's money on the Bank Track ("secret" where the option hides it)."""
    return {p["power"]: "secret" if p["money"] is None else f"£{p['money']}" for p in powers}


def record_grid(
    state: SpiesState, spies: list[dict[str, Any]], secrets: list[dict[str, Any]],
    observer: int | None,
) -> dict[str, Any]:  # fmt: skip
    """The Time and Victory Record: a row per power, a column per year (its multiple) holding
    the Secrets cashed under that year, the spies captured and the Sanctioned markers taken
    then; the last column the points so far. Everyone sees the record's points (cashed Secrets
    and captured spies lie face up); a seat sees its own powers' full score as it would stand
    now, original Secrets at home included, and everyone sees every score at the end."""
    multiples = state.edition.record
    years = list(multiples)
    entries: dict[tuple[str, int], list[str]] = {}
    points = dict.fromkeys(POWERS, 0)
    for secret in secrets:
        if secret["status"] != "cashed" or secret["record"] is None:
            continue
        face = secret["face"]
        year = secret["taken"]
        entries.setdefault((secret["record"], year), []).append(
            f"{secret['label']} ({face or '?'})"
        )
        if face:
            points[secret["record"]] += _secret_points(face, multiples[year])
    for spy in spies:
        if spy["status"] != "captured" or spy["captor"] is None:
            continue
        face = spy["face"]
        entries.setdefault((spy["captor"], spy["year"]), []).append(
            f"spy {spy['label']} ({face or '?'})"
        )
        if face:
            points[spy["captor"]] += int(face.split()[-1]) * multiples[spy["year"]]
    for power, victim, value, year in state.board.markers:
        entries.setdefault((power, year), []).append(f"† {victim} ({value})")
        points[power] += value * multiples[year]
    for power, token, _ in state.hands.played:
        if not state.is_random_tile(token):
            points[power] += 2  # rule 6.0: a tile of the power's own colour
    cells = []
    for power in POWERS:
        row: list[Any] = []
        for year in years:
            shown = entries.get((power, year))
            row.append(" · ".join(shown) if shown else None)
        row.append(_points_note(state, power, points[power], secrets, observer))
        cells.append(row)
    return {
        "col_labels": [f"{year} ×{multiples[year]}" for year in years] + ["points"],
        "row_labels": list(POWERS),
        "cells": cells,
    }


def _secret_points(face: str, multiple: int) -> int:
    """A Secret's points at ``multiple``: its value times the multiple, a Counterspy ("3c2")
    half the multiple, rounded down (rule 6.0)."""
    value, _, counterspy = face.partition("c")
    return int(value) * (multiple // 2 if counterspy else multiple)


def _points_note(
    state: SpiesState, power: str, on_record: int, secrets: list[dict[str, Any]],
    observer: int | None,
) -> str:  # fmt: skip
    if state.is_over:
        final = state.final_points().get(power)
        return "no score (Russia changed hands)" if final is None else f"{final} final"
    if observer is None or state.controller(power) != observer:
        return f"{on_record} on record"
    # The power's originals at home and not held by an enemy, as far as the seat knows their
    # faces (a seat that took Russia over may not), at the multiple they will score at: the
    # final year's (rule 6.0 places them in that column when the game ends).
    multiple = state.edition.record[state.last_year]
    home = 0
    for secret in secrets:
        if secret["origin"] != power or secret["status"] != "in play":
            continue
        if secret["place"] != secret["home"]:
            continue
        holder = secret["holder"]
        if holder is not None and state.piece_power(holder) != power:
            continue
        if secret["face"] is None:
            return f"{on_record} on record"
        home += _secret_points(secret["face"], multiple)
    return f"{on_record + home} now ({on_record} on record + {home} at home, ×{multiple})"


def tile_text(state: SpiesState, token: str) -> str:
    """A tile for people: its title, the years it may be played, its awards and effect."""
    return _tile_words(state.edition.tile(token))


def _tile_words(tile: Tile) -> str:
    if tile.years is None:
        years = "any year"
    else:
        first, last = tile.years
        years = str(first) if first == last else f"{first}–{last}"
    parts = [tile.title, years]
    if tile.awards:
        parts.append("; ".join(str(a) for a in tile.awards))
    effect = effect_text(tile)
    if effect:
        parts.append(f"*{effect}")
    return " · ".join(parts)


def event_rows(state: SpiesState) -> list[dict[str, Any]]:
    """The tiles played, in the order they were played: who, which year, what it does."""
    return [
        {"title": f"{year} · {power}", "cards": [token], "note": tile_text(state, token)}
        for power, token, year in state.hands.played
    ]


def tile_manifest(state: SpiesState) -> list[dict[str, Any]]:
    """Every Event Tile of the edition, public (the rulebook recommends that every player can
    see the manifest): number, owner, title, years, awards, effect, and when it was played."""
    played = {token: (power, year) for power, token, year in state.hands.played}
    rows = []
    for number, owner, token, text in _manifest(state.edition):
        row = {"title": f"{number}. {owner}", "cards": [token], "note": text}
        if token in played:
            power, year = played[token]
            row["note"] = f"{text} · played by {power} in {year}"
        rows.append(row)
    return rows


@cache
def _manifest(edition: Edition) -> tuple[tuple[int, str, str, str], ...]:
    """The manifest's fixed part, made once per edition."""
    rows = []
    for tile in edition.tiles:
        token = tile.id.replace(" ", "")
        rows.append((tile.number, tile.power or "random", token, _tile_words(tile)))
    return tuple(rows)


def tiles_in_hand(state: SpiesState, observer: int | None) -> dict[str, str]:
    """The observer's powers' tiles in hand, by token (a click on one plays or discards it)."""
    if observer is None:
        return {}
    shown: dict[str, str] = {}
    for power in POWERS:
        if state.sees_hand(observer, power):
            for token in state.hands.tiles[power]:
                shown[token] = tile_text(state, token)
    return shown


def prompt(state: SpiesState, observer: int | None) -> dict[str, Any] | None:
    """A decision asked of a power out of the ordinary course of a turn (most often in another
    power's turn: a search of its spy, a chit played against it, an offer, a Double Cross
    chain; also a spy arriving among its police, a hand over ten chits, a bid for Russia):
    what happened, what is asked, and, for the seat that answers, its choices."""
    if not state.pending or state.is_over:
        return None
    kind, power, spy = state.pending[0]
    seat = state.controller(power)
    if kind == REACT:
        happened = _contest_story(state)
        asked = question(state)
    elif kind == diplomacy.TALKS:
        offer = state.talks.offer
        assert offer is not None
        happened = f"{offer.initiator} makes {offer.partner} an offer"
        asked = diplomacy.question(state)
    elif kind == chits.SURPLUS:
        happened = f"{power} holds more than ten Action Chits"
        asked = f"{power} returns one of them to the cup"
    elif kind == bidding.BID:
        happened = f"Russia changes hands for {state.year} (rule 8.5)"
        asked = f"seat {seat} makes a sealed bid for Russia"
    else:  # police.ARRIVAL
        mover = state.board.spies[spy]  # type: ignore[index]
        happened = f"{mover.power}'s spy {spy} arrives in {mover.place}, where {power} has police"
        asked = f"{power} may search for {spy} (free) or let it pass"
    lines = [asked[0].upper() + asked[1:] + "."]
    shown = diplomacy.view(state, observer) if kind == diplomacy.TALKS else None
    if shown is not None and "give" in shown:
        lines.append(f"{shown['from']} gives: {shown['give']}.")
        lines.append(f"{shown['from']} asks: {shown['ask']}.")
    yours = observer is not None and observer == seat
    choices = []
    if yours and observer == state.current_player:
        choices = [f"{a}: {state.describe(a)}" for a in state.legal_actions()]
    else:
        lines.append(f"Waiting for seat {seat} ({power}) to answer.")
    title = happened[0].upper() + happened[1:] + "."
    return {
        "title": f"You are asked ({power}): {title}" if yours else title,
        "lines": lines,
        "choices": choices,
        "style": "yours" if yours else "waiting",
        "power": power,
        "kind": kind,
    }


def _contest_story(state: SpiesState) -> str:
    """What happened that opened the window for answers, in a sentence."""
    contest = state.contest
    assert contest is not None
    actor, spy = contest.actor, contest.spy
    piece = state.board.spies.get(spy)
    city = piece.place if piece is not None else None
    owner = piece.power if piece is not None else None
    if contest.stage == reactions.SPOILS:
        return f"{actor}'s Sanction killed {contest.target}, which held Secret {contest.secret}"
    if contest.stage == reactions.CROSS:
        crosses = contest.crosses
        told = f" ({crosses} Double Cross{'es' if crosses != 1 else ''} so far)" if crosses else ""
        what = {
            reactions.SEARCH: f"{owner}'s Escape from a search of {spy}",
            reactions.COUNTERSPY: f"{owner}'s Escape from the Counterspy",
            reactions.SANCTION: f"{actor}'s Sanction of {contest.target} by {spy}",
            reactions.DISCOVERY: f"{actor}'s Discovery of Secret {contest.secret} by {spy}",
            reactions.ESCAPE: f"{actor}'s Escape of {spy} from the record",
            reactions.DROP: f"{actor}'s Drop of Secret {contest.secret}",
        }[contest.kind]
        return f"{what} stands so far{told}"
    if contest.kind == reactions.SEARCH:
        return f"{actor}'s police search for {owner}'s spy {spy} in {city}"
    if contest.kind == reactions.COUNTERSPY:
        return f"{owner}'s spy {spy} uncovered a Counterspy, Secret {contest.secret}, in {city}"
    if contest.kind == reactions.SANCTION:
        return f"{actor}'s spy {spy} plays a Sanction against {contest.target} in {city}"
    if contest.kind == reactions.DISCOVERY:
        holder = state.board.secrets[contest.secret].holder  # type: ignore[index]
        return (
            f"{actor}'s spy {spy} plays a Discovery of Secret {contest.secret}, held by {holder}, "
            f"in {city}"
        )
    if contest.kind == reactions.DROP:
        return (
            f"{actor} plays a Drop: Secret {contest.secret} leaves {spy} in {city} for "
            f"{contest.target}"
        )
    return f"{actor} plays an Escape: {spy} leaves the record for its capital"


def offer_panel(state: SpiesState, observer: int | None) -> list[dict[str, Any]] | None:
    """The offer on the table in two columns, what the initiator gives and what it asks, for
    the seats that may see it (the initiator's as it is built, the partner's once sent)."""
    offer = state.talks.offer
    if offer is None or not diplomacy.sees_offer(state, observer):
        return None
    word = "offered" if offer.sent else "being built"
    return [
        {"title": f"{offer.initiator} gives ({word})", "items": _items(offer.give)},
        {"title": f"{offer.initiator} asks of {offer.partner}", "items": _items(offer.ask)},
    ]


def _items(items: tuple[tuple[Any, ...], ...]) -> list[str]:
    shown = []
    money = diplomacy.money_of(items)
    if money:
        shown.append(f"£{money}")
    shown += diplomacy.chits_of(items)
    shown += [f"{label} → {piece}" for label, piece in diplomacy.secrets_of(items)]
    return shown
