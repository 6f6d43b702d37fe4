"""The lab's commands: ``sim``, ``tournament``, ``sweep``, ``tune`` and ``report difficulty``.

Everything a command can check is checked before the first game: the game, its options and
player count, every agent and its parameters, the back-end and its cluster, the ``--out``
folder and, with ``--resume``, the run saved there. A mistake is one line and exit code 2,
never a traceback after hours of play. With ``--out`` every game is saved as it finishes;
Ctrl-C keeps them (exit 130) and ``--resume`` plays only what is missing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
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
from spyglass.lab.agentspec import check_agents
from spyglass.lab.cluster import check_cluster
from spyglass.lab.compare import compare_agents
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
from spyglass.lab.metrics import timing
from spyglass.lab.plots import ordinal
from spyglass.lab.runner import BACKENDS, check_backend
from spyglass.lab.simulate import prepare
from spyglass.lab.store import RunStore, prepare_directory
from spyglass.lab.sweep import parse_sweep, sweep
from spyglass.lab.tournament import FORMATS, seatings, tournament
from spyglass.lab.tune import OBJECTIVES, parse_objective, parse_param, tune

from .play import parse_options

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

JobsOption = Annotated[
    int, typer.Option(min=1, help="Worker processes (or Ray CPUs); the results do not change.")
]
BackendOption = Annotated[str, typer.Option(help=f"Where the games run: {' or '.join(BACKENDS)}.")]
AddressOption = Annotated[
    str | None,
    typer.Option(help="Ray back-end: a running cluster's HOST:PORT (default: start a local one)."),
]
PlayersOption = Annotated[int | None, typer.Option(help="Number of players.")]
OptionsOption = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Game option NAME=VALUE.")
]
ResumeOption = Annotated[
    bool,
    typer.Option(
        "--resume", help="Continue the run saved in --out (what you leave out comes from it)."
    ),
]


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


def _p(value: float | None) -> str:
    if value is None:
        return "–"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def _count(done: int, planned: int | None, interrupted: bool, unit: str = "games") -> str:
    """The heading's count: "500 games", or "120 of 500 games (interrupted)"."""
    if planned is not None and (interrupted or done < planned):
        state = ", interrupted" if interrupted else ""
        return f"{done} of {planned} {unit} ({done / planned:.0%}{state})"
    return f"{done} {unit}"


def _confirmed_before(out: Path | None) -> int:
    """How many fresh deals a resumed study's confirmation had (0 if none was played): a
    ``--resume`` that does not repeat ``--confirm`` keeps it rather than dropping it."""
    if out is None:
        return 0
    try:
        confirmed = json.loads((out / "tune.json").read_text())["confirm"]
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    if not isinstance(confirmed, dict):
        return 0
    return int(confirmed.get("planned") or confirmed["games"])


def _stored(out: Path | None, *commands: str) -> dict[str, Any]:
    """The run saved in ``out``, for ``--resume``; it must be one of ``commands``."""
    if out is None:
        raise RulesError("--resume needs the --out directory of the run to continue")
    stored = RunStore(out).stored_spec()
    if stored["command"] not in commands:
        raise RulesError(
            f"{out} holds a `spyglass {stored['command']}` run, not a {' or '.join(commands)}"
        )
    return stored


def _check_out(out: Path | None, resume: bool) -> None:
    """Fail at once on an --out that cannot hold results (a file, a path that cannot exist)."""
    if out is not None and not resume:
        prepare_directory(out)


def _check_backend(backend: str, jobs: int, address: str | None) -> None:
    """The back-end, and a Ray cluster's address, checked before the progress bar starts."""
    check_backend(backend, jobs)
    if backend == "ray" and address:
        check_cluster(address)


