"""How hard is each solo game, and how much of it is skill and how much luck?

For every solo game, the same deals (game i of master seed S, as ``spyglass sim`` plays them)
are played by random, heuristic and the strongest agent: the one that won most in the strength
run (``agents.strongest``, recorded per game; or ISMCTS at a given iteration budget, when one is
asked for). Each deal's clairvoyant bound is computed by the game's solver
(``agents.solvers.bound``): the best result with every hidden card known (Syndicate has no
hidden cards: its exact solver gives the game's true value). A deal whose search does not
finish within the time cap is counted as unknown, never guessed; the bound is then a range.

- skill = strongest − random: what good play adds over no play at all;
- luck = bound − strongest: what the strongest agent still loses for not seeing the cards
  (part of it is the agent's own weakness, so it is an upper estimate of luck);
- unwinnable = 1 − bound: deals no one could win, whatever they knew.

These sit beside the rulebook's own 1–3 ratings of strategy, tactics and luck (the Isaludo
rulebook prints them; ``GameInfo.ratings`` holds them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import spyglass
from spyglass.agents import STRONGEST, strongest
from spyglass.agents.solvers import bound as clairvoyant_bound
from spyglass.engine import GameInfo

from . import plots
from .outcome import GameOutcome
from .outputs import write_csv, write_json
from .runner import check_backend, run_tasks
from .simulate import SimResult, game_seed, prepare
from .store import RunStore, prepare_directory
from .summary import rate

AGENTS = ("random", "heuristic", STRONGEST)
#: None: each game's measured strongest agent; a number: ISMCTS with that many iterations.
DEFAULT_ITERATIONS: int | None = None
#: ISMCTS playouts: random by default. With the game's own bot ("heuristic") the agent is
#: stronger but some games' bots make it far slower (Skyway: about 30 times).
DEFAULT_ROLLOUT = "random"
DEFAULT_SECONDS = 1.0
DEFAULT_GAMES = 20


def strong_spec(iterations: int | None, rollout: str = DEFAULT_ROLLOUT, game_id: str = "") -> str:
    """The strongest agent's spec: the game's measured strongest agent (``iterations`` None;
    without a game, the agent that plays each game with its own), else ISMCTS at that budget."""
    if iterations is None:
        return strongest(game_id) if game_id else STRONGEST
    return f"ismcts:iterations={iterations},rollout={rollout}"


@dataclass(frozen=True, slots=True)
class BoundTask:
    """The clairvoyant bound of deal ``index`` (its seed derived from ``seed`` as for a game)."""

    game: str
    seed: int
    index: int
    seconds: float

    def run(self) -> tuple[bool | None, float | None]:
        state = spyglass.load(self.game).new_state(seed=game_seed(self.seed, self.index))
        if self.game == "syndicate":  # exact: its score is proved whatever the cap
            bound = clairvoyant_bound(state, seconds=max(self.seconds, 600.0))
        else:
            bound = clairvoyant_bound(state, seconds=self.seconds)
        return bound.won, bound.score


@dataclass(slots=True)
class GameDifficulty:
    info: GameInfo
    agents: dict[str, SimResult]  # by role: random, heuristic, strongest
    bounds: list[tuple[bool | None, float | None] | None] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return sum(1 for b in self.bounds if b is not None)

    def bound(self) -> dict[str, Any]:
        """Deals won / lost / unknown with every card known, and the bound's range."""
        settled = [b for b in self.bounds if b is not None]
        won = sum(1 for b in settled if b[0] is True)
        lost = sum(1 for b in settled if b[0] is False)
        unknown = len(settled) - won - lost
        n = len(settled)
        return {
            "won": won,
            "lost": lost,
            "unknown": unknown,
            "deals": n,
            "low": won / n if n else None,  # every unknown deal lost
            "high": (won + unknown) / n if n else None,  # every unknown deal won
            "known": rate(won, won + lost),  # over the deals the search settled
        }

    def summary(self) -> dict[str, Any]:
        rates = {role: rate(r.wins, r.games) for role, r in self.agents.items()}
        strong = rates["strongest"]["rate"]
        weak = rates["random"]["rate"]
        bound = self.bound()
        ratings = self.info.ratings
        return {
            "game": self.info.id,
            "title": self.info.title,
            "agents": {role: r.agents[0] for role, r in self.agents.items()},
            "win_rate": rates,
            "bound": bound,
            "skill": None if strong is None or weak is None else strong - weak,
            "luck": (
                None
                if strong is None or bound["low"] is None
                else [bound["low"] - strong, bound["high"] - strong]
            ),
            "unwinnable": (
                None if bound["high"] is None else [1 - bound["high"], 1 - bound["low"]]
            ),
            "rulebook": (
                None
                if ratings is None
                else {
                    "strategy": ratings.strategy,
                    "tactics": ratings.tactics,
                    "luck": ratings.luck,
                }
            ),
        }


