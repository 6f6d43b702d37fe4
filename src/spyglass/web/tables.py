"""The table lifecycle and the server's authority over every game.

**One authority per table.** A :class:`Table` holds the true state in memory and the
:class:`TableManager` is the only code that changes it. There is exactly one live ``Table`` per
table id in a server: every request resolves the id through :meth:`TableManager.hold`, which
pins the live object while the request uses it, and a table leaves memory only when it is over,
unwatched and unpinned (an over table never changes again: even undo is refused), so no request
can ever act on a second copy.

**Every change is serialised and whole.** A change takes the table's lock, is checked against
the rules on a copy of the state, is committed to the database as a compare-and-set on the
table's step (:mod:`.store`: a write that finds the stored table elsewhere changes nothing), and
only then is swapped in and sent to every connection, each seat getting only what it may see
(``view(seat)`` and its own legal moves; spectators ``view(None)``). The commit and the swap are
shielded from cancellation: a request that is abandoned half way (a client gone, a server
stopping) either takes effect whole or changes nothing. If the database refuses a write because
it holds a different history, the table is reloaded from the database, which is the arbiter.

**A stored history that does not replay** (a database written by an older, racy version) opens
read-only at its last good step, with a message that says what is wrong: it can be watched, not
played, and never answers with a server error.

Nothing about a table ever leaves the server while the game is on: not the seed, not the initial
decks, not the moves as typed (a face-down card played is a notation too). Records and replays
open once a game is over. The people at a table also talk (:meth:`TableManager.say`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import spyglass
from spyglass import agents
from spyglass.engine import (
    Action,
    IllegalAction,
    ReplayError,
    RulesError,
    SpyglassError,
    State,
    derive_seed,
    fresh_seed,
)
from spyglass.engine.rng import Rng

from . import auth
from . import messages as channel
from .bots import HINT_BUDGET, Caps, agent_params, capped, hint_params, strongest_agent
from .limits import ConnectionCount, Limits, RateCounter, Refused
from .names import BadName, bot_name, check_unique, clean_name
from .store import (
    ARCHIVED,
    OVER,
    PLAYING,
    WAITING_BOT,
    WAITING_HUMAN,
    Conflict,
    MessageRow,
    SeatRow,
    Store,
    StoreError,
    TableRow,
)
from .workers import BotPool

log = logging.getLogger("spyglass.web")

HUMAN = "human"
BOT = "bot"
BROKEN = "broken"  # a table's status when its stored history does not replay
MAX_SEED = 2**63 - 1
QUEUE_LIMIT = 64  # undelivered messages per connection before it is dropped as too slow
ARCHIVE_EVERY = 3600.0  # seconds between two looks for idle tables to archive

T = TypeVar("T")


class TableError(Exception):
    """A request the server refuses. ``status`` is the HTTP status; ``rule`` the rule of the
    game that forbids a move, when that is why."""

    def __init__(
        self, status: int, message: str, rule: str | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule
        self.retry_after = retry_after

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        return body


def _refused(refused: Refused) -> TableError:
    return TableError(429, refused.message, retry_after=refused.retry_after)


@dataclass(slots=True)
class SeatSpec:
    """What a creator asks for one seat. A person's seat is the creator's own (``invite``
    false: the creator gets its token, as at a hot-seat table) or is for someone invited
    (``invite`` true: the creator gets a link that is claimed once). ``invite`` None: the
    first person's seat is the creator's, the other people's are invited."""

    kind: str = HUMAN
    agent: str | None = None
    budget: int | None = None
    name: str | None = None
    invite: bool | None = None


@dataclass(frozen=True, slots=True)
class Close:
    """Put in a connection's queue to close it with ``code`` (after ``message``, if any)."""

    code: int
    message: dict[str, Any] | None = None


Outgoing = dict[str, Any] | str | Close | None


@dataclass(eq=False, slots=True)
class Subscriber:
    """One live connection: the seat it speaks for (None: a spectator), the hash of the token
    it proved that seat with, its client's address, and its outbox (dicts, or text already
    serialised; a :class:`Close` or None closes it)."""

    seat: int | None
    token_hash: str | None = None
    client: str = ""
    queue: asyncio.Queue[Outgoing] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))


@dataclass(slots=True)
class Created:
    """A new table and the secrets for its creator, shown once: the tokens of the creator's
    own seats, the invites of the others, and the host key that re-invites seats."""

    table: Table
    tokens: dict[int, str]
    invites: dict[int, str]
    host_key: str


