"""The terminal lobby: pick a game, its options and who sits where."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

import spyglass
from spyglass import agents
from spyglass.engine import Game, GameInfo, RulesError

from .play import HUMAN, default_seats, parse_seats


def games_table(infos: list[GameInfo]) -> Table:
    table = Table(title="spyglass games", title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column("id", style="cyan", no_wrap=True)
    table.add_column("game", no_wrap=True)
    table.add_column("players", justify="center")
    table.add_column("what it is")
    for i, info in enumerate(infos, start=1):
        title = info.title + (f" [dim]({info.edition})[/]" if info.edition else "")
        table.add_row(str(i), info.id, title, info.players_text(), escape(info.summary))
    return table


def _ask(console: Console, prompt: str, default: str) -> str:
    answer = console.input(f"{prompt} [dim][{escape(default)}][/] › ").strip()
    return answer or default


def choose_game(console: Console) -> GameInfo:
    infos = spyglass.games()
    console.print(games_table(infos))
    while True:
        answer = _ask(console, "Which game (number or id)", "1")
        if answer.isdigit() and 1 <= int(answer) <= len(infos):
            return infos[int(answer) - 1]
        for info in infos:
            if info.id == answer.lower():
                return info
        console.print(f"[red]No game {escape(answer)!r}; type a number from 1 to {len(infos)}.[/]")


def choose_options(console: Console, info: GameInfo) -> Game:
    while True:
        given = {}
        for option in info.options:
            given[option.name] = _ask(
                console,
                f"{option.name} ({option.describe_values()}): {option.help}",
                str(option.default).lower(),
            )
        try:
            return spyglass.load(info.id, **given)
        except RulesError as error:
            console.print(f"[red]{escape(str(error))}[/]")


def choose_players(console: Console, info: GameInfo) -> int:
    low, high = info.players
    if low == high:
        return low
    while True:
        answer = _ask(console, f"Players ({low}–{high})", str(low))
        if answer.isdigit() and low <= int(answer) <= high:
            return int(answer)
        console.print(f"[red]Between {low} and {high} players.[/]")


def choose_seats(console: Console, players: int) -> dict[int, str]:
    seats = default_seats(players)
    if players == 1:
        return seats
    choices = [HUMAN, *agents.names()]
    for seat in range(players):
        while True:
            answer = _ask(
                console,
                f"Seat {seat} ({'/'.join(choices)}, or e.g. ismcts:iterations=500)",
                seats[seat],
            )
            try:
                seats[seat] = parse_seats([f"{seat}={answer}"], players)[seat]
                break
            except RulesError as error:
                console.print(f"[red]{escape(str(error))}[/]")
    return seats


def choose_seed(console: Console) -> int | None:
    while True:
        answer = _ask(console, "Seed (blank for a random deal)", "")
        if not answer:
            return None
        if answer.isdigit():
            return int(answer)
        console.print("[red]A seed is a whole number.[/]")
