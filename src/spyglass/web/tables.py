"""The table lifecycle and the server's authority over every game.

A :class:`Table` holds the true state in memory; the :class:`TableManager` is the only code
that changes it. Every change follows the same path: authenticate the seat, check the move
against the rules on a copy of the state, commit it to the database, then swap the state in
and tell every connection what its own seat may see (``view(seat)`` and that seat's legal
moves; spectators ``view(None)``). Nothing else about a table ever leaves the server while the
game is on: not the seed, not the initial decks, not the moves as typed (a face-down card
played is a notation too). Records and replays open once a game is over.

The people at a table also talk (:meth:`TableManager.say`): a message is committed, then
queued to exactly the connections whose seat may read it (see :mod:`.messages`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import spyglass
from spyglass import agents
from spyglass.engine import (
    Action,
    IllegalAction,
    RulesError,
    SpyglassError,
    State,
    derive_seed,
    fresh_seed,
)

from . import auth
from . import messages as channel
from .bots import HINT_BUDGET, BotPool, agent_params, hint_params, strongest_agent
from .store import OVER, PLAYING, MessageRow, SeatRow, Store, TableRow

log = logging.getLogger("spyglass.web")

HUMAN = "human"
BOT = "bot"
MAX_SEED = 2**63 - 1
QUEUE_LIMIT = 64  # undelivered messages per connection before it is dropped as too slow

T = TypeVar("T")


class TableError(Exception):
    """A request the server refuses. ``status`` is the HTTP status; ``rule`` the rule of the
    game that forbids a move, when that is why."""

    def __init__(self, status: int, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        return body


@dataclass(slots=True)
class SeatSpec:
    """What a creator asks for one seat."""

    kind: str = HUMAN
    agent: str | None = None
    budget: int | None = None
    name: str | None = None


@dataclass(eq=False, slots=True)
class Subscriber:
    """One live connection: the seat it speaks for (None: a spectator), its outbox, and how
    fast it may send messages."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT)
    )
    rate: channel.RateLimit = field(default_factory=channel.RateLimit)


@dataclass(eq=False, slots=True)
class Table:
    row: TableRow
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Messages have a lock of their own: talking never waits for a move to be saved.
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    # The legal moves of the current state as the browser gets them (with their sentences),
    # computed once per state however many connections and requests ask for them.
    _legal: tuple[State, list[dict[str, Any]]] | None = None

    def legal_json(self) -> list[dict[str, Any]]:
        if self._legal is None or self._legal[0] is not self.state:
            state = self.state
            self._legal = (state, [describe_action(state, a) for a in state.legal_actions()])
        return self._legal[1]

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def over(self) -> bool:
        return self.state.is_over

    def seat_row(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and self.row.seats[seat].kind == BOT

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.row.seats if s.kind == HUMAN]

    def summary(self) -> dict[str, Any]:
        """What anyone may know about the table (no seed, no decks, no moves)."""
        info = self.state.game.info
        connected = {s.seat for s in self.subscribers if s.seat is not None}
        return {
            "id": self.id,
            "game": info.id,
            "title": info.title,
            "options": dict(self.state.game.options),
            "players": self.state.players,
            "status": OVER if self.over else PLAYING,
            "step": self.state.step,
            "current_player": self.state.current_player,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "agent": s.agent,
                    "budget": s.budget,
                    "connected": s.seat in connected,
                }
                for s in self.row.seats
            ],
            "created": self.row.created,
        }


def describe_action(state: State, action: Action) -> dict[str, Any]:
    """An action for the browser: its fields, the cards' labels as views print them (so
    clicks on a card find the moves that involve it), and its sentence."""
    data = action.to_json()
    data["labels"] = [str(getattr(c, "label", c)) for c in action.cards]
    data["text"] = state.describe(action)
    return data


