"""Balance the Spies! reconstructed edition with the lab's tuner (docs/spies-balance.md).

    python benchmarks/spies_balance.py screen  --out runs/spies-screen [--trials 20]
                                               [--games 60] [--jobs 2] [--resume]
    python benchmarks/spies_balance.py confirm --out runs/spies-confirm --from runs/spies-screen
                                               [--trial N] [--games 500] [--jobs 2] [--resume]
    python benchmarks/spies_balance.py show    --from runs/spies-screen [--trial N]

The rulebook leaves to the missing mapsheet and counters each power's allotments (money,
Secrets drawn, Action Chits drawn, police units) and the counters' strengths, and to the
missing tiles their awards; the edition had to fill them in (spies-edition.md). Only such
values are searched here, never a rule: the Secrets each power draws (four searched, Britain's
the rest of the 32 the rulebook fixes), the strength of each power's spies and police (their
totals, reached from the edition's own strengths a point at a time: see ``adjust``), the number
of its spies, its starting money and the Action Chits it draws (``LEVERS``), kept in the order
the edition asks for: Germany's and Britain's services the strongest, Italy's the weakest
(strictly, on the spies and on all the pieces: see ``ruling``). The tiles stay as the edition
set them. Every proposal is checked by the edition's
own loader (the checks a replacement data file must pass); one it refuses is rejected without
a game.

``screen`` runs the tuner (``spyglass.lab.tune``): each trial plays the same ``--games`` deals
at five players, five heuristic bots, and the objective is the balance between the powers (the
root-mean-square distance of their win shares from 20%). It starts from the edition's values
(measured on the same deals) and one guess by hand, then three random proposals, then TPE; a
trial whose balance after ``--rungs`` games is worse than the median stops there.

``confirm`` plays one trial's values (the best by default) on ``--games`` fresh deals and
writes the lab's usual outputs there; ``show`` prints a trial's values as the lines of
``pieces.toml``. Long runs: use ``nice`` and ``--out``; every command resumes with
``--resume``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as default
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from spyglass.engine import RulesError, derive_seed
from spyglass.lab.outputs import write_sim
from spyglass.lab.play import GameTask
from spyglass.lab.simulate import play_tables, prepare
from spyglass.lab.store import RunStore, prepare_directory
from spyglass.lab.tune import Objective, Param, tune

POWERS = ("Germany", "Italy", "Russia", "France", "Britain")
SECRETS_DRAWN = 32  # rule 2.4: 40 Secrets, 8 of them on the SECRET cities
GAME = "spies"
PLAYERS = 5
SEED = 2029


def _read(name: str) -> str:
    return resources.files("spyglass.games.spies").joinpath(name).read_text("utf-8")


#: The range of Secrets a power may draw (the rulebook's 32 split five ways; Britain's share is
#: what the other four leave, and must fall in the same range).
SECRETS_RANGE = (4, 9)
#: The total strength of each power's ordinary spies (each counter 1 to 3; the number of spies,
#: the Cousin and the police stay as the edition has them).
SPY_RANGES = {"Germany": (6, 9), "Italy": (4, 7), "Russia": (5, 9), "France": (5, 9),
              "Britain": (6, 9)}  # fmt: skip


#: The total strength of each power's police units (each 1 to 3; the number of units, which
#: the map's police stations must hold, stays as the edition has it).
POLICE_RANGES = {"Germany": (7, 13), "Italy": (4, 9), "Russia": (7, 13), "France": (5, 10),
                 "Britain": (4, 10)}  # fmt: skip
#: Starting money (£ thousands) and the Action Chits drawn at set-up, per power.
MONEY_RANGE = (15, 40)
CHITS_RANGE = (1, 5)
#: How many spies a power may start abroad, which is also how many ordinary spies it has (the
#: mapsheet's number; one spy more, the Cousin, starts at home): 3 to 5.
ABROAD_RANGE = (3, 5)
#: The lever families a study may search (``--levers``): study 2 searched Secrets and spies,
#: study 3 spies and police, study 4 (after the Russian tiles' fix) spies, police, chits and
#: the number of spies (docs/spies-balance.md).
LEVERS = ("secrets", "abroad", "spies", "police", "money", "chits")
DEFAULT_LEVERS = ("spies", "police")


def space(levers: tuple[str, ...] = DEFAULT_LEVERS) -> tuple[Param, ...]:
    unknown = set(levers) - set(LEVERS)
    if unknown:
        raise RulesError(f"no such lever: {', '.join(sorted(unknown))} (levers: {LEVERS})")
    params: list[Param] = []
    if "secrets" in levers:
        low, high = SECRETS_RANGE
        params += [Param(f"secrets.{p}", "int", low, high) for p in POWERS[:-1]]
    if "spies" in levers:
        params += [Param(f"spies.{p}", "int", *SPY_RANGES[p]) for p in POWERS]
    if "abroad" in levers:
        params += [Param(f"abroad.{p}", "int", *ABROAD_RANGE) for p in POWERS]
    if "police" in levers:
        params += [Param(f"police.{p}", "int", *POLICE_RANGES[p]) for p in POWERS]
    if "money" in levers:
        params += [Param(f"money.{p}", "int", *MONEY_RANGE) for p in POWERS]
    if "chits" in levers:
        params += [Param(f"chits.{p}", "int", *CHITS_RANGE) for p in POWERS]
    return tuple(params)


def adjust(strengths: list[int], total: int) -> list[int]:
    """The edition's strengths of one power's spies (or police units) brought to ``total``,
    one point at a time: a point added goes to the weakest piece (below 3), a point taken
    comes from the strongest (above 1), so
    the edition's own spread is kept as far as it can be: 3 3 2 1 at 8 is 3 2 2 1, at 10 is
    3 3 2 2; Italy's 2 2 1 at 6 is 2 2 2."""
    values = sorted(strengths, reverse=True)
    if not len(values) <= total <= 3 * len(values):
        raise RulesError(f"{len(values)} pieces cannot have a total strength of {total}")
    while sum(values) < total:
        values[min(range(len(values)), key=lambda i: (values[i], -i))] += 1
        values.sort(reverse=True)
    while sum(values) > total:
        values[max(range(len(values)), key=lambda i: (values[i], -i))] -= 1
        values.sort(reverse=True)
    return values


