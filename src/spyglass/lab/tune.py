"""Tuning: search agent parameters and game options (or any data) for an objective, with Optuna.

A *parameter* is an agent's (``agent.c=0.3:2``, ``seat1.iterations=50:400``), a game option's
(``option.jokers=0,1,2``), or one a caller defines with a :class:`Setup` (the Spies! balance
study tunes the edition's data this way: ``benchmarks/spies_balance.py``). An *objective* is
one of :data:`OBJECTIVES`: a seat's win rate or score, the balance between seats (the
root-mean-square distance of the seats' win shares from the fair share: every seat counts, so
it is steadier on few games than the largest distance, which is reported beside it), or the
game length (as short as can be, or ``length=N``: as near N actions as can be).

Each trial plays the same ``games`` deals (master seed ``seed``: common random numbers, so two
trials differ by their parameters, not by their luck), as one run of the chosen back-end, and
Optuna's TPE sampler proposes the next. The search is reproducible: each trial's proposal is
drawn by a sampler seeded from the master seed and the number of trials finished before it,
so an interrupted study, resumed, proposes what the uninterrupted one would have. With
``out``, the study (Optuna's journal file), every game (games.jsonl, tagged with its trial's
parameters) and the outputs live in that folder, and ``resume`` continues: finished trials are
kept, and a trial cut short is played again, reusing its finished games.

Tuned on the same deals, the best trial's figure is optimistic (it was chosen for doing well on
them). ``confirm`` plays the best parameters again on that many fresh deals (another master
seed) and reports their figures with intervals: the ones to quote.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import spyglass
from spyglass import agents
from spyglass.engine import RulesError, derive_seed

from . import plots
from .outcome import GameOutcome
from .outputs import write_csv, write_json, write_sim
from .play import GameTask
from .runner import Task, check_backend
from .simulate import SimResult, play_tables, prepare
from .stats import rate
from .store import RunStore, prepare_directory

OBJECTIVES = ("win-rate", "score", "balance", "length")
#: The value told to Optuna for a rejected proposal: far worse than any real one.
REJECTED = 1e9
#: A study gives up after this many proposals per trial wanted, if most are rejected.
MAX_REJECTED = 20


def played(result: TuneResult) -> int:
    """Trials that played games (a rejected proposal costs nothing and does not count)."""
    return sum(1 for t in result.trials if "rejected" not in t.figures)


STUDY_FILE = "study.log"
_SEAT = re.compile(r"^seat(\d+)$")


@dataclass(frozen=True, slots=True)
class Param:
    """One searched parameter: ``name`` is ``agent.X``, ``seatN.X``, ``option.X`` or a
    :class:`Setup`'s own name; a whole or real range (``log``: searched on a log scale) or
    a list of choices."""

    name: str
    kind: str  # "int", "float" or "choice"
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple[Any, ...] = ()

    @property
    def span(self) -> tuple[float, float]:
        """The range of a whole or real parameter (a list of choices has none)."""
        if self.low is None or self.high is None:
            raise RulesError(f"{self.name} is a list of choices, not a range")
        return self.low, self.high

    def suggest(self, trial: Any) -> Any:
        if self.kind == "int":
            low, high = self.span
            return trial.suggest_int(self.name, int(low), int(high), log=self.log)
        if self.kind == "float":
            low, high = self.span
            return trial.suggest_float(self.name, low, high, log=self.log)
        return trial.suggest_categorical(self.name, list(self.choices))

    def text(self) -> str:
        if self.kind == "choice":
            return f"{self.name}={','.join(str(c) for c in self.choices)}"
        suffix = ":log" if self.log else ""
        return f"{self.name}={self.low:g}:{self.high:g}{suffix}"


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_param(text: str) -> Param:
    """``agent.c=0.3:2`` (a real range), ``agent.iterations=50:400`` (whole numbers: both ends
    whole), ``agent.c=0.05:5:log``, ``option.jokers=0,1,2`` (choices)."""
    name, sep, spec = text.partition("=")
    name = name.strip()
    hint = "write NAME=LOW:HIGH[:log] or NAME=V1,V2,..., e.g. agent.c=0.3:2 or option.jokers=0,1,2"
    if not sep or not name or not spec.strip():
        raise RulesError(f"--param {text!r}: {hint}")
    if ":" in spec:
        parts = [p.strip() for p in spec.split(":")]
        log = parts[-1].lower() == "log"
        if log:
            parts = parts[:-1]
        if len(parts) != 2:
            raise RulesError(f"--param {text!r}: {hint}")
        low, high = (_value(p) for p in parts)
        if not all(isinstance(v, int | float) for v in (low, high)) or low >= high:
            raise RulesError(f"--param {text!r}: a range is two numbers, the lower first")
        if log and low <= 0:
            raise RulesError(f"--param {text!r}: a log scale needs a positive lower end")
        kind = "int" if isinstance(low, int) and isinstance(high, int) else "float"
        return Param(name, kind, float(low), float(high), log)
    choices = tuple(_value(c.strip()) for c in spec.split(",") if c.strip())
    if len(choices) < 2:
        raise RulesError(f"--param {text!r}: give two values or more to choose from")
    return Param(name, "choice", choices=choices)


class Setup(Protocol):
    """Parameters of a caller's own (game data, say): its :class:`Param` list, a check of a
    proposal (a reason to reject it, or None) and, for each game, a picklable task that
    applies the values in the worker and plays the game."""

    params: tuple[Param, ...]

    def reject(self, values: Mapping[str, Any]) -> str | None: ...

    def task(self, values: Mapping[str, Any], game: GameTask) -> Task: ...


@dataclass(frozen=True, slots=True)
class Objective:
    kind: str
    seat: int = 0
    target: float | None = None  # length: the mean length to aim at (None: as short as can be)

    @property
    def direction(self) -> str:
        return "maximize" if self.kind in ("win-rate", "score") else "minimize"

    def text(self) -> str:
        if self.kind == "length" and self.target is not None:
            return f"length={self.target:g}"
        return self.kind


def parse_objective(text: str, seat: int = 0) -> Objective:
    name, _, target = text.partition("=")
    name = name.strip().lower()
    if name not in OBJECTIVES:
        raise RulesError(f"unknown objective {text!r}; choose one of {', '.join(OBJECTIVES)}")
    if target and name != "length":
        raise RulesError(f"objective {name} takes no value (only length=N does)")
    try:
        aim = float(target) if target else None
    except ValueError:
        raise RulesError(f"objective {text!r}: length=N takes a number of actions") from None
    return Objective(name, seat, aim)


def measure(objective: Objective, table: SimResult, score_lower: bool) -> dict[str, Any]:
    """The objective's value on a table, and the figures a trial records beside it."""
    n = table.games
    shares = [table.seat_wins(s) / n if n else 0.0 for s in range(table.players)]
    fair = 1 / table.players
    lengths = [o.length for o in table.outcomes]
    mean_length = sum(lengths) / n if n else math.nan
    seat = objective.seat
    scores = table.scores() if table.players == 1 else [o.scores[seat] for o in table.outcomes]
    mean_score = sum(scores) / len(scores) if scores else math.nan
    multiplayer = table.players > 1
    worst = max(abs(s - fair) for s in shares) if multiplayer else None
    spread = math.sqrt(sum((s - fair) ** 2 for s in shares) / len(shares)) if multiplayer else None
    if objective.kind == "win-rate":
        value = sum(1 for o in table.outcomes if seat in o.winners) / n if n else math.nan
    elif objective.kind == "score":
        value = -mean_score if score_lower else mean_score
    elif objective.kind == "balance":
        if spread is None:  # a solo game
            raise RulesError("balance between seats needs a multiplayer game")
        value = spread
    else:
        value = mean_length if objective.target is None else abs(mean_length - objective.target)
    return {
        "value": value,
        "games": n,
        "win_shares": shares,
        "largest_gap": worst,
        "rms_gap": spread,
        "mean_length": mean_length,
        "mean_score": mean_score,
    }