def _resolve_resume(
    out: Path | None, game: str, agent: str | None, seats: str | None, values: dict[str, Any]
) -> tuple[str | list[str] | None, dict[str, Any]]:
    """With --resume, what the command line leaves out comes from the saved run."""
    stored = _stored(out, "sim")
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
    option: OptionsOption = None,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Save games as they finish, then JSON, CSV and plots, in this folder."),
    ] = None,
    resume: ResumeOption = False,
) -> None:
    """Simulate many games: win rates with 95% intervals, scores, game metrics, turn order."""
    values: dict[str, Any] = {
        "games": games,
        "seed": seed,
        "players": players,
        "options": parse_options(option or []),
    }
    chosen: str | list[str] | None = split_agents(seats) if seats else agent
    if resume:
        chosen, values = _resolve_resume(out, game, agent, seats, values)
    _check_out(out, resume)
    _check_backend(backend, jobs, address)
    total = values["games"] or 1000
    master = values["seed"] or 0
    who = chosen or "heuristic"
    prepare(game, who, players=values["players"], options=values["options"])  # before the bar
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
    _finish(out, "summary.json, timing.json, games.csv, seats.csv, plots", result.interrupted)


def print_sim(result: Any) -> None:
    summary = result.summary()
    info = spyglass.load(result.game).info
    who = ",".join(result.agents) if len(set(result.agents)) > 1 else result.agents[0]
    count = _count(result.games, summary["planned"], result.interrupted)
    table = Table(
        title=f"{info.title}: {count}, agent {who}, seed {result.seed}", title_justify="left"
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
    print_metrics(result, summary)
    print_positions(summary["turn_positions"])


def print_metrics(result: Any, summary: dict[str, Any]) -> None:
    metrics = summary["metrics"]
    if not metrics["games"]:
        return
    table = Table(title="Game metrics", title_justify="left")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("decisions per game", _spread(metrics["decisions"]))
    table.add_row("legal actions per move", _spread(metrics["branching"]))
    table.add_row("legal actions per decision", _spread(metrics["branching_at_decisions"]))
    table.add_row("forced moves", _percent(metrics["forced_share"]))
    if metrics["score_margin"] is not None:
        table.add_row("winner's lead in score", _spread(metrics["score_margin"]))
    for seat in metrics["places"]:
        shares = " · ".join(
            f"{ordinal(k)} {_percent(c / result.games)}" for k, c in enumerate(seat["places"], 1)
        )
        table.add_row(
            f"seat {seat['seat']} finishing places", f"{shares}  (mean {seat['mean_place']:.2f})"
        )
    for row in timing(result):
        if row["ms_per_decision"] is not None:
            table.add_row(
                f"time per decision, {row['agent']}",
                f"{row['ms_per_decision']:.3g} ms  ({row['decisions']} decisions; this machine)",
            )
    console.print(table)


def print_positions(positions: dict[str, Any] | None) -> None:
    if positions is None or not positions["random_first"]:
        return
    table = Table(
        title=f"Win rate by turn position ({positions['games']} games, first player varies)",
        title_justify="left",
        caption=f"fair share {_percent(positions['fair_share'])}",
        caption_justify="left",
    )
    table.add_column("turn position")
    table.add_column("win rate (95% CI)", justify="right")
    for row in positions["positions"]:
        table.add_row(str(row["position"]), _interval(row["wins"]).replace("95% CI ", ""))
    console.print(table)
    first = positions["first_player"]
    chi = positions["chi_square"]
    console.print(
        f"No first-player advantage? exact binomial test of position 1: p = {_p(first['p'])}; "
        f"all positions alike? chi-square ({chi['df']} df) = {chi['statistic']:.2f}, "
        f"p = {_p(chi['p'])}."
    )


def tournament_command(
    game: Annotated[str, typer.Argument(help="A multiplayer game id.")],
    agents_: Annotated[
        str | None,
        typer.Option(
            "--agents", help="Comma-separated agents, e.g. random,heuristic,ismcts:iterations=50."
        ),
    ] = None,
    players: PlayersOption = None,
    games: Annotated[int | None, typer.Option(min=1, help="Games per seating (100).")] = None,
    format: Annotated[
        str | None, typer.Option(help=f"Seatings: {' or '.join(FORMATS)} (see the docs).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Master seed (0).")] = None,
    option: OptionsOption = None,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Save games as they finish, then JSON, CSV and plots, in this folder."),
    ] = None,
    resume: ResumeOption = False,
) -> None:
    """Agents against each other: win rates (bootstrap by game), ratings, head to head."""
    options = parse_options(option or [])
    if resume:
        stored = _stored(out, "tournament")
        if stored["game"] != game:
            raise RulesError(f"{out} holds a tournament of {stored['game']}, not {game}")
        agents_ = agents_ or ",".join(stored["agents"])
        players = players if players is not None else stored["players"]
        games = games if games is not None else stored["games"]
        format = format or stored["format"]
        seed = seed if seed is not None else stored["seed"]
        options = options or stored["options"]
    if agents_ is None:
        raise RulesError("a tournament needs --agents, e.g. --agents random,heuristic")
    _check_out(out, resume)
    _check_backend(backend, jobs, address)
    names = split_agents(agents_)
    games, seed, format = games or 100, seed or 0, format or "round-robin"
    n = spyglass.load(game, **options).check_players(players)
    tables = len(seatings(names, n, format))
    check_agents(names)
    already = len(RunStore(out).records()) if resume and out is not None else 0
    with progress_bar(f"{game} · {len(names)} agents", tables * games, already) as advance:
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
            out=out,
            resume=resume,
        )
    if result.interrupted:
        errors.print(f"[yellow]Interrupted: {result.games} of {tables * games} games finished.[/]")
        if out is not None:
            errors.print(f"[yellow]Continue with: --out {out} --resume[/]")
    summary = result.summary()
    count = _count(result.games, tables * games, result.interrupted)
    table = Table(
        title=(
            f"{spyglass.load(game).info.title}, {n} players: {tables} seatings × {games} games "
            f"({format}), {count}, seed {seed}; fair share {1 / n:.1%}"
        ),
        title_justify="left",
    )
    columns = ("agent", "seats played", "win rate (95% CI, by game)", "rating μ ± σ", "μ − 3σ")
    for column in columns:
        table.add_column(column, justify="left" if column == "agent" else "right")
    for s in summary["standings"]:
        r = s["rating"]
        table.add_row(
            s["agent"],
            str(s["wins"]["trials"]),
            _interval(s["wins"]).replace("95% CI ", ""),
            f"{r['mu']:.1f} ± {r['sigma']:.1f}",
            f"{r['ordinal']:.1f}",
        )
    console.print(table)
    duel = summary["head_to_head"]
    if duel and result.games:
        grid = Table(title="Head to head: how often the row finished ahead", title_justify="left")
        grid.add_column("")
        for name in duel["agents"]:
            grid.add_column(name, justify="right")
        for name, cells in zip(duel["agents"], duel["matrix"], strict=True):
            grid.add_row(
                name,
                *(
                    "–"
                    if c is None
                    else f"{_percent(c['ahead'])} ({_percent(c['low'])}–{_percent(c['high'])})"
                    for c in cells
                ),
            )
        console.print(grid)
    _finish(out, "tournament.json, standings.csv, head_to_head.csv, plots", result.interrupted)


