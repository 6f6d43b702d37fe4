"""Persistence on SQLite and PostgreSQL: what is stored, and what survives."""

from __future__ import annotations

import time

import pytest

from spyglass.engine import RulesError
from spyglass.web import auth
from spyglass.web.store import (
    ARCHIVED,
    OVER,
    PLAYING,
    WAITING_BOT,
    WAITING_HUMAN,
    Conflict,
    SeatRow,
    Store,
    TableRow,
    database_url,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path) -> Store:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url")
    store = Store(url)
    yield store
    store.close()


def row(table_id: str = "t1") -> TableRow:
    return TableRow(
        id=table_id,
        game="sandwich-guy",
        options={},
        players=2,
        seed=2**63 - 1,
        decks={"deck": ["A♠", "10♥"]},
        seats=[
            SeatRow(0, "human", "Ann", token_hash=auth.token_hash("secret")),
            SeatRow(1, "bot", "bot", agent="heuristic", budget=None),
        ],
    )


def test_tables_seats_and_actions_round_trip(store) -> None:
    store.create(row())
    store.append("t1", 1, 0, "A♠ 10♥", PLAYING)
    store.append("t1", 2, 1, "pass", OVER)
    [loaded] = store.load("t1")
    assert loaded.actions == ["A♠ 10♥", "pass"] and loaded.status == OVER
    assert loaded.seed == 2**63 - 1 and loaded.decks == {"deck": ["A♠", "10♥"]}
    assert [s.kind for s in loaded.seats] == ["human", "bot"]
    assert auth.matches("secret", loaded.seats[0].token_hash)
    assert not auth.matches("Secret", loaded.seats[0].token_hash)
    assert loaded.record()["actions"] == ["A♠ 10♥", "pass"]


def test_undo_truncates_and_status_filters(store) -> None:
    store.create(row("a"))
    store.create(row("b"))
    for step in (1, 2, 3):
        store.append("a", step, 0, f"m{step}", PLAYING)
    store.append("b", 1, 0, "x", OVER)
    store.truncate("a", 1, PLAYING, expected=3)
    assert store.load("a")[0].actions == ["m1"]
    assert [r.id for r in store.load(status=PLAYING)] == ["a"]
    assert [r.id for r in store.load(status=OVER)] == ["b"]
    summaries = {s["id"]: s for s in store.summaries()}
    assert summaries["a"]["step"] == 1 and summaries["b"]["status"] == OVER
    assert [s["kind"] for s in summaries["a"]["seats"]] == ["human", "bot"]


def test_one_action_per_step(store) -> None:
    store.create(row())
    store.append("t1", 1, 0, "m1", PLAYING)
    with pytest.raises(Conflict):
        store.append("t1", 1, 0, "again", PLAYING)
    assert store.load("t1")[0].actions == ["m1"]


def test_writes_are_compare_and_set_on_the_step(store) -> None:
    """The database is the arbiter: a writer that believes the table is elsewhere writes
    nothing, so the stored moves are always one line of play (no gap, no fork)."""
    store.create(row())
    store.append("t1", 1, 0, "m1", PLAYING)
    store.append("t1", 2, 0, "m2", PLAYING)
    with pytest.raises(Conflict):
        store.append("t1", 4, 0, "skips step 3", PLAYING)  # the race of issue 24
    with pytest.raises(Conflict):
        store.truncate("t1", 2, PLAYING, expected=3)  # takes back a move never stored
    store.truncate("t1", 1, PLAYING)  # from 2 to 1
    with pytest.raises(Conflict):
        store.truncate("t1", 1, PLAYING)  # the same undo twice
    store.append("t1", 2, 0, "m2b", OVER)
    with pytest.raises(Conflict):
        store.append("t1", 3, 0, "after the end", PLAYING)
    [loaded] = store.load("t1")
    assert loaded.actions == ["m1", "m2b"] and loaded.status == OVER
    assert store.summaries()[0]["step"] == 2


