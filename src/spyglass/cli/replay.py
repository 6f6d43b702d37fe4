"""Stepping through a saved game."""

from __future__ import annotations

from rich.console import Console

import spyglass
from spyglass.engine import State

from .render import colour_cards_in, render_result, render_table

KEYS = "[dim]Enter/n next · b back · g N go to step N · e end · s start · q quit[/]"


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
        else:
            console.print(KEYS)