def sweep_command(
    game: Annotated[str, typer.Argument(help="Game id.")],
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option", "-o", help="Option and its values, e.g. jokers=0,1,2 (repeat to combine)."
        ),
    ] = None,
    agents_: Annotated[
        str | None,
        typer.Option(
            "--agents",
            help="Sweep agents instead: compare these in --seat on the same deals.",
        ),
    ] = None,
    agent: Annotated[str | None, typer.Option(help="Agent for every seat (heuristic).")] = None,
    seats: Annotated[str | None, typer.Option(help="One agent per seat, comma-separated.")] = None,
    seat: Annotated[int, typer.Option(help="With --agents: the seat they take in turn.")] = 0,
    opponents: Annotated[
        str, typer.Option(help="With --agents: the agent in every other seat.")
    ] = "heuristic",
    players: PlayersOption = None,
    games: Annotated[int | None, typer.Option(min=1, help="Games per setting (500).")] = None,
    seed: Annotated[int | None, typer.Option(help="Master seed (0).")] = None,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Save games as they finish, then JSON, CSV and plots, in this folder."),
    ] = None,
    resume: ResumeOption = False,
) -> None:
    """Settings on the same deals: an option's values, or agents; paired tests, Holm."""
    if resume:
        stored = _stored(out, "sweep", "compare")
        if stored["game"] != game:
            raise RulesError(f"{out} holds a run of {stored['game']}, not {game}")
        games = games if games is not None else stored["games"]
        seed = seed if seed is not None else stored["seed"]
        players = players if players is not None else stored["players"]
        if stored["command"] == "compare":
            agents_ = agents_ or ",".join(stored["agents"])
            seat, opponents = stored["seat"], stored["opponents"]
        else:
            option = option or [f"{k}={','.join(v)}" for k, v in stored["values"].items()]
            if agent is None and seats is None:
                seats = ",".join(stored["agents"])
    _check_out(out, resume)
    _check_backend(backend, jobs, address)
    games, seed = games or 500, seed or 0
    if agents_ is not None:
        if option:
            raise RulesError("sweep either --option values or --agents, not both at once")
        names = split_agents(agents_)
        check_agents([*names, opponents])
        with progress_bar(f"{game} · {len(names)} agents", len(names) * games) as advance:
            comparison = compare_agents(
                game,
                names,
                games,
                seat=seat,
                opponents=opponents,
                players=players,
                seed=seed,
                jobs=jobs,
                backend=backend,
                address=address,
                progress=advance,
                out=out,
                resume=resume,
            )
        print_comparison(comparison)
        files = "comparison.json, agents.csv, paired.csv, comparisons.csv, plots"
        _finish(out, files, comparison.interrupted)
        return
    if not option:
        raise RulesError("a sweep needs --option NAME=V1,V2,... (or --agents A,B,...)")
    values = parse_sweep(option)
    settings = 1
    for choices in values.values():
        settings *= len(choices)
    who: str | list[str] = split_agents(seats) if seats else (agent or "heuristic")
    check_agents([who] if isinstance(who, str) else who)
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
            out=out,
            resume=resume,
        )
    if result.interrupted:
        errors.print("[yellow]Interrupted: the figures cover the games that finished.[/]")
        if out is not None:
            errors.print(f"[yellow]Continue with: --out {out} --resume[/]")
    summary = result.summary()
    count = _count(summary["games"], summary["planned"], result.interrupted)
    table = Table(
        title=f"{spyglass.load(game).info.title}: {games} games per setting ({count}), seed {seed}",
        title_justify="left",
    )
    seat0 = "win rate" if result.players == 1 else "seat 0 win rate"
    for column in ("setting", "games", seat0, "score", "length"):
        table.add_column(column, justify="left" if column == "setting" else "right")
    for point, row in zip(result.points, summary["points"], strict=True):
        score = row["score"]
        table.add_row(
            result.label(point),
            str(row["games"]),
            _interval(row["win_rate"]).replace("95% CI ", ""),
            "–" if not score or score["mean"] is None else f"{score['mean']:.2f}",
            f"{row['length']['mean']:.1f}" if row["length"]["mean"] is not None else "–",
        )
    console.print(table)
    if len(result.points) > 1:
        print_paired(summary["paired"], solo=result.players == 1)
    _finish(out, "sweep.json, sweep.csv, paired.csv, comparisons.csv, plots", result.interrupted)


