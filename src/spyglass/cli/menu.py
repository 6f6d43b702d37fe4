"""Long lists of moves at the terminal, sorted by where they go: a country, then a city.

Some positions offer hundreds of moves (Spies!: a spy may be placed in any of 106 cities, each
with a choice of spies). Listed whole they fill the screen with cut-off cells; grouped by the
map place each move names, the player picks a country, then a city, then the move, or simply
types the move. Nothing here is game-specific: a move's place is the last item of its target
(or the target itself) matched against the places of the layout's map region, and a place's
group is the one the map gives it (a country, say).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.markup import escape
from rich.table import Table

from spyglass.engine import Action

from .render import colour_cards_in

#: More moves than this, and the menu is grouped (when most of them name a map place).
LONG_MENU = 40
#: Items listed per column when a level is shown.
PER_COLUMN = 15


def place_of(action: Action, places: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """(group, place label) of the map place a move names, or None."""
    target = action.target
    if isinstance(target, list | tuple) and target:
        target = target[-1]
    if isinstance(target, str):
        return places.get(target.lower())
    return None


def map_places(table: dict[str, Any], keys: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Every place of the map regions at ``keys``, by id and by label (lower case)."""
    found: dict[str, tuple[str, str]] = {}
    for key in keys:
        value: Any = table
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if not isinstance(value, dict):
            continue
        for place in value.get("places", []):
            label = str(place.get("label") or place.get("id"))
            group = str(place.get("group") or place.get("style") or "places")
            for name in (place.get("id"), place.get("label")):
                if name is not None:
                    found[str(name).lower()] = (group, label)
    return found


@dataclass(slots=True)
class MoveMenu:
    """The moves of one decision, by group then place, and where the player has got to."""

    actions: list[Action]
    groups: dict[str, dict[str, list[int]]]  # group -> place -> indices into actions
    others: list[int]  # moves that name no place
    group: str | None = None
    place: str | None = None
    _labels: dict[str, tuple[str, str | None]] = field(default_factory=dict)

    @classmethod
    def build(cls, actions: list[Action], places: dict[str, tuple[str, str]]) -> MoveMenu | None:
        """A menu for ``actions``, or None when they are few or mostly name no place."""
        if len(actions) <= LONG_MENU or not places:
            return None
        groups: dict[str, dict[str, list[int]]] = {}
        others: list[int] = []
        for index, action in enumerate(actions):
            found = place_of(action, places)
            if found is None:
                others.append(index)
            else:
                groups.setdefault(found[0], {}).setdefault(found[1], []).append(index)
        if len(others) * 2 > len(actions) or len(groups) < 2:
            return None
        menu = cls(actions, groups, others)
        for group, by_place in groups.items():
            menu._labels[group.lower()] = (group, None)
            for place in by_place:
                menu._labels[place.lower()] = (group, place)
        return menu

    # ------------------------------------------------------------------ what is shown

    def entries(self) -> list[tuple[str, Any]]:
        """What each number means at this level: ("group", name), ("place", name) or
        ("move", index into the actions)."""
        if self.group is None:
            listed: list[tuple[str, Any]] = [("group", g) for g in self.groups]
            return listed + [("move", i) for i in self.others]
        if self.place is None:
            return [("place", p) for p in self.groups[self.group]]
        return [("move", i) for i in self.groups[self.group][self.place]]

    def heading(self) -> str:
        count = len(self.actions)
        if self.group is None:
            return f"{count} moves: choose a country by its number or name, or type a move"
        if self.place is None:
            moves = sum(len(v) for v in self.groups[self.group].values())
            return f"{escape(self.group)} ({moves} moves): choose a place, 'back', or type a move"
        return f"{escape(self.place)}: choose a move, 'back', or type a move"

    def render(self) -> Table:
        entries = self.entries()
        columns = max(1, (len(entries) + PER_COLUMN - 1) // PER_COLUMN)
        rows = (len(entries) + columns - 1) // columns
        table = Table.grid(padding=(0, 3))
        for _ in range(columns):
            table.add_column(no_wrap=True)
        for row in range(rows):
            cells = []
            for column in range(columns):
                k = column * rows + row
                cells.append(self._cell(k + 1, entries[k]) if k < len(entries) else "")
            table.add_row(*cells)
        return table

    def _cell(self, number: int, entry: tuple[str, Any]) -> str:
        kind, value = entry
        if kind == "group":
            moves = sum(len(v) for v in self.groups[value].values())
            return f"[dim]{number:>3}[/] {escape(value)} [dim]({moves})[/]"
        if kind == "place":
            assert self.group is not None
            moves = len(self.groups[self.group][value])
            return f"[dim]{number:>3}[/] {escape(value)} [dim]({moves})[/]"
        return f"[dim]{number:>3}[/] {colour_cards_in(str(self.actions[value]))}"

    # ------------------------------------------------------------------ choosing

    def choose(self, line: str) -> Action | str | None:
        """Follow one line typed at this level: the move chosen, "moved" when the line only
        went down or up a level, "no such number" for a number not listed here, or None when
        it means nothing to the menu (a command, a typed move)."""
        text = line.strip()
        lowered = text.lower()
        if lowered in ("back", "b", "up"):
            if self.place is not None:
                self.place = None
            else:
                self.group = None
            return "moved"
        if text.isdigit():
            entries = self.entries()
            number = int(text)
            if not 1 <= number <= len(entries):
                return "no such number"
            kind, value = entries[number - 1]
            if kind == "group":
                self.group, self.place = value, None
                return "moved"
            if kind == "place":
                self.place = value
                return "moved"
            return self.actions[value]
        found = self._labels.get(lowered)
        if found is None:
            return None
        self.group, self.place = found
        return "moved"
