"""The table manager: the one authority over every table a server process serves.

**One authority per table.** A process holds at most one live :class:`~.tables.LiveTable` per table
id: every request resolves the id through :meth:`TableManager.hold`, which pins the live object
while the request uses it; a table leaves memory only when nobody in this process watches or
uses it, so no request ever acts on a second copy.

**Every change serialised and whole.** A change takes the table's lock, is checked against the
rules on a copy of the state, is committed to the database, and only then is swapped in and sent
to every connection, each seat getting only what it may see. The commit and the swap run as a
task of their own that the request merely awaits: a request abandoned half way (a client gone, a
server stopping) either takes effect whole or changes nothing.

**The database is the arbiter, also between processes.** Several server processes may serve the
same tables over one PostgreSQL database. Every move is written as a compare-and-set on the
table's step (:mod:`.store`), so it is committed exactly once and in order whichever process
took it; a process whose copy was behind catches up from the database and checks the move again.
Each write also sends a note on the database's channel (:mod:`.bus`), and every other process
holding that table brings its copy up to date and tells its own connections at once.

**Bots and hints are jobs in the database** (:mod:`.jobs`): any process's workers take them, and
a job whose process died is taken over when its lease runs out and played again to the same move
(seeded by table and step).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

import spyglass
from spyglass.engine import Game, IllegalAction, RulesError, SpyglassError, State, fresh_seed

from . import auth, catalogue, clockstore
from . import messages as channel
from .bots import HINT_BUDGET, Caps, agent_params
from .bus import RESYNC, LocalBus, Note, make_bus
from .clocks import Clock, ClockSpec
from .jobs import JobRunner
from .limits import ConnectionCount, Limits, RateCounter, Refused
from .lobby import Lobby
from .names import BadName, bot_name, check_unique, clean_name
from .ratings import Ratings
from .store import (
    ARCHIVED,
    JOB_BOT,
    OVER,
    PLAYING,
    WAITING_BOT,
    WAITING_HUMAN,
    WAITING_PLAYERS,
    Conflict,
    Job,
    MessageRow,
    SeatRow,
    Store,
    StoreError,
    TableRow,
    hint_kind,
)
from .tables import (
    BOT,
    HUMAN,
    Close,
    Created,
    LiveTable,
    Outgoing,
    SeatSpec,
    Subscriber,
    TableError,
    describe_action,
    final_result,
    restore,
    table_result,
)
from .timeouts import Timekeeper
from .workers import BotPool

log = logging.getLogger("spyglass.web")

MAX_SEED = 2**63 - 1
ARCHIVE_EVERY = 3600.0  # seconds between two looks for idle tables to archive
PRESENCE_EVERY = 20.0  # seconds between two reports of who is connected here
PRESENCE_LASTS = 60.0  # ... after which another process's report is stale (it may have died)
IDLE = 120.0  # seconds a table nobody here watches or uses stays in this process's memory
RETRIES = 3  # attempts at a change whose copy was behind the database
CLOSE_WAIT = 5.0  # seconds a stopping process waits for each group of its tasks

T = TypeVar("T")


def _refused(refused: Refused) -> TableError:
    return TableError(429, refused.message, retry_after=refused.retry_after)


def process_name() -> str:
    """This server process, as other processes and the job queue know it."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class TableManager:
    """Creates, restores and runs tables; the one authority over their states."""

    def __init__(
        self,
        store: Store,
        bots: BotPool,
        *,
        bot_delay: float = 0.0,
        hint_budget: int = HINT_BUDGET,
        caps: Caps | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.bots = bots
        self.bot_delay = bot_delay
        self.hint_budget = hint_budget
        self.caps = caps or Caps()
        self.limits = limits or Limits()
        self.rates = RateCounter(self.limits)
        self.connections = ConnectionCount(self.limits)
        self.origin = store.origin or process_name()
        store.origin = self.origin
        self.bus = make_bus(store.libpq_url, self.origin)
        self.jobs = JobRunner(self)
        self.timekeeper = Timekeeper(self)  # clocks and time-outs (web/timeouts.py)
        self.lobby = Lobby(self)  # open tables: joins and starts (web/lobby.py)
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        # SQLite has one writer: one database thread keeps writes in order without waiting on
        # locks. PostgreSQL takes several at once.
        self._db = ThreadPoolExecutor(1 if store.is_sqlite else 4, thread_name_prefix="spyglass-db")
        self._tasks: set[asyncio.Task[Any]] = set()
        self.ratings = Ratings(store)

    # ------------------------------------------------------------------ plumbing

    async def run_db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, partial(fn, *args))

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def whole(self, coro: Awaitable[T]) -> T:
        """Run ``coro`` to its end even if the caller is cancelled meanwhile: a change to a
        table is committed and swapped in together, or not at all."""
        return await asyncio.shield(self.spawn(coro))

    async def start(self) -> int:
        """Listen to the other processes, archive the tables idle too long, queue the bot
        moves an older version left waiting, and start taking jobs. Tables load when someone
        (a request, a job) asks for them. Returns how many bot moves it queued."""
        self.bots.warm()
        await self.bus.start(self._hear)
        await self.archive_idle()
        queued = 0
        for table_id, _step in await self.run_db(self.store.tables_without_bot_job):
            try:
                async with self.hold(table_id) as table:
                    await self.run_db(self.store.set_waiting, table.id, table.waiting())
                    job = self.bot_job(table)
                    if job is not None:
                        await self.run_db(self.store.add_job, job)
                        queued += 1
            except TableError:
                continue
        self.jobs.start()
        await self.lobby.recover()
        self.timekeeper.start()
        self.spawn(self._housekeeping())
        self.spawn(self.rate_unrated())
        return queued

    async def close(self) -> None:
        """Stop: hand the jobs back, close every connection (1012: reconnect elsewhere), stop
        the tasks. Every wait is bounded (:data:`CLOSE_WAIT`): a task that does not end when
        cancelled (a bot thread cannot be interrupted) must not keep a stopping process, or
        a rolling restart, waiting."""
        await self.jobs.stop()
        await self.timekeeper.stop()
        for table in self.tables.values():
            for sub in list(table.subscribers):
                self._close_sub(table, sub, Close(1012))
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            _done, stuck = await asyncio.wait(tasks, timeout=CLOSE_WAIT)
            if stuck:
                log.warning("%d tasks did not stop in %g s: left behind", len(stuck), CLOSE_WAIT)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.bus.close()), CLOSE_WAIT)
        self._db.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ housekeeping

    async def archive_idle(self, now: float | None = None) -> list[str]:
        """Archive the unfinished tables nobody moved at for ``limits.archive_days``: they are
        kept, no longer listed, and not loaded at start; a move brings one back."""
        before = (time.time() if now is None else now) - self.limits.archive_days * 86400.0
        ids = await self.run_db(self.store.archive_idle, before)
        for table_id in ids:
            table = self.tables.get(table_id)
            if table is not None:
                table.row.status = ARCHIVED
                self.release(table)
        if ids:
            log.info("archived %d tables idle for %g days", len(ids), self.limits.archive_days)
        return ids

    async def _housekeeping(self) -> None:
        """Now and then: archive idle tables, forget tables nobody here uses, and tell the
        other processes who is connected here."""
        last_archive = time.monotonic()
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            try:
                now = time.monotonic()
                if now - last_archive > ARCHIVE_EVERY:
                    last_archive = now
                    await self.archive_idle()
                for table in list(self.tables.values()):
                    if table.subscribers:
                        await self.bus.publish(table.id, "presence", sorted(table.local_seats()))
                    else:
                        self.release(table, idle=IDLE)
            except Exception as error:  # a database hiccup: try again next time
                log.error("housekeeping failed: %s", type(error).__name__)

    # ------------------------------------------------------------------ creating

    async def create(
        self,
        game_id: str,
        options: dict[str, Any],
        players: int | None,
        seats: list[SeatSpec],
        seed: int | None = None,
        *,
        private: bool = False,
        client: str | None = None,
        clock: ClockSpec | None = None,
    ) -> Created:
        """A new table, with the secrets of its creator (shown once, never stored); with
        ``clock``, its clocks; with open seats, it waits for people to join them."""
        if client is not None:
            try:
                self.rates.take("tables", client)
            except Refused as refused:
                raise _refused(refused) from None
        try:
            game = spyglass.load(game_id, **options)
            n = game.check_players(players if players is not None else len(seats) or None)
        except RulesError as error:
            raise TableError(422, str(error)) from None
        if not seats:  # by default: one person, and the game's bot in every other seat
            seats = [SeatSpec(HUMAN)] + [SeatSpec(BOT, "heuristic") for _ in range(n - 1)]
        if len(seats) != n:
            raise TableError(
                422, f"{game.info.title} with {n} players needs {n} seats, not {len(seats)}"
            )
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise TableError(422, f"a seed is a whole number from 0 to {MAX_SEED}")
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        first_person = next(
            (i for i, s in enumerate(seats) if s.kind == HUMAN and not s.open), None
        )
        rows = [
            self._seat_row(game, index, spec, index == first_person, tokens, invites)
            for index, spec in enumerate(seats)
        ]
        try:
            check_unique((r.seat, r.name) for r in rows)
        except BadName as error:
            raise TableError(422, str(error)) from None
        opened = any(spec.open for spec in seats)
        if opened and private:
            raise TableError(422, "a private table is invite only: it can have no open seat")
        state = game.new_state(players=n, seed=fresh_seed() if seed is None else seed)
        record = state.record()
        host_key = auth.new_token()
        row = TableRow(
            id=auth.new_table_id(),
            game=game.info.id,
            options=dict(record["options"]),
            players=n,
            seed=record["seed"],
            decks=record["decks"],
            seats=rows,
            private=private,
            host_hash=auth.token_hash(host_key),
        )
        table = LiveTable(row=row, state=state)
        if opened:
            row.waiting = WAITING_PLAYERS  # nobody moves until its seats are taken
        row.waiting = table.waiting()
        row.to_move = state.current_player
        also = None
        if clock is not None:
            table.clock = Clock.new(clock, [r.kind == HUMAN for r in rows])
            if table.started and not table.is_bot(state.current_player):
                table.clock = table.clock.run(state.current_player, time.time())
            also = clockstore.inserter(row.id, table.clock)
        job = self.bot_job(table)
        try:
            await self.run_db(partial(self.store.create, row, job, also=also))
        except StoreError as error:
            raise TableError(422, str(error)) from None
        self.tables[row.id] = table
        if job is not None:
            self.jobs.wake()
        self.timekeeper.deadline(table.clock)
        return Created(table, tokens, invites, host_key)

    def _seat_row(  # noqa: PLR0917 - one seat of a new table and what it adds to
        self,
        game: Game,
        index: int,
        spec: SeatSpec,
        first_person: bool,
        tokens: dict[int, str],
        invites: dict[int, str],
    ) -> SeatRow:
        if spec.kind == HUMAN:
            if spec.agent is not None or spec.budget is not None:
                raise TableError(422, f"seat {index} is a human's: it takes no agent or budget")
            try:
                name = clean_name(spec.name, index)
            except BadName as error:
                raise TableError(422, str(error)) from None
            if spec.open:  # empty: anyone may join it from the lobby (web/lobby.py)
                if spec.invite:
                    raise TableError(422, f"seat {index} is open to anyone: it takes no invite")
                return SeatRow(index, HUMAN, name)
            invited = (not first_person) if spec.invite is None else spec.invite
            if invited:
                invite = auth.new_token()
                invites[index] = invite
                return SeatRow(index, HUMAN, name, invite_hash=auth.token_hash(invite))
            token = auth.new_token()
            tokens[index] = token
            return SeatRow(index, HUMAN, name, token_hash=auth.token_hash(token))
        if spec.kind != BOT:
            raise TableError(422, f"seat {index}: a seat is 'human' or 'bot', not {spec.kind!r}")
        if spec.invite or spec.open:
            raise TableError(
                422, f"seat {index} is a bot's: nobody can be invited to it or join it"
            )
        agent = spec.agent or "heuristic"
        try:
            agent_params(agent, spec.budget, self.caps.max_budget, game)
            given = clean_name(spec.name, index) if spec.name else None
        except (RulesError, BadName) as error:
            raise TableError(422, f"seat {index}: {error}") from None
        shown = f"{given} ({agent} bot)" if given else bot_name(index, agent)
        return SeatRow(index, BOT, shown, agent, spec.budget, None)

    def bot_job(self, table: LiveTable, state: State | None = None) -> Job | None:
        """The job of the bot to move at this table's position (or at ``state``), if a bot is
        to move."""
        state = table.state if state is None else state
        seat = state.current_player
        if table.read_only or state.is_over or seat is None or not table.is_bot(seat):
            return None
        if table.over or not table.started:  # ended on time, or waits for players
            return None
        delay = self.bot_delay if table.humans else 0.0
        return Job(table.id, state.step, JOB_BOT, seat, time.time() + delay)

    # ------------------------------------------------------------------ finding

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[LiveTable]:
        """The live table with this id, kept in memory while the caller uses it."""
        table = await self.get(table_id)
        table.pins += 1
        table.used = time.monotonic()
        try:
            yield table
        finally:
            table.pins -= 1
            self.release(table)

    async def get(self, table_id: str) -> LiveTable:
        """The live table with this id, loading it from the database if need be (one load
        however many requests ask at once)."""
        if len(table_id) > 64:
            raise TableError(404, "there is no such table")
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.get_running_loop().create_future()
            self._loading[table_id] = loading
            try:
                table = await self._load(table_id)
            except BaseException as error:
                loading.set_exception(error)
                loading.exception()  # retrieved: other waiters re-raise it themselves
                raise
            else:
                loading.set_result(table)
            finally:
                del self._loading[table_id]
            return table
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> LiveTable:
        rows = await self.run_db(self.store.load, table_id)
        if not rows:
            raise TableError(404, f"there is no table {table_id!r}")
        try:
            table = restore(rows[0])
        except SpyglassError as error:
            raise TableError(
                409, f"table {table_id} cannot be opened: its stored set-up is damaged ({error})"
            ) from None
        table.clock = await self.run_db(clockstore.load, self.store, table_id)
        self.tables[table_id] = table
        return table

    async def refresh(self, table: LiveTable) -> bool:
        """Bring the live table up to what the database holds: its moves, then its seats and
        clocks (a time-out, a join, a start). True if anything changed."""
        moved = await self._refresh_moves(table)
        return await self.timekeeper.sync(table) or moved

    async def _refresh_moves(self, table: LiveTable) -> bool:
        """Bring the live table up to what the database holds (another process changed it, or
        a write found the database elsewhere): the new moves are applied to the copy when it
        was merely behind, else the table is read again. True if anything changed."""
        found = await self.run_db(self.store.actions_after, table.id, table.state.step)
        if found is None:
            return False
        step, status, moves = found
        if step == table.state.step and status == table.row.status:
            return False
        if step > table.state.step and len(moves) == step - table.state.step:
            state = table.state.clone()
            try:
                for notation in moves:
                    state.apply(notation)
            except IllegalAction:
                pass  # not the moves this copy can make: reloaded below
            else:
                table.row.actions.extend(moves)
                table.row.status = status
                table.state = state
                table.changed()
                return True
        rows = await self.run_db(self.store.load, table.id)
        if rows:
            fresh = restore(rows[0])
            table.row, table.state, table.broken = fresh.row, fresh.state, fresh.broken
            table.changed()
        return True

    @staticmethod
    def authenticate(table: LiveTable, token: str | None) -> int | None:
        """The seat a token sits in; None without a token (a spectator); 403 for a token that
        is no seat's."""
        if token is None or token == "":
            return None
        # each seat's token and every device key of its account's sessions (accounts.py)
        return TableManager._seat_of(
            token, ((s.seat, [s.token_hash, *s.keys]) for s in table.row.seats)
        )

    @staticmethod
    def _seat_of(token: str, proofs: Iterable[tuple[int, list[str | None]]]) -> int:
        """The first seat one of whose hashes ``token`` matches, else 403. Every hash is
        compared, so the time taken does not tell which one matched."""
        found = None
        for seat, hashes in proofs:
            for stored_hash in hashes:
                if auth.matches(token, stored_hash) and found is None:
                    found = seat
        if found is None:
            raise TableError(403, "this token holds no seat at this table")
        return found

    async def identify(self, table: LiveTable, token: str | None) -> int | None:
        """:meth:`authenticate`, except that with other processes on the database a token this
        copy does not know is checked once against the seats as stored before it is refused:
        a token made a moment ago on another process (a rematch's seat, a device key, a
        claimed invite) may still be on its way here as a note. When it holds a seat there,
        this copy reads its seats again (as the note would have it do)."""
        try:
            return self.authenticate(table, token)
        except TableError:
            if isinstance(self.bus, LocalBus):
                raise
        assert token is not None  # no token is a spectator, never refused
        stored = await self.run_db(self.store.seat_hashes, table.id)
        found = self._seat_of(token, sorted(stored.items()))
        await self.reload_seats(table.id)
        return found

    @staticmethod
    def require_seat(seat: int | None, doing: str) -> int:
        if seat is None:
            raise TableError(401, f"{doing} needs your seat's token (header {auth.HEADER})")
        return seat

    @staticmethod
    def writable(table: LiveTable) -> None:
        if table.broken is not None:
            raise TableError(409, table.broken)

    # ------------------------------------------------------------------ seats: invites

    async def claim(self, table: LiveTable, invite: str, client: str) -> tuple[int, str]:
        """Use an invite: its seat gets a new token, returned to the claimer alone."""
        try:
            self.rates.take("claims", client)
        except Refused as refused:
            raise _refused(refused) from None
        if not invite:
            raise TableError(422, "a claim carries the invite from the link")
        token = auth.new_token()
        seat = await self.whole(self._claim(table, auth.token_hash(invite), auth.token_hash(token)))
        if seat is None:
            raise TableError(
                410,
                "this invite has already been used or was replaced; ask the host for a new link",
            )
        await self.lobby.start_if_full(table)  # an open table's last empty seat
        return seat, token

    async def _claim(self, table: LiveTable, invite_hash: str, token_hash: str) -> int | None:
        async with table.lock:
            seat = await self.run_db(self.store.claim, table.id, invite_hash, token_hash)
            if seat is None:
                return None
            row = table.seat_row(seat)
            row.token_hash, row.invite_hash = token_hash, None
            table.touched()
        self.broadcast(table)  # everyone sees the seat taken
        return seat

    async def reinvite(self, table: LiveTable, host_key: str | None, seat: int) -> str:
        """A new invite for a person's seat, by the host: the seat's old token and invite stop
        working at once (its connections are closed)."""
        if not auth.matches(host_key, table.row.host_hash):
            raise TableError(403, "only the host of this table can invite (header X-Host-Key)")
        self.writable(table)
        if not 0 <= seat < len(table.row.seats) or table.is_bot(seat):
            raise TableError(422, f"seat {seat} is not a person's seat at this table")
        invite = auth.new_token()
        await self.whole(self._reinvite(table, seat, auth.token_hash(invite)))
        return invite

    async def _reinvite(self, table: LiveTable, seat: int, invite_hash: str) -> None:
        async with table.lock:
            await self.run_db(self.store.reinvite, table.id, seat, invite_hash)
            row = table.seat_row(seat)
            row.token_hash, row.invite_hash = None, invite_hash
            # the seat is someone else's from now on: not its account's, nor its devices'
            row.keys, row.account_id, row.account = [], None, None
            table.touched()
        self._revoke(table, seat, "the host invited someone else to this seat")
        self.broadcast(table)

    async def rotate(self, table: LiveTable, seat: int, token: str) -> str:
        """A new token for a seat, asked by its holder: the old one stops working."""
        new = auth.new_token()
        if not await self.whole(self._rotate(table, seat, token, auth.token_hash(new))):
            raise TableError(403, "this token no longer holds the seat")
        return new

    async def _rotate(self, table: LiveTable, seat: int, token: str, new_hash: str) -> bool:
        async with table.lock:
            old_hash = auth.token_hash(token)
            if not await self.run_db(self.store.rotate, table.id, seat, old_hash, new_hash):
                return False
            table.seat_row(seat).token_hash = new_hash
        self._revoke(table, seat, "this seat's key was replaced")
        return True

    def _revoke(self, table: LiveTable, seat: int, why: str) -> None:
        """Close the connections of ``seat`` that proved it with a token it no longer has."""
        row = table.seat_row(seat)
        current = row.token_hash
        for sub in list(table.subscribers):
            if sub.seat == seat and sub.token_hash != current and sub.token_hash not in row.keys:
                error = {"type": "error", "status": 401, "error": why}
                self._close_sub(table, sub, Close(4401, error))

    # ------------------------------------------------------------------ what a seat sees

    def message(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        """Everything one connection of ``seat`` is sent: its view, its legal moves when it is
        to move, and the public summary."""
        state = table.state
        to_move = (
            seat is not None
            and state.current_player == seat
            and not table.is_bot(seat)
            and not table.read_only
            and table.started
            and not table.over
        )
        return {
            "type": "state",
            "table": table.summary(),
            "seat": seat,
            "view": state.view(seat),
            "legal": table.legal_json() if to_move else [],
            "can_undo": self._can_undo(table, seat),
        }

    def message_text(self, table: LiveTable, seat: int | None) -> str:
        """:meth:`message` as JSON text, built once per state and presence for each seat."""
        key = (table.version, table.connected(), self.timekeeper.bucket(table))
        if table.texts_of != key:
            table.texts.clear()
            table.texts_of = key
        text = table.texts.get(seat)
        if text is None:
            text = table.texts[seat] = json.dumps(self.message(table, seat), ensure_ascii=False)
        return text

    @staticmethod
    def _can_undo(table: LiveTable, seat: int | None) -> bool:
        return (
            seat is not None
            and table.state.players == 1
            and not table.is_bot(seat)
            and table.state.step > 0
            and not table.over
            and not table.read_only
        )

    # ------------------------------------------------------------------ moves

    async def act(
        self, table: LiveTable, seat: int, notation: str, expected_step: int | None = None
    ) -> None:
        """Apply a human seat's move, or refuse it with the rule that forbids it."""
        await self.whole(self._act(table, seat, notation, expected_step))

    async def _act(
        self, table: LiveTable, seat: int, notation: str, expected_step: int | None
    ) -> None:
        for attempt in range(RETRIES):
            async with table.lock:
                self.writable(table)
                if self._already_done(table, seat, notation, expected_step):
                    return  # a retried request whose move was stored: the same answer
                state = table.state
                if table.over:
                    raise TableError(409, "the game is over", rule="the game is over")
                if not table.started:
                    raise TableError(409, "the game has not started: it waits for players to join")
                if table.is_bot(seat):
                    raise TableError(403, f"seat {seat} is played by a bot")
                if expected_step is not None and expected_step != state.step:
                    raise TableError(
                        409,
                        f"the table has moved on: it is at step {state.step}, not {expected_step}",
                    )
                if state.current_player != seat:
                    who = state.current_player
                    raise TableError(
                        409,
                        f"it is not your turn: seat {who} is to move",
                        rule=f"seat {who} is to move",
                    )
                try:
                    await self.commit(table, seat, notation)
                except Conflict:
                    # Another process moved first: catch up, and check the move again.
                    if attempt + 1 == RETRIES:
                        raise TableError(
                            409, "the table has moved on meanwhile; nothing changed, look again"
                        ) from None
                    await self.refresh(table)
                    continue
            self.after_change(table)
            return

    @staticmethod
    def _already_done(
        table: LiveTable, seat: int, notation: str, expected_step: int | None
    ) -> bool:
        """Whether this very move, chosen at ``expected_step``, is the table's last one (a
        request sent again after a lost answer, e.g. through a balancer whose server died)."""
        state = table.state
        if expected_step is None or state.step != expected_step + 1 or not table.row.actions:
            return False
        before = table.previous
        if before is None or before.step != expected_step:
            before = spyglass.replay(table.row.record(), upto=expected_step)
        if before.current_player != seat:
            return False
        try:
            return str(before.parse(notation)) == table.row.actions[-1]
        except IllegalAction:
            return False

    async def commit(self, table: LiveTable, seat: int, notation: str) -> None:
        """Check, persist, then apply a move (the caller holds the table's lock). Raises
        :class:`Conflict` when the database holds another step (nothing changed)."""
        new = table.state.clone()
        try:
            action = new.parse(notation)
            new.apply(action)
        except IllegalAction as error:
            raise TableError(422, str(error), rule=error.rule) from None
        text = str(action)
        status = OVER if new.is_over else PLAYING
        if new.is_over:
            waiting = None
        else:
            waiting = WAITING_BOT if table.is_bot(new.current_player) else WAITING_HUMAN
        job = self.bot_job(table, new)
        also, clock = self.timekeeper.after_move(table, seat, new, time.time())
        kept = clock or table.clock
        out = kept.out if kept is not None else ()
        result = final_result(new, out, new.is_over)
        try:
            await self.run_db(
                partial(
                    self.store.append,
                    table.id,
                    new.step,
                    seat,
                    text,
                    status,
                    waiting=waiting,
                    job=job,
                    to_move=new.current_player,
                    result=None if result is None else json.dumps(result),
                    also=also,
                )
            )
        except Conflict:
            raise
        except Exception as error:
            log.error("table %s: the move could not be saved: %s", table.id, type(error).__name__)
            raise TableError(
                503, "the move could not be saved; nothing changed, try again"
            ) from None
        table.row.actions.append(text)
        table.row.status = status
        table.row.waiting = waiting
        table.previous = table.state
        table.state = new
        if clock is not None:
            table.clock = clock
            self.timekeeper.deadline(clock)
        table.changed()
        if job is not None:
            self.jobs.wake()

    def after_change(self, table: LiveTable) -> None:
        self.broadcast(table)
        if table.over and table.row.rated is None:
            self.spawn(self.rate(table))

    # ------------------------------------------------------------------ accounts, ratings

    async def rate(self, table: LiveTable) -> None:
        """Rate a finished table (ratings.py: once, whichever process gets there first) and
        show everyone the changes."""
        result = table_result(table)
        if result is None or table.read_only:
            return
        try:
            changes = await self.run_db(
                self.ratings.rate, table.id, table.row.game, table.row.seats, result
            )
        except Exception as error:  # the database away: the next start rates it
            log.error("table %s could not be rated: %s", table.id, type(error).__name__)
            return
        if changes is not None:
            table.row.rated = changes
            table.touched()
            self.broadcast(table)

    async def rate_unrated(self) -> None:
        """Rate the finished tables a stopped process left unrated."""
        try:
            for table_id in await self.run_db(self.ratings.unrated):
                async with self.hold(table_id) as table:
                    if table.over:
                        await self.rate(table)
        except Exception as error:
            log.error("rating the unrated tables failed: %s", type(error).__name__)

    async def reload_seats(self, table_id: str) -> None:
        """The seats of a table changed in the database (an account bound, a device key made
        or dropped): if this process holds the table, read them again, close the connections
        whose key no longer holds their seat, and show everyone."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            rows = await self.run_db(self.store.load, table.id)
            if rows:
                table.row.seats = rows[0].seats
                table.row.rematch = rows[0].rematch
                table.row.rated = rows[0].rated
                table.touched()
        for seat in {s.seat for s in table.subscribers if s.seat is not None}:
            self._revoke(table, seat, "this seat's key was replaced")
        self.broadcast(table)

    def adopt(self, table: LiveTable) -> None:
        """A table just created elsewhere in this process (a rematch): this is its copy."""
        self.tables.setdefault(table.id, table)
        if self.bot_job(table) is not None:
            self.jobs.wake()

    @staticmethod
    def message_json(table: LiveTable, message: dict[str, Any]) -> dict[str, Any]:
        """A message as sent, with its sender's and recipient's names."""
        seats = table.row.seats
        names = {"from_name": seats[message["from"]].name}
        if message.get("to") is not None:
            names["to_name"] = seats[message["to"]].name
        return {**message, **names}

    async def undo(self, table: LiveTable, seat: int) -> None:
        """Take back the last move of a solo game (not once it is over: by then every hidden
        card has been shown)."""
        await self.whole(self._undo(table, seat))

    async def _undo(self, table: LiveTable, seat: int) -> None:
        for attempt in range(RETRIES):
            async with table.lock:
                self.writable(table)
                if table.state.players != 1:
                    raise TableError(409, "undo is only for solo games")
                if table.is_bot(seat):
                    raise TableError(403, "a bot's seat cannot undo")
                if table.over:
                    raise TableError(
                        409,
                        "the game is over: its hidden cards have all been shown, so no move can"
                        " be taken back",
                    )
                if table.state.step == 0:
                    raise TableError(409, "there is no move to take back")
                try:
                    await self._take_back(table)
                except Conflict:
                    if attempt + 1 == RETRIES:
                        raise TableError(
                            409, "the table has moved on meanwhile; nothing changed, look again"
                        ) from None
                    await self.refresh(table)
                    continue
            self.after_change(table)
            return

    async def _take_back(self, table: LiveTable) -> None:
        step = table.state.step - 1
        record = table.row.record()
        record["actions"] = record["actions"][:step]
        state = spyglass.replay(record)
        waiting = WAITING_BOT if table.is_bot(state.current_player) else WAITING_HUMAN
        seat = table.state.current_player
        also, clock = (
            (None, None) if seat is None else self.timekeeper.after_undo(table, seat, time.time())
        )
        await self.run_db(
            partial(
                self.store.truncate,
                table.id,
                step,
                PLAYING,
                waiting,
                expected=step + 1,
                to_move=state.current_player,
                also=also,
            )
        )
        if clock is not None:
            table.clock = clock
        del table.row.actions[step:]
        table.row.status = PLAYING
        table.row.waiting = waiting
        table.state = state
        table.changed()

    async def hint(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """The move the strongest agent would make for this seat, with its sentence: a job that
        any process's workers think out once per position (later requests, on any process, get
        the same answer), within the hint's time cap, and limited per seat."""
        self.writable(table)
        state = table.state
        if table.over:
            raise TableError(409, "the game is over")
        if not table.started:
            raise TableError(409, "the game has not started: it waits for players to join")
        if state.current_player != seat or table.is_bot(seat):
            raise TableError(409, "a hint is for the seat to move")
        key = (state.step, seat)
        pending = table.hints.get(key)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            table.hints[key] = pending
            try:
                known = await self.run_db(
                    self.store.job_result, table.id, state.step, hint_kind(seat)
                )
                if known is None:
                    try:
                        self.rates.take("hints", table.id, seat)
                    except Refused as refused:
                        raise _refused(refused) from None
                    job = Job(table.id, state.step, hint_kind(seat), seat, time.time())
                    await self.run_db(self.store.add_job, job)
                    self.jobs.wake()
                else:
                    self.answer_hint(table, state.step, seat, known)
            except BaseException as error:
                table.hints.pop(key, None)
                if not pending.done():
                    pending.set_exception(error)
                    pending.exception()
                raise
        try:
            result = await asyncio.wait_for(
                self.jobs.await_hint(table, key, pending), self.caps.hint_seconds + 10.0
            )
        except TimeoutError:
            table.hints.pop(key, None)
            raise TableError(503, "no hint could be thought out in time; try again") from None
        if result is None or table.state.step != state.step:
            raise TableError(409, "the table moved on while the hint was thought out")
        return result

    def answer_hint(self, table: LiveTable, step: int, seat: int, text: str) -> None:
        """A hint's answer came (thought out here, or by another process): whoever waits for it
        gets it."""
        pending = table.hints.get((step, seat))
        if pending is None or pending.done():
            return
        data = json.loads(text)
        pending.set_result(data if data.get("action") else None)

    # ------------------------------------------------------------------ messages

    async def say(
        self, table: LiveTable, sub: Subscriber, text: object, to: object
    ) -> dict[str, Any]:
        """Send a message from ``sub``'s seat to everyone at the table (``to`` None) or to one
        seat. It is committed, then queued to every other connection that may read it; the
        sender's own connection gets the returned message as its reply. Rates and the number
        kept are counted per seat, however many connections the seat opens."""
        seat = self.require_seat(sub.seat, "a message")
        try:
            words = channel.clean_text(text)
            recipient = channel.check_recipient(to, table.row.seats, seat)
        except channel.MessageRefused as refused:
            raise TableError(refused.status, refused.text) from None
        try:
            self.rates.take("messages", table.id, seat)
        except Refused as refused:
            raise _refused(refused) from None
        return await self.whole(self._say(table, sub, seat, words, recipient))

    async def _say(
        self, table: LiveTable, sub: Subscriber, seat: int, words: str, recipient: int | None
    ) -> dict[str, Any]:
        async with table.chat_lock:
            for attempt in range(RETRIES):
                kept = table.row.messages
                mine = sum(1 for m in kept if m.seat == seat)
                if mine >= self.limits.messages_per_seat:
                    raise TableError(
                        409,
                        f"your seat has sent {self.limits.messages_per_seat} messages at this"
                        " table, the most one seat may",
                    )
                message = MessageRow(len(kept) + 1, seat, recipient, words, time.time())
                try:
                    await self.run_db(self.store.add_message, table.id, message)
                    break
                except Conflict:
                    # another process numbered a message first: take its messages, and again
                    await self._catch_up_messages(table)
                    if attempt + 1 == RETRIES:
                        raise TableError(503, "the message could not be saved; try again") from None
                except Exception as error:
                    log.error(
                        "table %s: a message could not be saved: %s",
                        table.id,
                        type(error).__name__,
                    )
                    raise TableError(503, "the message could not be saved; try again") from None
            kept.append(message)
        data = self.message_json(table, channel.message_json(message))
        for other in list(table.subscribers):
            if other is not sub and channel.visible(message, other.seat):
                self._deliver(table, other, {"type": "message", "message": data})
        return data

    async def _catch_up_messages(self, table: LiveTable) -> list[MessageRow]:
        """The messages other processes kept since this copy's last one, added to it."""
        kept = table.row.messages
        new = await self.run_db(self.store.messages_after, table.id, len(kept))
        kept.extend(new)
        return new

    def readable(
        self,
        table: LiveTable,
        seat: int | None,
        before: int | None = None,
        limit: int | None = None,
    ) -> dict[str, Any]:
        """A page of the messages ``seat`` (None: a spectator) may read, oldest first: the
        last ``limit`` (default: ``limits.history``) before position ``before`` in the seat's
        own list (default: the end). ``first`` is the position of the first one, so the page
        before it is ``before=first``; positions count only what the seat may read."""
        mine = [self.message_json(table, m) for m in channel.history(table.row.messages, seat)]
        end = len(mine) if before is None else max(0, min(before, len(mine)))
        size = self.limits.history if limit is None else limit
        start = max(0, end - size)
        return {"messages": mine[start:end], "first": start, "total": len(mine)}

    # ------------------------------------------------------------------ other processes

    async def catch_up(self, table: LiveTable) -> None:
        """Before a new connection's first state: with other processes on the database, make
        sure this copy is not behind (a note may still be on its way), so that nobody is shown
        a position the table has left and answers it with a stale move."""
        if isinstance(self.bus, LocalBus):
            return
        async with table.lock:
            changed = await self.refresh(table)
        if changed:
            self.broadcast(table)

    async def _hear(self, note: Note) -> None:
        """Another process changed a table: bring this process's copy up to date and tell the
        connections here."""
        table: LiveTable | None  # every table held here, or the one the note is about
        if note.kind == RESYNC:
            for table in list(self.tables.values()):
                async with table.lock:
                    changed = await self.refresh(table)
                await self._catch_up_messages(table)
                if changed:
                    self.broadcast(table)
            self.jobs.wake()
            return
        if note.kind == "job":
            self.jobs.wake()
            return
        table = self.tables.get(note.table)
        if table is None:
            return  # not held here: it will be read fresh when someone asks for it
        if note.kind in ("move", "undo"):
            async with table.lock:
                changed = await self.refresh(table)
            if changed:
                self.broadcast(table)
        elif note.kind == "seats":
            async with table.lock:
                rows = await self.run_db(self.store.load, table.id)
                if rows:
                    table.row.seats = rows[0].seats
                    table.touched()
            for seat in {s.seat for s in table.subscribers if s.seat is not None}:
                self._revoke(table, seat, "this seat's key was replaced")
            self.broadcast(table)
        elif note.kind in ("rematch", "rated"):
            await self.reload_seats(table.id)
        elif note.kind == "message":
            async with table.chat_lock:
                new = await self._catch_up_messages(table)
            for message in new:
                data = self.message_json(table, channel.message_json(message))
                for sub in list(table.subscribers):
                    if channel.visible(message, sub.seat):
                        self._deliver(table, sub, {"type": "message", "message": data})
        elif note.kind == "table":  # a time-out, a join, a start (web/timeouts.py, lobby.py)
            async with table.lock:
                changed = await self.timekeeper.sync(table)
            if changed:
                self.broadcast(table)
                self.jobs.wake()
            self.timekeeper.wake()
        elif note.kind == "hint":
            step, seat = note.value
            text = await self.run_db(self.store.job_result, table.id, step, hint_kind(seat))
            if text is not None:
                self.answer_hint(table, step, seat, text)
        elif note.kind == "presence":
            before = table.connected()
            table.remote[note.origin] = (
                frozenset(note.value or ()),
                time.monotonic() + PRESENCE_LASTS,
            )
            if table.connected() != before:
                self.broadcast(table)

    # ------------------------------------------------------------------ live connections

    def subscribe(
        self, table: LiveTable, seat: int | None, token: str | None, client: str, game: bool = False
    ) -> Subscriber:
        """A new connection. It gets, if it asked (``game``), the game's public description
        and layout first (the page draws the table with it, so it need not ask for it apart),
        then its state, then the latest page of the messages its seat may read, if there are
        any. The others hear of it only when it changes who is connected (a seat's first
        connection): a spectator joining costs nobody else."""
        try:
            self.connections.open(client, table.id, seat)
        except Refused as refused:
            raise TableError(429, refused.message) from None
        sub = Subscriber(seat, None if token is None else auth.token_hash(token), client)
        if game:
            self._deliver(table, sub, catalogue.game_message(table.row.game))
        before = table.local_seats()
        table.subscribers.add(sub)
        if table.local_seats() != before:
            self._presence_changed(table)
            self.broadcast(table)
        else:
            self._deliver(table, sub, self.message_text(table, seat))
        page = self.readable(table, seat)
        if page["messages"] and sub in table.subscribers:
            self._deliver(table, sub, {"type": "messages", **page})
        return sub

    def unsubscribe(self, table: LiveTable, sub: Subscriber) -> None:
        self.connections.close(sub.client, table.id, sub.seat)
        if sub in table.subscribers:
            before = table.local_seats()
            table.subscribers.discard(sub)
            if table.local_seats() != before:
                self._presence_changed(table)
                self.broadcast(table)
        self.release(table)

    def _presence_changed(self, table: LiveTable) -> None:
        self.spawn(self.bus.publish(table.id, "presence", sorted(table.local_seats())))

    def release(self, table: LiveTable, idle: float | None = None) -> None:
        """Forget a table that nobody here watches or uses: an over one at once (it never
        changes again), another after ``idle`` seconds unused (the database has it, and any
        process reads it afresh when someone asks). Memory then grows with the tables being
        played here, not with every table ever played."""
        if table.subscribers or table.pins or self.tables.get(table.id) is not table:
            return
        finished = table.over or table.row.status == ARCHIVED or table.read_only
        if finished or (idle is not None and time.monotonic() - table.used > idle):
            del self.tables[table.id]

    def broadcast(self, table: LiveTable) -> None:
        """Queue each connection its own seat's state (built once per seat)."""
        for sub in list(table.subscribers):
            self._deliver(table, sub, self.message_text(table, sub.seat))

    def _deliver(self, table: LiveTable, sub: Subscriber, message: Outgoing) -> None:
        """Queue one message to one connection; a connection too slow to keep up is dropped
        (it reconnects and gets the latest state and the messages again)."""
        try:
            sub.queue.put_nowait(message)
        except asyncio.QueueFull:
            self._close_sub(table, sub, Close(1012))

    @staticmethod
    def _close_sub(table: LiveTable, sub: Subscriber, close: Close) -> None:
        table.subscribers.discard(sub)
        while True:
            try:
                sub.queue.put_nowait(close)
                return
            except asyncio.QueueFull:
                with contextlib.suppress(asyncio.QueueEmpty):
                    sub.queue.get_nowait()

    # ------------------------------------------------------------------ finished games

    def record(self, table: LiveTable) -> dict[str, Any]:
        self.writable(table)
        if not table.over:
            raise TableError(
                409, "the record opens when the game is over (it holds every hidden card)"
            )
        return table.state.record()

    def replay_view(self, table: LiveTable, step: int, seat: int | None) -> dict[str, Any]:
        """The position after ``step`` moves of a finished game, seen by ``seat``."""
        record = self.record(table)
        total = len(record["actions"])
        if not 0 <= step <= total:
            raise TableError(422, f"step is from 0 to {total}")
        if seat is not None and not 0 <= seat < table.state.players:
            raise TableError(422, f"seat is from 0 to {table.state.players - 1}")
        state = spyglass.replay(record, upto=step)
        return {
            "step": step,
            "steps": total,
            "seat": seat,
            "view": state.view(seat),
            "move": record["actions"][step - 1] if step else None,
        }


__all__ = ["TableManager", "describe_action"]
