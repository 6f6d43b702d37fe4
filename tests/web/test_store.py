"""Persistence on SQLite and PostgreSQL: what is stored, and what survives."""

from __future__ import annotations

import pytest

from spyglass.engine import RulesError
from spyglass.web import auth
from spyglass.web.store import OVER, PLAYING, SeatRow, Store, TableRow, database_url


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
    store.truncate("a", 1, PLAYING)
    assert store.load("a")[0].actions == ["m1"]
    assert [r.id for r in store.load(status=PLAYING)] == ["a"]
    assert [r.id for r in store.load(status=OVER)] == ["b"]
    summaries = {s["id"]: s for s in store.summaries()}
    assert summaries["a"]["step"] == 1 and summaries["b"]["status"] == OVER
    assert [s["kind"] for s in summaries["a"]["seats"]] == ["human", "bot"]


def test_one_action_per_step(store) -> None:
    store.create(row())
    store.append("t1", 1, 0, "m1", PLAYING)
    with pytest.raises(Exception, match=r"(?i)unique|primary|duplicate"):
        store.append("t1", 1, 0, "again", PLAYING)
    assert store.load("t1")[0].actions == ["m1"]


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
