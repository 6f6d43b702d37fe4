"""A ``map`` region at the terminal: the places that hold pieces, by group, and on request one
place with its pieces and every route from it (no per-game code).

A map of a hundred places cannot be drawn as a picture in 100 columns, so the table lists it:
one line per group of places (the places' ``group``, else their ``style``) naming each place
that holds pieces, with the pieces coloured as the view colours them, and a count of the
places left empty. ``map PLACE`` at the prompt shows the rest (see :func:`render_place`).
Only what the view holds is drawn: a piece's label is printed as the view gives it.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from rich.color import Color, ColorParseError
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

#: Colours of owners (seats) for pieces whose view gives no colour of its own.
OWNER_COLOURS = ("red", "blue", "green", "yellow", "magenta", "cyan", "bright_red", "bright_blue")
NEAR_MATCHES = 6  # how many names an unknown place's error suggests
ROUTE_ORDER = ("rail", "road", "air", "port", "sea", "lane")  # known kinds first, then the rest


class UnknownPlace(LookupError):
    """A name that is no place of the map; the message names the nearest places."""


def _key(name: object) -> str:
    """A place name as a person may type it: any case, accents, hyphens or underscores."""
    text = unicodedata.normalize("NFKD", str(name))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.replace("-", " ").replace("_", " ").lower().split())


def place_label(place: dict[str, Any]) -> str:
    return str(place.get("label") or place.get("id"))


def groups_of(places: Sequence[dict[str, Any]]) -> tuple[str, dict[str, list[dict[str, Any]]]]:
    """The places by group, in the order the groups first appear: by the places' ``group``
    when the map gives one, else by their ``style``. Returns what was grouped by, and them."""
    field = "group" if any(p.get("group") for p in places) else "style"
    grouped: dict[str, list[dict[str, Any]]] = {}
    for place in places:
        grouped.setdefault(str(place.get(field) or "other"), []).append(place)
    return field, grouped


def pieces_by_place(value: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    here: dict[str, list[dict[str, Any]]] = {}
    for piece in value.get("pieces") or []:
        here.setdefault(str(piece.get("place")), []).append(piece)
    return here


def piece_colour(piece: dict[str, Any]) -> str:
    """A colour rich can draw: the piece's own, else its owner's, else none (dim)."""
    colour = piece.get("colour")
    if colour:
        try:
            Color.parse(str(colour))
            return str(colour)
        except ColorParseError:
            pass
    owner = piece.get("owner")
    if isinstance(owner, int):
        return OWNER_COLOURS[owner % len(OWNER_COLOURS)]
    return "dim"


def piece_markup(piece: dict[str, Any], owner: bool = False) -> str:
    """A swatch in the piece's colour and its label (printed plainly, readable on any
    background); with ``owner``, the seat that owns it."""
    text = f"[{piece_colour(piece)}]●[/]{escape(str(piece.get('label') or 'piece'))}"
    if owner and piece.get("owner") is not None:
        text += f" [dim](seat {piece['owner']})[/]"
    return text


def _style_tag(place: dict[str, Any], usual: str | None) -> str:
    style = place.get("style")
    return f" [dim]{escape(str(style))}[/]" if style and style != usual else ""


def render_map(label: str, value: Any) -> RenderableType:
    """The table's map region: per group, the places holding pieces and how many are empty;
    the groups with no piece at all share one line at the end."""
    data = value if isinstance(value, dict) else {}
    places = data.get("places") or []
    here = pieces_by_place(data)
    field, grouped = groups_of(places)
    pieces = sum(len(v) for v in here.values())
    head = f"[cyan]{escape(label)}[/]  " if label else ""
    head += (
        f"{len(places)} places · {pieces} piece{'s' if pieces != 1 else ''}"
        " [dim]· map PLACE: a place and its routes[/]"
    )
    body = Table.grid(padding=(0, 2))
    body.add_column(style="cyan", no_wrap=True)
    body.add_column()
    quiet = []
    for name, members in grouped.items():
        # a place's style is worth naming when it is not the style of most of its group
        style, count = Counter(p.get("style") for p in members).most_common(1)[0]
        usual = style if 2 * count > len(members) else None
        held = [p for p in members if here.get(str(p.get("id")))]
        if not held:
            quiet.append(f"{escape(name)} [dim]{len(members)}[/]")
            continue
        entries = []
        for place in held:
            tag = _style_tag(place, usual) if field == "group" else ""
            tokens = " ".join(piece_markup(p) for p in here[str(place.get("id"))])
            entries.append(f"[bold]{escape(place_label(place))}[/]{tag}: {tokens}")
        empty = len(members) - len(held)
        if empty:
            entries.append(f"[dim]+{empty} empty[/]")
        body.add_row(escape(name), " · ".join(entries))
    if quiet:
        body.add_row("[dim]no pieces[/]", " · ".join(quiet))
    # Pieces at a place the map does not list would otherwise vanish: show them as they are.
    known = {str(p.get("id")) for p in places}
    for place_id, stray in here.items():
        if place_id not in known:
            body.add_row(escape(place_id), " ".join(piece_markup(p) for p in stray))
    return Group(Text.from_markup(head), body)


def render_index(label: str, value: Any) -> RenderableType:
    """Every place of the map by group, with how many pieces each holds (``map`` alone)."""
    data = value if isinstance(value, dict) else {}
    here = pieces_by_place(data)
    _, grouped = groups_of(data.get("places") or [])
    body = Table.grid(padding=(0, 2))
    body.add_column(style="cyan", no_wrap=True)
    body.add_column()
    for name, members in grouped.items():
        names = []
        for place in members:
            count = len(here.get(str(place.get("id")), []))
            names.append(escape(place_label(place)) + (f" [bold]({count})[/]" if count else ""))
        body.add_row(escape(name), ", ".join(names))
    title = f"[cyan]{escape(label or 'Map')}[/]: every place [dim](pieces in brackets)[/]"
    return Group(Text.from_markup(title), body)


def find_place(value: Any, name: str) -> dict[str, Any]:
    """The place a person named (by id or label, any case, accents optional, or a prefix of
    exactly one); :class:`UnknownPlace` names the nearest ones otherwise."""
    places = (value or {}).get("places") or [] if isinstance(value, dict) else []
    wanted = _key(name)
    names: dict[str, dict[str, Any]] = {}
    for place in places:
        for key in (_key(place.get("id")), _key(place_label(place))):
            names.setdefault(key, place)
    if wanted in names:
        return names[wanted]
    starting = {id(p): p for key, p in names.items() if wanted and key.startswith(wanted)}
    if len(starting) == 1:
        return next(iter(starting.values()))
    near = [place_label(p) for p in starting.values()]
    for key in difflib.get_close_matches(wanted, list(names), n=NEAR_MATCHES, cutoff=0.6):
        label = place_label(names[key])
        if label not in near:
            near.append(label)
    hint = f"; did you mean {', '.join(near[:NEAR_MATCHES])}?" if near else ""
    raise UnknownPlace(f"No place {name.strip()!r} on the map{hint}")


def routes_from(value: dict[str, Any], place_id: str) -> list[tuple[dict[str, Any], str, str]]:
    """Every route with ``place_id`` at either end: (the route, the other end's id, style).
    A route joins its two places both ways, as a line on a board does."""
    found = []
    for route in value.get("routes") or []:
        ends = (str(route.get("from")), str(route.get("to")))
        if place_id in ends:
            other = ends[1] if ends[0] == place_id else ends[0]
            found.append((route, other, str(route.get("style") or "route")))
    return found


def _style_order(styles: Iterable[str]) -> list[str]:
    seen = list(dict.fromkeys(styles))
    known = [s for s in ROUTE_ORDER if s in seen]
    return known + [s for s in seen if s not in known]


def render_place(value: Any, name: str) -> RenderableType:
    """One place: its group and style, its pieces with their owners, and its routes by kind,
    each destination with the pieces there. Raises :class:`UnknownPlace`."""
    data = value if isinstance(value, dict) else {}
    place = find_place(data, name)
    place_id = str(place.get("id"))
    by_id = {str(p.get("id")): p for p in data.get("places") or []}
    here = pieces_by_place(data)
    facts = [str(place[k]) for k in ("group", "style") if place.get(k)]
    lines = [
        f"[bold]{escape(place_label(place))}[/]"
        + (f" [dim]{escape(' · '.join(facts))}[/]" if facts else "")
    ]
    mine = here.get(place_id, [])
    if mine:
        lines.append("  pieces  " + " · ".join(piece_markup(p, owner=True) for p in mine))
    else:
        lines.append("  [dim]no pieces[/]")
    routes = routes_from(data, place_id)
    if not routes:
        lines.append("  [dim]no routes[/]")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for style in _style_order(s for _, _, s in routes):
        ends = []
        for route, other, kind in routes:
            if kind != style:
                continue
            text = escape(place_label(by_id[other]) if other in by_id else other)
            if route.get("label"):
                text += f" [dim]({escape(str(route['label']))})[/]"
            there = here.get(other, [])
            if there:
                text += " \\[" + " ".join(piece_markup(p) for p in there) + "]"
            ends.append(text)
        table.add_row(f"  {escape(style)} ({len(ends)})", ", ".join(ends))
    return Group(Text.from_markup("\n".join(lines)), table)
