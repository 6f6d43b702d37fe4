"""Open tables: public tables with empty seats that anyone may join from the lobby.

A table made with one or more *open* seats (``{"kind": "human", "open": true}``) is listed in
the lobby with its empty seats until it starts, and waits (no moves, no clock running) until
every seat is taken, by people joining its open seats and claiming its invites, or until its
host starts it with bots in the seats still empty. A join is a compare-and-set in the database
(:func:`.clockstore.join`): of two people joining the same seat at once, on one process or two,
exactly one gets it; the other is told the seat is taken. The join mints the seat's token and
hands it to the joiner alone, as a claimed invite does. Private tables are invite only: they
have no open seats and are never listed.
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING, Any

from spyglass.engine import RulesError

from . import auth, clockstore
from .bots import agent_params
from .clocks import DEFAULT_BOT
from .limits import Refused
from .names import BadName, bot_name, check_unique, clean_name
from .store import JOB_BOT, PLAYING, WAITING_BOT, WAITING_HUMAN, Conflict, Job, SeatRow
from .tables import BOT, HUMAN, LiveTable, TableError

if TYPE_CHECKING:
    from .manager import TableManager

RETRIES = 3  # attempts at a start that found the table changed meanwhile


def empty(seat: SeatRow) -> bool:
    """A person's seat nobody holds: open to join, or invited and not claimed yet."""
    return seat.kind == HUMAN and seat.token_hash is None


class Lobby:
    """Joining open tables and starting them, for one server process."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    async def open_tables(self, limit: int, game: str | None = None) -> list[dict[str, Any]]:
        manager = self.manager
        return await manager.run_db(clockstore.open_tables, manager.store, limit, game)

    # ------------------------------------------------------------------ joining

    async def join(self, table: LiveTable, seat: int, name: str | None, client: str) -> str:
        """Give the open seat ``seat`` to the caller under ``name``: its new token, for the
        caller alone. The table starts when this was its last empty seat."""
        manager = self.manager
        try:
            manager.rates.take("joins", client)
        except Refused as refused:
            raise TableError(429, refused.message, retry_after=refused.retry_after) from None
        manager.writable(table)
        if table.row.private:
            raise TableError(403, "a private table is invite only: ask its host for a link")
        if not 0 <= seat < len(table.row.seats):
            raise TableError(422, f"seat is from 0 to {len(table.row.seats) - 1}")
        try:
            chosen = clean_name(name, seat)
        except BadName as error:
            raise TableError(422, str(error)) from None
        token = auth.new_token()
        await manager.whole(self._join(table, seat, chosen, auth.token_hash(token)))
        await self.start_if_full(table)
        return token

    async def _join(self, table: LiveTable, seat: int, name: str, token_hash: str) -> None:
        manager = self.manager

        def check(seats: list[SeatRow]) -> None:
            row = seats[seat]
            if row.kind != HUMAN or row.invite_hash is not None:
                raise Conflict(f"seat {seat} is not an open seat")
            if row.token_hash is not None:
                raise Conflict(f"seat {seat} has been taken")
            check_unique((s.seat, name if s.seat == seat else s.name) for s in seats)

        async with table.lock:
            try:
                seats = await manager.run_db(
                    partial(
                        clockstore.join,
                        manager.store,
                        table.id,
                        seat=seat,
                        token_hash=token_hash,
                        name=name,
                        check=check,
                    )
                )
            except Conflict as error:
                await manager.timekeeper.sync(table)
                raise TableError(409, str(error)) from None
            except BadName as error:
                raise TableError(422, str(error)) from None
            table.row.seats = seats
            table.touched()
        manager.broadcast(table)

    # ------------------------------------------------------------------ starting

    async def start(
        self,
        table: LiveTable,
        host_key: str | None,
        agent: str | None = None,
        budget: int | None = None,
    ) -> None:
        """The host starts an open table now: its empty seats (open, or invited and not
        claimed) go to bots (default: the game's bot), unused invites stop working."""
        manager = self.manager
        if not auth.matches(host_key, table.row.host_hash):
            raise TableError(403, "only the host of this table can start it (header X-Host-Key)")
        manager.writable(table)
        agent = agent or DEFAULT_BOT
        try:
            agent_params(agent, budget, manager.caps.max_budget, table.state.game)
        except RulesError as error:
            raise TableError(422, str(error)) from None
        if table.started:
            raise TableError(409, "the game has already started")
        if not await manager.whole(self._start(table, (agent, budget))):
            raise TableError(409, "the game has already started")

    async def start_if_full(self, table: LiveTable) -> bool:
        """Start an open table whose every seat is now taken (after a join or a claim)."""
        if table.started or any(empty(s) for s in table.row.seats):
            return False
        return await self.manager.whole(self._start(table, None))

    async def recover(self) -> None:
        """At a server's start: start the open tables filled by a process that stopped
        before it could start them."""
        manager = self.manager
        for table_id in await manager.run_db(clockstore.waiting_but_full, manager.store):
            try:
                async with manager.hold(table_id) as table:
                    await self.start_if_full(table)
            except TableError:
                continue

    async def _start(self, table: LiveTable, fill: tuple[str, int | None] | None) -> bool:
        """Start the game: empty seats to ``fill``'s agent (None: only if there are none);
        the clock of the first person to move starts now; the first bot's move is queued.
        False if it has started already (or, without ``fill``, is not full)."""
        manager = self.manager
        for _attempt in range(RETRIES):
            async with table.lock:
                await manager.refresh(table)
                if table.started or table.read_only:
                    return False
                change = self._start_change(table, fill)
                if change is None:
                    return False
                try:
                    await manager.run_db(
                        partial(clockstore.write_change, manager.store, change, starting=True)
                    )
                except Conflict:
                    continue  # someone joined, claimed or started meanwhile: look again
                manager.timekeeper.apply(table, change)
            manager.broadcast(table)
            manager.jobs.wake()
            manager.timekeeper.deadline(table.clock)
            return True
        raise TableError(503, "the table changed while it was being started; try again")

    def _start_change(
        self, table: LiveTable, fill: tuple[str, int | None] | None
    ) -> clockstore.Change | None:
        empties = [s.seat for s in table.row.seats if empty(s)]
        if empties and fill is None:
            return None
        seats: clockstore.SeatChange = {}
        if fill is not None:
            agent, budget = fill
            for seat in empties:
                seats[seat] = (BOT, bot_name(seat, agent), agent, budget)
        kinds = [BOT if s.seat in seats else s.kind for s in table.row.seats]
        first = table.state.current_player
        now = time.time()
        bot_first = first is not None and kinds[first] == BOT
        clock = table.clock
        after = None
        if clock is not None:
            after = clock.bots(list(seats)).run(None if bot_first else first, now)
        job = None
        if bot_first and first is not None:
            due = now + (self.manager.bot_delay if HUMAN in kinds else 0.0)
            job = Job(table.id, table.state.step, JOB_BOT, first, due)
        return clockstore.Change(
            table.id,
            table.state.step,
            PLAYING,
            WAITING_BOT if bot_first else WAITING_HUMAN,
            seats,
            after,
            None if clock is None else clock.seq,
            job,
        )