@dataclass(eq=False, slots=True)
class Table:
    row: TableRow
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Messages have a lock of their own: talking never waits for a move to be saved.
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    pins: int = 0  # requests using this object right now: it stays in memory meanwhile
    broken: str | None = None  # why the stored history does not replay (read-only)
    # Hints per (step, seat): asked once per position however many requests ask.
    hints: dict[tuple[int, int], asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    # The legal moves of the current state as the browser gets them (with their sentences),
    # and each seat's state message as text: computed once per state and presence, however
    # many connections and requests ask for them.
    _legal: tuple[State, list[dict[str, Any]]] | None = None
    _texts: dict[int | None, str] = field(default_factory=dict)
    _texts_of: tuple[int, frozenset[int]] | None = None
    version: int = 0  # bumped by every change to what a seat is shown

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def over(self) -> bool:
        return self.state.is_over

    @property
    def read_only(self) -> bool:
        return self.broken is not None

    def legal_json(self) -> list[dict[str, Any]]:
        if self._legal is None or self._legal[0] is not self.state:
            state = self.state
            self._legal = (state, [describe_action(state, a) for a in state.legal_actions()])
        return self._legal[1]

    def seat_row(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and self.row.seats[seat].kind == BOT

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.row.seats if s.kind == HUMAN]

    def connected(self) -> frozenset[int]:
        return frozenset(s.seat for s in self.subscribers if s.seat is not None)

    def status(self) -> str:
        if self.broken is not None:
            return BROKEN
        return OVER if self.over else PLAYING

    def waiting(self) -> str | None:
        state = self.state
        if state.is_over:
            return None
        return WAITING_BOT if self.is_bot(state.current_player) else WAITING_HUMAN

    def summary(self) -> dict[str, Any]:
        """What anyone may know about the table (no seed, no decks, no moves)."""
        info = self.state.game.info
        connected = self.connected()
        data = {
            "id": self.id,
            "game": info.id,
            "title": info.title,
            "options": dict(self.state.game.options),
            "players": self.state.players,
            "status": self.status(),
            "step": self.state.step,
            "current_player": self.state.current_player,
            "private": self.row.private,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "agent": s.agent,
                    "budget": s.budget,
                    "connected": s.seat in connected,
                    "claimed": s.kind == BOT or s.claimed,
                }
                for s in self.row.seats
            ],
            "created": self.row.created,
        }
        if self.broken is not None:
            data["problem"] = self.broken
        return data

    def touched(self) -> None:
        """Something every seat is shown changed (a seat claimed, say)."""
        self.version += 1

    def changed(self) -> None:
        """The state changed: forget what was computed for the old one."""
        self.version += 1
        self.hints.clear()


def describe_action(state: State, action: Action) -> dict[str, Any]:
    """An action for the browser: its fields, the cards' labels as views print them (so
    clicks on a card find the moves that involve it), and its sentence."""
    data = action.to_json()
    data["labels"] = [str(getattr(c, "label", c)) for c in action.cards]
    data["text"] = state.describe(action)
    return data