class TableManager:
    """Creates, restores and runs tables; the one authority over their states."""

    def __init__(
        self,
        store: Store,
        bots: BotPool,
        bot_delay: float = 0.0,
        hint_budget: int = HINT_BUDGET,
    ) -> None:
        self.store = store
        self.bots = bots
        self.bot_delay = bot_delay
        self.hint_budget = hint_budget
        self.tables: dict[str, Table] = {}
        # SQLite has one writer: one database thread keeps writes in order without waiting on
        # locks. PostgreSQL takes several at once.
        self._db = ThreadPoolExecutor(1 if store.is_sqlite else 4, thread_name_prefix="spyglass-db")
        self._tasks: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ plumbing

    async def _run_db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, partial(fn, *args))

    def _spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def start(self) -> int:
        """Rebuild every unfinished table from the database; returns how many."""
        self.bots.warm()
        rows = await self._run_db(self.store.load, None, PLAYING)
        for row in rows:
            try:
                table = self._restore(row)
            except SpyglassError as error:
                log.error("table %s cannot be restored: %s", row.id, error)
                continue
            self.tables[row.id] = table
            self._schedule_bot(table)
        return len(rows)

    async def close(self) -> None:
        for table in self.tables.values():
            for sub in list(table.subscribers):
                with contextlib.suppress(asyncio.QueueFull):
                    sub.queue.put_nowait(None)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._db.shutdown(wait=True)

    @staticmethod
    def _restore(row: TableRow) -> Table:
        state = spyglass.replay(row.record())
        return Table(row=row, state=state)

    # ------------------------------------------------------------------ creating

    async def create(
        self,
        game_id: str,
        options: dict[str, Any],
        players: int | None,
        seats: list[SeatSpec],
        seed: int | None = None,
    ) -> tuple[Table, dict[int, str]]:
        """A new table; returns it and the token of every human seat (shown once, never
        stored)."""
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
        rows, tokens = [], {}
        for index, spec in enumerate(seats):
            rows.append(self._seat_row(index, spec, tokens))
        state = game.new_state(players=n, seed=fresh_seed() if seed is None else seed)
        record = state.record()
        row = TableRow(
            id=auth.new_table_id(),
            game=game.info.id,
            options=dict(record["options"]),
            players=n,
            seed=record["seed"],
            decks=record["decks"],
            seats=rows,
        )
        await self._run_db(self.store.create, row)
        table = Table(row=row, state=state)
        self.tables[row.id] = table
        self._schedule_bot(table)
        return table, tokens

    @staticmethod
    def _seat_row(index: int, spec: SeatSpec, tokens: dict[int, str]) -> SeatRow:
        name = (spec.name or "").strip()
        if spec.kind == HUMAN:
            if spec.agent is not None or spec.budget is not None:
                raise TableError(422, f"seat {index} is human: it takes no agent or budget")
            token = auth.new_token()
            tokens[index] = token
            return SeatRow(
                index, HUMAN, name or f"seat {index}", None, None, auth.token_hash(token)
            )
        if spec.kind != BOT:
            raise TableError(422, f"seat {index}: a seat is 'human' or 'bot', not {spec.kind!r}")
        agent = spec.agent or "heuristic"
        try:
            agent_params(agent, spec.budget)
        except RulesError as error:
            raise TableError(422, f"seat {index}: {error}") from None
        return SeatRow(index, BOT, name or f"seat {index} ({agent} bot)", agent, spec.budget, None)

    # ------------------------------------------------------------------ finding

    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        rows = await self._run_db(self.store.load, table_id)
        if not rows:
            raise TableError(404, f"there is no table {table_id!r}")
        table = self.tables.get(table_id)  # another request may have loaded it meanwhile
        if table is None:
            try:
                table = self._restore(rows[0])
            except SpyglassError as error:
                raise TableError(500, f"table {table_id} does not replay: {error}") from None
            self.tables[table_id] = table
        return table

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

    # ------------------------------------------------------------------ what a seat sees

    def message(self, table: Table, seat: int | None) -> dict[str, Any]:
        """Everything one connection of ``seat`` is sent: its view, its legal moves when it is
        to move, and the public summary."""
        state = table.state
        to_move = seat is not None and state.current_player == seat and not table.is_bot(seat)
        legal = table.legal_json() if to_move else []
        return {
            "type": "state",
            "table": table.summary(),
            "seat": seat,
            "view": state.view(seat),
            "legal": legal,
            "can_undo": self._can_undo(table, seat),
        }

    @staticmethod
    def _can_undo(table: Table, seat: int | None) -> bool:
        return (
            seat is not None
            and table.state.players == 1
            and not table.is_bot(seat)
            and table.state.step > 0
        )

    # ------------------------------------------------------------------ moves

    async def act(
        self, table: Table, seat: int, notation: str, expected_step: int | None = None
    ) -> None:
        """Apply a human seat's move, or refuse it with the rule that forbids it."""
        async with table.lock:
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
        try:
            await self._run_db(self.store.append, table.id, new.step, seat, text, status)
        except Exception as error:
            log.error("table %s: the move could not be saved: %s", table.id, type(error).__name__)
            raise TableError(
                503, "the move could not be saved; nothing changed, try again"
            ) from None
        table.row.actions.append(text)
        table.row.status = status
        table.state = new

    async def undo(self, table: Table, seat: int) -> Table:
        """Take back the last move of a solo game; returns the table (the live object)."""
        table = await self.get(table.id)  # the live one, if a finished table was released
        async with table.lock:
            if table.state.players != 1:
                raise TableError(409, "undo is only for solo games")
            if table.is_bot(seat):
                raise TableError(403, "a bot's seat cannot undo")
            if table.state.step == 0:
                raise TableError(409, "there is no move to take back")
            step = table.state.step - 1
            record = table.row.record()
            record["actions"] = record["actions"][:step]
            state = spyglass.replay(record)
            status = OVER if state.is_over else PLAYING
            await self._run_db(self.store.truncate, table.id, step, status)
            del table.row.actions[step:]
            table.row.status = status
            table.state = state
        self._after_change(table)
        return table

    async def hint(self, table: Table, seat: int) -> dict[str, Any]:
        """The move the strongest agent would make for this seat, with its sentence."""
        state = table.state
        if state.is_over:
            raise TableError(409, "the game is over")
        if state.current_player != seat or table.is_bot(seat):
            raise TableError(409, "a hint is for the seat to move")
        agent = strongest_agent()
        params = hint_params(agent, self.hint_budget)
        step = state.step
        notation = await self.bots.choose(
            state.seat(seat), agent, params, derive_seed(table.row.seed, f"hint/{step}")
        )
        if table.state.step != step:
            raise TableError(409, "the table moved on while the hint was thought out")
        action = state.parse(notation)
        return {"agent": agent, "action": describe_action(state, action)}

    # ------------------------------------------------------------------ bots

    def _after_change(self, table: Table) -> None:
        self.broadcast(table)
        self._schedule_bot(table)

    def _schedule_bot(self, table: Table) -> None:
        state = table.state
        if state.is_over or not table.is_bot(state.current_player):
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = self._spawn(self._bot_turn(table))

    async def _bot_turn(self, table: Table) -> None:
        while True:
            state = table.state
            seat = state.current_player
            if state.is_over or seat is None or not table.is_bot(seat):
                return
            row = table.seat_row(seat)
            assert row.agent is not None
            if self.bot_delay and table.humans:
                await asyncio.sleep(self.bot_delay)  # let people see one move at a time
            step = state.step
            seed = derive_seed(table.row.seed, f"bot/{step}")
            try:
                notation = await self.bots.choose(
                    state.seat(seat), row.agent, agent_params(row.agent, row.budget), seed
                )
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # An agent that fails must not stall the table: a random legal move instead.
                log.error("table %s: agent %s failed (%s)", table.id, row.agent, error)
                notation = await self.bots.choose(state.seat(seat), "random", {}, seed)
            async with table.lock:
                if table.state.step != step:
                    continue
                try:
                    await self._commit(table, seat, notation)
                except TableError as error:
                    log.error("table %s: bot move refused: %s", table.id, error.message)
                    await asyncio.sleep(1.0)
                    continue
            self.broadcast(table)

    # ------------------------------------------------------------------ messages

    async def say(self, table: Table, sub: Subscriber, text: object, to: object) -> dict[str, Any]:
        """Send a message from ``sub``'s seat to everyone at the table (``to`` None) or to one
        seat. It is committed, then queued to every other connection that may read it; the
        sender's own connection gets the returned message as its reply."""
        seat = self.require_seat(sub.seat, "a message")
        try:
            words = channel.clean_text(text)
            recipient = channel.check_recipient(to, table.row.seats, seat)
            if not sub.rate.take():
                raise sub.rate.refused()
        except channel.MessageRefused as refused:
            raise TableError(refused.status, refused.text) from None
        table = await self.get(table.id)  # the live one, if a finished table was released
        async with table.chat_lock:
            kept = table.row.messages
            if len(kept) >= channel.MAX_PER_TABLE:
                raise TableError(
                    409, f"this table keeps {channel.MAX_PER_TABLE} messages and has no room left"
                )
            message = MessageRow(len(kept) + 1, seat, recipient, words, time.time())
            try:
                await self._run_db(self.store.add_message, table.id, message)
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

    @staticmethod
    def readable(table: Table, seat: int | None) -> list[dict[str, Any]]:
        """The table's messages that ``seat`` (None: a spectator) may read, oldest first."""
        return channel.history(table.row.messages, seat)

    # ------------------------------------------------------------------ live connections

    def subscribe(self, table: Table, seat: int | None) -> Subscriber:
        """A new connection: every connection hears of it (the seat is connected), and the
        new one gets its state, then the messages its seat may read, if there are any (a
        client that never talks sees nothing new)."""
        sub = Subscriber(seat)
        table.subscribers.add(sub)
        self.broadcast(table)
        readable = self.readable(table, seat)
        if readable and sub in table.subscribers:
            self._deliver(table, sub, {"type": "messages", "messages": readable})
        return sub

    def unsubscribe(self, table: Table, sub: Subscriber) -> None:
        if sub in table.subscribers:
            table.subscribers.discard(sub)
            self.broadcast(table)

    def release(self, table: Table) -> None:
        """Forget a finished table that nobody watches: memory (and the garbage collector's
        work) then grows with the tables being played, not with every table ever played.
        ``get`` replays it from the database if someone asks for it again."""
        if table.over and not table.subscribers and self.tables.get(table.id) is table:
            del self.tables[table.id]

    def broadcast(self, table: Table) -> None:
        """Queue each connection's own message (built once per seat)."""
        cache: dict[int | None, dict[str, Any]] = {}
        for sub in list(table.subscribers):
            message = cache.get(sub.seat)
            if message is None:
                message = cache[sub.seat] = self.message(table, sub.seat)
            self._deliver(table, sub, message)
        self.release(table)

    @staticmethod
    def _deliver(table: Table, sub: Subscriber, message: dict[str, Any]) -> None:
        """Queue one message to one connection; a connection too slow to keep up is dropped
        (it reconnects and gets the latest state and the messages again)."""
        try:
            sub.queue.put_nowait(message)
        except asyncio.QueueFull:
            table.subscribers.discard(sub)
            with contextlib.suppress(asyncio.QueueEmpty):
                sub.queue.get_nowait()
            sub.queue.put_nowait(None)

    # ------------------------------------------------------------------ finished games

    def record(self, table: Table) -> dict[str, Any]:
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

    def summaries_of_live(self) -> list[dict[str, Any]]:
        return [t.summary() for t in self.tables.values()]


def agent_names() -> list[str]:
    return agents.names()