def print_comparison(comparison: Any) -> None:
    summary = comparison.summary()
    info = spyglass.load(comparison.game).info
    where = "" if info.solo else f", seat {comparison.seat} against {comparison.opponents}"
    count = _count(summary["games"], summary["planned"], comparison.interrupted)
    table = Table(
        title=f"{info.title}{where}: the same deals for every agent ({count}), "
        f"seed {comparison.seed}",
        title_justify="left",
    )
    for column in ("agent", "games", "win rate (95% CI)", "mean score", "length"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for row in summary["results"]:
        score = row["score"]
        table.add_row(
            row["agent"],
            str(row["games"]),
            _interval(row["wins"]).replace("95% CI ", ""),
            "–" if not score or score["mean"] is None else f"{score['mean']:.2f}",
            "–" if row["length"]["mean"] is None else f"{row['length']['mean']:.1f}",
        )
    console.print(table)
    print_paired(summary["paired"], solo=info.solo)


def print_paired(paired: dict[str, Any], *, solo: bool) -> None:
    table = Table(
        title=f"Paired differences on the same deals ({paired['correction']}, 5% level)",
        title_justify="left",
    )
    columns = ("comparison", "measure", "deals", "difference (95% CI)", "p", "p (Holm)", "at 5%")
    for column in columns:
        table.add_column(column, justify="left" if column in ("comparison", "measure") else "right")
    for row in paired["comparisons"]:
        name = f"{row['first']} − {row['second']}" + ("" if solo else f", seat {row['seat']}")
        if row["difference"] is None:
            diff = "–"
        elif row["measure"] == "win rate":
            diff = (
                f"{100 * row['difference']:+.1f} pts ({100 * row['low']:+.1f} to "
                f"{100 * row['high']:+.1f})"
            )
        else:
            low = row["low"] if row["low"] is not None else row["difference"]
            high = row["high"] if row["high"] is not None else row["difference"]
            diff = f"{row['difference']:+.2f} ({low:+.2f} to {high:+.2f})"
        table.add_row(
            escape(name),
            row["measure"],
            str(row["games"]),
            diff,
            _p(row["p"]),
            _p(row["p_holm"]),
            "survives" if row["significant"] else "",
        )
    console.print(table)


def tune_command(
    game: Annotated[str, typer.Argument(help="Game id.")],
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            "-p",
            help="A parameter to search: agent.c=0.3:2, seat1.iterations=50:400, "
            "agent.c=0.05:5:log, option.jokers=0,1,2 (repeat for more).",
        ),
    ] = None,
    objective: Annotated[
        str | None,
        typer.Option(help=f"What to optimise: {', '.join(OBJECTIVES)} or length=N (win-rate)."),
    ] = None,
    agent: Annotated[str | None, typer.Option(help="The agent tuned (heuristic).")] = None,
    opponents: Annotated[
        str | None,
        typer.Option(help="Agent in the other seats; then agent.X tunes --seat's agent only."),
    ] = None,
    seat: Annotated[
        int | None, typer.Option(help="The seat whose win rate or score counts.")
    ] = None,
    players: PlayersOption = None,
    option: OptionsOption = None,
    games: Annotated[int | None, typer.Option(min=1, help="Games per trial (200).")] = None,
    trials: Annotated[int | None, typer.Option(min=1, help="Trials (30).")] = None,
    confirm: Annotated[
        int | None,
        typer.Option(
            min=0, help="Then play the best on this many fresh deals (0; --resume: as before)."
        ),
    ] = None,
    rungs: Annotated[
        str | None,
        typer.Option(
            help="Game counts at which a poor trial is stopped early, e.g. 50,100 (none)."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Master seed (0).")] = None,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Save the study and its games as they finish, and the outputs."),
    ] = None,
    resume: ResumeOption = False,
) -> None:
    """Search agent parameters and game options for an objective (Optuna's TPE)."""
    options = parse_options(option or [])
    if resume:
        stored = _stored(out, "tune")
        if stored["game"] != game:
            raise RulesError(f"{out} holds a study of {stored['game']}, not {game}")
        param = param or stored["params"]
        objective = objective or stored["objective"]
        agent = agent or stored["agent"]
        opponents = opponents if opponents is not None else stored["opponents"]
        seat = seat if seat is not None else stored["seat"]
        players = players if players is not None else stored["players"]
        games = games if games is not None else stored["games_per_trial"]
        trials = trials if trials is not None else stored["trials"]
        seed = seed if seed is not None else stored["seed"]
        options = options or stored["options"]
        rungs = rungs if rungs is not None else ",".join(str(r) for r in stored["rungs"])
        if confirm is None:
            confirm = _confirmed_before(out)
    confirm = confirm or 0
    if not param:
        raise RulesError("tuning needs at least one --param, e.g. --param agent.c=0.3:2")
    searched = [parse_param(p) for p in param]
    goal = parse_objective(objective or "win-rate", seat or 0)
    check_agents([a for a in (agent, opponents) if a])
    _check_out(out, resume)
    _check_backend(backend, jobs, address)
    games, trials = games or 200, trials or 30
    try:
        steps = [int(r) for r in (rungs or "").split(",") if r.strip()]
    except ValueError:
        raise RulesError(f"--rungs {rungs!r}: write game counts, e.g. 50,100") from None
    done_before = 0
    title = spyglass.load(game).info.title

    def report(record: Any) -> None:
        shown = ", ".join(f"{k}={_short(v)}" for k, v in record.params.items())
        if "pruned_at" in record.figures:
            value = f"stopped after {record.figures['pruned_at']} games"
        elif record.value is None:
            value = "rejected"
        else:
            value = f"{record.value:.4g}"
        errors.print(f"trial {record.number}: {shown} → {value}")

    with progress_bar(f"{game} · tuning", trials * games + confirm, done_before) as advance:
        result = tune(
            game,
            searched,
            goal,
            games,
            trials,
            agent=agent or "heuristic",
            opponents=opponents,
            seat=goal.seat,
            players=players,
            options=options,
            seed=seed or 0,
            confirm=confirm,
            jobs=jobs,
            backend=backend,
            address=address,
            out=out,
            resume=resume,
            progress=advance,
            on_trial=report,
            rungs=steps,
        )
    summary = result.summary()
    count = _count(summary["trials"], trials, result.interrupted, "trials")
    table = Table(
        title=f"{title}: {goal.text()}, {count}, {games} games each, seed {result.seed}",
        title_justify="left",
    )
    table.add_column("")
    table.add_column("value", justify="right")
    best = summary["best"]
    if best is not None:
        for name, value in best["params"].items():
            table.add_row(f"best {name}", _short(value))
        table.add_row(f"its {goal.text()} on the tuning deals", f"{best['value']:.4g}")
    confirmed = summary["confirm"]
    if confirmed is not None:
        table.add_row(f"on {confirmed['games']} fresh deals", f"{confirmed['value']:.4g}")
        for s, r in enumerate(confirmed["seats"]):
            table.add_row(f"  seat {s} win rate", _interval(r).replace("95% CI ", ""))
    console.print(table)
    if result.interrupted and out is not None:
        errors.print(f"[yellow]Continue with: --out {out} --resume[/]")
    _finish(out, "tune.json, trials.csv, study.log, history plot", result.interrupted)