@dataclass(slots=True)
class DifficultyReport:
    games: int
    seed: int
    iterations: int | None
    seconds: float
    rows: list[GameDifficulty]
    rollout: str = DEFAULT_ROLLOUT
    interrupted: bool = False
    elapsed: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seed": self.seed,
            "iterations": self.iterations,
            "rollout": self.rollout,
            "seconds": self.seconds,
            "interrupted": self.interrupted,
            "elapsed": self.elapsed,
            "rows": [row.summary() for row in self.rows],
        }


def solo_games(selected: Sequence[str] = ()) -> list[GameInfo]:
    infos = [i for i in spyglass.games.list_games() if i.solo]
    if not selected:
        return infos
    by_id = {i.id: i for i in infos}
    unknown = [g for g in selected if g not in by_id]
    if unknown:
        raise spyglass.RulesError(
            f"not a solo game: {', '.join(unknown)}; the solo games: {', '.join(by_id)}"
        )
    return [by_id[g] for g in selected]


def difficulty(
    games: int = DEFAULT_GAMES,
    *,
    only: Sequence[str] = (),
    seed: int = 0,
    iterations: int | None = DEFAULT_ITERATIONS,
    rollout: str = DEFAULT_ROLLOUT,
    seconds: float = DEFAULT_SECONDS,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[Any], None] | None = None,
    out: Path | str | None = None,
    resume: bool = False,
) -> DifficultyReport:
    """Measure every solo game (or those in ``only``) on ``games`` deals: three agents and the
    clairvoyant bound of each deal, all as one run of the back-end. The strongest agent is each
    game's measured one unless ``iterations`` asks for ISMCTS at that budget. With ``out``,
    every game and bound is saved there as it finishes, and ``resume`` continues the report
    saved there (the files of the report itself are written by :func:`write_difficulty`)."""
    check_backend(backend, jobs)
    if resume and out is None:
        raise spyglass.RulesError("resuming a report needs its --out directory")
    started = time.perf_counter()
    rows = []
    for info in solo_games(only):
        specs = {
            "random": "random",
            "heuristic": "heuristic",
            "strongest": strong_spec(iterations, rollout, info.id),
        }
        tables = {role: prepare(info.id, spec, seed=seed) for role, spec in specs.items()}
        rows.append(GameDifficulty(info, tables, [None] * games))
    store = None
    done: dict = {}
    if out is not None:
        prepare_directory(out)
        store = RunStore(out)
        spec = {
            "command": "report difficulty",
            "only": [row.info.id for row in rows],
            "seed": seed,
            "iterations": iterations,
            "rollout": rollout,
            "seconds": seconds,
            "games": games,
        }
        done = store.open(spec, resume)
    tasks: list[Any] = []
    owners: list[tuple[GameDifficulty, str | None]] = []
    for index in range(games):
        for row in rows:
            for role, table in row.agents.items():
                saved = done.get((f"{row.info.id}/{role}", index))
                if saved is not None:
                    table.outcomes.append(GameOutcome.from_json(saved))
                    continue
                tasks.extend(table.tasks([index]))
                owners.append((row, role))
            saved = done.get((f"{row.info.id}/bound", index))
            if saved is not None:
                row.bounds[index] = (saved["bound"][0], saved["bound"][1])
                continue
            tasks.append(BoundTask(row.info.id, seed, index, seconds))
            owners.append((row, None))

    def finished(position: int, result: Any) -> None:
        row, role = owners[position]
        if store is not None:
            if role is None:
                record = {"index": tasks[position].index, "bound": list(result)}
                store.append(record, f"{row.info.id}/bound")
            else:
                store.add(result, f"{row.info.id}/{role}")
        if progress is not None:
            progress(result)

    try:
        run = run_tasks(tasks, jobs=jobs, backend=backend, address=address, on_result=finished)
    finally:
        if store is not None:
            store.close()
    for task, (row, owner), result in zip(tasks, owners, run.results, strict=True):
        if result is None:
            continue
        if owner is None:  # the clairvoyant bound
            row.bounds[task.index] = result
        else:
            row.agents[owner].outcomes.append(result)
    for row in rows:
        for table in row.agents.values():
            table.outcomes.sort(key=lambda o: o.index)
    report = DifficultyReport(games, seed, iterations, seconds, rows, rollout, run.interrupted)
    report.elapsed = time.perf_counter() - started
    return report


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _rate_text(r: dict[str, Any]) -> str:
    if r["rate"] is None:
        return "–"
    return f"{_percent(r['rate'])} ({_percent(r['low'])}–{_percent(r['high'])})"


def _range_text(pair: list[float] | None, signed: bool = False) -> str:
    if pair is None:
        return "–"
    low, high = sorted(pair)
    sign = "+" if signed else ""
    if abs(high - low) < 0.005:
        return f"{100 * low:{sign}.0f} pts" if signed else _percent(low)
    if signed:
        return f"{100 * low:{sign}.0f} to {100 * high:{sign}.0f} pts"
    return f"{_percent(low)}–{_percent(high)}"


