"""Persistence: tables, seats, actions and messages in SQLite (default) or PostgreSQL.

What is stored is exactly what replays a game (game id, options, players, seed, the initial
deck orders and the actions as notation) plus the seats (human or bot, agent and budget, the
hash of a human seat's token: never the token), the table's status and the messages the
people at the table sent one another. States are rebuilt with ``spyglass.replay`` when the
server starts.

The schema grows by adding tables only: ``create_all`` creates the ones a database lacks
(``spyglass_messages`` came after the first three), so an older database is brought up to
date the first time a newer server opens it.

Every call is synchronous and short; the server runs them on its own database thread(s) so
that the event loop never waits on disk. Each action is one transaction: it is committed before
anyone hears of it.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError

from spyglass.engine import RulesError

PLAYING = "playing"
OVER = "over"

metadata = MetaData()

tables_t = Table(
    "spyglass_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),  # JSON object
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("decks", Text, nullable=False),  # JSON: deck name -> initial order, top first
    Column("status", String(16), nullable=False),
    Column("step", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

seats_t = Table(
    "spyglass_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("spyglass_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "human" or "bot"
    Column("name", String(64), nullable=False),
    Column("agent", String(32)),
    Column("budget", Integer),
    Column("token_hash", String(64)),
)

actions_t = Table(
    "spyglass_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("spyglass_tables.id"), primary_key=True),
    Column("step", Integer, primary_key=True),  # 1-based, as in records
    Column("seat", Integer, nullable=False),
    Column("notation", Text, nullable=False),
    Column("at", Float, nullable=False),
)

messages_t = Table(
    "spyglass_messages",
    metadata,
    Column("table_id", String(32), ForeignKey("spyglass_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # 1-based, in the order the server took them
    Column("seat", Integer, nullable=False),  # the sender
    Column("to_seat", Integer),  # a whisper's recipient; NULL: everyone at the table
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass(frozen=True, slots=True)
class MessageRow:
    """One message at a table: ``to`` is the one seat it was whispered to, or None (public)."""

    n: int
    seat: int
    to: int | None
    text: str
    at: float


@dataclass(slots=True)
class SeatRow:
    seat: int
    kind: str
    name: str
    agent: str | None = None
    budget: int | None = None
    token_hash: str | None = None


@dataclass(slots=True)
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    decks: dict[str, list[str]]
    status: str = PLAYING
    created: float = 0.0
    updated: float = 0.0
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    messages: list[MessageRow] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """The record that replays this table (no digest: the actions are the truth)."""
        return {
            "format": "spyglass-record",
            "version": 1,
            "game": self.game,
            "options": dict(self.options),
            "players": self.players,
            "seed": self.seed,
            "decks": {k: list(v) for k, v in self.decks.items()},
            "actions": list(self.actions),
        }


def default_sqlite_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "spyglass" / "web.sqlite3"


def database_url(db: str | None) -> str:
    """A SQLAlchemy URL from what a person types: nothing (the default SQLite file), a file
    path, ``sqlite:///...``, or ``postgresql://...`` (driven by psycopg 3)."""
    if not db:
        path = default_sqlite_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    if db.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if "://" in db:
        return db
    path = Path(db).expanduser()
    if path.parent and not path.parent.exists():
        raise RulesError(f"cannot create the database {path}: folder {path.parent} does not exist")
    return f"sqlite:///{path}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL: readers never block the writer. synchronous=NORMAL in WAL mode keeps every
    # committed transaction through a crash of the process (even SIGKILL); only an operating
    # system crash could lose the last commits, in exchange for no fsync per move.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Store:
    """The database. ``url`` is a SQLAlchemy URL (see :func:`database_url`)."""

    def __init__(self, url: str) -> None:
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise RulesError(f"not a database address: {url!r}") from None
        self.url = url
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        if self.is_sqlite:
            # Connections stay open in a small pool: closing the last connection to a WAL
            # database checkpoints it and deletes the log, which costs an fsync or two per
            # move if every transaction opened its own (about 13 ms instead of 0.3 ms).
            pool = {} if ":memory:" in url else {"pool_size": 2, "max_overflow": 2}
            self.engine: Engine = create_engine(url, **pool)
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_size=5, max_overflow=5, pool_pre_ping=True)
        try:
            metadata.create_all(self.engine)
        except OperationalError as error:
            raise RulesError(
                f"cannot open the database {self.describe_url(url)}: {error.orig}"
            ) from None

    @staticmethod
    def describe_url(url: str) -> str:
        """The address without its password, for messages."""
        return make_url(url).render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writes

    def create(self, row: TableRow) -> None:
        now = time.time()
        row.created = row.updated = now
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=row.id,
                    game=row.game,
                    options=json.dumps(row.options, ensure_ascii=False),
                    players=row.players,
                    seed=row.seed,
                    decks=json.dumps(row.decks, ensure_ascii=False),
                    status=row.status,
                    step=0,
                    created=now,
                    updated=now,
                )
            )
            conn.execute(
                insert(seats_t),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "agent": s.agent,
                        "budget": s.budget,
                        "token_hash": s.token_hash,
                    }
                    for s in row.seats
                ],
            )

    def append(self, table_id: str, step: int, seat: int, notation: str, status: str) -> None:
        """Add action ``step`` (1-based) and the table's new status, in one transaction."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(actions_t).values(
                    table_id=table_id, step=step, seat=seat, notation=notation, at=now
                )
            )
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(step=step, status=status, updated=now)
            )

    def truncate(self, table_id: str, step: int, status: str) -> None:
        """Drop every action after ``step`` (undo), in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(actions_t).where(actions_t.c.table_id == table_id, actions_t.c.step > step)
            )
            conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(step=step, status=status, updated=time.time())
            )

    def add_message(self, table_id: str, message: MessageRow) -> None:
        """Keep one message of a table (committed before anyone receives it)."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(messages_t).values(
                    table_id=table_id,
                    n=message.n,
                    seat=message.seat,
                    to_seat=message.to,
                    text=message.text,
                    at=message.at,
                )
            )

    # ------------------------------------------------------------------ reads

    def load(self, table_id: str | None = None, status: str | None = None) -> list[TableRow]:
        """Every table (or the one given, or those with a status) with seats, actions and
        messages."""
        with self.engine.connect() as conn:
            query = select(tables_t).order_by(tables_t.c.created)
            seat_query = select(seats_t).order_by(seats_t.c.seat)
            action_query = select(actions_t.c.table_id, actions_t.c.notation).order_by(
                actions_t.c.table_id, actions_t.c.step
            )
            message_query = select(messages_t).order_by(messages_t.c.table_id, messages_t.c.n)
            if table_id is not None:
                query = query.where(tables_t.c.id == table_id)
                seat_query = seat_query.where(seats_t.c.table_id == table_id)
                action_query = action_query.where(actions_t.c.table_id == table_id)
                message_query = message_query.where(messages_t.c.table_id == table_id)
            if status is not None:
                chosen = select(tables_t.c.id).where(tables_t.c.status == status)
                query = query.where(tables_t.c.status == status)
                seat_query = seat_query.where(seats_t.c.table_id.in_(chosen))
                action_query = action_query.where(actions_t.c.table_id.in_(chosen))
                message_query = message_query.where(messages_t.c.table_id.in_(chosen))
            rows = {
                r.id: TableRow(
                    id=r.id,
                    game=r.game,
                    options=json.loads(r.options),
                    players=r.players,
                    seed=r.seed,
                    decks=json.loads(r.decks),
                    status=r.status,
                    created=r.created,
                    updated=r.updated,
                )
                for r in conn.execute(query)
            }
            for s in conn.execute(seat_query):
                if s.table_id in rows:
                    rows[s.table_id].seats.append(
                        SeatRow(s.seat, s.kind, s.name, s.agent, s.budget, s.token_hash)
                    )
            for a in conn.execute(action_query):
                if a.table_id in rows:
                    rows[a.table_id].actions.append(a.notation)
            for m in conn.execute(message_query):
                if m.table_id in rows:
                    rows[m.table_id].messages.append(
                        MessageRow(m.n, m.seat, m.to_seat, m.text, m.at)
                    )
        return list(rows.values())

    def summaries(self, limit: int = 100) -> list[dict[str, Any]]:
        """The latest tables, newest first: what the lobby lists (nothing private)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.game,
                    tables_t.c.players,
                    tables_t.c.status,
                    tables_t.c.step,
                    tables_t.c.created,
                    tables_t.c.updated,
                )
                .order_by(tables_t.c.updated.desc())
                .limit(limit)
            ).all()
            ids = [r.id for r in rows]
            seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                for s in conn.execute(
                    select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.name)
                    .where(seats_t.c.table_id.in_(ids))
                    .order_by(seats_t.c.seat)
                ):
                    seats[s.table_id].append({"seat": s.seat, "kind": s.kind, "name": s.name})
        return [
            {
                "id": r.id,
                "game": r.game,
                "players": r.players,
                "status": r.status,
                "step": r.step,
                "created": r.created,
                "updated": r.updated,
                "seats": seats[r.id],
            }
            for r in rows
        ]
