"""The ``spyglass`` command."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

import spyglass
from spyglass.engine import SpyglassError, read_record

from . import lab, lobby, serve, solve
from .play import PlaySession, parse_options, parse_seats
from .replay import step_through

app = typer.Typer(
    name="spyglass",
    help="Play, replay and simulate the spyglass tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)


P = ParamSpec("P")
R = TypeVar("R")


def friendly(command: Callable[P, R]) -> Callable[P, R]:
    """Expected errors become one red line (exit 2); Ctrl-C leaves quietly (exit 130)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except SpyglassError as error:
            errors.print(f"[red]error:[/] {escape(str(error))}", soft_wrap=True)
            raise typer.Exit(2) from None
        except (KeyboardInterrupt, EOFError):
            errors.print("\n[yellow]Interrupted.[/]")
            raise typer.Exit(130) from None

    return wrapper


def _version(value: bool) -> None:
    if value:
        console.print(f"spyglass {spyglass.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Play, replay and simulate the spyglass tabletop games."""


@app.command("games")
@friendly
def games_command() -> None:
    """List the games with their player counts and a line on each."""
    console.print(lobby.games_table(spyglass.games.list_games()))


@app.command("rules")
@friendly
def rules_command(game: Annotated[str, typer.Argument(help="Game id, e.g. sandwich-guy.")]) -> None:
    """Show a game's rules (in our words, with our rulings)."""
    console.print(Markdown(spyglass.load(game).rules_text()))


@app.command("play")
@friendly
def play_command(
    game: Annotated[
        str | None, typer.Argument(help="Game id; leave out to open the lobby.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Deal seed (default: random).")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(help="Who sits where, e.g. --seat 0=human --seat 1=heuristic."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE.")
    ] = None,
    load: Annotated[Path | None, typer.Option(help="Continue a saved game record.")] = None,
) -> None:
    """Play at the terminal (numbered moves or typed notation; 'help' lists the commands)."""
    if load is not None:
        state = spyglass.replay(read_record(load))
        seats = parse_seats(seat or [], state.players, state.game)
    elif game is None:
        info = lobby.choose_game(console)
        chosen = lobby.choose_options(console, info)
        n = lobby.choose_players(console, info)
        seats = lobby.choose_seats(console, n, chosen)
        state = chosen.new_state(players=n, seed=lobby.choose_seed(console))
    else:
        loaded = spyglass.load(game, **parse_options(option or []))
        n = loaded.check_players(players)
        seats = parse_seats(seat or [], n, loaded)
        state = loaded.new_state(players=n, seed=seed)
    if state.seed is not None:
        console.print(
            f"[dim]{state.game.info.title}, seed {state.seed}. Type 'help' for commands.[/]"
        )
    PlaySession(console, state, seats, agent_seed=state.seed or 0).run()


@app.command("replay")
@friendly
def replay_command(
    file: Annotated[Path, typer.Argument(help="A saved game record (JSON).")],
    seat: Annotated[
        int | None, typer.Option(help="See the game as this seat (default: spectator).")
    ] = None,
    step: Annotated[int, typer.Option(help="Start at this step.")] = 0,
) -> None:
    """Step through a saved game."""
    step_through(console, read_record(file), seat, step)


@app.command("solve")
@friendly
def solve_command(
    game: Annotated[str, typer.Argument(help="A solo game id.")],
    seed: Annotated[int, typer.Option(help="The deal.")] = 0,
    seconds: solve.SecondsOption = 10.0,
) -> None:
    """Solve a deal: Syndicate exactly (fewest sacrifices), other solo games clairvoyantly."""
    solve.solve_command(console, game, seed, seconds)


app.command("sim")(friendly(lab.sim_command))
app.command("tournament")(friendly(lab.tournament_command))
app.command("sweep")(friendly(lab.sweep_command))
app.command("tune")(friendly(lab.tune_command))
report_app = typer.Typer(
    help="Reports over many games (see docs/lab.md).", no_args_is_help=True, rich_markup_mode="rich"
)
report_app.command("difficulty")(friendly(lab.difficulty_command))
app.add_typer(report_app, name="report")
app.command("serve")(serve.serve_command)
app.command("balancer")(serve.balancer_command)


def main() -> None:
    """Entry point of the ``spyglass`` script."""
    app()


if __name__ == "__main__":
    main()