def _dots(value: int | None) -> str:
    return "–" if value is None else "●" * value + "○" * (3 - value)


def markdown(report: DifficultyReport, plot: str | None = "difficulty.png") -> str:
    """The report as Markdown (``plot``: the relative path of the plot, or None)."""
    if report.iterations is None:
        who = "each game's strongest agent as the strength run measured it (named in the table)"
    else:
        who = f"ISMCTS at {report.iterations} iterations per move with {report.rollout} playouts"
    lines = [
        "# How hard is each solo game?",
        "",
        f"{report.games} deals per game (seed {report.seed}); the strongest agent is {who}; "
        f"the clairvoyant bound of each deal is searched by the game's solver for "
        f"at most {report.seconds:g} CPU-s (Syndicate: exact solver), and a deal it does not "
        f"settle is counted as unknown. Win rates carry their Wilson 95% intervals. "
        f"Took {report.elapsed:.0f} s.",
    ]
    if report.interrupted:
        lines += ["", "**Interrupted**: the figures cover the games that finished."]
    lines += [
        "",
        "- **skill** = strongest − random: what good play adds.",
        "- **luck** = bound − strongest: what the strongest agent loses for not seeing the "
        "cards (an upper estimate: part of it is the agent's own weakness).",
        "- **unwinnable**: deals lost even with every card known.",
        "- **rulebook**: the designer's own 1–3 ratings (strategy / tactics / luck) from the "
        "Isaludo rulebook; Tinker, Sailor, Soldier, Spy has none.",
        "",
        "| game | random | heuristic | strongest (agent) | bound (unknown) | skill | luck "
        "| unwinnable | rulebook S / T / L |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report.rows:
        s = row.summary()
        b = s["bound"]
        rates = s["win_rate"]
        bound = _range_text(None if b["low"] is None else [b["low"], b["high"]])
        book = s["rulebook"]
        rulebook = (
            "–"
            if book is None
            else f"{_dots(book['strategy'])} / {_dots(book['tactics'])} / {_dots(book['luck'])}"
        )
        skill = "–" if s["skill"] is None else f"{100 * s['skill']:+.0f} pts"
        lines.append(
            f"| {s['title']} | {_rate_text(rates['random'])} | {_rate_text(rates['heuristic'])} "
            f"| {_rate_text(rates['strongest'])} (`{s['agents']['strongest']}`) "
            f"| {bound} ({b['unknown']}) | {skill} "
            f"| {_range_text(s['luck'], signed=True)} | {_range_text(s['unwinnable'])} "
            f"| {rulebook} |"
        )
    if plot:
        lines += ["", f"![win rates beside the clairvoyant bound]({plot})"]
    return "\n".join(lines) + "\n"


def html(markdown_text: str, title: str = "spyglass: difficulty of the solo games") -> str:
    from markdown_it import MarkdownIt  # noqa: PLC0415 - only the HTML report needs it

    body = MarkdownIt("commonmark").enable("table").render(markdown_text)
    style = (
        "body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem}"
        "img{max-width:100%}"
    )
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{style}</style></head>\n<body>\n{body}</body></html>\n"
    )


def write_difficulty(report: DifficultyReport, directory: Path) -> list[Path]:
    """difficulty.md, difficulty.html, difficulty.json, difficulty.csv and the plot."""
    summary = report.summary()
    written = [write_json(directory / "difficulty.json", summary)]
    header = ["game", "random", "heuristic", "strongest", "bound_low", "bound_high"]
    header += ["unknown", "skill", "luck_low", "luck_high", "strategy", "tactics", "luck_rating"]
    rows = []
    for s in summary["rows"]:
        book = s["rulebook"] or {}
        luck = s["luck"] or [None, None]
        rows.append(
            [
                s["game"],
                s["win_rate"]["random"]["rate"],
                s["win_rate"]["heuristic"]["rate"],
                s["win_rate"]["strongest"]["rate"],
                s["bound"]["low"],
                s["bound"]["high"],
                s["bound"]["unknown"],
                s["skill"],
                *sorted(luck, key=lambda v: -1 if v is None else v),
                book.get("strategy"),
                book.get("tactics"),
                book.get("luck"),
            ]
        )
    written.append(write_csv(directory / "difficulty.csv", header, rows))
    series = {
        role: [s["win_rate"][role] for s in summary["rows"]]
        for role in ("random", "heuristic", "strongest")
    }
    series["clairvoyant bound"] = [s["bound"]["known"] for s in summary["rows"]]
    written += plots.grouped_rate_bars(
        [s["game"] for s in summary["rows"]],
        series,
        directory / "difficulty",
        f"Solo games: win rates on {report.games} deals each",
    )
    text = markdown(report)
    written.append(directory / "difficulty.md")
    written[-1].write_text(text)
    written.append(directory / "difficulty.html")
    written[-1].write_text(html(text))
    return written
