"""The clocks' rows (``spyglass_clocks``) and the writes that change a table's seats and clocks
outside its moves: a time-out, a person joining an open seat, a host starting an open table.

Every clock write is a compare-and-set on the row's ``seq``: a move (through
:meth:`~.store.Store.append`'s ``also``), a time-out and a start each expect the ``seq`` they
read and bump it, so a move and a time-out of the same position can never both be stored, and
two processes that see the same deadline pass apply its time-out once. Writes take the table's
row first, then the clock's (as a move does), so that PostgreSQL never sees two writers wait on
each other in opposite orders.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import func, insert, select, update

from .clocks import Clock, ClockSpec, Timeout
from .store import (
    OVER,
    PLAYING,
    WAITING_PLAYERS,
    Conflict,
    Job,
    SeatRow,
    Store,
    clocks_t,
    jobs_t,
    seats_t,
    tables_t,
)

#: Who a seat is after a change: (kind, name, agent, budget) by seat; the token stays.
SeatChange = dict[int, tuple[str, str, str | None, int | None]]


def _values(clock: Clock) -> dict[str, Any]:
    return {
        "spec": json.dumps(clock.spec.to_json()),
        "remaining": json.dumps(list(clock.remaining)),
        "running": clock.running,
        "since": clock.since,
        "deadline": clock.deadline,
        "seq": clock.seq,
        "out": json.dumps(list(clock.out)),
        "timeouts": json.dumps([t.to_json() for t in clock.timeouts], ensure_ascii=False),
    }


def _clock(row: Any) -> Clock:
    return Clock(
        spec=ClockSpec.from_json(json.loads(row.spec)),
        remaining=tuple(json.loads(row.remaining)),
        running=row.running,
        since=row.since,
        seq=row.seq,
        out=tuple(json.loads(row.out)),
        timeouts=tuple(Timeout.from_json(t) for t in json.loads(row.timeouts)),
    )


def inserter(table_id: str, clock: Clock) -> Callable[[Any], None]:
    """The write of a new table's clocks, for :meth:`Store.create`'s ``also``."""

    def write(conn: Any) -> None:
        conn.execute(insert(clocks_t).values(table_id=table_id, **_values(clock)))

    return write


def updater(table_id: str, clock: Clock, expected_seq: int) -> Callable[[Any], None]:
    """The write of a table's clocks after a move or an undo, for the store's ``also``: a
    compare-and-set on ``seq`` (:class:`Conflict` if a time-out or another process wrote
    them since)."""

    def write(conn: Any) -> None:
        done = conn.execute(
            update(clocks_t)
            .where(clocks_t.c.table_id == table_id, clocks_t.c.seq == expected_seq)
            .values(**_values(clock))
        )
        if done.rowcount != 1:
            raise Conflict(f"the clocks of table {table_id} changed meanwhile")

    return write


def load(store: Store, table_id: str) -> Clock | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(clocks_t).where(clocks_t.c.table_id == table_id)).first()
    return None if row is None else _clock(row)


def due(store: Store, now: float, limit: int) -> list[str]:
    """The tables whose running clock ran out by ``now``, soonest first."""
    with store.engine.connect() as conn:
        return list(
            conn.execute(
                select(clocks_t.c.table_id)
                .where(clocks_t.c.deadline <= now)
                .order_by(clocks_t.c.deadline)
                .limit(limit)
            ).scalars()
        )


def next_deadline(store: Store) -> float | None:
    with store.engine.connect() as conn:
        return conn.execute(select(func.min(clocks_t.c.deadline))).scalar()


@dataclass(frozen=True, slots=True)
class Change:
    """A change of a table outside its moves, written whole or not at all: the table's new
    status and who it waits for, seats that change hands, the clocks (``expected_seq``: the
    ``seq`` they were read at), a bot's job."""

    table_id: str
    step: int
    status: str
    waiting: str | None
    seats: SeatChange
    clock: Clock | None = None
    expected_seq: int | None = None
    job: Job | None = None
    note: str = "table"
    #: A table that ends here: its result as stored for *Your games* (tables.final_result).
    result: str | None = None