def test_an_invite_is_claimed_once_and_a_token_can_be_replaced(store) -> None:
    table = row()
    table.seats[1] = SeatRow(1, "human", "Bob", invite_hash=auth.token_hash("invite-1"))
    store.create(table)
    assert store.claim("t1", auth.token_hash("wrong"), auth.token_hash("tok")) is None
    assert store.claim("t1", auth.token_hash("invite-1"), auth.token_hash("tok")) == 1
    assert store.claim("t1", auth.token_hash("invite-1"), auth.token_hash("tok2")) is None
    seat = store.load("t1")[0].seats[1]
    assert seat.token_hash == auth.token_hash("tok") and seat.invite_hash is None
    assert not store.rotate("t1", 1, auth.token_hash("not it"), auth.token_hash("new"))
    assert store.rotate("t1", 1, auth.token_hash("tok"), auth.token_hash("new"))
    assert store.load("t1")[0].seats[1].token_hash == auth.token_hash("new")
    store.reinvite("t1", 1, auth.token_hash("invite-2"))
    seat = store.load("t1")[0].seats[1]
    assert seat.token_hash is None and seat.invite_hash == auth.token_hash("invite-2")


def test_private_and_archived_tables_are_not_listed(store) -> None:
    hidden = row("hidden")
    hidden.private = True
    store.create(hidden)
    store.create(row("old"))
    store.create(row("new"))
    store.append("new", 1, 0, "m1", PLAYING, waiting=WAITING_BOT)
    assert store.load("hidden")[0].private
    assert {s["id"] for s in store.summaries()} == {"old", "new"}
    now = time.time()
    assert store.archive_idle(now - 3600) == []
    assert sorted(store.archive_idle(now + 1)) == ["hidden", "new", "old"]
    assert store.summaries() == []
    assert store.load(status=PLAYING) == []
    [old] = store.load("old")
    assert old.status == ARCHIVED
    store.append("old", 1, 0, "back again", PLAYING, waiting=WAITING_HUMAN)
    assert store.load("old")[0].status == PLAYING
    assert [r.id for r in store.load(None, PLAYING, waiting=WAITING_HUMAN)] == ["old"]


def test_an_older_database_gets_the_new_columns(tmp_path) -> None:
    """A database made before invites, private tables and archiving: the columns are added
    the first time a newer server opens it, and its rows read as defaults."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            CREATE TABLE spyglass_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL,
                options TEXT NOT NULL, players INTEGER NOT NULL, seed BIGINT NOT NULL,
                decks TEXT NOT NULL, status VARCHAR(16) NOT NULL, step INTEGER NOT NULL,
                created FLOAT NOT NULL, updated FLOAT NOT NULL);
            CREATE TABLE spyglass_seats (table_id VARCHAR(32), seat INTEGER, kind VARCHAR(8)
                NOT NULL, name VARCHAR(64) NOT NULL, agent VARCHAR(32), budget INTEGER,
                token_hash VARCHAR(64), PRIMARY KEY (table_id, seat));
            INSERT INTO spyglass_tables VALUES ('x', 'sandwich-guy', '{}', 1, 5, '{}',
                'playing', 0, 1.0, 1.0);
            INSERT INTO spyglass_seats VALUES ('x', 0, 'human', 'Ann', NULL, NULL, 'h');
            """
        )
    store = Store(f"sqlite:///{path}")
    try:
        [old] = store.load("x")
        assert old.private is False and old.host_hash is None and old.waiting is None
        assert old.seats[0].invite_hash is None and old.seats[0].token_hash == "h"
        assert [s["id"] for s in store.summaries()] == ["x"]
    finally:
        store.close()


def test_database_addresses(tmp_path) -> None:
    assert database_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"
    assert database_url("postgresql://u:p@h/d") == "postgresql+psycopg://u:p@h/d"
    assert database_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("sqlite:///:memory:") == "sqlite:///:memory:"
    with pytest.raises(RulesError, match="does not exist"):
        database_url(str(tmp_path / "no" / "such" / "x.db"))
    assert Store.describe_url("postgresql+psycopg://u:secret@h/d") == (
        "postgresql+psycopg://u:***@h/d"
    )


def test_an_unreachable_database_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(RulesError, match="cannot open the database"):
        Store("postgresql+psycopg://nobody:pw@127.0.0.1:1/none?connect_timeout=2")
    with pytest.raises(RulesError, match="not a database address"):
        Store("::::")


def test_sqlite_uses_write_ahead_logging(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.close()
