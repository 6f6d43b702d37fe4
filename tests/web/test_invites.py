"""Seat privacy: a seat's secret exists only with its player (issue 24).

The creator of a table gets the tokens of the seats it plays on its own device (hot-seat) and
invites for the others. An invite is claimed once; the claim mints the seat's token, shown to the
claimer alone. The host can re-invite a seat (the old token and invite stop working at once, its
connections are closed), and a player can replace their own token.
"""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from spyglass.web import auth
from tests.web.helpers import create, headers

ESPIONAGE_THREE_PEOPLE = [
    {"kind": "human", "name": "Host"},
    {"kind": "human", "name": "Bea"},
    {"kind": "human", "name": "Cy"},
    {"kind": "bot", "agent": "random"},
]


def espionage(client, **body) -> dict:
    return create(client, "espionage", ESPIONAGE_THREE_PEOPLE, players=4, seed=11, **body)


def claim(client, table_id: str, invite: str):
    return client.post(f"/api/tables/{table_id}/claim", json={"invite": invite})


def test_the_host_gets_its_own_token_and_invites_never_the_others_tokens(client) -> None:
    created = espionage(client)
    seats = {s["seat"]: s for s in created["seats"]}
    assert seats[0]["token"] and seats[0]["invite"] is None
    for seat in (1, 2):
        assert seats[seat]["token"] is None and seats[seat]["invite"]
        assert seats[seat]["link"] == f"/table/{created['id']}#invite={seats[seat]['invite']}"
        # an invite is not a token: it cannot read the seat's hand
        looked = client.get(f"/api/tables/{created['id']}", headers=headers(seats[seat]["invite"]))
        assert looked.status_code == 403
    assert seats[3]["token"] is None and seats[3]["invite"] is None
    assert created["host_key"] and created["host_key"] != seats[0]["token"]
    summary = {s["seat"]: s for s in created["table"]["seats"]}
    assert [summary[i]["claimed"] for i in range(4)] == [True, False, False, True]


def test_an_invite_is_claimed_once_and_its_token_reads_that_seat_alone(client) -> None:
    created = espionage(client)
    table_id = created["id"]
    invite = created["seats"][1]["invite"]
    first = claim(client, table_id, invite)
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["seat"] == 1 and body["token"] not in (invite, created["seats"][0]["token"])
    assert body["table"]["seats"][1]["claimed"] is True
    mine = client.get(f"/api/tables/{table_id}", headers=headers(body["token"])).json()
    assert mine["seat"] == 1 and mine["view"]["seat"] == 1
    again = claim(client, table_id, invite)
    assert again.status_code == 410 and "already been used" in again.json()["error"]
    assert claim(client, table_id, "made-up").status_code == 410
    # the host's own token sees seat 0 only: never seat 1's hand
    hosts = client.get(f"/api/tables/{table_id}", headers=headers(created["seats"][0]["token"]))
    assert hosts.json()["seat"] == 0
    assert hosts.json()["view"]["table"] != mine["view"]["table"]


def test_the_database_keeps_no_invite_and_no_token(client, db_path) -> None:
    import sqlite3

    created = espionage(client)
    token = claim(client, created["id"], created["seats"][1]["invite"]).json()["token"]
    secrets = [
        token,
        created["seats"][2]["invite"],
        created["host_key"],
        created["seats"][0]["token"],
    ]
    dump = "\n".join(sqlite3.connect(db_path).iterdump())
    for secret in secrets:
        assert secret not in dump
        assert auth.token_hash(secret) in dump


def test_the_host_reinvites_a_seat_and_the_old_token_stops_at_once(client) -> None:
    created = espionage(client)
    table_id = created["id"]
    old = claim(client, table_id, created["seats"][1]["invite"]).json()["token"]
    url = f"/api/tables/{table_id}/seats/1/invite"
    assert client.post(url).status_code == 403  # no host key
    assert client.post(url, headers={auth.HOST_HEADER: old}).status_code == 403  # a seat token
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": old})
        assert ws.receive_json()["seat"] == 1
        again = client.post(url, headers={auth.HOST_HEADER: created["host_key"]})
        assert again.status_code == 200, again.text
        new_invite = again.json()["invite"]
        assert again.json()["link"].endswith(f"#invite={new_invite}")
        # the lost player's connection is told and closed
        message = ws.receive_json()
        while message["type"] == "state":
            message = ws.receive_json()
        assert message == {
            "type": "error",
            "status": 401,
            "error": "the host invited someone else to this seat",
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    assert client.get(f"/api/tables/{table_id}", headers=headers(old)).status_code == 403
    assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][1]["claimed"] is False
    fresh = claim(client, table_id, new_invite).json()
    assert fresh["seat"] == 1
    assert (
        client.get(f"/api/tables/{table_id}", headers=headers(fresh["token"])).json()["seat"] == 1
    )
    # an invite never claimed can be replaced too, and a bot's seat cannot be invited to
    replaced = client.post(
        f"/api/tables/{table_id}/seats/2/invite", headers={auth.HOST_HEADER: created["host_key"]}
    )
    assert replaced.status_code == 200
    assert claim(client, table_id, created["seats"][2]["invite"]).status_code == 410
    bot = client.post(
        f"/api/tables/{table_id}/seats/3/invite", headers={auth.HOST_HEADER: created["host_key"]}
    )
    assert bot.status_code == 422


def test_a_player_replaces_their_own_token(client) -> None:
    created = espionage(client)
    table_id = created["id"]
    old = claim(client, table_id, created["seats"][2]["invite"]).json()["token"]
    assert client.post(f"/api/tables/{table_id}/token").status_code == 401
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": old})
        assert ws.receive_json()["seat"] == 2
        rotated = client.post(f"/api/tables/{table_id}/token", headers=headers(old))
        assert rotated.status_code == 200
        new = rotated.json()["token"]
        message = ws.receive_json()
        assert message["type"] == "error" and message["status"] == 401
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    assert client.get(f"/api/tables/{table_id}", headers=headers(old)).status_code == 403
    assert client.get(f"/api/tables/{table_id}", headers=headers(new)).json()["seat"] == 2
    assert client.post(f"/api/tables/{table_id}/token", headers=headers(old)).status_code == 403


def test_hot_seat_stays_as_simple_as_before(client) -> None:
    seats = [{"kind": "human", "invite": False} for _ in range(3)]
    created = create(client, "espionage", seats, players=3, seed=2)
    tokens = [s["token"] for s in created["seats"]]
    assert all(tokens) and len(set(tokens)) == 3
    assert all(s["invite"] is None for s in created["seats"])
    for seat, token in enumerate(tokens):
        assert (
            client.get(f"/api/tables/{created['id']}", headers=headers(token)).json()["seat"]
            == seat
        )


def test_claims_are_limited_per_address(make_client) -> None:
    from spyglass.web.limits import Limits

    client = make_client(limits=Limits(tables="100/minute", claims="3/minute"))
    created = espionage(client)
    statuses = [claim(client, created["id"], f"guess-{i}").status_code for i in range(5)]
    assert statuses == [410, 410, 410, 429, 429]
