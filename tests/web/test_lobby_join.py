"""Tables people can join (issue 27, point 6), in one server process: an open public table is
listed in the lobby with its empty seats and waits, no moves and no clock, until its seats are
taken or its host starts it with bots; a join mints the seat's token for the joiner alone;
private tables are invite only.

Races between joiners on real servers, on SQLite and across two processes on PostgreSQL:
test_lobby_join_servers.py.
"""

from __future__ import annotations

import time

import pytest

from spyglass.web.limits import Limits
from tests.web.conftest import TEST_LIMITS
from tests.web.helpers import create, headers, tokens

OPEN_ESPIONAGE = [
    {"kind": "human", "name": "Host"},
    {"kind": "human", "open": True},
    {"kind": "human", "open": True},
    {"kind": "bot", "agent": "random"},
]


def open_table(client, **body) -> dict:
    body.setdefault("options", {"game_length": "short"})
    return create(client, "espionage", OPEN_ESPIONAGE, players=4, seed=2, **body)


def join(client, table_id: str, seat: int, name: str | None = None):
    body = {"seat": seat} if name is None else {"seat": seat, "name": name}
    return client.post(f"/api/tables/{table_id}/join", json=body)


def start(client, table_id: str, host_key: str | None, **body):
    return client.post(
        f"/api/tables/{table_id}/start",
        json=body or None,
        headers={"X-Host-Key": host_key} if host_key else {},
    )


