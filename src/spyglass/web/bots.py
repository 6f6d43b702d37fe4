"""The bot worker pool: agent moves computed off the event loop.

Agents are pure Python and CPU-bound (a tree search with a budget of iterations can think for
seconds), so they run in a pool of worker *processes*: a thread would hold the interpreter
lock and slow every other table's requests while it thinks. A move costs one pickled
:class:`~spyglass.engine.Seat` (a few kilobytes: the seat's view, its legal actions and a
determinization that already hides what the seat cannot see) and a notation string back.

The agent is built afresh for every move with a seed derived from the table's seed and the
step, so bots are reproducible and a restarted server makes the same moves it would have made.
A ``thread`` pool is available for tests and tiny deployments.
"""

from __future__ import annotations

import asyncio
import copyreg
import inspect
import io
import multiprocessing
import os
import pickle
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import MappingProxyType
from typing import Any

import spyglass
from spyglass import agents
from spyglass.engine import RulesError, Seat

#: Agent parameters that a seat's budget may set (the first an agent takes): a search agent's
#: iterations per move, whatever its author called them.
BUDGET_PARAMETERS = ("iterations", "budget", "simulations", "playouts")
#: Budget of the hint agent when it takes one (enough for a sound hint in well under a second).
HINT_BUDGET = 300
#: A hint from a search agent that also takes a time budget stops after this long even if its
#: iterations are not spent: iterations cost very different times across games (The
#: Emissary's bot, run inside every playout, is a hundred times slower than most).
THINK_CAP_MS = 3000


def strongest_agent() -> str:
    """The strongest registered agent: the one ``spyglass.agents.STRONGEST`` names when the
    agents say so, else tree search when it is there, else the game's bot."""
    names = agents.names()
    named = getattr(agents, "STRONGEST", None)
    if isinstance(named, str) and named in names:
        return named
    return "ismcts" if "ismcts" in names else "heuristic"


def budget_parameter(agent: str) -> str | None:
    """The name of the parameter that sets ``agent``'s budget, or None if it takes none."""
    cls = agents.AGENTS.get(agent)
    if cls is None:
        return None
    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return None
    return next((name for name in BUDGET_PARAMETERS if name in parameters), None)


def takes_budget(agent: str) -> bool:
    return budget_parameter(agent) is not None


def agent_params(agent: str, budget: int | None) -> dict[str, Any]:
    """The parameters that give ``agent`` its budget; RulesError when it takes none."""
    if agent not in agents.names():
        raise RulesError(f"unknown agent {agent!r}; known agents: {', '.join(agents.names())}")
    if budget is None:
        return {}
    parameter = budget_parameter(agent)
    if parameter is None:
        raise RulesError(f"agent {agent!r} takes no budget (it always plays at once)")
    if budget < 1:
        raise RulesError("a budget is a positive number of iterations")
    return {parameter: budget}


def hint_params(agent: str, budget: int) -> dict[str, Any]:
    """A hint's budget: ``budget`` iterations, and at most THINK_CAP_MS when the agent also
    takes a time budget (bots at the table keep pure iteration budgets: deterministic)."""
    params = agent_params(agent, budget) if takes_budget(agent) else {}
    if params and "milliseconds" in inspect.signature(agents.AGENTS[agent]).parameters:
        params["milliseconds"] = THINK_CAP_MS
    return params


def _mapping_proxy(items: dict[str, Any]) -> MappingProxyType:
    return MappingProxyType(items)


def _reduce_proxy(proxy: MappingProxyType) -> tuple[Any, tuple[dict[str, Any]]]:
    return _mapping_proxy, (dict(proxy),)


def pack(seat: Seat) -> bytes:
    """Pickle a seat (a game's options are a read-only mapping, which pickle does not know)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _reduce_proxy}
    pickler.dump(seat)
    return buffer.getvalue()


def choose(blob: bytes, agent: str, params: dict[str, Any], seed: int) -> str:
    """In a worker: the notation of the move ``agent`` picks for the pickled seat."""
    seat = pickle.loads(blob)
    return str(agents.load(agent, seed=seed, **params).choose(seat))


def _follow_parent(parent: int) -> None:
    """In a worker: exit as soon as the server that started it is gone.

    A server killed outright (SIGKILL, out of memory) runs no shutdown code, and its workers
    would otherwise wait on their queue for ever. A daemon thread notices the new parent."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def warm() -> int:
    """In a worker: import every game and agent now rather than on the first move."""
    for game_id in spyglass.games.REGISTRY.ids():
        spyglass.games.REGISTRY.spec(game_id)
    return len(agents.names())


class BotPool:
    """Runs agent moves in worker processes (or threads); never blocks the event loop."""

    def __init__(self, workers: int | None = None, kind: str = "process") -> None:
        if kind not in ("process", "thread"):
            raise RulesError(f"a bot pool is 'process' or 'thread', not {kind!r}")
        self.kind = kind
        self.workers = max(1, workers or min(4, os.cpu_count() or 1))
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.kind == "process":
                # spawn, not fork: the server has threads (database, event loop helpers).
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=context,
                    initializer=_follow_parent,
                    initargs=(os.getpid(),),
                )
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="bot")
        return self._executor

    def warm(self) -> None:
        """Start the workers and import the games in them, in the background."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(warm)

    async def choose(self, seat: Seat, agent: str, params: dict[str, Any], seed: int) -> str:
        loop = asyncio.get_running_loop()
        blob = pack(seat)
        try:
            return await loop.run_in_executor(self._pool(), choose, blob, agent, params, seed)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool and try once more.
            self._executor = None
            return await loop.run_in_executor(self._pool(), choose, blob, agent, params, seed)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
