"""The bot workers: agent moves and hints computed off the event loop, capped in time and
shared fairly between tables.

Agents are pure Python and CPU-bound (a tree search can think for seconds), so they run in
worker *processes* (pebble's process pool): a thread would hold the interpreter lock and slow
every other table's requests while it thinks. A job costs one pickled
:class:`~spyglass.engine.Seat` (a few kilobytes: the seat's view, its legal actions and a
determinization), never the true state.

Three guarantees a public server needs:

- **A cap in wall time.** An agent that takes a time budget is given one a little under the
  cap, so it stops by itself; every job is also scheduled with a hard timeout, and a worker
  still thinking a grace second after the cap is killed (pebble starts a new one) and the job
  fails with :class:`TimeoutError`. No budget, however large, holds a worker longer.
- **Fairness between tables.** Jobs wait in one queue per table and are handed to the workers
  round-robin between tables, never more at a time than there are workers; so sixteen hints
  asked at one table delay another table's bot by at most one job, not sixteen.
- **The server first.** Workers run at a lower CPU priority (``nice``), so on a machine with few
  cores a thinking bot slows the requests of people at other tables as little as possible; and
  by default there is one worker fewer than cores (at least one), leaving a core to the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import copyreg
import io
import multiprocessing
import os
import pickle
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from pebble import ProcessPool

import spyglass
from spyglass import agents
from spyglass.engine import RulesError, Seat

#: How much lower than the server a worker runs (``nice`` increment).
WORKER_NICENESS = 10
#: An agent that takes a time budget is told to think for the cap less this margin, so that it
#: stops by itself; a worker still busy this long after the cap is killed. Killing costs a new
#: worker process (a second or two to start), so it is kept for agents that ignore time.
MARGIN = 0.15
GRACE = 1.0


def default_workers() -> int:
    """One worker fewer than cores (the server keeps a core), at least one, at most four."""
    return max(1, min(4, (os.cpu_count() or 1) - 1))


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


def warm() -> int:
    """In a worker: import every game and agent now rather than on the first move."""
    for game_id in spyglass.games.REGISTRY.ids():
        spyglass.games.REGISTRY.spec(game_id)
    return len(agents.names())


def _start_worker(parent: int) -> None:
    """In a new worker: run below the server's priority, and exit as soon as the server that
    started it is gone (a server killed outright runs no shutdown code, and its workers would
    otherwise wait on their queue for ever)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


@dataclass(eq=False, slots=True)
class _Job:
    call: Callable[[], Future[Any]]
    done: asyncio.Future[Any]
    started: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(slots=True)
class FairQueue:
    """Hands jobs to ``capacity`` workers, taking turns between owners (tables): the next job
    is always that of the owner with the fewest jobs running and, among those, the one served
    longest ago; an owner's own jobs go in the order they came."""

    capacity: int
    running: int = 0
    queues: dict[Hashable, deque[_Job]] = field(default_factory=dict)
    active: Counter[Hashable] = field(default_factory=Counter)
    served: dict[Hashable, int] = field(default_factory=dict)
    _tick: int = 0

    def waiting(self) -> int:
        return sum(len(q) for q in self.queues.values())

    def submit(self, owner: Hashable, job: _Job) -> None:
        self.queues.setdefault(owner, deque()).append(job)
        self.pump()

    def withdraw(self, owner: Hashable, job: _Job) -> None:
        queue = self.queues.get(owner)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                del self.queues[owner]
                self._forget(owner)

    def pump(self) -> None:
        while self.running < self.capacity and self.queues:
            owner = min(self.queues, key=lambda o: (self.active[o], self.served.get(o, -1)))
            queue = self.queues[owner]
            job = queue.popleft()
            if not queue:
                del self.queues[owner]
            if job.done.done():  # its caller gave up while it waited
                self._forget(owner)
                continue
            self.served[owner] = self._tick
            self._tick += 1
            self._start(owner, job)

    def _forget(self, owner: Hashable) -> None:
        if owner not in self.queues and not self.active[owner]:
            self.active.pop(owner, None)
            self.served.pop(owner, None)

    def _start(self, owner: Hashable, job: _Job) -> None:
        self.running += 1
        self.active[owner] += 1
        job.started.set()
        try:
            running = asyncio.wrap_future(job.call())
        except Exception as error:  # the pool refused the job (shutting down)
            self.running -= 1
            self.active[owner] -= 1
            self._forget(owner)
            if not job.done.done():
                job.done.set_exception(error)
            return

        def finished(future: asyncio.Future[Any]) -> None:
            self.running -= 1
            self.active[owner] -= 1
            self._forget(owner)
            if not job.done.done():
                if future.cancelled():
                    job.done.cancel()
                elif (error := future.exception()) is not None:
                    job.done.set_exception(error)
                else:
                    job.done.set_result(future.result())
            self.pump()

        running.add_done_callback(finished)
        job.done.add_done_callback(lambda d: running.cancel() if d.cancelled() else None)