def _short(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def difficulty_command(
    game: Annotated[
        list[str] | None, typer.Argument(help="Solo game ids (default: every solo game).")
    ] = None,
    games: Annotated[
        int | None, typer.Option(min=1, help=f"Deals per game ({DEFAULT_GAMES}).")
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Play ISMCTS at this many iterations per move as the strongest agent (default:"
            " each game's strongest agent as the strength run measured it).",
        ),
    ] = None,
    rollout: Annotated[
        str | None,
        typer.Option(help="ISMCTS playouts: random (default), or heuristic (stronger, slower)."),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            min=0.01, help=f"Time cap of the clairvoyant search per deal ({DEFAULT_SECONDS:g})."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Master seed (0); game i uses a seed derived from it.")
    ] = None,
    jobs: JobsOption = 1,
    backend: BackendOption = "process",
    address: AddressOption = None,
    out: Annotated[
        Path, typer.Option(help="Folder for difficulty.md, .html, .json, .csv and the plot.")
    ] = Path("difficulty-report"),
    resume: ResumeOption = False,
) -> None:
    """Solo games: win rates of random, heuristic and the strongest agent beside the
    clairvoyant bound."""
    if resume:
        stored = _stored(out, "report difficulty")
        game = game or stored["only"]
        games = games if games is not None else stored["games"]
        iterations = iterations if iterations is not None else stored["iterations"]
        rollout = rollout or stored["rollout"]
        seconds = seconds if seconds is not None else stored["seconds"]
        seed = seed if seed is not None else stored["seed"]
    games = games or DEFAULT_GAMES
    iterations = iterations or DEFAULT_ITERATIONS
    rollout = rollout or DEFAULT_ROLLOUT
    seconds = seconds or DEFAULT_SECONDS
    seed = seed or 0
    selected = solo_games(game or [])
    agents.load_spec(strong_spec(iterations, rollout))  # a bad --rollout fails before any game
    _check_out(out, resume)
    _check_backend(backend, jobs, address)
    total = len(selected) * games * 4  # three agents and the bound
    already = len(RunStore(out).records()) if resume else 0
    with progress_bar(f"{len(selected)} solo games", total, already) as advance:
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
            out=out,
            resume=resume,
        )
    if report.interrupted:
        errors.print("[yellow]Interrupted: the report covers the games that finished.[/]")
        errors.print(f"[yellow]Continue with: --out {out} --resume[/]")
    write_difficulty(report, out)
    console.print(Markdown(markdown(report, plot=None)))
    _finish(out, "difficulty.md, difficulty.html, JSON, CSV, plot", report.interrupted)


def _finish(out: Path | None, files: str, interrupted: bool) -> None:
    """Say what was written where, and exit with 130 (as for Ctrl-C) after an interrupted run."""
    if out is not None:
        console.print(f"[dim]Written to {out}: {files}.[/]")
    if interrupted:
        raise typer.Exit(130)
