"""The strongest agent of each game, as measured, and the agent that stands for it.

``strongest.toml`` (beside this module) records, for every game, the agent that won most in the
strength run (``benchmarks/strength.py``, whose committed results a test checks it against),
with the figures it was chosen on. Hints, bot seats named ``strongest`` and ``spyglass report
difficulty`` all read it through this module:

- :func:`strongest` gives a game's agent spec (``"solver"``, ``"pimc:samples=16"``...);
- :func:`hint_spec` gives the same agent held to the hint's CPU cap (:data:`HINT_MS`);
- ``agents.load("strongest")`` is an agent that plays each game with its strongest agent.

A game the run has not measured falls back on its heuristic bot.
"""

from __future__ import annotations

import inspect
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from spyglass.engine import Action, Seat
from spyglass.engine.rng import as_rng

from .clock import check_clock, check_milliseconds

#: A hint's CPU time, in milliseconds: under a second in every game.
HINT_MS = 900
FALLBACK = "heuristic"


@dataclass(frozen=True, slots=True)
class Choice:
    """A game's strongest agent and the figures it was chosen on (as the run measured them)."""

    game: str
    agent: str
    win_rate: float | None = None  # solo: the share of deals won; multiplayer: of wins taken
    deals: int = 0  # solo: deals; multiplayer: tables
    heuristic: float | None = None  # the heuristic's rate on the same measure
    note: str = ""


@cache
def table() -> dict[str, Choice]:
    """Every recorded choice, by game id (read once from ``strongest.toml``)."""
    text = resources.files(__package__).joinpath("strongest.toml").read_text("utf-8")
    data = tomllib.loads(text)
    choices = {}
    for game, entry in data.get("games", {}).items():
        choices[game] = Choice(
            game=game,
            agent=str(entry["agent"]),
            win_rate=entry.get("win_rate"),
            deals=int(entry.get("deals", 0)),
            heuristic=entry.get("heuristic"),
            note=str(entry.get("note", "")),
        )
    return choices


def choice(game_id: str) -> Choice:
    """The recorded choice for ``game_id`` (the heuristic bot if the run did not measure it)."""
    return table().get(game_id, Choice(game_id, FALLBACK, note="not measured: the game's bot"))


def strongest(game_id: str) -> str:
    """The spec of ``game_id``'s strongest agent, for bot seats and reports."""
    return choice(game_id).agent


def hint_spec(game_id: str, milliseconds: float = HINT_MS, clock: str = "cpu") -> str:
    """The strongest agent's spec held to ``milliseconds`` of time a move (a hint), on
    ``clock`` (``agents.clock``: CPU time by default, ``wall`` for a server's cap)."""
    from . import parse_spec  # noqa: PLC0415 - the registry imports this module

    name, params = parse_spec(strongest(game_id))
    if _takes(name, "milliseconds"):
        cap = float(params.get("milliseconds", milliseconds))
        params["milliseconds"] = _number(min(cap, float(milliseconds)))
        if clock != "cpu" and _takes(name, "clock"):
            params["clock"] = clock  # (an agent with no clock counts CPU time: the solver)
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _takes(name: str, parameter: str) -> bool:
    """Whether the agent ``name`` takes ``parameter``."""
    from . import AGENTS  # noqa: PLC0415

    cls = AGENTS.get(name)
    return cls is not None and parameter in inspect.signature(cls).parameters


class StrongestAgent:
    """Plays every game with its measured strongest agent (built on the first move of each
    game id and kept). With ``milliseconds`` it plays each game's agent held to that CPU time a
    move, as hints do (real time with ``clock="wall"``: see ``agents.clock``)."""

    name = "strongest"

    def __init__(
        self, seed: int | None = None, *, milliseconds: float | None = None, clock: str = "cpu"
    ) -> None:
        self.milliseconds = check_milliseconds(milliseconds, "strongest")
        self.rng = as_rng(seed)
        self.clock = check_clock(clock, "strongest")
        self._agents: dict[str, Any] = {}

    def spec(self, game_id: str) -> str:
        if self.milliseconds is None:
            return strongest(game_id)
        return hint_spec(game_id, self.milliseconds, self.clock)

    def choose(self, seat: Seat) -> Action:
        from . import load_spec  # noqa: PLC0415

        game_id = seat.game.info.id
        agent = self._agents.get(game_id)
        if agent is None:
            agent = self._agents[game_id] = load_spec(self.spec(game_id), seed=self.rng.next64())
        return agent.choose(seat)
