"""Rematch (issue 27): the same people and options at a new table, seats rotated, a new seed;
each person's seat token only to that person; the old table names the rematch; two players
asking at once, on one process or two (PostgreSQL), get one rematch."""

from __future__ import annotations

import json
import random
import threading
import time

import httpx
import pytest
from sqlalchemy import insert, update
from websockets.sync.client import connect

import spyglass
from spyglass.web import auth
from spyglass.web.store import OVER, SeatRow, Store, TableRow, actions_t, tables_t
from tests.web.helpers import create, headers, tokens
from tests.web.test_accounts import TWO, Person, database, over, play_until, site_maker

FOUR = [
    {"kind": "human", "invite": False, "name": "Ann"},
    {"kind": "bot", "agent": "random"},
    {"kind": "human", "invite": False},
    {"kind": "bot", "agent": "heuristic", "name": "Rex"},
]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, db_path) -> str:
    return database(request, db_path)


@pytest.fixture
def make_site(make_client, db_url):
    return site_maker(make_client, db_url)


@pytest.fixture
def site(make_site):
    return make_site()


def finished(client, game: str, seats, players: int, seed: int) -> tuple[dict, dict[int, str]]:
    table = create(client, game, seats, players=players, seed=seed, options={})
    ts = tokens(table)
    play_until(client, table["id"], ts, over, seed=seed)
    return table, ts


def test_a_rematch_rotates_the_seats_and_deals_anew(make_site, db_url) -> None:
    site = make_site()
    old, ts = finished(site, "tinker-tailor", FOUR, 4, seed=31)
    assert site.post(f"/api/tables/{old['id']}/rematch").status_code == 401  # a spectator
    first = site.post(f"/api/tables/{old['id']}/rematch", headers=headers(ts[2]))
    assert first.status_code == 200, first.text
    made = first.json()
    new_id = made["id"]
    assert made["seat"] == 3 and made["host_key"] and made["invites"] == {}
    # the old table points to the rematch, for every page at it
    assert site.get(f"/api/tables/{old['id']}").json()["table"]["rematch"] == new_id
    second = site.post(f"/api/tables/{old['id']}/rematch", headers=headers(ts[0])).json()
    assert second["id"] == new_id and second["seat"] == 1 and second["host_key"] is None
    summary = site.get(f"/api/tables/{new_id}").json()["table"]
    assert summary["game"] == "tinker-tailor" and summary["players"] == 4
    assert summary["rematch"] is None and summary["step"] >= 0
    seats = summary["seats"]
    assert [(s["kind"], s["name"], s["agent"]) for s in seats] == [
        ("bot", "Rex (heuristic bot)", "heuristic"),
        ("human", "Ann", None),
        ("bot", "seat 2 (random bot)", "random"),
        ("human", "seat 3", None),
    ]
    # each token reaches its own seat only, and no reply held another's
    assert site.get(f"/api/tables/{new_id}", headers=headers(made["token"])).json()["seat"] == 3
    assert site.get(f"/api/tables/{new_id}", headers=headers(second["token"])).json()["seat"] == 1
    assert second["token"] not in json.dumps(made) and made["token"] not in json.dumps(second)
    for old_token in ts.values():
        assert site.get(f"/api/tables/{new_id}", headers=headers(old_token)).status_code == 403
    # the same options and a new seed (the database holds them; nobody sees them in play)
    store = Store(db_url)
    try:
        [before] = store.load(old["id"])
        [after] = store.load(new_id)
    finally:
        store.close()
    assert after.options == before.options and after.seed != before.seed
    assert after.decks != before.decks and after.private == before.private


def test_asking_again_replaces_the_seat_token(site) -> None:
    old, ts = finished(site, "tinker-tailor", TWO, 2, seed=32)
    a = site.post(f"/api/tables/{old['id']}/rematch", headers=headers(ts[0])).json()
    b = site.post(f"/api/tables/{old['id']}/rematch", headers=headers(ts[0])).json()
    assert a["id"] == b["id"] and a["seat"] == b["seat"] == 1 and a["token"] != b["token"]
    assert site.get(f"/api/tables/{a['id']}", headers=headers(a["token"])).status_code == 403
    assert site.get(f"/api/tables/{a['id']}", headers=headers(b["token"])).json()["seat"] == 1
    # the other seat, nobody asked for yet: taken by nobody
    assert [s["claimed"] for s in b["table"]["seats"]] == [False, True]


def test_a_rematch_is_for_a_finished_game_and_its_players(site) -> None:
    table = create(site, "tinker-tailor", FOUR, players=4, seed=33)
    ts = tokens(table)
    early = site.post(f"/api/tables/{table['id']}/rematch", headers=headers(ts[0]))
    assert early.status_code == 409 and "finished" in early.json()["error"]
    foreign = site.post(f"/api/tables/{table['id']}/rematch", headers=headers("x" * 32))
    assert foreign.status_code == 403
    assert site.get(f"/api/tables/{table['id']}").json()["table"]["rematch"] is None


