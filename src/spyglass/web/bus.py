"""The bus: how the server processes that share one database hear what the others changed.

With PostgreSQL, several ``spyglass serve`` processes may serve the same tables (behind a load
balancer). Every write that changes a table also sends a note on the PostgreSQL channel
``spyglass`` (``pg_notify`` inside the write's transaction, see :mod:`.store`, so a note is
delivered exactly when its change is committed), naming the table and what changed: a move, an
undo, the seats, a message, a job, a hint's answer. Each process LISTENs on that channel and
brings its own copy of the table up to date, then tells its own connections. Notes that only
concern live connections (who is connected) are sent outside any write (:meth:`Bus.publish`).
This is the arrangement Lichess uses between its game and WebSocket servers, with the database
we already ship as the bus.

A process that loses its LISTEN connection reconnects with back-off and then asks for a
*resync*: while it was deaf it may have missed notes, so it refreshes every table it holds.

With SQLite there is one process and nothing to hear: :class:`LocalBus` does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from .store import CHANNEL

log = logging.getLogger("spyglass.web")

RESYNC = "resync"  # a note this process gives itself after hearing nothing for a while


@dataclass(frozen=True, slots=True)
class Note:
    """What another process changed: ``kind`` at table ``table`` (``value``: the step, the
    message's number, ...), sent by process ``origin``."""

    origin: str
    table: str
    kind: str
    value: Any = None


Handler = Callable[[Note], Awaitable[None]]


class LocalBus:
    """One process: nobody else to hear or tell."""

    async def start(self, handler: Handler) -> None:
        pass

    async def publish(self, table: str, kind: str, value: Any = None) -> None:
        pass

    async def close(self) -> None:
        pass


class PostgresBus:
    """LISTEN/NOTIFY on the database's ``spyglass`` channel."""

    def __init__(self, conninfo: str, origin: str) -> None:
        self.conninfo = conninfo
        self.origin = origin
        self._task: asyncio.Task[None] | None = None
        self._send: psycopg.AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()

    async def start(self, handler: Handler) -> None:
        ready = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._listen(handler, ready))
        await ready  # listening before the server answers its first request

    async def _listen(self, handler: Handler, ready: asyncio.Future[None]) -> None:
        delay = 0.5
        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if not ready.done():
                        ready.set_result(None)
                    if not first:  # notes may have been missed while deaf
                        await handler(Note(self.origin, "", RESYNC))
                    first = False
                    delay = 0.5
                    async for notify in conn.notifies():
                        note = _parse(notify.payload)
                        if note is not None and note.origin != self.origin:
                            try:
                                await handler(note)
                            except Exception:
                                log.exception("a note from another process failed: %s", note)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not ready.done():
                    ready.set_exception(error)
                    return
                log.error(
                    "the bus lost its database connection (%s); again in %.1f s", error, delay
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def publish(self, table: str, kind: str, value: Any = None) -> None:
        payload = json.dumps({"o": self.origin, "t": table, "k": kind, "v": value})
        async with self._lock:
            try:
                if self._send is None or self._send.closed:
                    self._send = await psycopg.AsyncConnection.connect(
                        self.conninfo, autocommit=True
                    )
                await self._send.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            except psycopg.Error as error:
                # A lost note about who is connected is corrected by the next one: not fatal.
                log.error("a note could not be sent: %s", type(error).__name__)
                self._send = None

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._send is not None:
            with contextlib.suppress(Exception):
                await self._send.close()


def _parse(payload: str) -> Note | None:
    try:
        data = json.loads(payload)
        return Note(str(data["o"]), str(data["t"]), str(data["k"]), data.get("v"))
    except (ValueError, KeyError, TypeError):
        return None


def make_bus(conninfo: str | None, origin: str) -> LocalBus | PostgresBus:
    return LocalBus() if conninfo is None else PostgresBus(conninfo, origin)
