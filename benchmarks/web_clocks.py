"""What clocks cost the web server: a move's latency with and without a clock, and the
timekeeper's look for passed deadlines among many clocked tables.

    python benchmarks/web_clocks.py [--tables 30] [--db PATH|URL] [--idle 2000]

The server runs in this process (FastAPI's test client, bots in threads), on a fresh SQLite file
(or the PostgreSQL database ``--db`` names, in a schema of its own). It plays ``--tables`` Sandwich
Guy deals to their end twice, move by move over HTTP, the same random legal moves each time:
once without a clock, once with a real-time clock (an hour, 1 s a move, so that none runs out).
It prints each run's move latency (p50, p95, mean of ``POST /actions``, which commits the move,
and with a clock its clocks, in one transaction) and their ratio, measured in the same run.
Then it adds ``--idle`` clocked tables straight to the database and times the two queries the
timekeeper runs on each look (the deadlines passed, and the next deadline), which the index on
``spyglass_clocks.deadline`` keeps independent of the number of tables.

Run it against a version without clocks (``PYTHONPATH=old/src``) for the "before" figure of
the first run: the second run and the timekeeper's are then skipped.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from fastapi.testclient import TestClient

from spyglass.web import create_app
from spyglass.web.limits import Limits
from spyglass.web.store import database_url

CLOCK = {"kind": "realtime", "seconds": 3600, "increment": 1}


def play(client: TestClient, tables: int, clock: dict | None) -> list[float] | None:
    """Milliseconds per move, over ``tables`` deals played to their end; None if the server
    has no clocks."""
    latencies = []
    for seed in range(tables):
        body: dict = {"game": "sandwich-guy", "seed": seed}
        if clock is not None:
            body["clock"] = clock
        created = client.post("/api/tables", json=body)
        if created.status_code == 422 and clock is not None:
            return None
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        token = created.json()["seats"][0]["token"]
        headers = {"X-Seat-Token": token}
        rng = random.Random(seed)
        while True:
            message = client.get(f"/api/tables/{table_id}", headers=headers).json()
            if message["view"]["over"] or not message["legal"]:
                break
            move = rng.choice(message["legal"])["notation"]
            start = time.perf_counter()
            answer = client.post(
                f"/api/tables/{table_id}/actions",
                headers=headers,
                json={"action": move, "step": message["view"]["step"]},
            )
            latencies.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200, answer.text
    return latencies


def describe(name: str, values: list[float]) -> float:
    values = sorted(values)
    p50 = statistics.median(values)
    p95 = values[int(0.95 * (len(values) - 1))]
    mean = statistics.fmean(values)
    figures = f"p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  mean {mean:6.2f} ms"
    print(f"{name:<16} {len(values):>6} moves  {figures}")
    return mean


def timekeeper_queries(url: str, idle: int) -> None:
    try:
        from spyglass.web import clockstore  # noqa: PLC0415
        from spyglass.web.clocks import Clock, ClockSpec  # noqa: PLC0415
        from spyglass.web.store import SeatRow, Store, TableRow  # noqa: PLC0415
    except ImportError:
        return
    store = Store(url)
    now = time.time()
    spec = ClockSpec("turn", 86400.0)
    start = time.perf_counter()
    for i in range(idle):
        table_id = f"idle{i}-{uuid.uuid4().hex[:8]}"
        row = TableRow(table_id, "sandwich-guy", {}, 1, i, {}, seats=[SeatRow(0, "human", "x")])
        clock = Clock.new(spec, [True]).run(0, now + i)
        store.create(row, also=clockstore.inserter(table_id, clock))
    made = time.perf_counter() - start
    timings = {"due": [], "next": []}
    for _ in range(50):
        t = time.perf_counter()
        clockstore.due(store, now, 16)
        timings["due"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        clockstore.next_deadline(store)
        timings["next"].append((time.perf_counter() - t) * 1000)
    store.close()
    print(f"timekeeper look among {idle} clocked tables ({made:.1f} s to make them):")
    for name, values in timings.items():
        print(f"  {name:<5} p50 {statistics.median(values):6.3f} ms  max {max(values):6.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--idle", type=int, default=2000, help="0: skip")
    parser.add_argument("--db", default=None, help="a SQLite path or postgresql:// URL")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="spyglass-clocks-"))
    url = database_url(args.db or str(folder / "bench.sqlite3"))
    if url.startswith("postgresql") and "search_path" not in url:
        from sqlalchemy import create_engine, text  # noqa: PLC0415

        schema = f"bench_{uuid.uuid4().hex[:8]}"
        with create_engine(url).begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        url = f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    limits = Limits(tables="100000/minute")
    with TestClient(create_app(url, bot_pool="thread", bot_delay=0.0, limits=limits)) as client:
        play(client, 2, None)  # warm up: imports, first queries
        plain = describe("without clock", play(client, args.tables, None) or [])
        clocked = play(client, args.tables, CLOCK)
        if clocked is None:
            print("this version has no clocks")
            sys.exit(0)
        timed = describe("with a clock", clocked)
        print(f"ratio (with / without, mean): {timed / plain:.2f}")
    if args.idle:
        timekeeper_queries(url, args.idle)


if __name__ == "__main__":
    main()
