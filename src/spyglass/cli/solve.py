"""``spyglass solve``: the exact solution of a Syndicate deal, or the clairvoyant bound of
another solo game's deal (its own solver where it has one: see ``agents.solvers``)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

import spyglass
from spyglass.agents.solvers import bound as clairvoyant_bound
from spyglass.agents.solvers.syndicate import solve as solve_syndicate
from spyglass.engine import RulesError

from .render import colour_cards_in


def solve_command(
    console: Console,
    game: str,
    seed: int,
    seconds: float,
) -> None:
    loaded = spyglass.load(game)
    if not loaded.info.solo:
        raise RulesError(f"solve is for solo games; {loaded.info.title} has several players")
    state = loaded.new_state(seed=seed)
    title = f"{loaded.info.title}, seed {seed}"
    if game == "syndicate":
        solution = solve_syndicate(state)
        if not solution.winnable:
            console.print(
                f"{title}: [bold]cannot be won[/] (exhaustive search, {solution.nodes} positions)"
            )
            return
        console.print(
            f"{title}: won with [bold]{solution.sacrifices}[/] sacrifices, the fewest possible "
            f"({solution.nodes} positions searched)"
        )
        _moves(console, solution.moves)
        return
    bound = clairvoyant_bound(state, seconds=seconds)
    note = (
        f"clairvoyant: every hidden card known; {bound.nodes} positions, {bound.seconds:.1f} CPU-s"
    )
    if bound.won is None:
        console.print(f"{title}: [yellow]unknown[/] within {seconds:g} CPU-s ({note})")
        return
    if not bound.won:
        console.print(f"{title}: [bold]cannot be won[/], even knowing every card ({note})")
        return
    better = "lower" if loaded.info.score_order == "lower" else "higher"
    exact = (
        "the best possible, proved" if bound.score_exact else "the best found in the time allowed"
    )
    console.print(
        f"{title}: can be won; score {bound.score:g} ({exact}, {better} is better) ({note})"
    )
    _moves(console, bound.moves)


def _moves(console: Console, moves: tuple[str, ...]) -> None:
    for number, move in enumerate(moves, start=1):
        console.print(f"  [dim]{number:>3}[/] {colour_cards_in(escape(move))}")


SecondsOption = Annotated[
    float,
    typer.Option(min=0.1, help="Cap for the clairvoyant search (other games), in CPU seconds."),
]
