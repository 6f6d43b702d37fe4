"""The lab's commands: ``sim``, ``tournament``, ``sweep`` and ``report difficulty``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

import spyglass
from spyglass import agents
from spyglass.engine import RulesError
from spyglass.lab import simulate
from spyglass.lab.difficulty import (
    DEFAULT_GAMES,
    DEFAULT_ITERATIONS,
    DEFAULT_ROLLOUT,
    DEFAULT_SECONDS,
    difficulty,
    markdown,
    solo_games,
    strong_spec,
    write_difficulty,
)
from spyglass.lab.runner import BACKENDS
from spyglass.lab.store import RunStore
from spyglass.lab.sweep import parse_sweep, sweep, write_sweep
from spyglass.lab.tournament import FORMATS, seatings, tournament, write_tournament

from .play import parse_options

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

JobsOption = Annotated[
    int, typer.Option(min=1, help="Worker processes (or Ray CPUs); the results do not change.")
]
BackendOption = Annotated[str, typer.Option(help=f"Where the games run: {' or '.join(BACKENDS)}.")]
AddressOption = Annotated[
    str | None,
    typer.Option(help="Ray back-end: a running cluster's address (default: start a local one)."),
]
SeedOption = Annotated[int, typer.Option(help="Master seed; game i uses a seed derived from it.")]
PlayersOption = Annotated[int | None, typer.Option(help="Number of players.")]


def split_agents(text: str) -> list[str]:
    """``"random,ismcts:iterations=50,c=1"`` -> ["random", "ismcts:iterations=50,c=1"]: a part
    with '=' but no ':' is a parameter of the agent before it."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and specs:
            specs[-1] += f",{part}"
        else:
            specs.append(part)
    if not specs:
        raise RulesError(f"no agent in {text!r}; e.g. random,heuristic,ismcts")
    return specs


