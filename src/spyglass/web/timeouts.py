"""The timekeeper: a table's clocks kept with its moves, and time-outs applied by the server
itself, once, whoever is connected.

Each server process runs one :class:`Timekeeper`. Its moves' writes carry the clocks
(:meth:`Timekeeper.after_move`, the same compare-and-set transaction as the move). Its loop looks
in the database for running clocks whose deadline has passed (``spyglass_clocks.deadline``,
indexed), whatever table they belong to and whether or not anyone watches it, sleeps until the
next deadline (or :data:`POLL` at most, for deadlines another process set), and applies each
time-out it finds as one write that expects the clocks' ``seq`` it read: when several processes
see the same deadline pass, the first write wins and the others find the clocks changed and do
nothing. A deadline that passed while every server was stopped is found by the first scan of
the first server to start. See :mod:`.clocks` for what a time-out does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from spyglass.engine import State

from . import clockstore
from .clocks import DEFAULT_BOT, Clock, Timeout, TimeUp, timeout_outcome
from .store import JOB_BOT, OVER, PLAYING, WAITING_BOT, Also, Conflict, Job
from .tables import BOT, HUMAN, LiveTable, TableError, final_result

if TYPE_CHECKING:
    from .manager import TableManager

log = logging.getLogger("spyglass.web")

POLL = 2.0  # seconds between two looks at the deadlines when none is nearer
BATCH = 16  # time-outs taken per look
RETRY = 5.0  # seconds before a time-out that failed (the database away) is tried again
STOP_WAIT = 5.0


class Timekeeper:
    """Keeps the clocks of the tables of one server process and applies their time-outs."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._failed: dict[str, float] = {}  # table -> not again before (monotonic)
        self._until = math.inf  # when the loop looks next (server time), if nobody wakes it

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._loop())

    def wake(self) -> None:
        """A deadline may have passed or come nearer: look now."""
        self._wake.set()

    def deadline(self, clock: Clock | None) -> None:
        """A clock was written: look now if it runs out before the loop's next look (most
        moves push the next deadline later, and cost the loop nothing)."""
        deadline = None if clock is None else clock.deadline
        if deadline is not None and deadline < self._until:
            self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=STOP_WAIT)

    # ------------------------------------------------------------------ with the moves

    def after_move(
        self, table: LiveTable, seat: int, new: State, now: float
    ) -> tuple[Also | None, Clock | None]:
        """The clocks' write for ``seat``'s move to ``new`` (None without clocks), and the
        clocks after it. 409 when the mover's time has run out: its time-out is due instead."""
        clock = table.clock
        if clock is None:
            return None, None
        after = None if new.is_over else new.current_player
        try:
            moved = clock.moved(seat, after, now)
        except TimeUp:
            self.wake()
            raise TableError(409, "your time has run out", rule="time") from None
        return clockstore.updater(table.id, moved, clock.seq), moved

    def after_undo(
        self, table: LiveTable, seat: int, now: float
    ) -> tuple[Also | None, Clock | None]:
        """The clocks' write for ``seat``'s undo (undo gives back no time, see
        :meth:`.Clock.undone`); 409 when it would leave the seat no time."""
        clock = table.clock
        if clock is None:
            return None, None
        try:
            undone = clock.undone(seat, now)
        except TimeUp:
            raise TableError(
                409,
                "undo would leave you no time: it takes back the time the move earned",
                rule="time",
            ) from None
        return clockstore.updater(table.id, undone, clock.seq), undone

    def bucket(self, table: LiveTable) -> float:
        """Part of the key of a table's cached state messages: while a clock runs, the time
        left it shows is renewed four times a second."""
        clock = table.clock
        if clock is None or clock.running is None:
            return 0.0
        return float(int(time.time() * 4))

    # ------------------------------------------------------------------ other processes

    async def sync(self, table: LiveTable) -> bool:
        """Bring the table's status, seats and clocks up to what the database holds, if a
        time-out, a join or a start changed them (here or in another process). True if they
        changed. The caller holds the table's lock."""
        if table.clock is None and table.started:
            return False  # nothing of the kind can change at this table
        manager = self.manager
        found = await manager.run_db(clockstore.meta, manager.store, table.id)
        if found is None:
            return False
        same_clock = (found.clock is None and table.clock is None) or (
            found.clock is not None and table.clock is not None and found.clock == table.clock
        )
        row = table.row
        if (
            same_clock
            and found.status == row.status
            and found.waiting == row.waiting
            and found.seats == row.seats
        ):
            return False
        row.status, row.waiting, row.seats = found.status, found.waiting, found.seats
        table.clock = found.clock
        table.touched()
        return True

    # ------------------------------------------------------------------ time-outs

    async def _loop(self) -> None:
        manager = self.manager
        while True:
            self._wake.clear()
            # while looking, any deadline written wakes the next look at once: the queries
            # may have run before it was written
            self._until = math.inf
            timeout = POLL
            try:
                now = time.time()
                expired = await manager.run_db(clockstore.due, manager.store, now, BATCH)
                clock_now = time.monotonic()
                failing = False
                for table_id in expired:
                    if self._failed.get(table_id, 0.0) > clock_now:
                        failing = True  # tried a moment ago: not again at once
                    else:
                        await self.expire(table_id)
                upcoming = await manager.run_db(clockstore.next_deadline, manager.store)
                if upcoming is not None and not failing:
                    timeout = min(POLL, max(0.01, upcoming - time.time()))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away for a moment: try again later
                log.error("looking for time-outs failed: %s", type(error).__name__)
            self._until = time.time() + timeout
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    async def expire(self, table_id: str) -> bool:
        """Apply the time-out of this table's running clock if its deadline has passed and
        nobody applied it first; True if this call applied it."""
        manager = self.manager
        try:
            async with manager.hold(table_id) as table:
                applied = await manager.whole(self._expire(table))
                if applied:
                    manager.after_change(table)  # shown, and rated if it ended
                    manager.jobs.wake()
                self._failed.pop(table_id, None)
                return applied
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.error("table %s: its time-out failed: %s", table_id, error)
            self._failed[table_id] = time.monotonic() + RETRY
            return False

    async def _expire(self, table: LiveTable) -> bool:
        manager = self.manager
        async with table.lock:
            for _attempt in range(3):
                await manager.refresh(table)  # moves, seats and clocks as the database has them
                clock = table.clock
                now = time.time()
                if clock is None or not clock.expired(now):
                    return False  # a move, or another process, came first
                seat = clock.running
                if table.read_only or table.over or table.state.current_player == seat:
                    break
                # the moves and the clocks were read apart, and a move came in between: the
                # clocks are a move ahead of this copy, which the next refresh catches up
            else:
                raise RuntimeError("the clocks are not at the position the moves are")
            state = table.state
            assert seat is not None
            if table.read_only or table.over:
                # a table that cannot go on: its clock stops rather than time out again and
                # again
                log.error("table %s: a clock ran out where no move can be made", table.id)
                await manager.run_db(
                    clockstore.stop, manager.store, table.id, clock.seq, clock.stop()
                )
                table.clock = clock.stop()
                return False
            row = table.seat_row(seat)
            then = timeout_outcome(state.players, clock.out, seat, clock.spec.on_timeout)
            timeout = Timeout(seat, state.step, now, then, row.name)
            ends = then == "lost"
            after = clock.timed_out(timeout, bot_takes_seat=not ends)
            seats: clockstore.SeatChange = {}
            job = None
            if not ends:
                seats[seat] = (BOT, f"{row.name} ({DEFAULT_BOT} bot)", DEFAULT_BOT, None)
                people = [s.seat for s in table.row.seats if s.kind == HUMAN and s.seat != seat]
                due = now + (manager.bot_delay if people else 0.0)
                job = Job(table.id, state.step, JOB_BOT, seat, due)
            result = final_result(state, after.out, True) if ends else None
            change = clockstore.Change(
                table.id,
                state.step,
                OVER if ends else PLAYING,
                None if ends else WAITING_BOT,
                seats,
                after,
                clock.seq,
                job,
                result=None if result is None else json.dumps(result),
            )
            try:
                await manager.run_db(clockstore.write_change, manager.store, change)
            except Conflict:
                await manager.refresh(table)  # a move or another process came first
                return False
            self.apply(table, change)
            log.info(
                "table %s: seat %d ran out of time at step %d (%s)",
                table.id,
                seat,
                state.step,
                {"bot": "a bot takes the seat", "out": "out; a bot plays it on", "lost": "lost"}[
                    then
                ],
            )
            return True

    @staticmethod
    def apply(table: LiveTable, change: clockstore.Change) -> None:
        """A change written to the database, now in this process's copy."""
        row = table.row
        for seat, (kind, name, agent, budget) in change.seats.items():
            row.seats[seat] = replace(
                row.seats[seat], kind=kind, name=name, agent=agent, budget=budget, invite_hash=None
            )
        row.status, row.waiting = change.status, change.waiting
        if change.clock is not None:
            table.clock = change.clock
        if change.status == OVER:
            row.waiting = None
        table.changed()


__all__ = ["Timekeeper"]