def restore(row: TableRow) -> Table:
    """The live table of a stored row. A history that does not replay opens read-only at its
    last good step, saying why."""
    record = row.record()
    try:
        return Table(row=row, state=spyglass.replay(record))
    except ReplayError as error:
        if error.step < 1:
            raise  # not even set up: nothing to show
        good = error.step - 1
        state = spyglass.replay(record, upto=good)
        problem = (
            f"this table's stored history is damaged at move {error.step} ({error}); it is shown"
            f" as it was after move {good} and can no longer be played"
        )
        log.error("table %s opens read-only: %s", row.id, problem)
        table = Table(row=row, state=state, broken=problem)
        del row.actions[good:]
        return table


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
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table]] = {}
        # SQLite has one writer: one database thread keeps writes in order without waiting on
        # locks. PostgreSQL takes several at once.
        self._db = ThreadPoolExecutor(1 if store.is_sqlite else 4, thread_name_prefix="spyglass-db")
        self._tasks: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ plumbing

    async def run_db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, partial(fn, *args))

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _whole(self, coro: Awaitable[T]) -> T:
        """Run ``coro`` to its end even if the caller is cancelled meanwhile: a change to a
        table is committed and swapped in together, or not at all."""
        task = self._spawn(coro)
        return await asyncio.shield(task)

    async def start(self) -> int:
        """Archive the tables idle too long, then rebuild every table a bot must move at (the
        others load when someone asks for them); returns how many were rebuilt."""
        self.bots.warm()
        await self.archive_idle()
        rows = await self.run_db(partial(self.store.load, None, PLAYING, waiting=WAITING_BOT))
        # Tables from a version that did not note who they wait for: look at each once.
        rows += [r for r in await self.run_db(self.store.load, None, PLAYING) if r.waiting is None]
        for row in rows:
            if row.id in self.tables:
                continue
            try:
                table = restore(row)
            except SpyglassError as error:
                log.error("table %s cannot be restored: %s", row.id, error)
                continue
            self.tables[row.id] = table
            self._schedule_bot(table)
        self._spawn(self._archive_loop())
        return len(rows)

    async def close(self) -> None:
        for table in self.tables.values():
            for sub in list(table.subscribers):
                self._close_sub(table, sub, Close(1012))
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._db.shutdown(wait=True)

    # ------------------------------------------------------------------ archiving

    async def archive_idle(self, now: float | None = None) -> list[str]:
        """Archive the unfinished tables nobody moved at for ``limits.archive_days``: they are
        kept, no longer listed, and not loaded at start; a move brings one back."""
        before = (time.time() if now is None else now) - self.limits.archive_days * 86400.0
        ids = await self.run_db(self.store.archive_idle, before)
        for table_id in ids:
            table = self.tables.get(table_id)
            if table is not None:
                table.row.status = ARCHIVED
                if table.bot_task is not None:
                    table.bot_task.cancel()
                if not table.subscribers and not table.pins:
                    del self.tables[table_id]
        if ids:
            log.info("archived %d tables idle for %g days", len(ids), self.limits.archive_days)
        return ids

    async def _archive_loop(self) -> None:
        while True:
            await asyncio.sleep(ARCHIVE_EVERY)
            try:
                await self.archive_idle()
            except Exception as error:  # a database hiccup: try again next time
                log.error("archiving idle tables failed: %s", type(error).__name__)

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
    ) -> Created:
        """A new table, with the secrets of its creator (shown once, never stored)."""
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
        first_person = next((i for i, s in enumerate(seats) if s.kind == HUMAN), None)
        rows = [
            self._seat_row(index, spec, index == first_person, tokens, invites)
            for index, spec in enumerate(seats)
        ]
        try:
            check_unique((r.seat, r.name) for r in rows)
        except BadName as error:
            raise TableError(422, str(error)) from None
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
        table = Table(row=row, state=state)
        row.waiting = table.waiting()
        try:
            await self.run_db(self.store.create, row)
        except StoreError as error:
            raise TableError(422, str(error)) from None
        self.tables[row.id] = table
        self._schedule_bot(table)
        return Created(table, tokens, invites, host_key)

    def _seat_row(
        self,
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
        if spec.invite:
            raise TableError(422, f"seat {index} is a bot's: nobody can be invited to it")
        agent = spec.agent or "heuristic"
        try:
            agent_params(agent, spec.budget, self.caps.max_budget)
            name = clean_name(spec.name, index) if spec.name else None
        except (RulesError, BadName) as error:
            raise TableError(422, f"seat {index}: {error}") from None
        shown = f"{name} ({agent} bot)" if name else bot_name(index, agent)
        return SeatRow(index, BOT, shown, agent, spec.budget, None)

    # ------------------------------------------------------------------ finding

    @contextlib.asynccontextmanager
    async def hold(self, table_id: str) -> AsyncIterator[Table]:
        """The live table with this id, kept in memory while the caller uses it."""
        table = await self.get(table_id)
        table.pins += 1
        try:
            yield table
        finally:
            table.pins -= 1
            self.release(table)

    async def get(self, table_id: str) -> Table:
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

    async def _load(self, table_id: str) -> Table:
        rows = await self.run_db(self.store.load, table_id)
        if not rows:
            raise TableError(404, f"there is no table {table_id!r}")
        try:
            table = restore(rows[0])
        except SpyglassError as error:
            raise TableError(
                409, f"table {table_id} cannot be opened: its stored set-up is damaged ({error})"
            ) from None
        self.tables[table_id] = table
        self._schedule_bot(table)
        return table

    async def reload(self, table: Table) -> None:
        """Make the live table what the database holds (after a write the database refused
        because it holds another history)."""
        rows = await self.run_db(self.store.load, table.id)
        if not rows:
            return
        fresh = restore(rows[0])
        table.row = fresh.row
        table.state = fresh.state
        table.broken = fresh.broken
        table.changed()

    @staticmethod
    def authenticate(table: Table, token: str | None) -> int | None:
        """The seat a token sits in; None without a token (a spectator); 403 for a token that
        is no seat's."""
        if token is None or token == "":
            return None
        found = None
        for seat in table.row.seats:
            # Compare against every seat, so the time taken does not tell which one matched.
            if auth.matches(token, seat.token_hash) and found is None:
                found = seat.seat
        if found is None:
            raise TableError(403, "this token holds no seat at this table")
        return found

    @staticmethod
    def require_seat(seat: int | None, doing: str) -> int:
        if seat is None:
            raise TableError(401, f"{doing} needs your seat's token (header {auth.HEADER})")
        return seat

    @staticmethod
    def _writable(table: Table) -> None:
        if table.broken is not None:
            raise TableError(409, table.broken)

    # ------------------------------------------------------------------ seats: invites

    async def claim(self, table: Table, invite: str, client: str) -> tuple[int, str]:
        """Use an invite: its seat gets a new token, returned to the claimer alone."""
        try:
            self.rates.take("claims", client)
        except Refused as refused:
            raise _refused(refused) from None
        if not invite:
            raise TableError(422, "a claim carries the invite from the link")
        token = auth.new_token()
        seat = await self._whole(
            self._claim(table, auth.token_hash(invite), auth.token_hash(token))
        )
        if seat is None:
            raise TableError(
                410,
                "this invite has already been used or was replaced; ask the host for a new link",
            )
        return seat, token

    async def _claim(self, table: Table, invite_hash: str, token_hash: str) -> int | None:
        async with table.lock:
            seat = await self.run_db(self.store.claim, table.id, invite_hash, token_hash)
            if seat is None:
                return None
            row = table.seat_row(seat)
            row.token_hash, row.invite_hash = token_hash, None
            table.touched()
        self.broadcast(table)  # everyone sees the seat taken
        return seat

    async def reinvite(self, table: Table, host_key: str | None, seat: int) -> str:
        """A new invite for a person's seat, by the host: the seat's old token and invite stop
        working at once (its connections are closed)."""
        if not auth.matches(host_key, table.row.host_hash):
            raise TableError(403, "only the host of this table can invite (header X-Host-Key)")
        self._writable(table)
        if not 0 <= seat < len(table.row.seats) or table.is_bot(seat):
            raise TableError(422, f"seat {seat} is not a person's seat at this table")
        invite = auth.new_token()
        await self._whole(self._reinvite(table, seat, auth.token_hash(invite)))
        return invite

    async def _reinvite(self, table: Table, seat: int, invite_hash: str) -> None:
        async with table.lock:
            await self.run_db(self.store.reinvite, table.id, seat, invite_hash)
            row = table.seat_row(seat)
            row.token_hash, row.invite_hash = None, invite_hash
            table.touched()
        self._revoke(table, seat, "the host invited someone else to this seat")
        self.broadcast(table)

    async def rotate(self, table: Table, seat: int, token: str) -> str:
        """A new token for a seat, asked by its holder: the old one stops working."""
        new = auth.new_token()
        if not await self._whole(self._rotate(table, seat, token, auth.token_hash(new))):
            raise TableError(403, "this token no longer holds the seat")
        return new

    async def _rotate(self, table: Table, seat: int, token: str, new_hash: str) -> bool:
        async with table.lock:
            old_hash = auth.token_hash(token)
            if not await self.run_db(self.store.rotate, table.id, seat, old_hash, new_hash):
                return False
            table.seat_row(seat).token_hash = new_hash
        self._revoke(table, seat, "this seat's key was replaced")
        return True

    def _revoke(self, table: Table, seat: int, why: str) -> None:
        """Close the connections of ``seat`` that proved it with a token it no longer has."""
        current = table.seat_row(seat).token_hash
        for sub in list(table.subscribers):
            if sub.seat == seat and sub.token_hash != current:
                error = {"type": "error", "status": 401, "error": why}
                self._close_sub(table, sub, Close(4401, error))

    # ------------------------------------------------------------------ what a seat sees

    def message(self, table: Table, seat: int | None) -> dict[str, Any]:
        """Everything one connection of ``seat`` is sent: its view, its legal moves when it is
        to move, and the public summary."""
        state = table.state
        to_move = (
            seat is not None
            and state.current_player == seat
            and not table.is_bot(seat)
            and not table.read_only
        )
        return {
            "type": "state",
            "table": table.summary(),
            "seat": seat,
            "view": state.view(seat),
            "legal": table.legal_json() if to_move else [],
            "can_undo": self._can_undo(table, seat),
        }

    def message_text(self, table: Table, seat: int | None) -> str:
        """:meth:`message` as JSON text, built once per state and presence for each seat."""
        key = (table.version, table.connected())
        if table._texts_of != key:
            table._texts.clear()
            table._texts_of = key
        text = table._texts.get(seat)
        if text is None:
            text = table._texts[seat] = json.dumps(self.message(table, seat), ensure_ascii=False)
        return text

    @staticmethod
    def _can_undo(table: Table, seat: int | None) -> bool:
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
        self, table: Table, seat: int, notation: str, expected_step: int | None = None
    ) -> None:
        """Apply a human seat's move, or refuse it with the rule that forbids it."""
        await self._whole(self._act(table, seat, notation, expected_step))

    async def _act(self, table: Table, seat: int, notation: str, expected_step: int | None) -> None:
        async with table.lock:
            self._writable(table)
            state = table.state
            if state.is_over:
                raise TableError(409, "the game is over", rule="the game is over")
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
            await self._commit(table, seat, notation)
        self._after_change(table)

    async def _commit(self, table: Table, seat: int, notation: str) -> None:
        """Check, persist, then apply a move (the caller holds the table's lock)."""
        new = table.state.clone()
        try:
            action = new.parse(notation)
            new.apply(action)
        except IllegalAction as error:
            raise TableError(422, str(error), rule=error.rule) from None
        text = str(action)
        status = OVER if new.is_over else PLAYING
        waiting = (
            None
            if new.is_over
            else (WAITING_BOT if table.is_bot(new.current_player) else WAITING_HUMAN)
        )
        try:
            await self.run_db(
                partial(self.store.append, table.id, new.step, seat, text, status, waiting=waiting)
            )
        except Conflict:
            await self.reload(table)
            raise TableError(
                409, "the table has moved on meanwhile; nothing changed, look again"
            ) from None
        except Exception as error:
            log.error("table %s: the move could not be saved: %s", table.id, type(error).__name__)
            raise TableError(
                503, "the move could not be saved; nothing changed, try again"
            ) from None
        table.row.actions.append(text)
        table.row.status = status
        table.row.waiting = waiting
        table.state = new
        table.changed()

    async def undo(self, table: Table, seat: int) -> None:
        """Take back the last move of a solo game (not once it is over: by then every hidden
        card has been shown)."""
        await self._whole(self._undo(table, seat))

    async def _undo(self, table: Table, seat: int) -> None:
        async with table.lock:
            self._writable(table)
            if table.state.players != 1:
                raise TableError(409, "undo is only for solo games")
            if table.is_bot(seat):
                raise TableError(403, "a bot's seat cannot undo")
            if table.state.is_over:
                raise TableError(
                    409,
                    "the game is over: its hidden cards have all been shown, so no move can be"
                    " taken back",
                )
            if table.state.step == 0:
                raise TableError(409, "there is no move to take back")
            await self._take_back(table)
        self._after_change(table)

    async def _take_back(self, table: Table) -> None:
        step = table.state.step - 1
        record = table.row.record()
        record["actions"] = record["actions"][:step]
        state = spyglass.replay(record)
        waiting = WAITING_BOT if table.is_bot(state.current_player) else WAITING_HUMAN
        try:
            await self.run_db(
                partial(self.store.truncate, table.id, step, PLAYING, waiting, expected=step + 1)
            )
        except Conflict:
            await self.reload(table)
            raise TableError(
                409, "the table has moved on meanwhile; nothing changed, look again"
            ) from None
        del table.row.actions[step:]
        table.row.status = PLAYING
        table.row.waiting = waiting
        table.state = state
        table.changed()

    async def hint(self, table: Table, seat: int) -> dict[str, Any]:
        """The move the strongest agent would make for this seat, with its sentence: thought
        out once per position (later requests get the same answer), within the hint's time
        cap, and limited per seat."""
        self._writable(table)
        state = table.state
        if state.is_over:
            raise TableError(409, "the game is over")
        if state.current_player != seat or table.is_bot(seat):
            raise TableError(409, "a hint is for the seat to move")
        key = (state.step, seat)
        pending = table.hints.get(key)
        if pending is None:
            try:
                self.rates.take("hints", table.id, seat)
            except Refused as refused:
                raise _refused(refused) from None
            pending = asyncio.ensure_future(self._think_hint(table, state, seat))
            table.hints[key] = pending
            pending.add_done_callback(
                lambda f: table.hints.pop(key, None) if f.cancelled() or f.exception() else None
            )
        hint = await asyncio.shield(pending)
        if table.state.step != state.step:
            raise TableError(409, "the table moved on while the hint was thought out")
        return hint

    async def _think_hint(self, table: Table, state: State, seat: int) -> dict[str, Any]:
        agent = strongest_agent()
        seed = derive_seed(table.row.seed, f"hint/{state.step}")
        seen = state.seat(seat)
        params = hint_params(agent, self.hint_budget, self.caps.hint_seconds)
        try:
            notation = await self.bots.choose(
                table.id, seen, agent, params, seed=seed, cap=self.caps.hint_seconds
            )
        except TimeoutError:
            # The strongest agent could not finish in time: the game's bot, which plays at
            # once (given a bot's time, on a machine that may be busy).
            agent = "heuristic"
            try:
                notation = await self.bots.choose(
                    table.id, seen, agent, {}, seed=seed, cap=self.caps.bot_seconds
                )
            except TimeoutError:
                raise TableError(503, "no hint could be thought out in time; try again") from None
        action = state.parse(notation)
        return {"agent": agent, "action": describe_action(state, action)}

    # ------------------------------------------------------------------ bots

    def _after_change(self, table: Table) -> None:
        self.broadcast(table)
        self._schedule_bot(table)

    def _schedule_bot(self, table: Table) -> None:
        state = table.state
        if table.read_only or state.is_over or not table.is_bot(state.current_player):
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = self._spawn(self._bot_turn(table))

    async def _bot_move(self, table: Table, state: State, seat: int) -> str:
        """The bot's move at ``state``: its agent within the bot's time cap; if that fails or
        runs out of time, the game's bot; if that fails too, a random legal move (a table must
        never stall)."""
        row = table.seat_row(seat)
        assert row.agent is not None
        seed = derive_seed(table.row.seed, f"bot/{state.step}")
        seen = state.seat(seat)
        cap = self.caps.bot_seconds
        tries = [(row.agent, agent_params(row.agent, row.budget))]
        if row.agent != "heuristic":
            tries.append(("heuristic", {}))
        for agent, params in tries:
            try:
                return await self.bots.choose(
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
        return str(legal[Rng(seed).randrange(len(legal))])

    async def _bot_turn(self, table: Table) -> None:
        while True:
            state = table.state
            seat = state.current_player
            if table.read_only or state.is_over or seat is None or not table.is_bot(seat):
                return
            if self.bot_delay and table.humans:
                await asyncio.sleep(self.bot_delay)  # let people see one move at a time
            notation = await self._bot_move(table, state, seat)
            try:
                moved = await self._whole(self._bot_commit(table, state, seat, notation))
            except TableError as error:
                log.error("table %s: bot move refused: %s", table.id, error.message)
                await asyncio.sleep(1.0)
                continue
            if moved:
                self.broadcast(table)

    async def _bot_commit(self, table: Table, state: State, seat: int, notation: str) -> bool:
        async with table.lock:
            if table.state is not state:
                return False  # the table changed while the bot thought: think again
            await self._commit(table, seat, notation)
            return True

    # ------------------------------------------------------------------ messages

    async def say(self, table: Table, sub: Subscriber, text: object, to: object) -> dict[str, Any]:
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
        return await self._whole(self._say(table, sub, seat, words, recipient))

    async def _say(
        self, table: Table, sub: Subscriber, seat: int, words: str, recipient: int | None
    ) -> dict[str, Any]:
        async with table.chat_lock:
            kept = table.row.messages
            mine = sum(1 for m in kept if m.seat == seat)
            if mine >= self.limits.messages_per_seat:
                raise TableError(
                    409,
                    f"your seat has sent {self.limits.messages_per_seat} messages at this table,"
                    " the most one seat may",
                )
            message = MessageRow(len(kept) + 1, seat, recipient, words, time.time())
            try:
                await self.run_db(self.store.add_message, table.id, message)
            except Exception as error:
                log.error(
                    "table %s: a message could not be saved: %s", table.id, type(error).__name__
                )
                raise TableError(503, "the message could not be saved; try again") from None
            kept.append(message)
        data = channel.message_json(message)
        for other in list(table.subscribers):
            if other is not sub and channel.visible(message, other.seat):
                self._deliver(table, other, {"type": "message", "message": data})
        return data

    def readable(
        self, table: Table, seat: int | None, before: int | None = None, limit: int | None = None
    ) -> dict[str, Any]:
        """A page of the messages ``seat`` (None: a spectator) may read, oldest first: the
        last ``limit`` (default: ``limits.history``) before position ``before`` in the seat's
        own list (default: the end). ``first`` is the position of the first one, so the page
        before it is ``before=first``; positions count only what the seat may read."""
        mine = channel.history(table.row.messages, seat)
        end = len(mine) if before is None else max(0, min(before, len(mine)))
        size = self.limits.history if limit is None else limit
        start = max(0, end - size)
        return {"messages": mine[start:end], "first": start, "total": len(mine)}

    # ------------------------------------------------------------------ live connections

    def subscribe(
        self, table: Table, seat: int | None, token: str | None, client: str
    ) -> Subscriber:
        """A new connection. It gets its state, then the latest page of the messages its seat
        may read, if there are any. The others hear of it only when it changes who is
        connected (a seat's first connection): a spectator joining costs nobody else."""
        try:
            self.connections.open(client, table.id, seat)
        except Refused as refused:
            raise TableError(429, refused.message) from None
        sub = Subscriber(seat, None if token is None else auth.token_hash(token), client)
        before = table.connected()
        table.subscribers.add(sub)
        if table.connected() != before:
            self.broadcast(table)
        else:
            self._deliver(table, sub, self.message_text(table, seat))
        page = self.readable(table, seat)
        if page["messages"] and sub in table.subscribers:
            self._deliver(table, sub, {"type": "messages", **page})
        return sub

    def unsubscribe(self, table: Table, sub: Subscriber) -> None:
        self.connections.close(sub.client, table.id, sub.seat)
        if sub in table.subscribers:
            before = table.connected()
            table.subscribers.discard(sub)
            if table.connected() != before:
                self.broadcast(table)
        self.release(table)

    def release(self, table: Table) -> None:
        """Forget a finished table that nobody watches or uses: memory (and the garbage
        collector's work) then grows with the tables being played, not with every table ever
        played. An over table never changes again, so loading it anew later is safe."""
        if (
            (table.over or table.row.status == ARCHIVED)
            and not table.subscribers
            and not table.pins
            and self.tables.get(table.id) is table
        ):
            del self.tables[table.id]

    def broadcast(self, table: Table) -> None:
        """Queue each connection its own seat's state (built once per seat)."""
        for sub in list(table.subscribers):
            self._deliver(table, sub, self.message_text(table, sub.seat))

    def _deliver(self, table: Table, sub: Subscriber, message: Outgoing) -> None:
        """Queue one message to one connection; a connection too slow to keep up is dropped
        (it reconnects and gets the latest state and the messages again)."""
        try:
            sub.queue.put_nowait(message)
        except asyncio.QueueFull:
            self._close_sub(table, sub, Close(1012))

    @staticmethod
    def _close_sub(table: Table, sub: Subscriber, close: Close) -> None:
        table.subscribers.discard(sub)
        while True:
            try:
                sub.queue.put_nowait(close)
                return
            except asyncio.QueueFull:
                with contextlib.suppress(asyncio.QueueEmpty):
                    sub.queue.get_nowait()

    # ------------------------------------------------------------------ finished games

    def record(self, table: Table) -> dict[str, Any]:
        self._writable(table)
        if not table.over:
            raise TableError(
                409, "the record opens when the game is over (it holds every hidden card)"
            )
        return table.state.record()

    def replay_view(self, table: Table, step: int, seat: int | None) -> dict[str, Any]:
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


def agent_names() -> list[str]:
    return agents.names()
