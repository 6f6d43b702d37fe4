"""Several server processes on one PostgreSQL database behind HAProxy (issue 26): any process
serves any table, a process killed mid-game costs nothing acknowledged, and a rolling restart of
every process while tables play costs the players nothing but reconnects."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import time
from dataclasses import dataclass, field

import httpx
import pytest
import websockets

import spyglass
from spyglass.web.balancer import haproxy_config
from spyglass.web.store import Store
from tests.web.cluster import HAPROXY, Cluster
from tests.web.conftest import TEST_SERVE_ARGS, missing

#: Cluster processes: one bot worker each (the machine has two cores), short bot caps, and room
#: for the hundred people the tests play, who all come from one address (loopback).
ARGS = (*TEST_SERVE_ARGS, "--bot-workers", "1", "--bot-time", "2", "--connections", "1000")


@pytest.fixture
def cluster(postgres_url):
    made: list[Cluster] = []

    def start(n: int = 2, pinned: bool = False) -> Cluster:
        c = Cluster(postgres_url, n=n, pinned=pinned, args=ARGS)
        made.append(c)  # stopped after the test, even if it fails to start whole
        return c.start()

    yield start
    for c in made:
        c.stop()


@dataclass
class Person:
    """One person's live connection, through the balancer: random legal moves; reconnects
    (through the balancer, to whichever process it picks) when the connection drops, and sends
    again a move whose answer it never saw."""

    url: str
    table: str
    token: str
    rng: random.Random
    think: float = 0.05
    acknowledged: list[tuple[int, str]] = field(default_factory=list)  # (step, move)
    moves: int = 0  # states answered with a move
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)
    last: dict | None = None

    async def play(self, until: float) -> None:
        sent: tuple[int, str] | None = None
        ws_url = self.url.replace("http://", "ws://") + f"/api/tables/{self.table}/ws"
        while time.monotonic() < until:
            try:
                async with websockets.connect(ws_url, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    async for raw in ws:
                        message = json.loads(raw)
                        if message["type"] == "error":
                            self.errors.append(message["error"])
                            sent = None
                            continue
                        if message["type"] != "state":
                            continue
                        self.last = message
                        step = message["view"]["step"]
                        if sent is not None and step > sent[0]:
                            self.acknowledged.append(sent)
                            sent = None
                        if message["view"]["over"] or time.monotonic() >= until:
                            return
                        if message["legal"] and (sent is None or sent[0] == step):
                            if sent is None:
                                self.moves += 1
                                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                                sent = (step, self.rng.choice(message["legal"])["notation"])
                            # (a move sent before the drop and not applied goes again)
                            await ws.send(
                                json.dumps({"type": "act", "action": sent[1], "step": sent[0]})
                            )
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            self.reconnects += 1
            await asyncio.sleep(0.2)


def create(url: str, body: dict) -> dict:
    response = httpx.post(f"{url}/api/tables", json=body, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def check_stored(db: str, people: list[Person], table_id: str) -> spyglass.engine.State:
    """Every table replays from the database, and every move a person saw acknowledged is
    stored at its step."""
    store = Store(db)
    try:
        [row] = store.load(table_id)
    finally:
        store.close()
    state = spyglass.replay(row.record())
    for person in people:
        for step, move in person.acknowledged:
            before = spyglass.replay(row.record(), upto=step)
            assert row.actions[step] == str(before.parse(move)), (step, move)
    return state


@pytest.mark.slow
def test_two_people_on_two_processes_play_a_game_to_its_end(cluster, postgres_url) -> None:
    c = cluster(2, pinned=True)
    seats = [{"kind": "human", "invite": False}] * 2 + [{"kind": "bot", "agent": "random"}]
    body = {"game": "espionage", "players": 3, "seed": 26, "seats": seats}
    body["options"] = {"game_length": "short"}
    created = create(c.url(0), body)
    tokens = [s["token"] for s in created["seats"][:2]]
    people = [
        Person(c.url(i), created["id"], tokens[i], random.Random(i)) for i in range(2)
    ]  # seat 0 on process 0, seat 1 on process 1

    async def run() -> None:
        await asyncio.gather(*(p.play(time.monotonic() + 240) for p in people))

    asyncio.run(run())
    assert all(p.last and p.last["view"]["over"] for p in people)
    assert not any(p.errors for p in people), [p.errors for p in people]
    assert all(p.reconnects == 0 for p in people)
    state = check_stored(postgres_url, people, created["id"])
    assert state.is_over
    # both processes show the same finished table
    views = [httpx.get(f"{c.url(i)}/api/tables/{created['id']}").json() for i in range(2)]
    assert views[0]["view"] == views[1]["view"]
    assert views[0]["view"]["step"] == state.step


@pytest.mark.slow
def test_a_process_killed_mid_game_loses_nothing_acknowledged(cluster, postgres_url) -> None:
    c = cluster(2, pinned=True)
    seats = [{"kind": "human", "invite": False}] * 2 + [{"kind": "bot", "agent": "heuristic"}]
    body = {"game": "tinker-tailor", "players": 3, "seed": 7, "seats": seats}
    created = create(c.url(0), body)
    tokens = [s["token"] for s in created["seats"][:2]]
    people = [Person(c.url(i), created["id"], tokens[i], random.Random(10 + i)) for i in range(2)]

    async def run() -> None:
        until = time.monotonic() + 300
        playing = [asyncio.create_task(p.play(until)) for p in people]
        while sum(len(p.acknowledged) for p in people) < 6:
            await asyncio.sleep(0.1)
        c.kill(0)  # seat 0's process, mid-game
        await asyncio.gather(*playing)

    asyncio.run(run())
    assert people[0].reconnects >= 1  # it lost its process, and came back through the balancer
    assert all(p.last and p.last["view"]["over"] for p in people)
    assert not any(p.errors for p in people), [p.errors for p in people]
    assert check_stored(postgres_url, people, created["id"]).is_over


#: The rolling restart's tables: long solo games, and three-seat games of one person and two bots
#: (so that bot jobs are taken over by the processes that stay up).
ROLLING = [
    ({"game": "loot-the-loop"}, 0),
    ({"game": "sandwich-guy"}, 0),
    ({"game": "boba-tea"}, 0),
    ({"game": "tinker-tailor", "players": 3}, 2),
]


@pytest.mark.slow
def test_a_rolling_restart_while_100_tables_play_costs_only_reconnects(
    cluster, postgres_url
) -> None:
    """Three processes; 100 tables keep playing (a finished table is followed by a new one of the
    same kind) while each process in turn is stopped with SIGTERM and started again."""
    c = cluster(3)
    tables: list[str] = []
    people: list[Person] = []
    failures: list[str] = []
    restarted: list[int] = []

    async def table_of(kind: int, n: int, http: httpx.AsyncClient) -> Person | None:
        body, bots = ROLLING[kind]
        seats = [{"kind": "human", "invite": False}]
        seats += [{"kind": "bot", "agent": "heuristic"}] * bots
        for _ in range(5):  # a create refused while a process goes down is tried again
            try:
                response = await http.post(
                    "/api/tables", json={**body, "seed": n, "seats": seats}, timeout=30
                )
            except httpx.HTTPError as error:
                failures.append(f"create: {error!r}")
                await asyncio.sleep(0.5)
                continue
            if response.status_code != 201:
                failures.append(f"create: {response.status_code} {response.text[:200]}")
                return None
            created = response.json()
            tables.append(created["id"])
            token = created["seats"][0]["token"]
            person = Person(c.url(), created["id"], token, random.Random(n), think=1.0)
            people.append(person)
            return person
        return None

    async def keep_playing(slot: int, until: float, http: httpx.AsyncClient) -> None:
        n = slot
        while time.monotonic() < until:
            person = await table_of(slot % len(ROLLING), n, http)
            if person is None:
                return
            await person.play(until)
            n += 100

    async def run() -> None:
        until = time.monotonic() + 600
        limits = httpx.Limits(max_connections=20, keepalive_expiry=1.0)
        async with httpx.AsyncClient(base_url=c.url(), limits=limits) as http:
            playing = [asyncio.create_task(keep_playing(slot, until, http)) for slot in range(100)]
            await asyncio.sleep(8)
            for i in range(c.n):
                before = sum(p.moves for p in people)
                await asyncio.to_thread(c.restart, i)
                restarted.append(sum(p.moves for p in people) - before)
                await asyncio.sleep(3)
            await asyncio.sleep(5)  # play on a little with every process restarted
            for task in playing:
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)

    asyncio.run(run())
    assert not failures, failures[:5]
    assert not any(p.errors for p in people), [p.errors for p in people if p.errors][:5]
    assert len(restarted) == 3 and all(moves > 0 for moves in restarted), restarted
    assert sum(p.reconnects for p in people) >= 30  # the restarts did cut connections
    store = Store(postgres_url)
    try:
        rows = {row.id: row for row in store.load() if row.id in set(tables)}
    finally:
        store.close()
    assert len(rows) == len(tables) >= 100
    for row in rows.values():
        spyglass.replay(row.record())  # every table replays
    for person in people:
        row = rows[person.table]
        for step, move in person.acknowledged:
            before = spyglass.replay(row.record(), upto=step)
            assert row.actions[step] == str(before.parse(move)), (person.table, step, move)


@pytest.mark.parametrize("pinned", [False, True])
def test_the_balancer_configuration_is_valid_haproxy(tmp_path, pinned) -> None:
    """What `spyglass balancer` prints (and the tests run) passes HAProxy's own check."""
    if not os.path.exists(HAPROXY):
        missing("no HAProxy: apt-get install haproxy")
    backends = ["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"]
    listen = [f"127.0.0.{i + 1}:8000" for i in range(3)] if pinned else "127.0.0.1:8000"
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config(backends, listen, pinned=pinned))
    checked = subprocess.run(
        [HAPROXY, "-c", "-f", str(config)], check=False, capture_output=True, text=True, timeout=30
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    text = config.read_text()
    assert text.count("server s") == (9 if pinned else 3)
    assert text.count(" backup") == (6 if pinned else 0)


def test_spyglass_balancer_prints_the_configuration_and_refuses_bad_addresses() -> None:
    from typer.testing import CliRunner

    from spyglass.cli.main import app

    runner = CliRunner()
    result = runner.invoke(
        app, ["balancer", "--backend", "10.0.0.2:8000", "--backend", "10.0.0.3:8000"]
    )
    assert result.exit_code == 0, result.output
    assert "bind 0.0.0.0:80" in result.output
    assert "server s1 10.0.0.3:8000 check" in result.output
    bad = runner.invoke(app, ["balancer", "--backend", "10.0.0.2"])
    assert bad.exit_code == 2
    assert "not a host:port address" in bad.output
