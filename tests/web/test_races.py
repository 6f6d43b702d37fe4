"""Races: many requests at once on many tables must leave one history per table, whole.

A real server on loopback is hammered with volleys of concurrent moves, undos, hints, looks
and WebSocket reconnects on many tables (issue 24: a volley of undos and moves near the end of a
Sandwich Guy game left a table whose stored moves skipped a step and which answered 500 for
ever). Afterwards, every table in the database must replay, the server must say each table is
where the database says it is, and no request may have got a server error: each either took
effect whole or changed nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import pytest
import websockets

import spyglass
from spyglass.web.store import OVER, Store, database_url
from tests.web.conftest import TEST_SERVE_ARGS
from tests.web.helpers import headers

ALLOWED = {200, 409, 410, 422, 429}  # taken, or refused with a reason; never 5xx
#: Short hints: the point is their racing with moves, not their strength.
SERVE_ARGS = (*TEST_SERVE_ARGS, "--hint-time", "0.25")


async def _volley(
    client: httpx.AsyncClient, ws_base: str, table: dict, rng: random.Random
) -> list[int]:
    """One burst of concurrent requests at one table; returns their statuses."""
    tid, token = table["id"], table["token"]
    h = headers(token)
    look = await client.get(f"/api/tables/{tid}", headers=h)
    assert look.status_code == 200, look.text
    message = look.json()
    moves = [m["notation"] for m in message["legal"]] or ["pass"]
    step = message["view"]["step"]
    calls = []
    for _ in range(rng.randint(4, 9)):
        kind = rng.random()
        if kind < 0.35:
            body = {"action": rng.choice(moves)}
            if rng.random() < 0.5:
                body["step"] = step
            calls.append(client.post(f"/api/tables/{tid}/actions", headers=h, json=body))
        elif kind < 0.65 and table["solo"]:
            calls.append(client.post(f"/api/tables/{tid}/undo", headers=h))
        elif kind < 0.7:
            calls.append(client.post(f"/api/tables/{tid}/hint", headers=h))
        elif kind < 0.85:
            calls.append(_reconnect(ws_base, tid, token))
        else:
            calls.append(client.get(f"/api/tables/{tid}", headers=h))
    results = await asyncio.gather(*calls)
    statuses = []
    for r in results:
        if isinstance(r, int):
            statuses.append(r)
        elif r.status_code == 503 and r.url.path.endswith("/hint"):
            # a hint not thought out in time on a flooded machine: refused whole, as the API
            # says, and not a race
            statuses.append(429)
        else:
            statuses.append(r.status_code)
    return statuses


async def _reconnect(ws_base: str, table_id: str, token: str) -> int:
    """Connect, take the first state, leave: a page reloading mid-volley."""
    async with websockets.connect(f"{ws_base}/api/tables/{table_id}/ws") as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(await asyncio.wait_for(socket.recv(), 30))
        return 200 if first.get("type") == "state" else 500


async def _hammer(url: str, trials: int, seconds: float, seed: int) -> tuple[list[dict], int]:
    rng = random.Random(seed)
    ws_base = "ws://" + url.split("://", 1)[1]
    # No connection is reused: see _end_storms (a keep-alive close racing a starved client).
    limits = httpx.Limits(max_connections=40, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        tables = []
        for i in range(24):
            solo = i % 3 != 2
            body = (
                {"game": "sandwich-guy", "seed": i}
                if solo
                else {
                    "game": "espionage",
                    "players": 3,
                    "seed": i,
                    "seats": [
                        {"kind": "human"},
                        {"kind": "bot", "agent": "random"},
                        {"kind": "bot", "agent": "random"},
                    ],
                }
            )
            created = (await client.post("/api/tables", json=body)).json()
            tables.append(
                {"id": created["id"], "token": created["seats"][0]["token"], "solo": solo}
            )
        statuses: list[int] = []
        done = 0
        deadline = time.monotonic() + seconds

        async def player() -> None:
            # One of several players at once, each firing volleys at random tables.
            nonlocal done
            while done < trials and time.monotonic() < deadline:
                statuses.extend(await _volley(client, ws_base, rng.choice(tables), rng))
                done += 1

        await asyncio.gather(*(player() for _ in range(8)))
    bad = [s for s in statuses if s not in ALLOWED]
    assert not bad, f"{len(bad)} requests answered {sorted(set(bad))} (of {len(statuses)})"
    return tables, done


def _first_legal_length(seed: int) -> int:
    """How many moves a Sandwich Guy game lasts when the first legal move is always made."""
    state = spyglass.load("sandwich-guy").new_state(seed=seed)
    moves = 0
    while not state.is_over:
        state.apply(state.legal_actions()[0])
        moves += 1
    return moves


async def _end_storms(url: str, count: int, seed: int) -> tuple[list[dict], list[int]]:
    """The issue's recipe on ``count`` Sandwich Guy tables (no live connection, so a finished
    table is free to leave memory): play to one move before the end, then send ten undos and
    ten moves at once, among them the move that ends the game."""
    rng = random.Random(seed)
    # No connection is reused. The server closes a connection idle for 5 s (uvicorn's
    # keep-alive timeout), and on a loaded machine this client may read a response seconds
    # after the server sent it, then send its next request just as the server's timer closes
    # that connection: the kernel answers with a reset (httpx.ReadError), an outcome of HTTP
    # keep-alive that says nothing about the tables (it failed 3 runs of 3 at load 19 here).
    limits = httpx.Limits(max_connections=60, max_keepalive_connections=0)
    statuses: list[int] = []
    tables: list[dict] = []
    gate = asyncio.Semaphore(15)  # tables stormed at once

    async def one(client: httpx.AsyncClient, deal: int) -> None:
        async with gate:
            created = await client.post("/api/tables", json={"game": "sandwich-guy", "seed": deal})
            assert created.status_code == 201, created.text
            tid, token = created.json()["id"], created.json()["seats"][0]["token"]
            tables.append({"id": tid, "token": token, "solo": True})
            h = headers(token)
            message = (await client.get(f"/api/tables/{tid}", headers=h)).json()
            for _ in range(_first_legal_length(deal) - 1):
                answer = await client.post(
                    f"/api/tables/{tid}/actions",
                    headers=h,
                    json={"action": message["legal"][0]["notation"]},
                )
                assert answer.status_code == 200, answer.text
                message = answer.json()
            legal = [m["notation"] for m in message["legal"]]
            calls = [client.post(f"/api/tables/{tid}/undo", headers=h) for _ in range(10)]
            calls += [
                client.post(
                    f"/api/tables/{tid}/actions",
                    headers=h,
                    json={"action": legal[0] if i < 5 else rng.choice(legal)},
                )
                for i in range(10)
            ]
            rng.shuffle(calls)
            for response in await asyncio.gather(*calls, return_exceptions=True):
                if isinstance(response, httpx.TransportError):
                    statuses.append(-1)  # a connection dropped under a request
                elif isinstance(response, BaseException):
                    raise response
                else:
                    statuses.append(response.status_code)

    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        await asyncio.gather(*(one(client, deal) for deal in range(count)))
    return tables, statuses


def _check_every_table(db_url: str, url: str, tables: list[dict]) -> None:
    """Every table's stored history replays, and what the server shows is a position of it
    (the server is read first: bots may move on meanwhile, but never ahead of the database)."""
    served = {
        t["id"]: httpx.get(f"{url}/api/tables/{t['id']}", timeout=30).json()["view"] for t in tables
    }
    store = Store(db_url)
    try:
        rows = {r.id: r for r in store.load()}
    finally:
        store.close()
    assert set(rows) >= set(served)
    for table_id, view in served.items():
        row = rows[table_id]
        state = spyglass.replay(row.record())  # raises if the stored history does not replay
        assert (row.status == OVER) == state.is_over, table_id
        assert view["step"] <= len(row.actions) == state.step, table_id
        shown = spyglass.replay(row.record(), upto=view["step"]).view(None)
        assert json.loads(json.dumps(shown)) == view, table_id


@pytest.mark.slow
def test_volleys_on_many_tables_leave_every_history_whole(start_server, tmp_path) -> None:
    db = str(tmp_path / "races.sqlite3")
    server = start_server(db, args=SERVE_ARGS)
    tables, trials = asyncio.run(_hammer(server.url, trials=2000, seconds=90, seed=24))
    _check_every_table(database_url(db), server.url, tables)
    assert trials >= 150, f"only {trials} volleys in the time allowed: the server stalled"


@pytest.mark.slow
def test_undo_and_move_storms_at_the_end_of_games_leave_every_history_whole(
    start_server, tmp_path
) -> None:
    """The issue's recipe, on 120 deals: on the old code about one table in 40 was left with a
    step missing from its stored moves (500 for ever after), and some storms got a 503."""
    db = str(tmp_path / "storms.sqlite3")
    server = start_server(db, args=SERVE_ARGS)
    tables, statuses = asyncio.run(_end_storms(server.url, count=120, seed=5))
    bad = [s for s in statuses if s not in ALLOWED]
    assert not bad, f"{len(bad)} requests answered {sorted(set(bad))} (of {len(statuses)})"
    _check_every_table(database_url(db), server.url, tables)
    for table in tables:  # every table still answers
        got = httpx.get(f"{server.url}/api/tables/{table['id']}", timeout=30)
        assert got.status_code == 200, (table["id"], got.text)


@pytest.mark.slow
def test_volleys_on_postgresql_leave_every_history_whole(start_server, postgres_url) -> None:
    server = start_server(postgres_url, args=SERVE_ARGS)
    tables, trials = asyncio.run(_hammer(server.url, trials=1000, seconds=45, seed=25))
    _check_every_table(postgres_url, server.url, tables)
    assert trials >= 50, f"only {trials} volleys in the time allowed: the server stalled"