def write_change(store: Store, change: Change, *, starting: bool = False) -> None:
    """Write ``change`` if the table is still at ``change.step`` and not over (``starting``:
    and still waiting for players), and its clocks still at ``expected_seq``; else
    :class:`Conflict` and nothing is written."""
    now = time.time()
    with store.engine.begin() as conn:
        _lock(
            conn,
            change.table_id,
            step=change.step,
            status=change.status,
            waiting=change.waiting,
            now=now,
            starting=starting,
            result=change.result,
        )
        _write_seats(conn, change.table_id, change.seats, empty_only=starting)
        _write_clock(conn, change)
        if change.job is not None:
            store.insert_job(conn, change.job, now)
            store.note(conn, change.table_id, "job", change.step)  # any process's bots
        store.note(conn, change.table_id, change.note)


def _lock(
    conn: Any,
    table_id: str,
    *,
    step: int,
    status: str,
    waiting: str | None,
    now: float,
    starting: bool,
    result: str | None = None,
) -> None:
    """Take the table's row (a compare-and-set on its step, and on its waiting for players
    when ``starting``) and give it its new status (and its result, when it ends)."""
    query = update(tables_t).where(
        tables_t.c.id == table_id, tables_t.c.step == step, tables_t.c.status != OVER
    )
    if starting:
        query = query.where(tables_t.c.waiting == WAITING_PLAYERS, tables_t.c.status == PLAYING)
    values: dict[str, Any] = {"status": status, "waiting": waiting, "updated": now}
    if result is not None:
        values["result"] = result
    done = conn.execute(query.values(**values))
    if done.rowcount != 1:
        raise Conflict(f"table {table_id} is not at step {step} any more")
    if status != PLAYING:  # over: nothing left for a bot to do
        conn.execute(jobs_t.delete().where(jobs_t.c.table_id == table_id))


def _write_seats(conn: Any, table_id: str, seats: SeatChange, *, empty_only: bool) -> None:
    """Give seats to new players; ``empty_only``: only seats nobody holds (a start must not
    take a seat someone joined or claimed meanwhile: :class:`Conflict`)."""
    for seat, (kind, name, agent, budget) in seats.items():
        query = update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
        if empty_only:
            query = query.where(seats_t.c.token_hash.is_(None))
        # an unused invite stops working: the seat is no longer a person's to claim
        done = conn.execute(
            query.values(kind=kind, name=name, agent=agent, budget=budget, invite_hash=None)
        )
        if done.rowcount != 1:
            raise Conflict(f"seat {seat} of table {table_id} was taken meanwhile")


def _write_clock(conn: Any, change: Change) -> None:
    if change.clock is None:
        return
    done = conn.execute(
        update(clocks_t)
        .where(clocks_t.c.table_id == change.table_id, clocks_t.c.seq == change.expected_seq)
        .values(**_values(change.clock))
    )
    if done.rowcount != 1:
        raise Conflict(f"the clocks of table {change.table_id} changed meanwhile")


# ---------------------------------------------------------------------- open tables


def join(
    store: Store,
    table_id: str,
    *,
    seat: int,
    token_hash: str,
    name: str,
    check: Callable[[list[SeatRow]], None],
) -> list[SeatRow]:
    """Give an empty seat of an open table to a person: the seat gets ``token_hash`` and
    ``name`` if it is still empty and the table still waits for players (:class:`Conflict`
    otherwise). ``check`` is shown the table's seats as the database holds them once the
    table's row is taken (so two joins are judged one after the other) and raises to refuse.
    Returns the seats after the join."""
    with store.engine.begin() as conn:
        done = conn.execute(
            update(tables_t)
            .where(
                tables_t.c.id == table_id,
                tables_t.c.waiting == WAITING_PLAYERS,
                tables_t.c.status == PLAYING,
            )
            .values(updated=time.time())
        )
        if done.rowcount != 1:
            raise Conflict("this table is no longer open to join: its game has started")
        seats = _seats(conn, table_id)
        check(seats)
        taken = conn.execute(
            update(seats_t)
            .where(
                seats_t.c.table_id == table_id,
                seats_t.c.seat == seat,
                seats_t.c.kind == "human",
                seats_t.c.token_hash.is_(None),
                seats_t.c.invite_hash.is_(None),
            )
            .values(token_hash=token_hash, name=name)
        )
        if taken.rowcount != 1:
            raise Conflict(f"seat {seat} has been taken")
        store.note(conn, table_id, "table")
        return _seats(conn, table_id)