class BotPool:
    """Runs agent moves in worker processes (or threads, for tests), each capped in time and
    scheduled fairly between tables. Never blocks the event loop."""

    def __init__(self, workers: int | None = None, kind: str = "process") -> None:
        if kind not in ("process", "thread"):
            raise RulesError(f"a bot pool is 'process' or 'thread', not {kind!r}")
        self.kind = kind
        self.workers = max(1, workers or default_workers())
        self._pool: ProcessPool | ThreadPoolExecutor | None = None
        self._queue = FairQueue(self.workers)

    def _executor(self) -> ProcessPool | ThreadPoolExecutor:
        if self._pool is None:
            if self.kind == "process":
                # spawn, not fork: the server has threads (database, event loop helpers).
                self._pool = ProcessPool(
                    self.workers,
                    initializer=_start_worker,
                    initargs=(os.getpid(),),
                    context=multiprocessing.get_context("spawn"),
                )
            else:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="bot")
        return self._pool

    def warm(self) -> None:
        """Start the workers and import the games in them, in the background."""
        pool = self._executor()
        for _ in range(self.workers):
            if isinstance(pool, ProcessPool):
                pool.schedule(warm)
            else:
                pool.submit(warm)

    def waiting(self) -> int:
        """Jobs queued and not yet started (all tables)."""
        return self._queue.waiting()

    async def choose(
        self,
        owner: Hashable,
        seat: Seat,
        agent: str,
        params: dict[str, Any],
        *,
        seed: int,
        cap: float,
    ) -> str:
        """The notation of the move ``agent`` picks for ``seat``, computed within ``cap``
        seconds (and a grace second) once the job starts; :class:`TimeoutError` if it does not
        finish (the worker is killed). Jobs of one ``owner`` queue behind one another and take
        turns with other owners'."""
        blob = pack(seat)
        pool = self._executor()
        if isinstance(pool, ProcessPool):

            def call() -> Future[Any]:
                return pool.schedule(choose, (blob, agent, params, seed), timeout=cap + GRACE)

        else:

            def call() -> Future[Any]:
                return pool.submit(choose, blob, agent, params, seed)

        loop = asyncio.get_running_loop()
        job = _Job(call, loop.create_future())
        self._queue.submit(owner, job)
        try:
            if isinstance(pool, ProcessPool):
                return await job.done
            # Threads cannot be killed: the cap only stops the wait.
            return await _wait_started(job, cap)
        except asyncio.CancelledError:
            self._queue.withdraw(owner, job)
            job.done.cancel()
            raise

    def close(self) -> None:
        if self._pool is not None:
            if isinstance(self._pool, ProcessPool):
                self._pool.stop()
                with contextlib.suppress(Exception):
                    self._pool.join(timeout=2)
            else:
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


async def _wait_started(job: _Job, cap: float) -> Any:
    """Wait for a thread job: as long as it is queued, then ``cap`` seconds once started."""
    started = asyncio.ensure_future(job.started.wait())
    try:
        await asyncio.wait({started, job.done}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        started.cancel()
    return await asyncio.wait_for(asyncio.shield(job.done), cap)
