"""Agents: anything that picks a move from a :class:`~spyglass.engine.Seat`.

An agent sees only the seat it is given (view, legal actions, determinizations); it never
touches the true state. ``load(name, seed=..., **params)`` builds one by name.
"""

from __future__ import annotations

from typing import Any, Protocol

from spyglass.engine import Action, Game, RulesError, Seat

from .expectimax import ExpectimaxAgent
from .heuristic import HeuristicAgent
from .ismcts import ISMCTSAgent
from .lookahead import LookaheadAgent
from .measured import HINT_MS, StrongestAgent, hint_spec, strongest
from .pimc import PIMCAgent
from .policies.sandwich_guy_search import RolloutAgent
from .random import RandomAgent
from .solver import SolverAgent
from .tuned import TunedAgent


class Agent(Protocol):
    name: str

    # Every agent is built as ``cls(seed=..., **params)``; each takes its own parameters
    # (a wrong one is a TypeError, which load() reports).
    def __init__(self, seed: int | None = None, **params: Any) -> None: ...

    def choose(self, seat: Seat) -> Action:
        """A legal action for the seat (whose turn it is)."""
        ...


AGENTS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": ISMCTSAgent,
    "pimc": PIMCAgent,
    "solver": SolverAgent,
    "tuned": TunedAgent,
    "rollout": RolloutAgent,
    "expectimax": ExpectimaxAgent,
    "lookahead": LookaheadAgent,
    "strongest": StrongestAgent,
}
#: The agent that plays each game with its measured strongest agent (``strongest(game_id)``
#: names it; ``hint_spec(game_id)`` holds it to a hint's CPU time).
STRONGEST = "strongest"


def names() -> list[str]:
    return list(AGENTS)


def plays(name: str, game: Game) -> bool:
    """Whether agent ``name`` can play ``game``: every agent plays every game, but those whose
    class says otherwise with a static ``plays(game)`` (the solver: games with nothing hidden;
    expectimax: solo games whose leaves it can score)."""
    check = getattr(AGENTS[name], "plays", None)
    return check is None or bool(check(game))


def playable(game: Game) -> list[str]:
    """The agents that can play ``game``, in the registry's order."""
    return [name for name in AGENTS if plays(name, game)]


def check_plays(name: str, game: Game) -> None:
    """A RulesError naming the agents that do, if agent ``name`` cannot play ``game``: what the
    web, the terminal and the lab say before a game starts, rather than at its first move."""
    if not plays(name, game):
        raise RulesError(
            f"agent {name!r} does not play {game.info.title}; the agents that do: "
            + ", ".join(playable(game))
        )


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=200,rollout=heuristic"`` -> ("ismcts", {...}); numbers become
    numbers. Errors name the bad part."""
    if not isinstance(spec, str) or not spec.strip():
        raise RulesError(f"an agent is a name such as {', '.join(AGENTS)}, not {spec!r}")
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"agent {spec!r}: write parameters as key=value, not {part!r}")
        params[key.strip()] = _number(value.strip())
    return name.strip().lower(), params


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def load_spec(spec: str, seed: int | None = None) -> Agent:
    """The agent a spec such as ``"ismcts:iterations=200"`` names."""
    name, params = parse_spec(spec)
    return load(name, seed=seed, **params)


def load(name: str, seed: int | None = None, **params: Any) -> Agent:
    """The agent called ``name`` (see :func:`names`), seeded, with its parameters."""
    cls = AGENTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise RulesError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)}")
    try:
        return cls(seed=seed, **params)
    except TypeError as error:
        raise RulesError(f"agent {name!r}: {error}") from None


__all__ = [
    "AGENTS",
    "HINT_MS",
    "STRONGEST",
    "Agent",
    "ExpectimaxAgent",
    "HeuristicAgent",
    "ISMCTSAgent",
    "LookaheadAgent",
    "PIMCAgent",
    "RandomAgent",
    "SolverAgent",
    "StrongestAgent",
    "TunedAgent",
    "check_plays",
    "hint_spec",
    "load",
    "load_spec",
    "names",
    "parse_spec",
    "strongest",
]