#: The fields of a seat as the database holds it (a column of the same name for each).
_SEAT_FIELDS = [f.name for f in fields(SeatRow)]


def _seats(conn: Any, table_id: str) -> list[SeatRow]:
    rows = conn.execute(
        select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
    )
    # Row._mapping is SQLAlchemy's public way to read a row by column name, despite its "_"
    mappings = [s._mapping for s in rows]  # noqa: SLF001
    return [SeatRow(**{f: m[f] for f in _SEAT_FIELDS if f in m}) for m in mappings]


def open_tables(store: Store, limit: int, game: str | None = None) -> list[dict[str, Any]]:
    """The listed tables that wait for people to join, newest first, with their seats (the
    empty ones marked ``open``) and clocks."""
    with store.engine.connect() as conn:
        query = (
            select(tables_t.c.id, tables_t.c.game, tables_t.c.players, tables_t.c.created)
            .where(
                tables_t.c.waiting == WAITING_PLAYERS,
                tables_t.c.status == PLAYING,
                (tables_t.c.private.is_(None)) | (tables_t.c.private.is_(False)),
            )
            .order_by(tables_t.c.created.desc())
            .limit(limit)
        )
        if game is not None:
            query = query.where(tables_t.c.game == game)
        rows = conn.execute(query).all()
        ids = [r.id for r in rows]
        seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        specs: dict[str, dict[str, Any]] = {}
        if ids:
            for s in conn.execute(
                select(seats_t).where(seats_t.c.table_id.in_(ids)).order_by(seats_t.c.seat)
            ):
                empty = s.kind == "human" and s.token_hash is None and s.invite_hash is None
                seats[s.table_id].append(
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": None if empty else s.name,
                        "agent": s.agent,
                        "open": empty,
                        "claimed": s.kind == "bot" or s.token_hash is not None,
                    }
                )
            for c in conn.execute(
                select(clocks_t.c.table_id, clocks_t.c.spec).where(clocks_t.c.table_id.in_(ids))
            ):
                specs[c.table_id] = json.loads(c.spec)
    return [
        {
            "id": r.id,
            "game": r.game,
            "players": r.players,
            "created": r.created,
            "seats": seats[r.id],
            "open_seats": [s["seat"] for s in seats[r.id] if s["open"]],
            "clock": specs.get(r.id),
        }
        for r in rows
    ]


def waiting_but_full(store: Store) -> list[str]:
    """Open tables whose every seat is taken but that did not start (a process stopped
    between the last join and the start): they start when a server starts."""
    with store.engine.connect() as conn:
        empty = select(seats_t.c.table_id).where(
            seats_t.c.table_id == tables_t.c.id,
            seats_t.c.kind == "human",
            seats_t.c.token_hash.is_(None),
        )
        return list(
            conn.execute(
                select(tables_t.c.id).where(
                    tables_t.c.waiting == WAITING_PLAYERS,
                    tables_t.c.status == PLAYING,
                    ~empty.exists(),
                )
            ).scalars()
        )


def stop(store: Store, table_id: str, expected_seq: int, clock: Clock) -> None:
    """Stop the clocks of a table that cannot go on (a stored history that does not replay):
    nothing to time out there. :class:`Conflict` if they changed meanwhile."""
    with store.engine.begin() as conn:
        _write_clock(conn, Change(table_id, 0, "", None, {}, clock, expected_seq))


@dataclass(frozen=True, slots=True)
class Meta:
    """What a table's time-outs, joins and starts change: its status, who it waits for, its
    seats and its clocks."""

    status: str
    waiting: str | None
    seats: list[SeatRow]
    clock: Clock | None


def meta(store: Store, table_id: str) -> Meta | None:
    with store.engine.connect() as conn:
        row = conn.execute(
            select(tables_t.c.status, tables_t.c.waiting).where(tables_t.c.id == table_id)
        ).first()
        if row is None:
            return None
        clock = conn.execute(select(clocks_t).where(clocks_t.c.table_id == table_id)).first()
        times = None if clock is None else _clock(clock)
        return Meta(row.status, row.waiting, _seats(conn, table_id), times)