def current_values(levers: tuple[str, ...] = DEFAULT_LEVERS) -> dict[str, int]:
    """The values the edition ships today, in the search's terms."""
    from spyglass.games.spies.edition import EDITION  # noqa: PLC0415

    values: dict[str, int] = {}
    if "secrets" in levers:
        values.update({f"secrets.{p.name}": p.secrets for p in EDITION.powers[:-1]})
    if "spies" in levers:
        values.update({f"spies.{p.name}": sum(p.spies) for p in EDITION.powers})
    if "abroad" in levers:
        values.update({f"abroad.{p.name}": p.foreign_spies for p in EDITION.powers})
    if "police" in levers:
        values.update({f"police.{p.name}": sum(p.police) for p in EDITION.powers})
    if "money" in levers:
        values.update({f"money.{p.name}": p.money for p in EDITION.powers})
    if "chits" in levers:
        values.update({f"chits.{p.name}": p.chits for p in EDITION.powers})
    return values


#: First guesses by hand, tried second, per study (the levers it searches). Study 2: the spies
#: of the two powers that win most today (Germany and Britain) a little weaker, the others' a
#: little stronger, keeping the order the edition asks for (Germany's and Britain's services
#: the strongest, Italy's the weakest), and a Secret moved from Germany and one from Britain to
#: Italy and France. Study 3: study 2's best spies (trial 35, every service but Italy's at 7)
#: and Britain's and Germany's police a little weaker, the others' a little stronger.
GUESSES: dict[tuple[str, ...], dict[str, int]] = {
    ("secrets", "spies"): {
        "secrets.Germany": 6,
        "secrets.Italy": 7,
        "secrets.Russia": 7,
        "secrets.France": 7,
        "spies.Germany": 8,
        "spies.Italy": 6,
        "spies.Russia": 7,
        "spies.France": 7,
        "spies.Britain": 8,
    },
    ("spies", "police"): {
        "spies.Germany": 7,
        "spies.Italy": 6,
        "spies.Russia": 7,
        "spies.France": 7,
        "spies.Britain": 7,
        "police.Germany": 10,
        "police.Italy": 7,
        "police.Russia": 10,
        "police.France": 8,
        "police.Britain": 6,
    },
}


