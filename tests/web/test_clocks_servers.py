"""Time-outs applied by real ``spyglass serve`` processes (issue 27, point 4): with nobody
connected, after a restart that a deadline passed during, and by exactly one of two processes
sharing a PostgreSQL database. Every check reads the database itself, so that no request could
be what applied a time-out.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
import pytest

import spyglass
from spyglass.web import clockstore
from spyglass.web.clocks import Clock
from spyglass.web.store import OVER, Store, TableRow, database_url
from tests.web.cluster import Cluster
from tests.web.conftest import TEST_SERVE_ARGS

ONE_WORKER = (*TEST_SERVE_ARGS, "--bot-workers", "1")
TIMED_OUT = "ran out of time"


def stored(db: str, table_id: str) -> tuple[TableRow, Clock]:
    store = Store(database_url(db))
    try:
        [row] = store.load(table_id)
        clock = clockstore.load(store, table_id)
    finally:
        store.close()
    assert clock is not None
    return row, clock


def wait_stored(
    db: str, table_id: str, done: Callable[[TableRow, Clock], bool], seconds: float = 30.0
) -> tuple[TableRow, Clock]:
    deadline = time.monotonic() + seconds
    while True:
        row, clock = stored(db, table_id)
        if done(row, clock):
            return row, clock
        assert time.monotonic() < deadline, (row.status, clock)
        time.sleep(0.1)


def make(url: str, seed: int, clock: dict) -> str:
    body = {"game": "sandwich-guy", "seed": seed, "clock": clock}
    response = httpx.post(f"{url}/api/tables", json=body, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def databases(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "clocks.sqlite3")
    return request.getfixturevalue("postgres_url")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path) -> str:
    return databases(request, tmp_path)


def test_time_outs_apply_with_nobody_connected_after_a_restart_once(start_server, db: str) -> None:
    first = start_server(db, args=ONE_WORKER)
    lose = make(first.url, 3, {"kind": "realtime", "seconds": 3, "on_timeout": "lose"})
    bot = make(first.url, 4, {"kind": "turn", "seconds": 3, "on_timeout": "bot"})
    first.kill()  # a crash: the deadlines pass while no server runs
    for table_id in (lose, bot):
        _row, clock = stored(db, table_id)
        assert clock.timeouts == () and clock.running == 0 and clock.deadline is not None
    time.sleep(max(0.0, clock.deadline - time.time()) + 0.3)
    for table_id in (lose, bot):
        row, clock = stored(db, table_id)
        assert row.status != OVER and clock.timeouts == ()
    # a new server, and no connection, no request: it finds the deadlines in the database
    second = start_server(db, args=ONE_WORKER)
    row, clock = wait_stored(db, lose, lambda r, c: r.status == OVER)
    assert row.actions == [] and clock.out == (0,) and clock.running is None
    assert [(t.seat, t.step, t.then) for t in clock.timeouts] == [(0, 0, "lost")]
    row, clock = wait_stored(db, bot, lambda r, c: r.status == OVER)
    assert (row.seats[0].kind, row.seats[0].agent) == ("bot", "heuristic")
    assert row.seats[0].name == "seat 0 (heuristic bot)"
    assert [(t.seat, t.step, t.then) for t in clock.timeouts] == [(0, 0, "bot")]
    assert spyglass.replay(row.record()).is_over  # the bot played the game to its end
    assert clock.out == () and clock.remaining == (None,)
    time.sleep(0.5)  # a second application would have come by now
    for table_id in (lose, bot):
        assert len(stored(db, table_id)[1].timeouts) == 1
    assert second.log().count(TIMED_OUT) == 2 and first.log().count(TIMED_OUT) == 0


@pytest.mark.slow
def test_two_processes_apply_each_time_out_exactly_once(postgres_url: str) -> None:
    cluster = Cluster(postgres_url, n=2, args=ONE_WORKER)
    try:
        cluster.start()
        # round-robin: the tables are made by both processes, and both see every deadline
        made = [
            make(cluster.url(), seed, {"kind": "realtime", "seconds": 1.5, "on_timeout": rule})
            for seed, rule in zip(range(8), ["lose", "bot"] * 4, strict=True)
        ]
        for table_id in made:
            _row, clock = wait_stored(postgres_url, table_id, lambda r, c: bool(c.timeouts))
        time.sleep(1.0)  # a second application would have come by now
        for table_id in made:
            _row, clock = stored(postgres_url, table_id)
            assert len(clock.timeouts) == 1, clock.timeouts
        logs = [server.log() for server in cluster.servers]
        assert sum(log.count(TIMED_OUT) for log in logs) == len(made), logs
    finally:
        cluster.stop()
