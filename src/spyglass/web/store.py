"""Persistence: tables, seats, actions and messages in SQLite (default) or PostgreSQL.

What is stored is exactly what replays a game (game id, options, players, seed, the initial
deck orders and the actions as notation) plus the seats (human or bot, agent and budget, the
hash of a human seat's token and of its pending invite: never a token or an invite itself), the
hash of the host's key, the table's status and the messages the people at the table sent one
another. States are rebuilt with ``spyglass.replay``.

**The database is the arbiter of a table's history.** Every write that changes the moves is a
compare-and-set on the table's step: a move is appended only if the stored step is the one before
it, an undo only if the stored step is the one it takes back. A writer that lost a race gets
:class:`Conflict` and changes nothing, so the stored moves are always one line of play that
replays, whatever the server's memory believes. (In PostgreSQL the ``UPDATE`` that checks the step
takes the table's row lock, so two writers are serialised there too.)

The schema grows by adding tables and nullable columns only: ``create_all`` creates the tables a
database lacks and :func:`_add_missing_columns` adds the columns, so an older database is brought
up to date the first time a newer server opens it.

Every call is synchronous and short; the server runs them on its own database thread(s) so
that the event loop never waits on disk. Each change is one transaction: it is committed before
anyone hears of it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
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
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, OperationalError

from spyglass.engine import RulesError

#: The PostgreSQL channel on which server processes tell one another what changed.
CHANNEL = "spyglass"

PLAYING = "playing"
OVER = "over"
#: An unfinished table nobody moved at for a long time: kept, no longer listed or restored at
#: start; it comes back to ``playing`` with its next move.
ARCHIVED = "archived"
#: What a table whose stored history does not replay shows (it is never stored as such).
BROKEN = "broken"

#: Who a table waits for (``waiting``): a bot (the server must move: restored at start), a
#: person, or nobody (over).
WAITING_BOT = "bot"
WAITING_HUMAN = "human"
#: An open table that waits for people to join its empty seats (or for its host to start it):
#: nobody moves until then.
WAITING_PLAYERS = "players"

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
    # added after the first version (nullable: older rows read as defaults)
    Column("private", Boolean),  # unlisted: only people with the link find it
    Column("host_hash", String(64)),  # the host's key (re-invites seats)
    Column("waiting", String(8)),  # WAITING_BOT, WAITING_HUMAN or NULL
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
    Column("invite_hash", String(64)),  # a pending invite, claimed once
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

jobs_t = Table(
    "spyglass_jobs",
    metadata,
    Column("table_id", String(32), ForeignKey("spyglass_tables.id"), primary_key=True),
    Column("step", Integer, primary_key=True),  # the position the job is about
    Column("kind", String(8), primary_key=True),  # JOB_BOT, or JOB_HINT + the seat
    Column("seat", Integer, nullable=False),
    Column("due", Float, nullable=False),  # not before (a bot's pause at tables with people)
    Column("owner", String(64)),  # the server process working on it
    Column("lease", Float),  # ... until then; after it, any process may take the job over
    Column("result", Text),  # a hint's answer (JSON), kept as the hint of that position
    Column("created", Float, nullable=False),
)

clocks_t = Table(
    "spyglass_clocks",
    metadata,
    # A table's clocks (web/clocks.py, web/clockstore.py): one row per table that has them.
    Column("table_id", String(32), ForeignKey("spyglass_tables.id"), primary_key=True),
    Column("spec", Text, nullable=False),  # JSON: kind, seconds, increment, on_timeout
    Column("remaining", Text, nullable=False),  # JSON: ms per seat as of `since` (null: bot)
    Column("running", Integer),  # the seat whose clock runs
    Column("since", Float),  # ... since then (server time)
    Column("deadline", Float, index=True),  # when it runs out: what the time-out scan looks at
    Column("seq", Integer, nullable=False),  # bumped by every write: the compare-and-set
    Column("out", Text, nullable=False),  # JSON: the seats out on time
    Column("timeouts", Text, nullable=False),  # JSON: the time-outs so far
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


# Accounts, sessions, ratings and rematches (docs/web.md, "Accounts"): tables of their own, and
# nullable columns on the tables above (appended here, so the older definitions stay as they
# were). The queries live in accounts.py, ratings.py and rematch.py.
tables_t.append_column(Column("to_move", Integer))  # the seat to move; NULL: nobody (over)
tables_t.append_column(Column("result", Text))  # JSON: Result.to_json(), once over
tables_t.append_column(Column("rematch", String(32)))  # the id of this table's rematch
seats_t.append_column(Column("account_id", String(32)))  # the account the seat belongs to

accounts_t = Table(
    "spyglass_accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    # Two readings of the name (names.name_keys): no two accounts read alike either way.
    Column("name_key", String(256), nullable=False, unique=True),
    Column("name_key2", String(256), nullable=False, unique=True),
    Column("password_hash", Text, nullable=False),  # argon2id, with its salt and parameters
    Column("created", Float, nullable=False),
)

sessions_t = Table(
    "spyglass_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the cookie's session id
    Column("account_id", String(32), ForeignKey("spyglass_accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

seat_keys_t = Table(
    "spyglass_seat_keys",
    metadata,
    # A seat token minted for one logged-in device of the seat's account: it works like the
    # seat's own token, and dies with the session (log out) or the seat (a re-invite).
    Column("table_id", String(32), ForeignKey("spyglass_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("session_hash", String(64), primary_key=True),
    Column("key_hash", String(64), nullable=False),
    Column("created", Float, nullable=False),
)

ratings_t = Table(
    "spyglass_ratings",
    metadata,
    Column("player", String(80), primary_key=True),  # "account:ID" or "bot:AGENT[@BUDGET]"
    Column("game", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

rated_t = Table(
    "spyglass_rated",
    metadata,
    # One row per rated table, written in the transaction that updates the ratings: a table's
    # end is rated once, whichever process (or how many) sees it.
    Column("table_id", String(32), ForeignKey("spyglass_tables.id"), primary_key=True),
    Column("at", Float, nullable=False),
    Column("changes", Text, nullable=False),  # JSON: per seat, rank and rating before/after
)


JOB_BOT = "bot"
JOB_HINT = "hint"  # + the seat: "hint2"


@dataclass(frozen=True, slots=True)
class Job:
    """Work for the bot workers of any server process: a bot's move at ``step`` of a table, or
    a hint for ``seat`` at that step."""

    table_id: str
    step: int
    kind: str
    seat: int
    due: float = 0.0

    @property
    def is_hint(self) -> bool:
        return self.kind.startswith(JOB_HINT)


def hint_kind(seat: int) -> str:
    return f"{JOB_HINT}{seat}"


#: More writes for a store's transaction, given its connection (see :meth:`Store.append`).
Also = Callable[[Any], None]


class Conflict(Exception):
    """A compare-and-set lost: the stored table is not at the step the writer expected (another
    request, or another server process, changed it first). Nothing was written."""


class StoreError(Exception):
    """A value the database refuses (e.g. text PostgreSQL cannot hold): a bad request, not a
    server fault."""


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
    invite_hash: str | None = None
    account_id: str | None = None  # the account the seat belongs to (accounts.py)
    account: str | None = None  # ... and its name, as loaded
    keys: list[str] = field(default_factory=list)  # hashes of its accounts' device keys

    @property
    def claimed(self) -> bool:
        """A person's seat that someone holds (an invite not yet used is not)."""
        return self.token_hash is not None


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
    private: bool = False
    host_hash: str | None = None
    waiting: str | None = None
    rematch: str | None = None  # the id of this table's rematch, once someone asked for one
    to_move: int | None = None  # as stored (written with each move)
    rated: dict[str, Any] | None = None  # the rating changes of its end (ratings.py)

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