def levers_of(values: Mapping[str, Any]) -> tuple[str, ...]:
    """The lever families a trial's values set, in ``LEVERS`` order."""
    named = {name.partition(".")[0] for name in values}
    return tuple(lever for lever in LEVERS if lever in named)


def allotments(values: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Per power, the fields a trial sets (Britain's Secrets are the rest of the 32)."""
    chosen: dict[str, dict[str, int]] = {p: {} for p in POWERS}
    for name, value in values.items():
        field, _, power = name.partition(".")
        chosen[power][field] = int(value)
    if all(f"secrets.{p}" in values for p in POWERS[:-1]):
        drawn = sum(int(values[f"secrets.{p}"]) for p in POWERS[:-1])
        chosen["Britain"]["secrets"] = SECRETS_DRAWN - drawn
    return chosen


def with_spy_count(line: str, count: int) -> str:
    """A power's ``pieces.toml`` line with ``count`` ordinary spies, all of which may start
    abroad (``foreign_spies``): a spy added has strength 1, a spy taken is the weakest, so the
    other counters keep the edition's strengths (a ``spies`` total, if the trial sets one,
    is then spread over them by :func:`adjust`)."""
    shipped = [int(v) for v in re.search(r"spies = \[([^\]]*)\]", line).group(1).split(",")]
    strengths = sorted(shipped, reverse=True)[:count] + [1] * max(0, count - len(shipped))
    written = ", ".join(str(v) for v in strengths)
    line, found = re.subn(r"\bspies = \[[^\]]*\]", f"spies = [{written}]", line)
    line, also = re.subn(r"\bforeign_spies = \d+", f"foreign_spies = {count}", line)
    if found != 1 or also != 1:
        raise RulesError("pieces.toml: a power's line has no single spies/foreign_spies")
    return line


def pieces_text(values: Mapping[str, Any], base: str | None = None) -> str:
    """``pieces.toml`` with a trial's values written into each power's line (nothing else
    changes: the comments, the Secrets, the chits and the record stay as they are)."""
    text = _read("pieces.toml") if base is None else base
    for power, fields in allotments(values).items():
        pattern = re.compile(r'^(\s*\{ name = "' + power + r'",.*\})\s*,?\s*$', re.MULTILINE)
        match = pattern.search(text)
        if match is None:
            raise RulesError(f"pieces.toml has no line for {power}")
        line = match.group(0)
        if "abroad" in fields:  # first: the spies' total (below) is spread over the new count
            line = with_spy_count(line, fields["abroad"])
        for field, value in fields.items():
            if field == "abroad":
                continue
            if field in ("spies", "police"):
                shipped = re.search(rf"{field} = \[([^\]]*)\]", line).group(1).split(",")
                strengths = adjust([int(v) for v in shipped], value)
                written = ", ".join(str(v) for v in strengths)
                line, found = re.subn(rf"{field} = \[[^\]]*\]", f"{field} = [{written}]", line)
            else:
                line, found = re.subn(rf"\b{field} = \d+", f"{field} = {value}", line)
            if found != 1:
                raise RulesError(f"pieces.toml: {power}'s line has no single {field}")
        text = text[: match.start()] + line + text[match.end() :]
    return text


@lru_cache(maxsize=8)
def _edition(pieces: str) -> Any:
    from spyglass.games.spies.edition import MAP_FILE, TILES_FILE, load_edition  # noqa: PLC0415

    return load_edition(_read(MAP_FILE), pieces, _read(TILES_FILE))


def services(edition: Any) -> dict[str, dict[str, int]]:
    """Per power, the two measures of its intelligence service the ruling is judged on: the
    total strength of its ordinary spies, and of all its pieces (spies, Cousin and police)."""
    return {
        p.name: {"spies": sum(p.spies), "pieces": sum(p.spies) + p.cousin + sum(p.police)}
        for p in edition.powers
    }


def ruling(edition: Any) -> str | None:
    """Why an edition breaks its own ruling (spies-edition.md: "Germany's and Britain's
    intelligence services were the strongest of the period, Italy's the weakest"), or None.
    Judged strictly on both measures of ``services``: Germany's and Britain's each above every
    other power's (they may tie with each other), Italy's below every other power's."""
    strength = services(edition)
    for measure, words in (("spies", "spies"), ("pieces", "spies, Cousin and police")):
        of = {power: strength[power][measure] for power in POWERS}
        others = max(of["Italy"], of["Russia"], of["France"])
        if others >= min(of["Germany"], of["Britain"]):
            return f"a service would equal or outdo Germany's or Britain's ({words}: {of})"
        if of["Italy"] >= min(of["Russia"], of["France"]):
            return f"Italy's service would equal or outdo Russia's or France's ({words}: {of})"
    return None


@dataclass(frozen=True, slots=True)
class EditionTask:
    """Play one game on an edition built from ``pieces`` (in the worker that runs it)."""

    pieces: str
    game: GameTask

    def run(self) -> Any:
        from spyglass.games.spies import rules  # noqa: PLC0415

        edition = _edition(self.pieces)
        # A new game takes the edition from the rules module when it is set up, and every
        # later step reads it from the state: swapping it around the game is all it takes.
        previous = rules.EDITION
        rules.EDITION = edition
        try:
            return self.game.run()
        finally:
            rules.EDITION = previous


@dataclass(frozen=True, slots=True)
class EditionSetup:
    """The tuner's hook (``spyglass.lab.tune.Setup``) for the edition's allotments."""

    params: tuple[Param, ...]
    #: values every trial shares (``--fixed``), under the searched ones
    fixed: Mapping[str, int] = default(default_factory=dict)

    def reject(self, values: Mapping[str, Any]) -> str | None:
        values = {**self.fixed, **values}
        chosen = allotments(values)
        britain = chosen["Britain"].get("secrets")
        low, high = SECRETS_RANGE
        if britain is not None and not low <= britain <= high:
            return f"Britain would draw {britain} Secrets, outside {low}-{high}"
        try:
            edition = _edition(pieces_text(values))
        except RulesError as error:
            return str(error)
        return ruling(edition)
        return None

    def task(self, values: Mapping[str, Any], game: GameTask) -> EditionTask:
        return EditionTask(pieces_text({**self.fixed, **values}), game)


FIXED_FILE = "fixed.json"


def trial_values(source: Path, number: int | None) -> dict[str, Any]:
    """A trial's values, with the study's ``--fixed`` ones under them."""
    summary = json.loads((source / "tune.json").read_text())
    fixed_file = source / FIXED_FILE
    fixed = json.loads(fixed_file.read_text()) if fixed_file.exists() else {}
    if number is None:
        if summary["best"] is None:
            raise SystemExit(f"{source} holds no finished trial")
        return {**fixed, **summary["best"]["params"]}
    for trial in summary["history"]:
        if trial["number"] == number:
            return {**fixed, **trial["params"]}
    raise SystemExit(f"{source} has no trial {number}")


def lever_names() -> dict[str, Param]:
    """Every single lever (``spies.Britain``, ...) with its allowed range."""
    return {param.name: param for param in space(LEVERS)}


def parse_assignments(texts: list[str], what: str) -> dict[str, str]:
    """``NAME=VALUE`` items (several per argument, comma-separated), checked against the
    levers' names."""
    known = lever_names()
    found: dict[str, str] = {}
    for text in texts:
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, equals, value = item.partition("=")
            if not equals or name not in known:
                raise RulesError(f"{what} {item!r}: expected LEVER=VALUE with LEVER one of "
                                 f"the levers (e.g. spies.Britain)")  # fmt: skip
            found[name] = value
    return found


def chosen_params(texts: list[str]) -> tuple[Param, ...]:
    """``--param spies.Britain=7:9``: the levers a focused study searches, each in a range
    inside the lever's own."""
    known = lever_names()
    params = []
    for name, span in parse_assignments(texts, "--param").items():
        low, colon, high = span.partition(":")
        if not (colon and low.strip().isdigit() and high.strip().isdigit()):
            raise RulesError(f"--param {name}={span}: expected LOW:HIGH (whole numbers)")
        lo, hi = int(low), int(high)
        allowed_low, allowed_high = known[name].span
        if not allowed_low <= lo <= hi <= allowed_high:
            raise RulesError(f"--param {name}={span}: must lie within "
                             f"{allowed_low:g}:{allowed_high:g}")  # fmt: skip
        params.append(Param(name, "int", lo, hi))
    return tuple(params)


def whole_values(texts: list[str], what: str) -> dict[str, int]:
    values = {}
    for name, value in parse_assignments(texts, what).items():
        if not value.strip().isdigit():
            raise RulesError(f"{what} {name}={value}: expected a whole number")
        values[name] = int(value)
    return values


def screen(args: argparse.Namespace) -> None:
    fixed = whole_values(args.fixed, "--fixed")
    if args.param:
        params = chosen_params(args.param)
        setup = EditionSetup(params, fixed)
        starts = [whole_values([text], "--start") for text in args.start]
        for point in starts:
            missing = {p.name for p in params} - set(point)
            if missing:
                raise RulesError(f"--start must set every searched lever: {sorted(missing)}")
        levers: tuple[str, ...] = ()
    else:
        given = {lever.strip() for lever in args.levers.split(",")}
        setup = EditionSetup(space(tuple(given)), fixed)  # refuses an unknown lever
        levers = tuple(lever for lever in LEVERS if lever in given)
        starts = [current_values(levers), *([GUESSES[levers]] if levers in GUESSES else [])]
    for point in starts:
        reason = setup.reject(point)
        if reason is not None:
            raise RulesError(f"a start point does not make an edition: {reason}")
    if args.out is not None and fixed:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / FIXED_FILE).write_text(json.dumps(fixed, sort_keys=True))

    def report(record: Any) -> None:
        shares = record.figures.get("win_shares")
        if "pruned_at" in record.figures:
            shown = f"stopped at {record.figures['pruned_at']}"
        else:
            shown = "rejected" if record.value is None else f"{record.value:.4f}"
        where = " ".join(f"{p[:2]} {s:.0%}" for p, s in zip(POWERS, shares or [], strict=False))
        print(f"trial {record.number}: {shown}  {where}", flush=True)

    result = tune(
        GAME,
        [],
        Objective("balance"),
        args.games,
        args.trials,
        agent="heuristic",
        players=PLAYERS,
        seed=args.seed,
        setup=setup,
        jobs=args.jobs,
        out=args.out,
        resume=args.resume,
        on_trial=report,
        startup=args.startup,
        rungs=args.rungs,
        start=starts,
    )
    best = result.best
    if best is not None:
        print(f"best: trial {best.number}, balance {best.value:.4f}: {json.dumps(best.params)}")


def confirm(args: argparse.Namespace) -> None:
    if (args.source is None) == (not args.values):
        raise RulesError("confirm takes either --from (a study's trial) or --values")
    if args.values:
        values: dict[str, Any] = whole_values(args.values, "--values")
    else:
        values = trial_values(args.source, args.trial)
    setup = EditionSetup(space(levers_of(values)))
    reason = setup.reject(values)
    if reason is not None:
        raise SystemExit(f"these values do not make an edition: {reason}")
    table = prepare(GAME, ["heuristic"] * PLAYERS, seed=args.seed, players=PLAYERS)
    prepare_directory(args.out)
    store = RunStore(args.out)
    spec = {"command": "spies-balance confirm", "values": values, "seed": args.seed}
    done = store.open({**spec, "games": args.games}, args.resume)
    finished = [len(done)]

    def progress(_outcome: Any) -> None:
        finished[0] += 1
        if finished[0] % 25 == 0:
            print(f"{finished[0]} of {args.games} games", flush=True)

    try:
        interrupted = play_tables(
            [table],
            args.games,
            jobs=args.jobs,
            progress=progress,
            store=store,
            labels=["confirm"],
            done=done,
            wrap=lambda task: setup.task(values, task),
        )
    finally:
        store.close()
    write_sim(table, args.out)
    (args.out / "pieces.toml").write_text(pieces_text(values))
    shares = [table.seat_wins(s) / table.games for s in range(PLAYERS)]
    print(f"{table.games} games{' (interrupted)' if interrupted else ''}:")
    for power, share in zip(POWERS, shares, strict=True):
        mark = "" if 0.15 <= share <= 0.25 else "  outside 15-25%"
        print(f"  {power:<8} {share:6.1%}{mark}")


def show(args: argparse.Namespace) -> None:
    values = trial_values(args.source, args.trial)
    for line in pieces_text(values).splitlines():
        if line.lstrip().startswith("{ name ="):
            print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("screen", help="search the allotments (the tuner)")
    one.add_argument("--out", type=Path, required=True)
    one.add_argument("--trials", type=int, default=20)
    one.add_argument("--games", type=int, default=60, help="games per trial")
    one.add_argument(
        "--startup", type=int, default=5, help="trials before TPE (the two start points too)"
    )
    one.add_argument(
        "--rungs", type=int, nargs="*", default=[30], help="game counts to stop poor trials at"
    )
    two = commands.add_parser("confirm", help="play one trial's values on fresh deals")
    two.add_argument("--out", type=Path, required=True)
    two.add_argument("--from", dest="source", type=Path, help="a study's directory")
    two.add_argument("--trial", type=int, help="a trial's number (default: the best)")
    two.add_argument(
        "--values",
        action="append",
        default=[],
        metavar="LEVER=VALUE,...",
        help="instead of --from: the values to play (an interrupted study's trial, say)",
    )
    two.add_argument("--games", type=int, default=500)
    three = commands.add_parser("show", help="print a trial's values as pieces.toml lines")
    three.add_argument("--from", dest="source", type=Path, required=True)
    three.add_argument("--trial", type=int)
    for command in (one, two):
        command.add_argument("--jobs", type=int, default=1)
        command.add_argument("--resume", action="store_true")
    one.add_argument("--seed", type=int, default=SEED)
    one.add_argument(
        "--levers",
        default=",".join(DEFAULT_LEVERS),
        help=f"comma-separated lever families to search, of {','.join(LEVERS)}",
    )
    one.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="LEVER=LOW:HIGH",
        help="a focused study: search only these levers (e.g. spies.Britain=7:9), "
        "instead of --levers' families",
    )
    one.add_argument(
        "--fixed",
        action="append",
        default=[],
        metavar="LEVER=VALUE",
        help="values every trial shares (not searched), e.g. chits.Italy=4",
    )
    one.add_argument(
        "--start",
        action="append",
        default=[],
        metavar="LEVER=VALUE,...",
        help="with --param: a point to try first (every searched lever); repeatable",
    )
    two.add_argument("--seed", type=int, default=derive_seed(SEED, "confirm"))
    args = parser.parse_args()
    try:
        {"screen": screen, "confirm": confirm, "show": show}[args.command](args)
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