def test_accounts_follow_into_the_rematch(site) -> None:
    old, ts = finished(site, "tinker-tailor", TWO, 2, seed=34)
    ann, bob = Person(site), Person(site)
    ann.sign_up("Ann", seats=[{"table": old["id"], "token": ts[0]}])
    bob.sign_up("Bob", seats=[{"table": old["id"], "token": ts[1]}])
    made = site.post(f"/api/tables/{old['id']}/rematch", headers=headers(ts[0])).json()
    assert [(s["name"], s["account"]) for s in made["table"]["seats"]] == [
        ("Bob", "Bob"),
        ("Ann", "Ann"),
    ]
    # Bob's account holds seat 0 before he asks: from any device he gets a key to it
    key = bob.post(f"/api/tables/{made['id']}/device-key").json()
    assert key["seat"] == 0
    games = bob.get("/api/account/games").json()
    assert [g["id"] for g in games["live"]] == [made["id"]]
    assert games["finished"][0]["rematch"] == made["id"]


def _wait_for(ws, check, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if check(message):
            return message
    raise AssertionError("no such message in time")


def _seat(client: httpx.Client, table_id: str, token: str) -> int:
    deadline = time.monotonic() + 5
    while True:
        answer = client.get(f"/api/tables/{table_id}", headers=headers(token))
        if answer.status_code == 200 or time.monotonic() > deadline:
            assert answer.status_code == 200, answer.text
            return answer.json()["seat"]
        time.sleep(0.05)


def stored_finished(url: str, seed: int) -> tuple[str, dict[int, str]]:
    """A two-person Tinker Tailor game played out here and written to the database as a
    server would have (much faster than playing it through a server): its id and tokens."""
    state = spyglass.load("tinker-tailor").new_state(players=2, seed=seed)
    rng = random.Random(seed)
    record = state.record()
    ts = {0: auth.new_token(), 1: auth.new_token()}
    row = TableRow(
        id=auth.new_table_id(),
        game="tinker-tailor",
        options=record["options"],
        players=2,
        seed=record["seed"],
        decks=record["decks"],
        seats=[SeatRow(s, "human", f"seat {s}", token_hash=auth.token_hash(ts[s])) for s in ts],
    )
    moves = []
    while not state.is_over:
        seat = state.current_player
        action = rng.choice(state.legal_actions())
        state.apply(action)
        moves.append(
            {
                "table_id": row.id,
                "step": state.step,
                "seat": seat,
                "notation": str(action),
                "at": 0.0,
            }
        )
    store = Store(url)
    try:
        store.create(row)
        with store.engine.begin() as conn:  # every move at once: one transaction, not 80
            conn.execute(insert(actions_t), moves)
            conn.execute(
                update(tables_t).where(tables_t.c.id == row.id).values(step=state.step, status=OVER)
            )
    finally:
        store.close()
    return row.id, ts


def test_a_rematch_across_two_processes(start_server, postgres_url) -> None:
    a = start_server(postgres_url)
    b = start_server(postgres_url)
    with httpx.Client(base_url=a.url) as on_a, httpx.Client(base_url=b.url) as on_b:
        old, ts = stored_finished(postgres_url, seed=35)
        ws_url = b.url.replace("http", "ws") + f"/api/tables/{old}/ws"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": ts[1]}))
            first = _wait_for(ws, lambda m: m["type"] == "state")
            assert first["view"]["over"] and first["table"]["rematch"] is None
            made = on_a.post(f"/api/tables/{old}/rematch", headers=headers(ts[0])).json()
            # the page of the other player, on the other process, learns of it at once
            seen = _wait_for(ws, lambda m: m["type"] == "state" and m["table"]["rematch"])
            assert seen["table"]["rematch"] == made["id"]
        theirs = on_b.post(f"/api/tables/{old}/rematch", headers=headers(ts[1])).json()
        assert theirs["id"] == made["id"] and theirs["seat"] == 0
        # process A hears of the new token (a note on the bus) within moments
        assert _seat(on_a, made["id"], theirs["token"]) == 0
        # two players asking at the same moment, each on a process of their own: one rematch
        old, ts = stored_finished(postgres_url, seed=36)
        answers: dict[int, dict] = {}

        def ask(client: httpx.Client, seat: int) -> None:
            answers[seat] = client.post(
                f"/api/tables/{old}/rematch", headers=headers(ts[seat])
            ).json()

        threads = [
            threading.Thread(target=ask, args=(on_a, 0)),
            threading.Thread(target=ask, args=(on_b, 1)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers[0]["id"] == answers[1]["id"]
    assert [answers[0]["seat"], answers[1]["seat"]] == [1, 0]
    assert sum(1 for x in answers.values() if x["host_key"]) == 1
    store = Store(postgres_url)
    try:
        assert len(store.ids()) == 4  # two games and one rematch of each
    finally:
        store.close()


@pytest.mark.parametrize("players", [1])
def test_a_solo_rematch_is_a_new_deal(site, players) -> None:
    table = create(site, "sandwich-guy", seed=37)
    ts = tokens(table)
    play_until(site, table["id"], ts, over)
    made = site.post(f"/api/tables/{table['id']}/rematch", headers=headers(ts[0])).json()
    assert made["seat"] == 0 and made["table"]["players"] == players
    assert site.get(f"/api/tables/{made['id']}", headers=headers(made["token"])).json()["legal"]