@contextmanager
def progress_bar(description: str, total: int, completed: int = 0) -> Iterator[Callable]:
    """A progress bar on stderr with rate and time left; yields the callback that advances it."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}/s"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=errors,
        transient=True,
    )
    with progress:
        task = progress.add_task(description, total=total, completed=completed, rate="–")

        def advance(_result: object = None) -> None:
            progress.advance(task)
            speed = progress.tasks[task].speed
            progress.update(task, rate=f"{speed:.1f}" if speed else "–")

        yield advance


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _interval(r: dict[str, Any]) -> str:
    return f"{_percent(r['rate'])}  (95% CI {_percent(r['low'])}–{_percent(r['high'])})"


def _spread(d: dict[str, Any] | None) -> str:
    if not d or d["mean"] is None:
        return "–"
    return (
        f"mean {d['mean']:.2f}  median {d['q50']:g}  "
        f"(5–95%: {d['q05']:g}–{d['q95']:g}, {d['min']:g}–{d['max']:g})"
    )


def _resolve_resume(
    out: Path | None, game: str, agent: str | None, seats: str | None, values: dict[str, Any]
) -> tuple[str | list[str] | None, dict[str, Any]]:
    """With --resume, what the command line leaves out comes from the saved run."""
    if out is None:
        raise RulesError("--resume needs the --out directory of the run to continue")
    stored = RunStore(out).stored_spec()
    if stored["game"] != game:
        raise RulesError(f"{out} holds a run of {stored['game']}, not {game}")
    chosen: str | list[str] | None = split_agents(seats) if seats else agent
    if chosen is None:
        chosen = stored["agents"]
    for key in ("players", "seed", "games"):
        if values[key] is None:
            values[key] = stored[key]
    if not values["options"]:
        values["options"] = stored["options"]
    return chosen, values


def sim_command(
    game: Annotated[str, typer.Argument(help="Game id.")],
    agent: Annotated[
        str | None,
        typer.Option(
            help=f"Agent for every seat: {', '.join(agents.names())} (default heuristic)."
        ),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(help="One agent per seat, comma-separated, e.g. ismcts,random,random."),
    ] = None,
    games: Annotated[int | None, typer.Option(min=1, help="How many games (1,000).")] = None,
    seed: Annotated[
        int | None, typer.Option(help="Master seed (0); game i uses a seed derived from it.")
    ] = None,
    players: PlayersOption = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE.")
    ] = None,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Save games as they finish, then JSON, CSV and plots, in this folder."),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the interrupted run saved in --out.")
    ] = False,
) -> None:
    """Simulate many games: win rate with a 95% interval, scores, game length, seats."""
    values: dict[str, Any] = {
        "games": games,
        "seed": seed,
        "players": players,
        "options": parse_options(option or []),
    }
    chosen: str | list[str] | None = split_agents(seats) if seats else agent
    if resume:
        chosen, values = _resolve_resume(out, game, agent, seats, values)
    total = values["games"] or 1000
    master = values["seed"] or 0
    who = chosen or "heuristic"
    already = len(RunStore(out).finished()) if resume and out is not None else 0
    label = who if isinstance(who, str) else ",".join(who)
    with progress_bar(f"{game} · {label}", total, completed=min(already, total)) as advance:
        result = simulate(
            game,
            who,
            total,
            seed=master,
            players=values["players"],
            options=values["options"],
            progress=advance,
            jobs=jobs,
            backend=backend,
            address=address,
            out=out,
            resume=resume,
        )
    if result.interrupted:
        errors.print(f"[yellow]Interrupted: {result.games} of {total} games finished.[/]")
        if out is not None:
            errors.print(f"[yellow]Continue with: --out {out} --resume[/]")
    if not result.games:
        raise typer.Exit(130 if result.interrupted else 0)
    print_sim(result)
    _finish(out, "summary.json, games.csv, seats.csv, plots", interrupted=result.interrupted)


def print_sim(result: Any) -> None:
    summary = result.summary()
    info = spyglass.load(result.game).info
    who = ",".join(result.agents) if len(set(result.agents)) > 1 else result.agents[0]
    table = Table(
        title=f"{info.title}: {result.games} games, agent {who}, seed {result.seed}",
        title_justify="left",
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    if info.solo:
        table.add_row("wins", f"{result.wins} of {result.games}")
        table.add_row("win rate", _interval(summary["win_rate"]))
        if summary["score"]["count"]:
            better = "lower" if info.score_order == "lower" else "higher"
            table.add_row(f"score of scored games ({better} is better)", _spread(summary["score"]))
    else:
        for seat in summary["seats"]:
            table.add_row(
                f"seat {seat['seat']} ({seat['agent']}) win rate", _interval(seat["wins"])
            )
            table.add_row(f"seat {seat['seat']} score", _spread(seat["score"]))
    table.add_row("game length (actions)", _spread(summary["length"]))
    console.print(table)


def tournament_command(
    game: Annotated[str, typer.Argument(help="A multiplayer game id.")],
    agents_: Annotated[
        str,
        typer.Option(
            "--agents", help="Comma-separated agents, e.g. random,heuristic,ismcts:iterations=50."
        ),
    ],
    players: PlayersOption = None,
    games: Annotated[int, typer.Option(min=1, help="Games per seating.")] = 100,
    format: Annotated[
        str, typer.Option(help=f"Seatings: {' or '.join(FORMATS)} (see the docs).")
    ] = "round-robin",
    seed: SeedOption = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE.")
    ] = None,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path | None, typer.Option(help="Write JSON, CSV and plots in this folder.")
    ] = None,
) -> None:
    """Agents against each other: win rates with intervals, ratings (openskill), a table."""
    names = split_agents(agents_)
    options = parse_options(option or [])
    n = spyglass.load(game, **options).check_players(players)
    tables = len(seatings(names, n, format))
    with progress_bar(f"{game} · {len(names)} agents", tables * games) as advance:
        result = tournament(
            game,
            names,
            games,
            players=n,
            format=format,
            seed=seed,
            options=options,
            jobs=jobs,
            backend=backend,
            address=address,
            progress=advance,
        )
    if result.interrupted:
        errors.print(f"[yellow]Interrupted: {result.games} of {tables * games} games finished.[/]")
    table = Table(
        title=(
            f"{spyglass.load(game).info.title}, {n} players: {tables} seatings × {games} games "
            f"({format}), seed {seed}; fair share {1 / n:.1%}"
        ),
        title_justify="left",
    )
    for column in ("agent", "seats played", "win rate (95% CI)", "rating μ ± σ", "μ − 3σ"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for s in result.summary()["standings"]:
        r = s["rating"]
        table.add_row(
            s["agent"],
            str(s["wins"]["trials"]),
            _interval(s["wins"]).replace("95% CI ", ""),
            f"{r['mu']:.1f} ± {r['sigma']:.1f}",
            f"{r['ordinal']:.1f}",
        )
    console.print(table)
    if out is not None:
        write_tournament(result, out)
    _finish(out, "tournament.json, standings.csv, plots", interrupted=result.interrupted)


def sweep_command(
    game: Annotated[str, typer.Argument(help="Game id.")],
    option: Annotated[
        list[str],
        typer.Option(
            "--option", "-o", help="Option and its values, e.g. jokers=0,1,2 (repeat to combine)."
        ),
    ],
    agent: Annotated[str, typer.Option(help="Agent for every seat.")] = "heuristic",
    seats: Annotated[str | None, typer.Option(help="One agent per seat, comma-separated.")] = None,
    players: PlayersOption = None,
    games: Annotated[int, typer.Option(min=1, help="Games per setting.")] = 500,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path | None, typer.Option(help="Write JSON, CSV and plots in this folder.")
    ] = None,
) -> None:
    """How each value of a game option changes win rate, score and game length."""
    values = parse_sweep(option)
    settings = 1
    for choices in values.values():
        settings *= len(choices)
    who: str | list[str] = split_agents(seats) if seats else agent
    with progress_bar(f"{game} · {settings} settings", settings * games) as advance:
        result = sweep(
            game,
            values,
            who,
            games,
            players=players,
            seed=seed,
            jobs=jobs,
            backend=backend,
            address=address,
            progress=advance,
        )
    if result.interrupted:
        errors.print("[yellow]Interrupted: the figures cover the games that finished.[/]")
    table = Table(
        title=f"{spyglass.load(game).info.title}: {games} games per setting, seed {seed}",
        title_justify="left",
    )
    seat0 = "win rate" if result.players == 1 else "seat 0 win rate"
    for column in ("setting", "games", seat0, "score", "length"):
        table.add_column(column, justify="left" if column == "setting" else "right")
    for point, row in zip(result.points, result.summary()["points"], strict=True):
        score = row["score"]
        table.add_row(
            result.label(point),
            str(row["games"]),
            _interval(row["win_rate"]).replace("95% CI ", ""),
            "–" if not score or score["mean"] is None else f"{score['mean']:.2f}",
            f"{row['length']['mean']:.1f}",
        )
    console.print(table)
    if out is not None:
        write_sweep(result, out)
    _finish(out, "sweep.json, sweep.csv, plots", interrupted=result.interrupted)


def difficulty_command(
    game: Annotated[
        list[str] | None, typer.Argument(help="Solo game ids (default: every solo game).")
    ] = None,
    games: Annotated[int, typer.Option(min=1, help="Deals per game.")] = DEFAULT_GAMES,
    iterations: Annotated[
        int, typer.Option(min=1, help="ISMCTS iterations per move (the strongest agent).")
    ] = DEFAULT_ITERATIONS,
    rollout: Annotated[
        str, typer.Option(help="ISMCTS playouts: random, or heuristic (stronger, slower).")
    ] = DEFAULT_ROLLOUT,
    seconds: Annotated[
        float, typer.Option(min=0.01, help="Time cap of the clairvoyant search per deal.")
    ] = DEFAULT_SECONDS,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path, typer.Option(help="Folder for difficulty.md, .html, .json, .csv and the plot.")
    ] = Path("difficulty-report"),
) -> None:
    """Solo games: win rates of random, heuristic, ISMCTS beside the clairvoyant bound."""
    selected = solo_games(game or [])
    agents.load_spec(strong_spec(iterations, rollout))  # a bad --rollout fails before any game
    total = len(selected) * games * 4  # three agents and the bound
    with progress_bar(f"{len(selected)} solo games", total) as advance:
        report = difficulty(
            games,
            only=[i.id for i in selected],
            seed=seed,
            iterations=iterations,
            rollout=rollout,
            seconds=seconds,
            jobs=jobs,
            backend=backend,
            address=address,
            progress=advance,
        )
    if report.interrupted:
        errors.print("[yellow]Interrupted: the report covers the games that finished.[/]")
    write_difficulty(report, out)
    console.print(Markdown(markdown(report, plot=None)))
    _finish(out, "difficulty.md, difficulty.html, JSON, CSV, plot", interrupted=report.interrupted)


def _finish(out: Path | None, files: str, *, interrupted: bool) -> None:
    """Say what was written where, and exit with 130 (as for Ctrl-C) after an interrupted run."""
    if out is not None:
        console.print(f"[dim]Written to {out}: {files}.[/]")
    if interrupted:
        raise typer.Exit(130)
