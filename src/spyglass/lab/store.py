"""A run's directory: what was asked (run.json) and every finished game (games.jsonl).

Games are appended one line each as they finish, so an interrupted run loses nothing that
finished, and ``--resume`` plays only the games that are missing. A line cut short by a crash
is ignored (that game is played again). A run of several tables (a tournament's seatings, a
sweep's settings, a report's agents) tags each line with its table; a simulation's lines have
no tag. When a run stops, finished or not, the lines are rewritten in order (by table, then
game), so the file is the same byte for byte however many workers played it and in what order
the games came back.

The time each agent took (the one figure that depends on the machine) goes to times.jsonl
beside it, never into games.jsonl.

The directory is checked and created before the first game is played: an ``--out`` that is a
file, or that cannot be created, is an error at once, not after hours of games.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from spyglass.engine import RulesError

from .outcome import GameOutcome

SPEC_FILE = "run.json"
GAMES_FILE = "games.jsonl"
TIMES_FILE = "times.jsonl"
#: The one field of a run's description that may change on --resume: the number of games.
GROWS = "games"

Key = tuple[str | None, int]  # (table, game index)


def prepare_directory(directory: Path | str, flag: str = "--out") -> Path:
    """Create ``directory`` (and its parents) or say in one line why it cannot be used."""
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise RulesError(f"{flag} {path} is a file, not a folder: choose a folder for the results")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RulesError(f"{flag} {path} cannot be created: {error.strerror or error}") from None
    probe = path / ".spyglass-write-test"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise RulesError(f"{flag} {path} is not writable: {error.strerror or error}") from None
    return path


def _key(record: Mapping[str, Any]) -> Key:
    table = record.get("table")
    return (None if table is None else str(table), int(record["index"]))


def _order(key: Key) -> tuple[str, int]:
    return ("" if key[0] is None else key[0], key[1])


class RunStore:
    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._games: TextIO | None = None
        self._times: TextIO | None = None

    @property
    def spec_path(self) -> Path:
        return self.directory / SPEC_FILE

    @property
    def games_path(self) -> Path:
        return self.directory / GAMES_FILE

    @property
    def times_path(self) -> Path:
        return self.directory / TIMES_FILE

    def stored_spec(self) -> dict[str, Any]:
        """The spec of the run in this directory (for ``--resume``)."""
        try:
            spec = json.loads(self.spec_path.read_text())
        except FileNotFoundError:
            raise RulesError(f"{self.directory} holds no run to resume (no {SPEC_FILE})") from None
        except NotADirectoryError:
            raise RulesError(f"{self.directory} is a file, not a run's folder") from None
        except json.JSONDecodeError as error:
            raise RulesError(f"{self.spec_path} is not valid JSON: {error}") from None
        if not isinstance(spec, dict) or "command" not in spec:
            raise RulesError(f"{self.spec_path} is not a spyglass run description")
        return spec

    def records(self) -> dict[Key, dict[str, Any]]:
        """Every game already saved, as its JSON line, by (table, index)."""
        return self._read(self.games_path)

    def times(self) -> dict[Key, tuple[float, ...]]:
        return {
            key: tuple(float(s) for s in line["seconds"])
            for key, line in self._read(self.times_path).items()
            if isinstance(line.get("seconds"), list)
        }

    def _read(self, path: Path) -> dict[Key, dict[str, Any]]:
        done: dict[Key, dict[str, Any]] = {}
        try:
            text = path.read_text()
        except FileNotFoundError:
            return done
        for line in text.splitlines():
            try:
                record = json.loads(line)
                done[_key(record)] = record
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
                continue  # a line cut short when the run was killed
        return done

    def finished(self) -> dict[int, GameOutcome]:
        """A simulation's games already played, by index (with their timings if saved)."""
        times = self.times()
        done = {}
        for key, record in self.records().items():
            try:
                done[key[1]] = GameOutcome.from_json(record, times.get(key, ()))
            except (KeyError, TypeError, ValueError):
                continue
        return done

    def open(
        self, spec: dict[str, Any], resume: bool, grows: str = GROWS
    ) -> dict[Key, dict[str, Any]]:
        """Start (or with ``resume`` continue) the run ``spec`` here; the games already saved.

        Resuming checks that ``spec`` is the stored run (only ``grows``, the number of games,
        may differ) and refuses to shrink it: a run of 330 games resumed with 50 would
        otherwise drop 280 finished games from its summary without a word."""
        if resume:
            stored = self.stored_spec()
            keys = (set(stored) | set(spec)) - {grows}
            different = sorted(k for k in keys if stored.get(k) != spec.get(k))
            if different:
                detail = ", ".join(
                    f"{k} {stored.get(k)!r} (now {spec.get(k)!r})" for k in different
                )
                raise RulesError(f"{self.directory} holds a different run: {detail}")
            done = self.records()
            if spec[grows] < stored.get(grows, 0):
                played = f"{len(done)} played" if grows == "games" else f"{len(done)} games"
                raise RulesError(
                    f"{self.directory} holds a run of {stored[grows]} {grows} ({played} so "
                    f"far); --{grows} {spec[grows]} would leave some out of its summary: give "
                    f"--{grows} {stored[grows]} or more, or leave it out"
                )
        else:
            if self.games_path.exists() and self.games_path.stat().st_size:
                raise RulesError(
                    f"{self.directory} already holds a run: add --resume to continue it, "
                    "or choose another --out directory"
                )
            prepare_directory(self.directory)
            done = {}
        times = self._read(self.times_path) if resume else {}
        self.spec_path.write_text(json.dumps(spec, indent=2) + "\n")
        # Rewrite the good lines only, so a line cut short does not sit before new ones.
        self._write(self.games_path, done)
        self._write(self.times_path, {k: v for k, v in times.items() if k in done})
        self._games = self.games_path.open("a")
        self._times = self.times_path.open("a")
        return done

    def _write(self, path: Path, lines: Mapping[Key, dict[str, Any]]) -> None:
        text = "".join(json.dumps(lines[key]) + "\n" for key in sorted(lines, key=_order))
        path.write_text(text)

    def append(
        self, record: dict[str, Any], table: str | None = None, times: dict[str, Any] | None = None
    ) -> None:
        """Save one finished game (its JSON), in ``table`` for a run of several tables."""
        assert self._games is not None and self._times is not None, "open the store first"
        tag = {} if table is None else {"table": table}
        self._games.write(json.dumps({**tag, **record}) + "\n")
        self._games.flush()
        if times is not None:
            self._times.write(json.dumps({**tag, **times}) + "\n")
            self._times.flush()

    def add(self, outcome: GameOutcome, table: str | None = None) -> None:
        self.append(outcome.to_json(), table, outcome.times_json() if outcome.seconds else None)

    def close(self) -> None:
        """Stop writing, and put the lines in order (see the module's docstring)."""
        for handle in (self._games, self._times):
            if handle is not None:
                handle.close()
        if self._games is None:
            return
        self._games = self._times = None
        self._write(self.games_path, self.records())
        self._write(self.times_path, self._read(self.times_path))