def lobby(client, **params) -> list[dict]:
    response = client.get("/api/lobby", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_an_open_table_is_listed_with_its_empty_seats_and_waits(client) -> None:
    created = open_table(client, clock={"kind": "realtime", "seconds": 600})
    table_id, host = created["id"], tokens(created)[0]
    assert [s["token"] for s in created["seats"][1:3]] == [None, None]
    assert [s["invite"] for s in created["seats"][1:3]] == [None, None]
    [listed] = [t for t in lobby(client) if t["id"] == table_id]
    assert listed["open_seats"] == [1, 2] and listed["title"] == "Espionage"
    assert [s["open"] for s in listed["seats"]] == [False, True, True, False]
    assert listed["seats"][0]["name"] == "Host" and listed["clock"]["seconds"] == 600
    other = create(client, "tinker-tailor", [{"kind": "human"}, {"kind": "human", "open": True}])
    assert [t["id"] for t in lobby(client, game="tinker-tailor")] == [other["id"]]
    assert [t["id"] for t in lobby(client)] == [other["id"], table_id]  # newest first
    message = client.get(f"/api/tables/{table_id}", headers=headers(host)).json()
    table = message["table"]
    assert table["started"] is False and message["legal"] == []
    assert [s["open"] for s in table["seats"]] == [False, True, True, False]
    assert table["clock"]["running"] is None  # nobody's time runs before the start
    moved = client.post(
        f"/api/tables/{table_id}/actions",
        headers=headers(host),
        json={"action": "anything"},
    )
    assert moved.status_code == 409 and "not started" in moved.json()["error"]


def test_joining_mints_the_token_for_the_joiner_and_the_last_seat_starts_the_game(client) -> None:
    created = open_table(client, clock={"kind": "realtime", "seconds": 600})
    table_id = created["id"]
    first = join(client, table_id, 1, "Bea")
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["seat"] == 1 and body["table"]["seats"][1]["name"] == "Bea"
    assert body["table"]["started"] is False
    mine = client.get(f"/api/tables/{table_id}", headers=headers(body["token"])).json()
    assert mine["seat"] == 1 and "hand" in str(mine["view"])
    [listed] = [t for t in lobby(client) if t["id"] == table_id]
    assert listed["open_seats"] == [2]
    # a taken seat, a bot's seat, a name already at the table, a seat out of range
    assert join(client, table_id, 1, "Cy").status_code == 409
    assert join(client, table_id, 3, "Cy").status_code == 409
    assert join(client, table_id, 2, "bea").status_code == 422
    assert join(client, table_id, 7, "Cy").status_code == 422
    assert join(client, table_id, 2, "Cy (random bot)").status_code == 422
    last = join(client, table_id, 2, "Cy")
    assert last.status_code == 200, last.text
    table = last.json()["table"]
    assert table["started"] is True and not any(s["open"] for s in table["seats"])
    assert table["clock"]["running"] == table["current_player"]
    assert table_id not in [t["id"] for t in lobby(client)]
    assert join(client, table_id, 2, "Dee").status_code == 409  # started: nothing open


def test_the_host_starts_the_table_with_bots_in_the_empty_seats(client) -> None:
    created = open_table(client)
    table_id = created["id"]
    assert join(client, table_id, 2, "Cy").status_code == 200
    assert start(client, table_id, None).status_code == 403
    assert start(client, table_id, tokens(created)[0]).status_code == 403  # a token is no key
    assert start(client, table_id, created["host_key"], agent="nobody").status_code == 422
    solo_only = start(client, table_id, created["host_key"], agent="expectimax")
    assert solo_only.status_code == 422 and "does not play Espionage" in solo_only.text
    started = start(client, table_id, created["host_key"])
    assert started.status_code == 200, started.text
    table = started.json()
    assert table["started"] is True
    assert table["seats"][1] == {**table["seats"][1], "kind": "bot", "agent": "heuristic"}
    assert table["seats"][1]["name"] == "seat 1 (heuristic bot)"
    assert table["seats"][2]["name"] == "Cy" and table["seats"][2]["kind"] == "human"
    assert start(client, table_id, created["host_key"]).status_code == 409
    assert join(client, table_id, 1, "Dee").status_code == 409
    # the game goes on: every seat's move is now accepted, bots move on the server
    current = table["current_player"]
    if current == 0:
        host = tokens(created)[0]
        mine = client.get(f"/api/tables/{table_id}", headers=headers(host)).json()
        moved = client.post(
            f"/api/tables/{table_id}/actions",
            headers=headers(host),
            json={"action": mine["legal"][0]["notation"], "step": 0},
        )
        assert moved.status_code == 200, moved.text


def test_starting_ends_the_invites_not_yet_used(client) -> None:
    seats = [
        {"kind": "human", "name": "Host"},
        {"kind": "human", "invite": True, "name": "Friend"},
        {"kind": "human", "open": True},
    ]
    created = create(client, "tinker-tailor", seats, players=3, seed=1)
    started = start(client, created["id"], created["host_key"])
    assert started.status_code == 200, started.text
    assert [s["kind"] for s in started.json()["seats"]] == ["human", "bot", "bot"]
    claimed = client.post(
        f"/api/tables/{created['id']}/claim", json={"invite": created["seats"][1]["invite"]}
    )
    assert claimed.status_code == 410


def test_a_bot_moving_first_waits_for_the_start(client) -> None:
    # seat 0 is a bot that moves first; it must not move before the open seat is taken
    seats = [{"kind": "bot", "agent": "random"}, {"kind": "human", "open": True}]
    created = create(client, "tinker-tailor", seats, players=2, seed=0)
    table_id = created["id"]
    assert created["table"]["current_player"] == 0
    time.sleep(0.5)
    assert client.get(f"/api/tables/{table_id}").json()["view"]["step"] == 0
    started = start(client, table_id, created["host_key"], agent="random")
    assert started.status_code == 200
    assert started.json()["seats"][1]["name"] == "seat 1 (random bot)"
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{table_id}").json()["view"]["step"] == 0:
        assert time.monotonic() < deadline, "the bots did not start playing"
        time.sleep(0.05)


def test_a_claimed_invite_can_be_the_last_seat(client) -> None:
    seats = [
        {"kind": "human", "name": "Host"},
        {"kind": "human", "invite": True, "name": "Friend"},
        {"kind": "human", "open": True},
    ]
    created = create(client, "tinker-tailor", seats, players=3, seed=1)
    table_id = created["id"]
    [listed] = [t for t in lobby(client) if t["id"] == table_id]
    assert listed["open_seats"] == [2] and listed["seats"][1]["claimed"] is False
    assert join(client, table_id, 1, "Sneak").status_code == 409  # an invited seat
    assert join(client, table_id, 2, "Stranger").status_code == 200
    summary = client.get(f"/api/tables/{table_id}").json()["table"]
    assert summary["started"] is False  # the invited friend has not come yet
    claimed = client.post(
        f"/api/tables/{table_id}/claim", json={"invite": created["seats"][1]["invite"]}
    )
    assert claimed.status_code == 200
    assert client.get(f"/api/tables/{table_id}").json()["table"]["started"] is True


def test_private_tables_have_no_open_seats_and_cannot_be_joined(client) -> None:
    refused = client.post(
        "/api/tables",
        json={"game": "espionage", "players": 4, "private": True, "seats": OPEN_ESPIONAGE},
    )
    assert refused.status_code == 422 and "invite only" in refused.json()["error"]
    seats = [{"kind": "human"}, {"kind": "human", "invite": True}]
    private = create(client, "tinker-tailor", seats, players=2, private=True)
    assert private["id"] not in [t["id"] for t in lobby(client)]
    assert join(client, private["id"], 1, "Sneak").status_code == 403
    # a bot's seat is never open, and an open seat takes no invite
    for bad in ({"kind": "bot", "open": True}, {"kind": "human", "open": True, "invite": True}):
        body = {"game": "tinker-tailor", "players": 2, "seats": [{"kind": "human"}, bad]}
        assert client.post("/api/tables", json=body).status_code == 422


def test_joins_are_limited_per_address(make_client) -> None:
    client = make_client(
        limits=Limits(tables=TEST_LIMITS.tables, hints=TEST_LIMITS.hints, joins="2/minute")
    )
    created = open_table(client)
    assert join(client, created["id"], 1, "Bea").status_code == 200
    assert join(client, created["id"], 1, "Cy").status_code == 409  # counted too
    limited = join(client, created["id"], 2, "Cy")
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1


@pytest.mark.parametrize("field", ["seat", "name"])
def test_join_bodies_are_strict(client, field: str) -> None:
    created = open_table(client)
    body = {"seat": 1, "name": "Bea", field: True}
    assert client.post(f"/api/tables/{created['id']}/join", json=body).status_code == 422
