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
    """The catalogue, readable from 80 columns up: each game's id over its title, the players,
    and a line on it that wraps (a game whose data did not load is listed with the reason)."""
    table = Table(title="spyglass games", title_justify="left", show_lines=True)
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("game", min_width=16)
    table.add_column("players", justify="center", no_wrap=True)
    table.add_column("what it is", ratio=1, min_width=24)
    for i, info in enumerate(infos, start=1):
        if info.unavailable:
            game = f"[cyan]{escape(info.id)}[/]\n[red]unavailable[/]"
            table.add_row(str(i), game, "—", f"[red]{escape(info.unavailable)}[/]")
            continue
        game = f"[cyan]{escape(info.id)}[/]\n{escape(info.title)}"
        if info.edition:
            game += f"\n[dim]({escape(info.edition)})[/]"
        table.add_row(str(i), game, info.players_text(), escape(info.summary))
    return table


def _ask(console: Console, prompt: str, default: str) -> str:
    answer = console.input(f"{prompt} [dim][{escape(default)}][/] › ").strip()
    return answer or default


def choose_game(console: Console) -> GameInfo:
    infos = spyglass.games.list_games()
    console.print(games_table(infos))
    while True:
        answer = _ask(console, "Which game (number or id)", "1")
        chosen = None
        if answer.isdigit() and 1 <= int(answer) <= len(infos):
            chosen = infos[int(answer) - 1]
        for info in infos:
            if info.id == answer.lower():
                chosen = info
        if chosen is None:
            console.print(
                f"[red]No game {escape(answer)!r}; type a number from 1 to {len(infos)}.[/]"
            )
        elif chosen.unavailable:
            console.print(
                f"[red]{escape(chosen.id)} is unavailable: {escape(chosen.unavailable)}[/]"
            )
        else:
            return chosen


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


def choose_seats(console: Console, players: int, game: Game) -> dict[int, str]:
    seats = default_seats(players)
    if players == 1:
        return seats
    choices = [HUMAN, *agents.playable(game)]
    for seat in range(players):
        while True:
            answer = _ask(
                console,
                f"Seat {seat} ({'/'.join(choices)}, or e.g. ismcts:iterations=500)",
                seats[seat],
            )
            try:
                seats[seat] = parse_seats([f"{seat}={answer}"], players, game)[seat]
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
