"""Which agents a table's bots and hints use, with what budget, under what caps.

A bot seat names an agent and, for agents that take one, a *budget* (iterations per move). A
server has a maximum budget (``Caps.max_budget``): a table asking for more is refused when it is
created, with the maximum in the message. Every bot move and every hint is also capped in wall
time (``Caps.bot_seconds``, ``Caps.hint_seconds``): agents that take a time budget are told to
stop a little before the cap, and the worker pool kills any job still running at it (see
:mod:`.workers`), so that a bot at a table does its iterations when it can and never more than
the cap allows. A bot's move is seeded by the table and the step, so the same table plays the
same moves after a restart, unless the cap cut a search short.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import cache
from typing import Any

import spyglass
from spyglass import agents
from spyglass.engine import Game, RulesError, SpyglassError
from spyglass.games import list_games

from .workers import MARGIN

#: Agent parameters that a seat's budget may set (the first an agent takes): a search agent's
#: iterations per move, whatever its author called them.
BUDGET_PARAMETERS = ("iterations", "budget", "simulations", "playouts")
#: Agent parameters that take a time budget in milliseconds.
TIME_PARAMETERS = ("milliseconds",)
#: The parameter that says which clock a time budget counts (agents/clock.py).
CLOCK_PARAMETER = "clock"
#: Budget of the hint agent when it takes one (it also stops at the hint's time cap).
HINT_BUDGET = 300


@dataclass(frozen=True, slots=True)
class Caps:
    """What a server allows bots and hints (``spyglass serve`` options)."""

    bot_seconds: float = 5.0  # wall time of one bot move
    hint_seconds: float = 1.0  # wall time of one hint
    max_budget: int = 5000  # iterations per move a bot seat may ask for

    def __post_init__(self) -> None:
        if not self.bot_seconds > 0 or not self.hint_seconds > 0:
            raise RulesError("the time caps of bots and hints are positive numbers of seconds")
        if self.max_budget < 1:
            raise RulesError("the maximum budget is a positive number of iterations")


def strongest_agent() -> str:
    """The strongest registered agent: the one ``spyglass.agents.STRONGEST`` names when the
    agents say so, else tree search when it is there, else the game's bot."""
    names = agents.names()
    named = getattr(agents, "STRONGEST", None)
    if isinstance(named, str) and named in names:
        return named
    return "ismcts" if "ismcts" in names else "heuristic"


@cache
def games_played(agent: str) -> tuple[str, ...] | None:
    """The ids of the registered games ``agent`` can play (``agents.plays``), or None where it
    plays every one; a game whose data will not load is left out."""
    played, every = [], True
    for info in list_games():
        try:
            game = spyglass.load(info.id)
        except SpyglassError:
            continue
        if agents.plays(agent, game):
            played.append(info.id)
        else:
            every = False
    return None if every else tuple(played)


def _parameters(agent: str) -> dict[str, inspect.Parameter]:
    cls = agents.AGENTS.get(agent)
    if cls is None:
        return {}
    try:
        return dict(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        return {}


def budget_parameter(agent: str) -> str | None:
    """The name of the parameter that sets ``agent``'s budget, or None if it takes none."""
    parameters = _parameters(agent)
    return next((name for name in BUDGET_PARAMETERS if name in parameters), None)


def time_parameter(agent: str) -> str | None:
    parameters = _parameters(agent)
    return next((name for name in TIME_PARAMETERS if name in parameters), None)


def takes_budget(agent: str) -> bool:
    return budget_parameter(agent) is not None


def agent_params(
    agent: str, budget: int | None, max_budget: int | None = None, game: Game | None = None
) -> dict[str, Any]:
    """The parameters that give ``agent`` its budget; RulesError when it takes none, when
    the budget is over ``max_budget``, or when it cannot play ``game`` (if given)."""
    if agent not in agents.names():
        raise RulesError(f"unknown agent {agent!r}; known agents: {', '.join(agents.names())}")
    if game is not None:
        agents.check_plays(agent, game)
    if budget is None:
        return {}
    parameter = budget_parameter(agent)
    if parameter is None:
        raise RulesError(f"agent {agent!r} takes no budget (it always plays at once)")
    if budget < 1:
        raise RulesError("a budget is a positive number of iterations")
    if max_budget is not None and budget > max_budget:
        raise RulesError(
            f"a budget of {budget} iterations is over this server's maximum of {max_budget}"
        )
    return {parameter: budget}


def capped(agent: str, params: dict[str, Any], seconds: float) -> dict[str, Any]:
    """``params`` plus a time budget a little under ``seconds`` for agents that take one (they
    stop by themselves; the worker pool kills the others at the cap)."""
    parameter = time_parameter(agent)
    if parameter is None:
        return params
    limit = max(0.05, seconds - MARGIN) * 1000.0
    given = params.get(parameter)
    capped = {**params, parameter: limit if given is None else min(float(given), limit)}
    # the cap is real time: an agent counting CPU time (its default) could think for many
    # times its allowance on a busy machine, and be killed at the cap (agents/clock.py)
    if CLOCK_PARAMETER in _parameters(agent):
        capped[CLOCK_PARAMETER] = "wall"
    return capped


def hint_params(agent: str, budget: int, seconds: float) -> dict[str, Any]:
    """A hint's parameters: ``budget`` iterations for agents that take one, within
    ``seconds``."""
    params = agent_params(agent, budget) if takes_budget(agent) else {}
    return capped(agent, params, seconds)