@dataclass(slots=True)
class TrialRecord:
    number: int
    params: dict[str, Any]
    value: float | None
    figures: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "params": self.params, "value": self.value, **self.figures}


@dataclass(slots=True)
class TuneResult:
    game: str
    players: int
    objective: Objective
    params: tuple[Param, ...]
    games: int
    seed: int
    trials: list[TrialRecord] = field(default_factory=list)
    confirm: SimResult | None = None
    confirm_figures: dict[str, Any] | None = None
    interrupted: bool = False
    planned: int = 0

    @property
    def best(self) -> TrialRecord | None:
        done = [
            (t.value, t) for t in self.trials if t.value is not None and not math.isnan(t.value)
        ]
        if not done:
            return None
        pick = max if self.objective.direction == "maximize" else min
        return pick(done, key=lambda pair: pair[0])[1]

    def summary(self) -> dict[str, Any]:
        best = self.best
        confirm = None
        if self.confirm is not None and self.confirm_figures is not None:
            table = self.confirm
            confirm = {
                "games": table.games,
                "planned": table.planned,  # what --resume plays to, if cut short
                "seed": table.seed,
                **self.confirm_figures,
                "seats": [
                    rate(sum(1 for o in table.outcomes if s in o.winners), table.games)
                    for s in range(table.players)
                ],
            }
        return {
            "game": self.game,
            "players": self.players,
            "objective": self.objective.text(),
            "direction": self.objective.direction,
            "seat": self.objective.seat,
            "params": [p.text() for p in self.params],
            "games_per_trial": self.games,
            "seed": self.seed,
            "trials": played(self),
            "rejected": len(self.trials) - played(self),
            "pruned": sum(1 for t in self.trials if "pruned_at" in t.figures),
            "planned": self.planned,
            "interrupted": self.interrupted,
            "best": None if best is None else best.to_json(),
            "confirm": confirm,
            "history": [t.to_json() for t in self.trials],
        }


