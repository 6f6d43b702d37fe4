"""Two people race for one open seat on real ``spyglass serve`` processes (issue 27, point 6):
on one process over SQLite, and on two processes sharing a PostgreSQL database with each person
on a process of their own. Exactly one gets the seat (its token, for them alone); the other is
told it is taken, and every process then shows the game started.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import httpx
import pytest

from spyglass.web import auth
from spyglass.web.store import Store, database_url
from tests.web.conftest import TEST_SERVE_ARGS
from tests.web.helpers import headers

ONE_WORKER = (*TEST_SERVE_ARGS, "--bot-workers", "1")
TABLES = 6


Request = Callable[[httpx.Client], httpx.Response]


def together(requests: list[tuple[str, Request]]) -> list[httpx.Response]:
    """Each request through its own address and connection, all let go at the same moment."""
    barrier = threading.Barrier(len(requests))
    answers: list[httpx.Response | None] = [None] * len(requests)

    def person(i: int) -> None:
        url, request = requests[i]
        with httpx.Client(base_url=url, timeout=30) as http:
            http.get("/healthz")  # connected before the start, so that all go at once
            barrier.wait()
            answers[i] = request(http)

    threads = [threading.Thread(target=person, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(a is not None for a in answers)
    return answers  # type: ignore[return-value]


def race(urls: tuple[str, str], table_id: str) -> list[httpx.Response]:
    """Both people ask for seat 1 at the same moment, each through their own address."""

    def joiner(i: int) -> Request:
        return lambda http: http.post(
            f"/api/tables/{table_id}/join", json={"seat": 1, "name": f"Racer {i}"}
        )

    return together([(urls[0], joiner(0)), (urls[1], joiner(1))])


def check_races(db: str, urls: tuple[str, str]) -> None:
    made = []
    for seed in range(TABLES):
        response = httpx.post(
            f"{urls[0]}/api/tables",
            json={
                "game": "tinker-tailor",
                "players": 2,
                "seed": seed,
                "seats": [{"kind": "human", "name": "Host"}, {"kind": "human", "open": True}],
            },
            timeout=30,
        )
        assert response.status_code == 201, response.text
        made.append(response.json())
    listed = httpx.get(f"{urls[1]}/api/lobby", timeout=30).json()
    assert {t["id"] for t in listed} >= {c["id"] for c in made}
    winners = []
    for created in made:
        table_id = created["id"]
        answers = race(urls, table_id)
        assert sorted(a.status_code for a in answers) == [200, 409], [a.text for a in answers]
        [won] = [i for i, a in enumerate(answers) if a.status_code == 200]
        lost = answers[1 - won].json()["error"]
        assert "taken" in lost or "started" in lost, lost
        token = answers[won].json()["token"]
        winners.append((table_id, won, token))
    store = Store(database_url(db))
    try:
        for table_id, won, token in winners:
            [row] = store.load(table_id)
            assert row.seats[1].token_hash == auth.token_hash(token)
            assert row.seats[1].name == f"Racer {won}"
    finally:
        store.close()
    # every process shows every table started, and the winner's token holds the seat there
    for url in urls:
        for table_id, won, token in winners:
            deadline = time.monotonic() + 10
            while True:
                mine = httpx.get(
                    f"{url}/api/tables/{table_id}", headers=headers(token), timeout=30
                ).json()
                if mine["table"]["started"]:
                    break
                assert time.monotonic() < deadline, mine["table"]
                time.sleep(0.05)
            assert mine["seat"] == 1 and mine["table"]["seats"][1]["name"] == f"Racer {won}"
    listed = httpx.get(f"{urls[0]}/api/lobby", timeout=30).json()
    assert not {t["id"] for t in listed} & {t for t, _, _ in winners}
    check_start_against_join(db, urls)


def check_start_against_join(db: str, urls: tuple[str, str]) -> None:
    """The host starts (through the first address) while someone joins (through the second):
    whichever comes first, a joined seat is never handed to a bot, and a seat is a bot's only
    if the join was refused."""
    for seed in range(TABLES):
        created = httpx.post(
            f"{urls[0]}/api/tables",
            json={
                "game": "tinker-tailor",
                "players": 3,
                "seed": seed,
                "seats": [{"kind": "human", "name": "Host"}]
                + [{"kind": "human", "open": True}] * 2,
            },
            timeout=30,
        ).json()
        table_id, key = created["id"], created["host_key"]
        joined, started = together(
            [
                (
                    urls[1],
                    lambda http, t=table_id: http.post(
                        f"/api/tables/{t}/join", json={"seat": 1, "name": "Joiner"}
                    ),
                ),
                (
                    urls[0],
                    lambda http, t=table_id, k=key: http.post(
                        f"/api/tables/{t}/start", headers={"X-Host-Key": k}
                    ),
                ),
            ]
        )
        answers = {"join": joined, "start": started}
        assert answers["start"].status_code == 200, answers["start"].text
        store = Store(database_url(db))
        try:
            [row] = store.load(table_id)
        finally:
            store.close()
        if answers["join"].status_code == 200:
            token = answers["join"].json()["token"]
            assert (row.seats[1].kind, row.seats[1].name) == ("human", "Joiner")
            assert row.seats[1].token_hash == auth.token_hash(token)
        else:
            assert answers["join"].status_code == 409, answers["join"].text
            assert row.seats[1].kind == "bot"
        assert row.seats[2].kind == "bot" and row.waiting != "players"


def test_two_people_race_for_one_seat_on_sqlite(start_server, tmp_path) -> None:
    db = str(tmp_path / "lobby.sqlite3")
    server = start_server(db, args=ONE_WORKER)
    check_races(db, (server.url, server.url))


@pytest.mark.slow
def test_two_people_race_for_one_seat_on_two_processes(start_server, postgres_url) -> None:
    first = start_server(postgres_url, args=ONE_WORKER)
    second = start_server(postgres_url, args=ONE_WORKER)
    check_races(postgres_url, (first.url, second.url))