def _add_missing_columns(engine: Engine) -> None:
    """Bring an older database up to date: add each column of the schema it lacks (they are
    all nullable, so existing rows simply read as defaults)."""
    inspector = inspect(engine)
    names = set(inspector.get_table_names())
    with engine.begin() as conn:
        for table in metadata.sorted_tables:
            if table.name not in names:
                continue
            have = {c["name"] for c in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name in have:
                    continue
                kind = column.type.compile(dialect=engine.dialect)
                conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"))


class Store:
    """The database. ``url`` is a SQLAlchemy URL (see :func:`database_url`)."""

    def __init__(self, url: str, *, origin: str = "") -> None:
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise RulesError(f"not a database address: {url!r}") from None
        self.url = url
        self.origin = origin  # this server process, named in the notes it sends
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
            _add_missing_columns(self.engine)
        except OperationalError as error:
            raise RulesError(
                f"cannot open the database {self.describe_url(url)}: {error.orig}"
            ) from None

    @property
    def libpq_url(self) -> str | None:
        """The address for a PostgreSQL client of its own (the bus's LISTEN), or None."""
        if self.is_sqlite:
            return None
        parsed = make_url(self.url).set(drivername="postgresql")
        return parsed.render_as_string(hide_password=False)

    def note(self, conn: Any, table_id: str, kind: str, value: Any = None) -> None:
        """Tell the other server processes (PostgreSQL NOTIFY, delivered when this transaction
        commits, and only then) that a table changed. SQLite has one process: nothing to do."""
        if self.is_sqlite:
            return
        payload = json.dumps({"o": self.origin, "t": table_id, "k": kind, "v": value})
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload}
        )

    @staticmethod
    def describe_url(url: str) -> str:
        """The address without its password, for messages."""
        return make_url(url).render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writes

    def create(
        self,
        row: TableRow,
        job: Job | None = None,
        *,
        rematch_of: str | None = None,
        also: Also | None = None,
    ) -> None:
        """A new table (and its first bot job, if a bot moves first). ``rematch_of``: the
        finished table it is the rematch of, whose ``rematch`` is set in the same transaction
        if it has none yet (:class:`Conflict`, nothing written, if it has); ``also`` writes
        more in the same transaction (its clocks)."""
        now = time.time()
        row.created = row.updated = now
        try:
            with self.engine.begin() as conn:
                if rematch_of is not None:
                    linked = conn.execute(
                        update(tables_t)
                        .where(tables_t.c.id == rematch_of, tables_t.c.rematch.is_(None))
                        .values(rematch=row.id)
                    )
                    if linked.rowcount != 1:
                        raise Conflict(f"table {rematch_of} has a rematch already")
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
                        private=row.private,
                        host_hash=row.host_hash,
                        waiting=row.waiting,
                        to_move=row.to_move,
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
                            "invite_hash": s.invite_hash,
                            "account_id": s.account_id,
                        }
                        for s in row.seats
                    ],
                )
                if job is not None:
                    self.insert_job(conn, job, now)
                if rematch_of is not None:
                    self.note(conn, rematch_of, "rematch", row.id)
                if also is not None:
                    also(conn)
        except DBAPIError as error:
            if "NUL" in str(error.orig) or "0x00" in str(error.orig):
                raise StoreError("text with a NUL character cannot be stored") from None
            raise

    def append(
        self,
        table_id: str,
        step: int,
        seat: int,
        notation: str,
        status: str,
        *,
        waiting: str | None = None,
        job: Job | None = None,
        to_move: int | None = None,
        result: str | None = None,
        also: Also | None = None,
    ) -> None:
        """Add action ``step`` (1-based) and the table's new status, in one transaction, if the
        stored table is at ``step - 1``; :class:`Conflict` (nothing written) if it is not. The
        same transaction drops the table's jobs about earlier positions (done, or moot) and
        adds ``job`` (the next bot move), writes what ``also`` writes (the clocks, themselves a
        compare-and-set that may raise :class:`Conflict`), and tells the other processes."""
        now = time.time()
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.step == step - 1)
                .where(tables_t.c.status != OVER)
                .values(
                    step=step,
                    status=status,
                    updated=now,
                    waiting=waiting,
                    to_move=to_move,
                    result=result,
                )
            )
            if moved.rowcount != 1:
                raise Conflict(f"table {table_id} is not at step {step - 1}")
            conn.execute(
                insert(actions_t).values(
                    table_id=table_id, step=step, seat=seat, notation=notation, at=now
                )
            )
            conn.execute(delete(jobs_t).where(jobs_t.c.table_id == table_id, jobs_t.c.step < step))
            if job is not None:
                self.insert_job(conn, job, now)
            if also is not None:
                also(conn)
            self.note(conn, table_id, "move", step)

    def truncate(
        self,
        table_id: str,
        step: int,
        status: str,
        waiting: str | None = None,
        *,
        expected: int | None = None,
        to_move: int | None = None,
        also: Also | None = None,
    ) -> None:
        """Drop every action after ``step`` (undo), in one transaction, if the stored table is
        at step ``expected`` (default ``step + 1``); :class:`Conflict` if it is not. ``also``
        writes more in the same transaction (the clocks)."""
        expected = step + 1 if expected is None else expected
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id, tables_t.c.step == expected)
                .values(
                    step=step, status=status, updated=time.time(), waiting=waiting, to_move=to_move
                )
            )
            if moved.rowcount != 1:
                raise Conflict(f"table {table_id} is not at step {expected}")
            conn.execute(
                delete(actions_t).where(actions_t.c.table_id == table_id, actions_t.c.step > step)
            )
            conn.execute(delete(jobs_t).where(jobs_t.c.table_id == table_id, jobs_t.c.step > step))
            if also is not None:
                also(conn)
            self.note(conn, table_id, "undo", step)

    def set_waiting(self, table_id: str, waiting: str | None) -> None:
        """Note who a table waits for (tables stored by a version that did not)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(waiting=waiting))

    def add_message(self, table_id: str, message: MessageRow) -> None:
        """Keep one message of a table (committed before anyone receives it); :class:`Conflict`
        if another process took its number first."""
        try:
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
                self.note(conn, table_id, "message", message.n)
        except IntegrityError:
            raise Conflict(f"message {message.n} of table {table_id} exists") from None

    def messages_after(self, table_id: str, n: int) -> list[MessageRow]:
        """The messages of a table numbered after ``n``, in order."""
        with self.engine.connect() as conn:
            return [
                MessageRow(m.n, m.seat, m.to_seat, m.text, m.at)
                for m in conn.execute(
                    select(messages_t)
                    .where(messages_t.c.table_id == table_id, messages_t.c.n > n)
                    .order_by(messages_t.c.n)
                )
            ]

    # ------------------------------------------------------------------ seats and invites

    def claim(self, table_id: str, invite_hash: str, token_hash: str) -> int | None:
        """Use a pending invite: the seat it was for now holds ``token_hash`` and the invite is
        gone. Returns the seat, or None when no seat has that invite (used, revoked, never)."""
        with self.engine.begin() as conn:
            seat = conn.execute(
                select(seats_t.c.seat).where(
                    seats_t.c.table_id == table_id, seats_t.c.invite_hash == invite_hash
                )
            ).scalar()
            if seat is None:
                return None
            done = conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.invite_hash == invite_hash,
                )
                .values(token_hash=token_hash, invite_hash=None)
            )
            if done.rowcount != 1:
                return None
            self.note(conn, table_id, "seats")
            return seat

    def reinvite(self, table_id: str, seat: int, invite_hash: str) -> None:
        """A new invite for a person's seat: the seat's token and any earlier invite stop
        working; so do its accounts' device keys, and the seat no longer belongs to an
        account (it is someone else's from now on)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(token_hash=None, invite_hash=invite_hash, account_id=None)
            )
            conn.execute(
                delete(seat_keys_t).where(
                    seat_keys_t.c.table_id == table_id, seat_keys_t.c.seat == seat
                )
            )
            self.note(conn, table_id, "seats")

    def rotate(self, table_id: str, seat: int, old_hash: str, new_hash: str) -> bool:
        """Replace a seat's token by a new one, if ``old_hash`` is still its token."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.token_hash == old_hash,
                )
                .values(token_hash=new_hash)
            )
            if done.rowcount != 1:
                return False
            self.note(conn, table_id, "seats")
            return True

    def archive_idle(self, before: float) -> list[str]:
        """Archive every unfinished table whose last change is older than ``before`` (seconds
        since 1970); returns their ids."""
        with self.engine.begin() as conn:
            ids = list(
                conn.execute(
                    select(tables_t.c.id).where(
                        tables_t.c.status == PLAYING, tables_t.c.updated < before
                    )
                ).scalars()
            )
            if ids:
                conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id.in_(ids), tables_t.c.status == PLAYING)
                    .values(status=ARCHIVED)
                )
                conn.execute(delete(jobs_t).where(jobs_t.c.table_id.in_(ids)))
        return ids

    # ------------------------------------------------------------------ jobs

    def insert_job(self, conn: Any, job: Job, now: float) -> None:
        """Queue a job inside the caller's transaction (nothing if it is queued already)."""
        values = {
            "table_id": job.table_id,
            "step": job.step,
            "kind": job.kind,
            "seat": job.seat,
            "due": job.due,
            "created": now,
        }
        dialect: Any = sqlite if self.is_sqlite else postgresql
        conn.execute(dialect.insert(jobs_t).values(**values).on_conflict_do_nothing())

    def add_job(self, job: Job) -> None:
        """Queue a job (nothing if that job is queued already) and tell the other processes."""
        with self.engine.begin() as conn:
            self.insert_job(conn, job, time.time())
            self.note(conn, job.table_id, "job", job.step)

    def claim_jobs(self, owner: str, limit: int, lease: float) -> list[Job]:
        """Take up to ``limit`` jobs that are due and that no process holds (or whose holder's
        lease ran out: it died) for ``lease`` seconds, oldest first."""
        now = time.time()
        with self.engine.begin() as conn:
            free = (
                select(jobs_t.c.table_id, jobs_t.c.step, jobs_t.c.kind)
                .where(jobs_t.c.result.is_(None), jobs_t.c.due <= now)
                .where(or_(jobs_t.c.lease.is_(None), jobs_t.c.lease < now))
                .order_by(jobs_t.c.due)
                .limit(limit)
                .with_for_update(skip_locked=True)
            )
            chosen = list(conn.execute(free))
            jobs = []
            for table_id, step, kind in chosen:
                taken = conn.execute(
                    update(jobs_t)
                    .where(jobs_t.c.table_id == table_id, jobs_t.c.step == step)
                    .where(jobs_t.c.kind == kind)
                    .values(owner=owner, lease=now + lease)
                    .returning(jobs_t.c.seat, jobs_t.c.due)
                ).first()
                if taken is not None:
                    jobs.append(Job(table_id, step, kind, taken.seat, taken.due))
        return jobs

    def next_due(self) -> float | None:
        """When the next job not held by anyone falls due (seconds since 1970), or None."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.min(jobs_t.c.due)).where(
                    jobs_t.c.result.is_(None),
                    or_(jobs_t.c.lease.is_(None), jobs_t.c.lease < time.time()),
                )
            ).scalar()

    def finish_job(self, job: Job, result: str | None = None) -> None:
        """A job done: a bot's is dropped (its move is stored), a hint's answer is kept."""
        with self.engine.begin() as conn:
            where = (
                jobs_t.c.table_id == job.table_id,
                jobs_t.c.step == job.step,
                jobs_t.c.kind == job.kind,
            )
            if result is None:
                conn.execute(delete(jobs_t).where(*where))
            else:
                conn.execute(update(jobs_t).where(*where).values(result=result, lease=None))
                self.note(conn, job.table_id, "hint", [job.step, job.seat])

    def release_jobs(self, owner: str) -> None:
        """Give back the jobs ``owner`` holds and has not finished (a process stopping): other
        processes take them at once rather than after the lease."""
        with self.engine.begin() as conn:
            conn.execute(
                update(jobs_t)
                .where(jobs_t.c.owner == owner, jobs_t.c.result.is_(None))
                .values(owner=None, lease=None)
            )

    def job_result(self, table_id: str, step: int, kind: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(
                select(jobs_t.c.result).where(
                    jobs_t.c.table_id == table_id, jobs_t.c.step == step, jobs_t.c.kind == kind
                )
            ).scalar()

    def tables_without_bot_job(self) -> list[tuple[str, int]]:
        """Unfinished tables that may wait for a bot with no job queued at their step (left by
        an older version): (id, step)."""
        with self.engine.connect() as conn:
            queued = select(jobs_t.c.table_id).where(
                jobs_t.c.table_id == tables_t.c.id,
                jobs_t.c.step == tables_t.c.step,
                jobs_t.c.kind == JOB_BOT,
            )
            rows = conn.execute(
                select(tables_t.c.id, tables_t.c.step).where(
                    tables_t.c.status == PLAYING,
                    or_(tables_t.c.waiting == WAITING_BOT, tables_t.c.waiting.is_(None)),
                    ~queued.exists(),
                )
            )
            return [(r.id, r.step) for r in rows]

    # ------------------------------------------------------------------ reads

    def load(
        self,
        table_id: str | None = None,
        status: str | None = None,
        *,
        waiting: str | None = None,
    ) -> list[TableRow]:
        """Every table (or the one given, or those with a status, or waiting for a bot or a
        person) with seats, actions and messages."""
        with self.engine.connect() as conn:
            query = select(tables_t).order_by(tables_t.c.created)
            seat_query = select(seats_t).order_by(seats_t.c.seat)
            action_query = select(actions_t.c.table_id, actions_t.c.notation).order_by(
                actions_t.c.table_id, actions_t.c.step
            )
            message_query = select(messages_t).order_by(messages_t.c.table_id, messages_t.c.n)
            conditions = []
            if table_id is not None:
                conditions.append(tables_t.c.id == table_id)
            if status is not None:
                conditions.append(tables_t.c.status == status)
            if waiting is not None:
                conditions.append(tables_t.c.waiting == waiting)
            if conditions:
                query = query.where(*conditions)
                chosen = select(tables_t.c.id).where(*conditions)
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
                    private=bool(r.private),
                    host_hash=r.host_hash,
                    waiting=r.waiting,
                    rematch=r.rematch,
                    to_move=r.to_move,
                )
                for r in conn.execute(query)
            }
            for s in conn.execute(seat_query):
                if s.table_id in rows:
                    rows[s.table_id].seats.append(
                        SeatRow(
                            s.seat, s.kind, s.name, s.agent, s.budget, s.token_hash, s.invite_hash
                        )
                    )
            for a in conn.execute(action_query):
                if a.table_id in rows:
                    rows[a.table_id].actions.append(a.notation)
            for m in conn.execute(message_query):
                if m.table_id in rows:
                    rows[m.table_id].messages.append(
                        MessageRow(m.n, m.seat, m.to_seat, m.text, m.at)
                    )
            self._load_accounts(conn, rows, chosen if conditions else None)
        return list(rows.values())

    @staticmethod
    def _load_accounts(conn: Any, rows: dict[str, TableRow], chosen: Any) -> None:
        """The accounts of the loaded seats, their device keys, and the tables' rating
        changes (accounts.py, ratings.py)."""
        seat_query = (
            select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.account_id, accounts_t.c.name)
            .join(accounts_t, accounts_t.c.id == seats_t.c.account_id)
            .where(seats_t.c.account_id.is_not(None))
        )
        key_query = select(seat_keys_t.c.table_id, seat_keys_t.c.seat, seat_keys_t.c.key_hash)
        rated_query = select(rated_t.c.table_id, rated_t.c.changes)
        if chosen is not None:
            seat_query = seat_query.where(seats_t.c.table_id.in_(chosen))
            key_query = key_query.where(seat_keys_t.c.table_id.in_(chosen))
            rated_query = rated_query.where(rated_t.c.table_id.in_(chosen))
        for s in conn.execute(seat_query):
            if s.table_id in rows and s.seat < len(rows[s.table_id].seats):
                seat = rows[s.table_id].seats[s.seat]
                seat.account_id, seat.account = s.account_id, s.name
        for k in conn.execute(key_query):
            if k.table_id in rows and k.seat < len(rows[k.table_id].seats):
                rows[k.table_id].seats[k.seat].keys.append(k.key_hash)
        for r in conn.execute(rated_query):
            if r.table_id in rows:
                rows[r.table_id].rated = json.loads(r.changes)

    def seat_hashes(self, table_id: str) -> dict[int, list[str | None]]:
        """Per seat, the hashes that prove it as stored: its token's and its account's device
        keys' (two small queries: what a process checks an unknown token against)."""
        found: dict[int, list[str | None]] = {}
        with self.engine.connect() as conn:
            for s in conn.execute(
                select(seats_t.c.seat, seats_t.c.token_hash).where(seats_t.c.table_id == table_id)
            ):
                found.setdefault(s.seat, [])
                if s.token_hash is not None:
                    found[s.seat].append(s.token_hash)
            for k in conn.execute(
                select(seat_keys_t.c.seat, seat_keys_t.c.key_hash).where(
                    seat_keys_t.c.table_id == table_id
                )
            ):
                found.setdefault(k.seat, []).append(k.key_hash)
        return found

    def actions_after(self, table_id: str, step: int) -> tuple[int, str, list[str]] | None:
        """A table's stored step and status and its moves after ``step`` (a copy catching up
        with what another process committed), or None if there is no such table."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(tables_t.c.step, tables_t.c.status).where(tables_t.c.id == table_id)
            ).first()
            if row is None:
                return None
            moves = list(
                conn.execute(
                    select(actions_t.c.notation)
                    .where(actions_t.c.table_id == table_id, actions_t.c.step > step)
                    .order_by(actions_t.c.step)
                ).scalars()
            )
        return row.step, row.status, moves

    def ids(self, status: str | None = None) -> list[str]:
        """The ids of every table (or of those with ``status``)."""
        query = select(tables_t.c.id).order_by(tables_t.c.created)
        if status is not None:
            query = query.where(tables_t.c.status == status)
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def summaries(self, limit: int = 100) -> list[dict[str, Any]]:
        """The latest listed tables, newest first: what the lobby shows (nothing private; no
        private or archived table)."""
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
                .where(or_(tables_t.c.private.is_(None), tables_t.c.private.is_(False)))
                .where(tables_t.c.status != ARCHIVED)
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