def _label(values: Mapping[str, Any]) -> str:
    """A trial's games are tagged with its parameters, so a resumed trial finds them."""
    return "trial " + json.dumps(dict(sorted(values.items())), sort_keys=True)


def _apply_agent(spec: str, extra: Mapping[str, Any]) -> str:
    if not extra:
        return spec
    name, params = agents.parse_spec(spec)
    params.update(extra)
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


@dataclass(slots=True)
class _Plan:
    """Turns a trial's values into the table it plays."""

    game: str
    agent: str
    opponents: str | None
    players: int
    options: dict[str, Any]
    seat: int
    setup: Setup | None

    def table(self, values: Mapping[str, Any], seed: int) -> SimResult:
        options = dict(self.options)
        per_seat: dict[int, dict[str, Any]] = {}
        tuned = [self.seat] if self.opponents is not None else list(range(self.players))
        for name, value in values.items():
            head, _, rest = name.partition(".")
            if head == "option":
                options[rest] = value
            elif head == "agent":
                for s in tuned:
                    per_seat.setdefault(s, {})[rest] = value
            elif (match := _SEAT.match(head)) is not None:
                per_seat.setdefault(int(match.group(1)), {})[rest] = value
        specs = [
            _apply_agent(
                self.agent if (self.opponents is None or s == self.seat) else self.opponents,
                per_seat.get(s, {}),
            )
            for s in range(self.players)
        ]
        return prepare(self.game, specs, seed=seed, players=self.players, options=options)


