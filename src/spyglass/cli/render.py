"""Drawing a table in the terminal from a view and the game's layout (no per-game code)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from spyglass.engine import Action, GameInfo, Region, plural

from .maps import render_map

_RED = re.compile(r"[♥♦]")
_BLACK = re.compile(r"[♠♣]")
# Decktet suit symbols (see components/decktet.py) and the colour each is drawn in.
_DECKTET_COLOURS = {
    "☾": "blue",
    "☼": "yellow",
    "≈": "cyan",
    "❦": "green",
    "∿": "red",
    "⌘": "magenta",
}
_DECKTET = re.compile("[" + "".join(_DECKTET_COLOURS) + "]")
DESCRIBED_MOVES = 12  # up to this many legal moves, each is listed with its sentence
#: Grid cells may carry a style naming what they are; the terminal draws each differently.
CELL_STYLES = {"target": "reverse", "guess": "underline", "revealed": "bold", "dim": "dim"}


def card_markup(card: str | None) -> str:
    """One card notation in colour: red suits red, black suits bold, face-down as ▒▒."""
    if card is None:
        return "[dim]▒▒[/]"
    text = escape(str(card))
    if _RED.search(text):
        return f"[bold red]{text}[/]"
    if _BLACK.search(text):
        return f"[bold]{text}[/]"
    if text.upper().startswith("JK"):
        return f"[bold magenta]{text}[/]"
    if _DECKTET.search(text):
        return (
            "[bold]"
            + _DECKTET.sub(lambda m: f"[{_DECKTET_COLOURS[m.group(0)]}]{m.group(0)}[/]", text)
            + "[/]"
        )
    return text


def cards_markup(cards: Iterable[str | None]) -> str:
    cards = list(cards)
    shown = [card_markup(c) for c in cards]
    if not shown:
        return "[dim]—[/]"
    # Names with spaces in them (Decktet cards) need a clearer gap between cards.
    gap = " · " if any(c is not None and " " in c for c in cards) else " "
    return gap.join(shown)


def colour_cards_in(text: str) -> str:
    """Colour every card notation inside a sentence (log lines, descriptions)."""
    return re.sub(
        r"(?<![\w#])(10|[2-9AJQK])([♠♥♦♣])(#\d+)?",
        lambda m: card_markup(m.group(0)),
        escape(text),
    )


def lookup(table: dict[str, Any], key: str) -> Any:
    value: Any = table
    for part in key.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def render_region(region: Region, value: Any) -> RenderableType | None:
    if region.hide_empty and not value:
        return None
    label = f"[cyan]{escape(region.label)}[/]" if region.label else ""
    if region.kind == "cards":
        return Text.from_markup(f"{label}  {cards_markup(value or [])}")
    if region.kind == "count":
        return Text.from_markup(
            f"{label}  {plural(value, 'card') if isinstance(value, int) else value}"
        )
    if region.kind == "pile":
        if isinstance(value, dict):  # {"size": n, "top": card or None}: a pile seen from above
            size, top = value.get("size", 0), value.get("top")
            shown = card_markup(top) if top is not None else "[dim]face down[/]"
            return Text.from_markup(
                f"{label}  {plural(size, 'card')}" + (f", top {shown}" if size else "")
            )
        cards = list(value or [])
        if region.show == "top":
            top = card_markup(cards[-1]) if cards else "[dim]empty[/]"
            return Text.from_markup(f"{label}  {plural(len(cards), 'card')}, top {top}")
        return Text.from_markup(f"{label} ({len(cards)})  {cards_markup(cards)}")
    if region.kind == "text":
        if isinstance(value, dict):
            value = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(map(str, value))
        return Text.from_markup(f"{label}  {escape(str(value))}")
    if region.kind == "columns":
        return _columns(region, value or [])
    if region.kind == "grid":
        return _grid(region, value or [])
    if region.kind == "rows":
        return _rows(region, value or [])
    if region.kind == "map":
        return render_map(region.label, value)
    if region.kind == "story":
        title = escape(str(value.get("title", ""))) if isinstance(value, dict) else ""
        return Text.from_markup(f"{label}  {title} [dim](type 'walk' to step through)[/]")
    if region.kind == "track":
        return Text.from_markup(f"{label}  {_track(value)}")
    if region.kind == "banner":
        return _banner(value)
    return Text(f"{region.label}: {value}")


def _track(value: Any) -> str:
    """A track as a line of marks: ``x`` a space used, ``o`` a space left, then its caption."""
    tracks = value if isinstance(value, list) else [value or {}]
    shown = []
    for track in tracks:
        spaces, used = int(track.get("spaces", 0)), int(track.get("used", 0))
        marks = "[dim]" + "x" * used + "[/]" + "o" * max(0, spaces - used)
        title = f"{escape(str(track['title']))} " if track.get("title") else ""
        caption = f"  {escape(str(track['caption']))}" if track.get("caption") else ""
        shown.append(f"{title}{marks}{caption}")
    return "; ".join(shown)


def _banner(value: Any) -> Panel:
    data = value if isinstance(value, dict) else {"title": str(value)}
    lines = [f"[bold]{escape(str(data.get('title', '')))}[/]"]
    lines += [escape(str(line)) for line in data.get("lines", [])]
    lines += [f"  - {escape(str(choice))}" for choice in data.get("choices", [])]
    style = "yellow" if data.get("style") == "yours" else "blue"
    return Panel(Text.from_markup("\n".join(lines)), border_style=style)


def _columns(region: Region, columns: Sequence[dict[str, Any]]) -> Table:
    table = Table(title=region.label or None, show_lines=True, title_justify="left")
    table.add_column("", style="cyan", no_wrap=True)
    for column in columns:
        table.add_column(escape(str(column.get("title", ""))), justify="center", no_wrap=True)
    for part in region.parts:
        row = [part]
        for column in columns:
            cards = column.get(part) or []
            row.append("\n".join(card_markup(c) for c in cards) if cards else "[dim]—[/]")
        table.add_row(*row)
    return table


def cell_markup(cell: Any) -> str:
    """One grid space: empty, a stack of cards (bottom first), a marker, or cards with a note."""
    if cell is None:
        return "[dim]·[/]"
    if isinstance(cell, str):
        return colour_cards_in(cell)
    if isinstance(cell, dict):
        cards = cards_markup(cell.get("cards") or []) if cell.get("cards") else ""
        note = f"[dim]{colour_cards_in(str(cell['note']))}[/]" if cell.get("note") else ""
        text = " ".join(part for part in (cards, note) if part) or "[dim]·[/]"
        style = CELL_STYLES.get(str(cell.get("style", "")))
        return f"[{style}]{text}[/]" if style else text
    return cards_markup(cell)


def _grid(region: Region, value: Any) -> Table:
    grid = value if isinstance(value, dict) else {"cells": value}
    rows = grid.get("cells") or []
    width = max((len(r) for r in rows), default=0)
    col_labels = grid.get("col_labels")
    row_labels = grid.get("row_labels")
    table = Table(
        title=region.label or None,
        title_justify="left",
        show_header=bool(col_labels),
        show_lines=True,
    )
    if row_labels:
        table.add_column("", style="cyan", no_wrap=True)
    for c in range(width):
        header = escape(str(col_labels[c])) if col_labels and c < len(col_labels) else ""
        table.add_column(header, justify="center", no_wrap=True)
    for r, row in enumerate(rows):
        cells = [cell_markup(row[c]) if c < len(row) else "" for c in range(width)]
        if row_labels:
            cells.insert(0, escape(str(row_labels[r])) if r < len(row_labels) else "")
        table.add_row(*cells)
    return table


def _rows(region: Region, value: Sequence[Any]) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(style="dim")
    for i, row in enumerate(value, start=1):
        if isinstance(row, dict):
            title, cards, note = row.get("title", str(i)), row.get("cards") or [], row.get("note")
        else:
            title, cards, note = str(i), row, None
        table.add_row(escape(str(title)), cards_markup(cards), escape(str(note or "")))
    if region.label:
        return _titled(region.label, table)
    return table


def _titled(label: str, body: Table) -> Table:
    outer = Table.grid()
    outer.add_column()
    outer.add_row(f"[cyan]{escape(label)}[/]")
    outer.add_row(body)
    return outer


def render_table(view: dict[str, Any], layout: Sequence[Region], info: GameInfo) -> Panel:
    parts: list[RenderableType] = []
    table = view.get("table", {})
    for region in layout:
        if region.command:
            continue  # a long reference, drawn when the player types its command
        rendered = render_region(region, lookup(table, region.key))
        if rendered is not None:
            parts.append(rendered)
    title = f"[bold]{escape(info.title)}[/]"
    if info.edition:
        title += f" [dim]({escape(info.edition)})[/]"
    status = f"step {view['step']}"
    if view.get("over"):
        status += " · game over"
    elif info.players != (1, 1):
        status += f" · seat {view['current_player']} to move"
    return Panel(Group(*parts), title=title, subtitle=status, expand=False)


def render_actions(
    actions: Sequence[Action], describe: Callable[[Action], str] | None = None
) -> Table:
    """The legal moves, numbered: with their sentences when few, else in columns."""
    table = Table.grid(padding=(0, 3))
    if describe is not None and len(actions) <= DESCRIBED_MOVES:
        table.add_column(no_wrap=True)
        table.add_column()
        for i, action in enumerate(actions, start=1):
            table.add_row(
                f"[dim]{i:>3}[/] {colour_cards_in(str(action))}",
                f"[dim]{colour_cards_in(describe(action))}[/]",
            )
        return table
    per_column = 12 if len(actions) > 12 else len(actions) or 1
    columns = (len(actions) + per_column - 1) // per_column
    for _ in range(max(columns, 1)):
        table.add_column(no_wrap=True)
    for row in range(per_column):
        cells = []
        for column in range(columns):
            i = column * per_column + row
            if i < len(actions):
                cells.append(f"[dim]{i + 1:>3}[/] {colour_cards_in(str(actions[i]))}")
            else:
                cells.append("")
        if any(cells):
            table.add_row(*cells)
    return table


def _detail_value(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value)) or "—"
    return str(value)


def render_step(story: dict[str, Any], index: int) -> Panel:
    """One step of a story, with its lines (card notations coloured)."""
    step = story["steps"][index]
    body = "\n".join(colour_cards_in(str(line)) for line in step.get("lines", [])) or "[dim]—[/]"
    count = len(story["steps"])
    return Panel(
        body,
        title=f"[bold]{escape(str(story.get('title', '')))}[/]",
        subtitle=f"{escape(str(step.get('title', '')))} · {index + 1} of {count}",
        expand=False,
    )


def render_result(result: dict[str, Any]) -> Panel:
    """The summary, then each seat's breakdown. A category that is itself a breakdown (Spies!:
    a power's score sheet) gets a line of its own, item by item."""
    lines = [f"[bold]{colour_cards_in(result.get('summary', ''))}[/]"]
    details = result.get("detail", [])
    for seat, detail in enumerate(details):
        prefix = f"seat {seat}: " if len(details) > 1 else ""
        flat = {k: v for k, v in detail.items() if not isinstance(v, dict)}
        nested = {k: v for k, v in detail.items() if isinstance(v, dict)}
        if flat or not nested:
            items = ", ".join(f"{_words(k)} {_detail_value(v)}" for k, v in flat.items())
            lines.append(colour_cards_in(prefix + items))
        for name, sheet in nested.items():
            items = ", ".join(f"{_words(k)} {_detail_value(v)}" for k, v in sheet.items())
            lines.append(colour_cards_in(f"{prefix}{name}: {items}"))
    return Panel("\n".join(lines), title="Result", expand=False)


def _words(key: str) -> str:
    return key.replace("_", " ")
