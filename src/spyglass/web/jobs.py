"""Bot moves and hints as jobs in the database, taken by the workers of any server process.

When a move leaves a bot to move, the same transaction that stores the move queues a *job* for
that position (``spyglass_jobs``); a hint asked at a position is a job too. Each server process
runs a :class:`JobRunner` that takes jobs that are due (a bot at a table with people waits a
moment, so they can follow the play) and that nobody holds, as many as its workers can think
about, and holds each under a *lease*. A bot's move is computed in the process's worker pool
(fairly between tables, within the bot's time cap), seeded by the table and the step, and
committed like any move: the commit drops the job. A hint's answer is kept in its job, where
every process finds it: the hint of a position is thought out once.

If the process holding a job dies (killed, or its machine), the lease runs out and another
process takes the job over and plays the same move, since the move depends only on the table
and the step; the compare-and-set on the step makes sure it is stored once. A process that
stops cleanly gives its unfinished jobs back at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from spyglass.engine import State, derive_seed
from spyglass.engine.rng import Rng

from .bots import agent_params, capped, hint_params, strongest_agent
from .store import Conflict, Job, hint_kind
from .tables import LiveTable, TableError, describe_action
from .workers import GRACE

if TYPE_CHECKING:
    from .manager import TableManager

log = logging.getLogger("spyglass.web")

STOP_WAIT = 5.0  # seconds a stopping process waits for its jobs
POLL = 2.0  # seconds between two looks for jobs when nobody says there are any
LEASE_MARGIN = 3.0  # seconds a job's lease lasts beyond its time cap and grace


class JobRunner:
    """Takes jobs from the database and does them, in one server process."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.capacity = 2 * manager.bots.workers  # jobs held at once: some queue in the pool
        self.running: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None

    @property
    def lease(self) -> float:
        caps = self.manager.caps
        return max(caps.bot_seconds, caps.hint_seconds) + GRACE + LEASE_MARGIN

    def start(self) -> None:
        self._loop_task = asyncio.ensure_future(self._loop())

    def wake(self) -> None:
        """There may be a new job: look now rather than at the next poll."""
        self._wake.set()

    async def stop(self) -> None:
        """Stop taking jobs, drop the ones under way, and give them back to the other
        processes."""
        tasks = [t for t in [self._loop_task, *self.running] if t is not None]
        for task in tasks:
            task.cancel()
        if tasks:  # bounded: a job waiting on a bot thread may not end when cancelled
            await asyncio.wait(tasks, timeout=STOP_WAIT)
        manager = self.manager
        with contextlib.suppress(Exception, TimeoutError):
            await asyncio.wait_for(
                manager.run_db(manager.store.release_jobs, manager.origin), STOP_WAIT
            )

    async def _loop(self) -> None:
        manager = self.manager
        while True:
            self._wake.clear()
            free = self.capacity - len(self.running)
            claimed: list[Job] = []
            timeout = POLL
            try:
                if free > 0:
                    claimed = await manager.run_db(
                        manager.store.claim_jobs, manager.origin, free, self.lease
                    )
                for job in claimed:
                    task = asyncio.ensure_future(self._run(job))
                    self.running.add(task)
                    task.add_done_callback(self._finished)
                if free > 0 and len(claimed) < free:
                    due = await manager.run_db(manager.store.next_due)
                    if due is not None:
                        timeout = min(timeout, max(0.02, due - time.time()))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away for a moment: try again later
                log.error("taking jobs failed: %s", type(error).__name__)
                await asyncio.sleep(POLL)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self.running.discard(task)
        self._wake.set()

    async def _run(self, job: Job) -> None:
        manager = self.manager
        try:
            async with manager.hold(job.table_id) as table:
                if job.is_hint:
                    await self._hint(table, job)
                else:
                    await self._bot(table, job)
        except asyncio.CancelledError:
            raise
        except TableError as error:  # no such table any more, or it cannot be read
            log.error("job %s dropped: %s", job, error.message)
            await manager.run_db(manager.store.finish_job, job)
        except Exception:
            # Left to its lease: another try after it, here or in another process.
            log.exception("job %s failed", job)

    # ------------------------------------------------------------------ bots

    async def _bot(self, table: LiveTable, job: Job) -> None:
        manager = self.manager
        if table.state.step != job.step:
            async with table.lock:
                await manager.refresh(table)
        state = table.state
        job_now = manager.bot_job(table)
        if state.step != job.step or job_now is None or job_now.seat != job.seat:
            await manager.run_db(manager.store.finish_job, job)  # moot: the table moved on
            return
        notation = await self.bot_move(table, state, job.seat)
        if await manager.whole(self._commit(table, state, job, notation)):
            manager.after_change(table)

    async def _commit(self, table: LiveTable, state: State, job: Job, notation: str) -> bool:
        manager = self.manager
        async with table.lock:
            if table.state.step != job.step:
                return False  # moved on while the bot thought (its job went with the move)
            try:
                await manager.commit(table, job.seat, notation)
            except Conflict:
                await manager.refresh(table)  # another process played this job meanwhile
                return True
            return True

    async def bot_move(self, table: LiveTable, state: State, seat: int) -> str:
        """The bot's move at ``state``: its agent within the bot's time cap; if that fails or
        runs out of time, the game's bot; if that fails too, a random legal move (a table must
        never stall). Seeded by the table and the step: any process plays the same move."""
        manager = self.manager
        row = table.seat_row(seat)
        assert row.agent is not None
        seed = derive_seed(table.row.seed, f"bot/{state.step}")
        seen = state.seat(seat)
        cap = manager.caps.bot_seconds
        tries = [(row.agent, agent_params(row.agent, row.budget))]
        if row.agent != "heuristic":
            tries.append(("heuristic", {}))
        for agent, params in tries:
            try:
                return await manager.bots.choose(
                    table.id, seen, agent, capped(agent, params, cap), seed=seed, cap=cap
                )
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.error(
                    "table %s: agent %s failed at step %d (%s)",
                    table.id,
                    agent,
                    state.step,
                    type(error).__name__,
                )
        legal = seen.legal_actions
        return str(legal[Rng(seed).below(len(legal))])

    # ------------------------------------------------------------------ hints

    async def _hint(self, table: LiveTable, job: Job) -> None:
        manager = self.manager
        if table.state.step != job.step:
            async with table.lock:
                await manager.refresh(table)
        state = table.state
        if state.step != job.step or state.current_player != job.seat or state.is_over:
            result: dict[str, Any] = {"moot": True}
        else:
            result = await self.think_hint(table, state, job.seat)
        text = json.dumps(result, ensure_ascii=False)
        await manager.run_db(manager.store.finish_job, job, text)
        manager.answer_hint(table, job.step, job.seat, text)

    async def think_hint(self, table: LiveTable, state: State, seat: int) -> dict[str, Any]:
        manager = self.manager
        caps = manager.caps
        agent = strongest_agent()
        seed = derive_seed(table.row.seed, f"hint/{state.step}")
        seen = state.seat(seat)
        params = hint_params(agent, manager.hint_budget, caps.hint_seconds)
        try:
            notation = await manager.bots.choose(
                table.id, seen, agent, params, seed=seed, cap=caps.hint_seconds
            )
        except TimeoutError:
            # The strongest agent could not finish in time: the game's bot, which plays at
            # once (given a bot's time, on a machine that may be busy).
            agent = "heuristic"
            notation = await manager.bots.choose(
                table.id, seen, agent, {}, seed=seed, cap=caps.bot_seconds
            )
        action = state.parse(notation)
        return {"agent": agent, "action": describe_action(state, action)}

    async def await_hint(
        self, table: LiveTable, key: tuple[int, int], pending: asyncio.Future[Any]
    ) -> Any:
        """The answer to a hint asked here, whichever process thinks it out: a note says when
        it is ready, and the database is looked at now and then in case a note was lost."""
        manager = self.manager
        step, seat = key
        while True:
            done, _ = await asyncio.wait({pending}, timeout=0.5)
            if done:
                return pending.result()
            text = await manager.run_db(manager.store.job_result, table.id, step, hint_kind(seat))
            if text is not None:
                manager.answer_hint(table, step, seat, text)
