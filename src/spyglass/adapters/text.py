"""A plain-text picture of a seat's view, region by region (the adapters' ``ansi`` render)."""

from __future__ import annotations

from typing import Any

from spyglass.engine import Game


def view_text(game: Game, view: dict[str, Any]) -> str:
    """One line per layout region ("Hand: 3♠ 8♦ Q♣"), then whose turn it is or the result."""
    table = view["table"]
    lines = [f"{game.info.title}, step {view['step']}"]
    for region in game.spec.layout:
        value: Any = table
        for part in region.key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is None or (region.hide_empty and not value):
            continue
        lines.append(f"{region.label or region.key}: {_flat(value)}")
    if view["over"] and view["result"]:
        lines.append(view["result"]["summary"] or f"scores {view['result']['scores']}")
    else:
        lines.append(f"seat {view['current_player']} to move")
    return "\n".join(lines) + "\n"


def _flat(value: Any) -> str:
    if value is None:
        return "▒▒"
    if isinstance(value, list):
        return " ".join(_flat(v) for v in value) if value else "-"
    if isinstance(value, dict):
        if "cells" in value:
            rows = value["cells"]
            # In a grid None is an empty space, not a face-down card.
            return " / ".join(" ".join("·" if c is None else _flat(c) for c in r) for r in rows)
        if "cards" in value:
            return f"[{_flat(value['cards'])}]"
        return ", ".join(f"{k} {_flat(v)}" for k, v in value.items())
    return str(value)
