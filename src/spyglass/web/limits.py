"""The limits a public server puts on what one client or one seat may ask for.

Rates are counted with the ``limits`` library (a moving window in memory): tables created per
client (its address, as the proxy in front reports it), messages and hints per seat at a table
(however many connections the seat opens), and invite claims per client. Counts are kept per
server process. Live connections are counted per client and per seat. Each limit has a
``spyglass serve`` option; docs/web.md lists them with their defaults.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from spyglass.engine import RulesError


@dataclass(frozen=True, slots=True)
class Limits:
    """A server's limits. Rates are written as the ``limits`` library reads them: one or more
    of ``N/second``, ``N/minute``, ``N/hour``, ``N/day`` (or ``N/5 seconds``), joined by ``;``."""

    tables: str = "10/minute;100/day"  # tables one client may create
    messages: str = "5/5 seconds;30/minute"  # messages one seat may send
    hints: str = "4/10 seconds;60/hour"  # hints one seat may ask for
    claims: str = "20/minute"  # invite claims one client may try
    joins: str = "20/minute"  # open seats one client may try to join (web/lobby.py)
    messages_per_seat: int = 1000  # messages one seat may leave at a table
    history: int = 100  # messages sent to a connection when it joins (the rest by page)
    connections_per_client: int = 64  # live WebSocket connections from one address
    connections_per_seat: int = 8  # live connections of one seat (tabs, devices)
    archive_days: float = 14.0  # an unfinished table untouched this long is archived

    def __post_init__(self) -> None:
        for name in ("tables", "messages", "hints", "claims", "joins"):
            rates(getattr(self, name), name)
        for name in ("messages_per_seat", "history", "connections_per_client"):
            if getattr(self, name) < 1:
                raise RulesError(f"limit {name} is a positive number")
        if self.connections_per_seat < 1:
            raise RulesError("limit connections_per_seat is a positive number")
        if not self.archive_days > 0:
            raise RulesError("tables are archived after a positive number of days")


def rates(text: str, name: str = "rate") -> list[RateLimitItem]:
    """The rate limits ``text`` names, or RulesError saying how to write them."""
    try:
        items = parse_many(text)
    except ValueError:
        items = []
    if not items:
        raise RulesError(
            f"{name}: {text!r} is not a rate; write e.g. '10/minute' or '5/5 seconds;30/minute'"
        )
    return items


class Refused(Exception):
    """Over a limit: ``status`` 429, and how many seconds to wait (``retry_after``)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


@dataclass(slots=True)
class RateCounter:
    """Counts hits per kind and key against the configured rates."""

    limits: Limits
    _storage: MemoryStorage = field(default_factory=MemoryStorage)
    _limiter: MovingWindowRateLimiter = field(init=False)
    _rates: dict[str, list[RateLimitItem]] = field(init=False)

    def __post_init__(self) -> None:
        self._limiter = MovingWindowRateLimiter(self._storage)
        self._rates = {
            kind: rates(getattr(self.limits, kind), kind)
            for kind in ("tables", "messages", "hints", "claims", "joins")
        }

    def take(self, kind: str, *key: Any) -> None:
        """Count one ``kind`` for ``key``, or :class:`Refused` (counting nothing) when any of
        its rates is spent."""
        identifiers = tuple(str(k) for k in key)
        items = self._rates[kind]
        for item in items:
            if not self._limiter.test(item, kind, *identifiers):
                stats = self._limiter.get_window_stats(item, kind, *identifiers)
                wait = max(0.0, stats.reset_time - time.time())
                raise Refused(
                    f"too many {WHAT[kind]}: at most {_rate_text(item)}; try again in "
                    f"{max(1, math.ceil(wait))} s",
                    retry_after=wait,
                )
        for item in items:
            self._limiter.hit(item, kind, *identifiers)


WHAT = {
    "tables": "new tables from your address",
    "messages": "messages from your seat",
    "hints": "hints for your seat",
    "claims": "invite claims from your address",
    "joins": "joins from your address",
}


def _rate_text(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    per = f"{item.multiples} {unit}s" if item.multiples != 1 else unit
    return f"{item.amount} per {per}"


@dataclass(slots=True)
class ConnectionCount:
    """Live connections per client address and per (table, seat)."""

    limits: Limits
    clients: Counter[str] = field(default_factory=Counter)
    seats: Counter[tuple[str, int]] = field(default_factory=Counter)

    def open(self, client: str, table_id: str, seat: int | None) -> None:
        """Count a new connection, or :class:`Refused` (counting nothing)."""
        if self.clients[client] >= self.limits.connections_per_client:
            raise Refused(
                f"too many connections from your address (at most "
                f"{self.limits.connections_per_client})"
            )
        if seat is not None and self.seats[table_id, seat] >= self.limits.connections_per_seat:
            raise Refused(
                f"too many connections for seat {seat} (at most "
                f"{self.limits.connections_per_seat}); close another tab"
            )
        self.clients[client] += 1
        if seat is not None:
            self.seats[table_id, seat] += 1

    def close(self, client: str, table_id: str, seat: int | None) -> None:
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]
        if seat is not None:
            self.seats[table_id, seat] -= 1
            if self.seats[table_id, seat] <= 0:
                del self.seats[table_id, seat]