def _check_params(params: Sequence[Param], players: int, setup: Setup | None) -> None:
    own = {p.name for p in setup.params} if setup is not None else set()
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise RulesError("a parameter is searched twice")
    for p in params:
        head, dot, rest = p.name.partition(".")
        if p.name in own:
            continue
        if not dot or not rest:
            raise RulesError(f"--param {p.name}: name it agent.X, seatN.X or option.X")
        if head in ("agent", "option"):
            continue
        match = _SEAT.match(head)
        if match is None:
            raise RulesError(f"--param {p.name}: name it agent.X, seatN.X or option.X")
        if int(match.group(1)) >= players:
            raise RulesError(f"--param {p.name}: there is no seat {match.group(1)}")


def tune(
    game_id: str,
    params: Sequence[Param | str],
    objective: Objective | str,
    games: int,
    trials: int,
    *,
    agent: str = "heuristic",
    opponents: str | None = None,
    seat: int = 0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    confirm: int = 0,
    setup: Setup | None = None,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    out: Path | str | None = None,
    resume: bool = False,
    progress: Callable[[GameOutcome], None] | None = None,
    on_trial: Callable[[TrialRecord], None] | None = None,
    startup: int = 10,
    rungs: Sequence[int] = (),
    start: Sequence[Mapping[str, Any]] = (),
) -> TuneResult:
    """Search ``params`` for ``objective`` over ``trials`` trials of ``games`` games each (see
    the module's docstring); then, with ``confirm``, play the best on that many fresh deals.

    ``start``: values to try first, in order (the settings in use today, say, so the study
    measures them on the same deals). ``startup``: trials (``start`` included; the others drawn
    at random) before TPE takes over. ``rungs``: game counts at
    which a trial is held against the earlier ones, and stopped (pruned) if its value there is
    worse than their median (Optuna's median pruner, after ``startup`` trials): a poor proposal
    then costs its first rung, not ``games`` games. The deals are the same for every trial, so
    the first rung compares trials on the same deals."""
    import warnings  # noqa: PLC0415

    import optuna  # noqa: PLC0415 - only tuning needs it

    if games < 1 or trials < 1:
        raise RulesError("--games and --trials must be at least 1")
    steps = sorted(set(rungs))
    if any(r < 1 for r in steps):
        raise RulesError("a rung is a number of games, at least 1")
    if resume and out is None:
        raise RulesError("resuming a study needs its --out directory")
    check_backend(backend, jobs)
    searched = tuple(parse_param(p) if isinstance(p, str) else p for p in params)
    if setup is not None:
        searched = searched + tuple(p for p in setup.params if p not in searched)
    if not searched:
        raise RulesError("tuning needs at least one --param to search")
    goal = parse_objective(objective, seat) if isinstance(objective, str) else objective
    game = spyglass.load(game_id, **dict(options or {}))
    n = game.check_players(players)
    if not 0 <= goal.seat < n:
        raise RulesError(f"--seat {goal.seat}: this table has seats 0 to {n - 1}")
    if goal.kind == "balance" and n < 2:
        raise RulesError("balance between seats needs a multiplayer game")
    _check_params(searched, n, setup)
    plan = _Plan(game_id, agent, opponents, n, dict(options or {}), goal.seat, setup)
    for p in searched:  # every end of every range makes a valid table: fail now, not later
        for value in p.choices if p.kind == "choice" else (p.low, p.high):
            trial_value = int(value) if p.kind == "int" else value
            if setup is None or p.name not in {q.name for q in setup.params}:
                plan.table({p.name: trial_value}, seed)
    lower = game.info.score_order == "lower"
    result = TuneResult(game_id, n, goal, searched, games, seed, planned=trials)
    store = None
    done: dict = {}
    storage: Any = None
    if out is not None:
        prepare_directory(out)
        store = RunStore(out)
        spec = {
            "command": "tune",
            "game": game_id,
            "players": n,
            "agent": agent,
            "opponents": opponents,
            "objective": goal.text(),
            "seat": goal.seat,
            "params": [p.text() for p in searched],
            "options": dict(game.options),
            "seed": seed,
            "games_per_trial": games,
            "rungs": steps,
            "startup": startup,
            "start": [dict(sorted(v.items())) for v in start],
            "trials": trials,
        }
        done = store.open(spec, resume, grows="trials")
        journal = Path(out) / STUDY_FILE
        if not resume and journal.exists():
            journal.unlink()
        from optuna.storages import JournalStorage  # noqa: PLC0415
        from optuna.storages.journal import JournalFileBackend  # noqa: PLC0415

        storage = JournalStorage(JournalFileBackend(str(journal)))
    if storage is None:
        storage = optuna.storages.InMemoryStorage()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    name = f"spyglass-{game_id}"
    pruner = optuna.pruners.MedianPruner(n_startup_trials=startup)
    study = optuna.create_study(
        study_name=name,
        storage=storage,
        direction=goal.direction,
        load_if_exists=True,
        pruner=pruner,
    )
    finished = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    for frozen in study.get_trials(deepcopy=False):
        if frozen.state in finished:
            attrs = dict(frozen.user_attrs)
            value = None if "rejected" in attrs or "pruned_at" in attrs else frozen.value
            result.trials.append(TrialRecord(len(result.trials), dict(frozen.params), value, attrs))
    # A trial cut short (killed, or Ctrl-C) is played again first, with the same values.
    unfinished = [
        t
        for t in study.get_trials(deepcopy=False)
        if t.state in (optuna.trial.TrialState.RUNNING, optuna.trial.TrialState.FAIL)
        and t.params
        and not any(r.params == t.params for r in result.trials)
    ]
    for frozen in unfinished:
        if frozen.state == optuna.trial.TrialState.RUNNING:
            study.tell(frozen.number, state=optuna.trial.TrialState.FAIL)
    retry = dict(unfinished[-1].params) if unfinished else None

    try:
        while played(result) < trials:
            if len(result.trials) >= trials * MAX_REJECTED:
                raise RulesError(
                    f"{len(result.trials)} proposals, and only {played(result)} could be played:"
                    " the search space is mostly impossible (see the trials' rejections)"
                )
            count = len(result.trials)
            with warnings.catch_warnings():  # "multivariate" is marked experimental
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                sampler = optuna.samplers.TPESampler(
                    seed=derive_seed(seed, f"trial/{count}") % 2**32,
                    n_startup_trials=startup,
                    multivariate=True,
                )
            study = optuna.load_study(
                study_name=name, storage=storage, sampler=sampler, pruner=pruner
            )
            if retry is not None:
                study.enqueue_trial(retry)
                retry = None
            elif count < len(start):
                study.enqueue_trial(dict(start[count]))
            trial = study.ask({p.name: _distribution(p) for p in searched})
            values = dict(trial.params)
            reason = setup.reject(values) if setup is not None else None
            if reason is not None:
                # an impossible proposal (the edition's loader would refuse it): the worst
                # value, so the sampler learns to avoid it; no game is played
                worst = -REJECTED if goal.direction == "maximize" else REJECTED
                trial.set_user_attr("rejected", reason)
                study.tell(trial, worst)
                record = TrialRecord(count, values, None, {"rejected": reason})
                result.trials.append(record)
                if on_trial is not None:
                    on_trial(record)
                continue
            table = plan.table(values, seed)
            wrap = None if setup is None else _wrapper(setup, values)
            label = _label(values)
            pruned = False
            for step in [*[r for r in steps if r < games], games]:
                interrupted = play_tables(
                    [table],
                    step,
                    jobs=jobs,
                    backend=backend,
                    address=address,
                    progress=progress,
                    store=store,
                    labels=[label],
                    done=done,
                    wrap=wrap,
                )
                # the games of this trial so far, so that a later rung, a repeated proposal
                # or a retried trial plays none of them again
                done.update({(label, o.index): o.to_json() for o in table.outcomes})
                if interrupted:
                    break
                figures = measure(goal, table, lower)
                if step < games:
                    trial.report(figures["value"], step)
                    if trial.should_prune():
                        pruned = True
                        break
            if interrupted:
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
                result.interrupted = True
                break
            for key, value in figures.items():
                if key != "value":
                    trial.set_user_attr(key, value)
            if pruned:
                trial.set_user_attr("pruned_at", table.games)
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
                figures["pruned_at"] = table.games
                record = TrialRecord(count, values, None, figures)
            else:
                study.tell(trial, figures["value"])
                record = TrialRecord(count, values, figures["value"], figures)
            result.trials.append(record)
            if on_trial is not None:
                on_trial(record)
        best = result.best
        if confirm and best is not None and not result.interrupted:
            table = plan.table(best.params, derive_seed(seed, "confirm"))
            wrap = None if setup is None else _wrapper(setup, best.params)
            result.interrupted = play_tables(
                [table],
                confirm,
                jobs=jobs,
                backend=backend,
                address=address,
                progress=progress,
                store=store,
                labels=["confirm " + _label(best.params)],
                done=done,
                wrap=wrap,
            )
            result.confirm = table
            result.confirm_figures = measure(goal, table, lower)
    finally:
        if store is not None:
            store.close()
    if out is not None:
        write_tune(result, Path(out))
    return result


