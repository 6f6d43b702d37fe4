"""Stepping through a saved game."""

from __future__ import annotations

from rich.console import Console

import spyglass
from spyglass.engine import State

from .render import colour_cards_in, lookup, render_region, render_result, render_step, render_table

KEYS = (
    "[dim]Enter/n next · b back · g N go to step N · e end · s start · w walk through the"
    " story · q quit[/]"
)


def show(console: Console, state: State, seat: int | None, total: int) -> None:
    view = state.view(seat)
    spec = state.game.spec
    console.print(render_table(view, spec.layout, spec.info))
    if state.step:
        console.print(f"step {state.step} of {total}: {colour_cards_in(str(state.history[-1]))}")
    else:
        console.print(f"the deal (0 of {total} steps)")
    if state.is_over and state.result is not None:
        console.print(render_result(state.result.to_json()))


def step_through(console: Console, record: dict, seat: int | None, start: int = 0) -> None:
    """Interactive: move back and forth through the record's positions."""
    spyglass.replay(record)  # check the whole record first, so errors show before stepping
    positions = [spyglass.replay(record, upto=0)]
    for text in record["actions"]:
        position = positions[-1].clone()
        position.apply(text)
        positions.append(position)
    total = len(positions) - 1
    step = max(0, min(start, total))
    while True:
        show(console, positions[step], seat, total)
        try:
            answer = console.input(f"{KEYS} › ").strip().lower()
        except EOFError:
            return
        if answer in ("", "n"):
            if step == total:
                console.print("[dim]That was the last step.[/]")
            step = min(step + 1, total)
        elif answer == "b":
            step = max(step - 1, 0)
        elif answer == "e":
            step = total
        elif answer == "s":
            step = 0
        elif answer.startswith("g") and answer[1:].strip().isdigit():
            step = max(0, min(int(answer[1:].strip()), total))
        elif answer == "q":
            return
        elif answer in ("w", "walk", "story"):
            walk(console, positions[step], seat)
        elif not show_region(console, positions[step], seat, answer):
            console.print(KEYS)


def walk(console: Console, state: State, seat: int | None) -> None:
    """Step through the stories the position shows (e.g. a scored Espionage city)."""
    table = state.view(seat)["table"]
    stories = [lookup(table, r.key) for r in state.game.spec.layout if r.kind == "story"]
    stories = [s for s in stories if isinstance(s, dict) and s.get("steps")]
    if not stories:
        console.print("[yellow]Nothing to step through at this step.[/]")
    for story in stories:
        for index in range(len(story["steps"])):
            console.print(render_step(story, index))
            if index + 1 < len(story["steps"]):
                try:
                    if console.input("[dim]Enter: next step · s: skip[/] › ").strip() == "s":
                        break
                except EOFError:
                    return


def show_region(console: Console, state: State, seat: int | None, word: str) -> bool:
    """Draw the layout region whose command is ``word`` (Spies!: ``tiles``); False if none."""
    regions = [r for r in state.game.spec.layout if r.command and r.command == word]
    table = state.view(seat)["table"]
    for region in regions:
        rendered = render_region(region, lookup(table, region.key))
        if rendered is not None:
            console.print(rendered)
    return bool(regions)
