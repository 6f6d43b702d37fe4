"""A run's directory: what was asked (run.json) and every finished game (games.jsonl).

Games are appended one line each as they finish, so an interrupted run loses nothing that
finished, and ``--resume`` plays only the games that are missing. A line cut short by a crash
is ignored (that game is played again).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from spyglass.engine import RulesError

from .outcome import GameOutcome

SPEC_FILE = "run.json"
GAMES_FILE = "games.jsonl"
#: Fields of the spec that must match for a run to be continued (``games`` may grow).
IDENTITY = ("command", "game", "agents", "players", "seed", "options", "first")


class RunStore:
    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._games: TextIO | None = None

    @property
    def spec_path(self) -> Path:
        return self.directory / SPEC_FILE

    @property
    def games_path(self) -> Path:
        return self.directory / GAMES_FILE

    def stored_spec(self) -> dict[str, Any]:
        """The spec of the run in this directory (for ``--resume``)."""
        try:
            spec = json.loads(self.spec_path.read_text())
        except FileNotFoundError:
            raise RulesError(f"{self.directory} holds no run to resume (no {SPEC_FILE})") from None
        except json.JSONDecodeError as error:
            raise RulesError(f"{self.spec_path} is not valid JSON: {error}") from None
        if not isinstance(spec, dict) or any(key not in spec for key in (*IDENTITY, "games")):
            raise RulesError(f"{self.spec_path} is not a spyglass run description")
        return spec

    def finished(self) -> dict[int, GameOutcome]:
        """The games already played, by index."""
        done: dict[int, GameOutcome] = {}
        if not self.games_path.exists():
            return done
        for line in self.games_path.read_text().splitlines():
            try:
                outcome = GameOutcome.from_json(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                continue  # a line cut short when the run was killed
            done[outcome.index] = outcome
        return done

    def open(self, spec: dict[str, Any], resume: bool) -> dict[int, GameOutcome]:
        """Start (or with ``resume`` continue) the run ``spec`` here; the games already played."""
        if resume:
            stored = self.stored_spec()
            different = [key for key in IDENTITY if stored[key] != spec[key]]
            if different:
                detail = ", ".join(f"{k} {stored[k]!r} (now {spec[k]!r})" for k in different)
                raise RulesError(f"{self.directory} holds a different run: {detail}")
            done = self.finished()
        else:
            if self.games_path.exists() and self.games_path.stat().st_size:
                raise RulesError(
                    f"{self.directory} already holds a run: add --resume to continue it, "
                    "or choose another --out directory"
                )
            self.directory.mkdir(parents=True, exist_ok=True)
            done = {}
        self.spec_path.write_text(json.dumps(spec, indent=2) + "\n")
        # Rewrite the good lines only, so a line cut short does not sit before new ones.
        lines = "".join(json.dumps(o.to_json()) + "\n" for _, o in sorted(done.items()))
        self.games_path.write_text(lines)
        self._games = self.games_path.open("a")
        return done

    def append(self, outcome: GameOutcome) -> None:
        assert self._games is not None, "open the store first"
        self._games.write(json.dumps(outcome.to_json()) + "\n")
        self._games.flush()

    def close(self) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None