def _distribution(p: Param) -> Any:
    from optuna.distributions import (  # noqa: PLC0415
        CategoricalDistribution,
        FloatDistribution,
        IntDistribution,
    )

    if p.kind == "int":
        low, high = p.span
        return IntDistribution(int(low), int(high), log=p.log)
    if p.kind == "float":
        low, high = p.span
        return FloatDistribution(float(low), float(high), log=p.log)
    return CategoricalDistribution(list(p.choices))


@dataclass(frozen=True, slots=True)
class _Wrap:
    setup: Any
    values: tuple[tuple[str, Any], ...]

    def __call__(self, task: GameTask) -> Task:
        return self.setup.task(dict(self.values), task)


def _wrapper(setup: Setup, values: Mapping[str, Any]) -> Callable[[GameTask], Task]:
    own = {p.name for p in setup.params}
    return _Wrap(setup, tuple(sorted((k, v) for k, v in values.items() if k in own)))


def write_tune(result: TuneResult, directory: Path) -> list[Path]:
    """tune.json, trials.csv, the history plot, and the confirmation run's own outputs."""
    summary = result.summary()
    written = [write_json(directory / "tune.json", summary)]
    names = [p.name for p in result.params]
    header = ["trial", *names, "value", "largest_gap", "mean_length", "mean_score"]
    header += [f"win_share_{s}" for s in range(result.players)]
    rows = []
    for t in result.trials:
        shares = t.figures.get("win_shares") or [None] * result.players
        rows.append(
            [
                t.number,
                *(t.params.get(n) for n in names),
                t.value,
                t.figures.get("largest_gap"),
                t.figures.get("mean_length"),
                t.figures.get("mean_score"),
                *shares,
            ]
        )
    written.append(write_csv(directory / "trials.csv", header, rows))
    values = [t.value for t in result.trials]
    best: list[float | None] = []
    pick = max if result.objective.direction == "maximize" else min
    so_far: float | None = None
    for value in values:
        if value is not None and not math.isnan(value):
            so_far = value if so_far is None else pick(so_far, value)
        best.append(so_far)
    ylabel = {
        "win-rate": f"win rate of seat {result.objective.seat}",
        "score": "mean score",
        "balance": "RMS gap of the win shares from the fair share",
        "length": "mean length" if result.objective.target is None else "distance from target",
    }[result.objective.kind]
    written += plots.history_plot(
        values,
        best,
        directory / "history",
        f"{result.game}: {result.objective.text()}, {result.games} games a trial",
        ylabel=ylabel,
    )
    if result.confirm is not None:
        written += write_sim(result.confirm, directory / "confirm")
    return written
