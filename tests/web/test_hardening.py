"""Bad input and hostile clients (issue 24): names that deceive, options coerced loosely, bodies
too big or too deep, missing security headers, a stored history that does not replay."""

from __future__ import annotations

import sqlite3

import pytest

from spyglass.web.security import CONTENT_SECURITY_POLICY
from tests.web.helpers import create, headers, humans, tokens


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Ann\x00", "U+0000"),
        ("\u202eevil", "U+202E"),  # right-to-left override: reverses what follows
        ("Zero\u200bwidth", "U+200B"),
        ("seat 1 (heuristic bot)", "'bot'"),
        ("Helper BOT", "'bot'"),
        ("seat 2", "another seat"),
        ("x" * 41, "at most 40"),
    ],
)
def test_names_that_deceive_are_refused(client, name, why) -> None:
    seats = [{"kind": "human", "name": name}, {"kind": "bot"}, {"kind": "bot"}]
    refused = client.post("/api/tables", json={"game": "espionage", "players": 3, "seats": seats})
    assert refused.status_code == 422, refused.text
    assert why in refused.json()["error"]


def test_names_are_kept_as_written_and_two_seats_cannot_share_one(client) -> None:
    seats = [{"kind": "human", "name": "  Zoë  Ng "}, {"kind": "bot", "name": "Hal"}]
    seats.append({"kind": "human", "name": "Abbot"})  # a word with "bot" inside is a name
    created = create(client, "espionage", seats, players=3)
    names = [s["name"] for s in created["table"]["seats"]]
    assert names == ["Zoë Ng", "Hal (heuristic bot)", "Abbot"]
    twins = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "ＡＮＮ"}]
    refused = client.post(
        "/api/tables", json={"game": "espionage", "players": 3, "seats": [*twins, {"kind": "bot"}]}
    )
    assert refused.status_code == 422 and "cannot both be called" in refused.json()["error"]


def test_a_nul_in_a_name_is_refused_on_postgresql_too(make_client, postgres_url) -> None:
    client = make_client(postgres_url)
    refused = client.post(
        "/api/tables", json={"game": "sandwich-guy", "seats": [{"kind": "human", "name": "a\x00"}]}
    )
    assert refused.status_code == 422 and refused.headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    "options",
    [{"jokers": "2"}, {"jokers": True}, {"jokers": 1.0}],
)
def test_options_must_have_their_own_json_type(client, options) -> None:
    refused = client.post("/api/tables", json={"game": "dead-center", "options": options})
    assert refused.status_code == 422
    assert "jokers is a whole number" in refused.json()["error"]
    assert (
        client.post(
            "/api/tables", json={"game": "dead-center", "options": {"jokers": 2}}
        ).status_code
        == 201
    )


def test_booleans_and_numbers_are_not_coerced_anywhere(client) -> None:
    refused = client.post(
        "/api/tables", json={"game": "espionage", "options": {"police_face_up": "yes"}}
    )
    assert refused.status_code == 422 and "true or false" in refused.json()["error"]
    for body in ({"game": "sandwich-guy", "seed": "5"}, {"game": "sandwich-guy", "private": 1}):
        assert client.post("/api/tables", json=body).status_code == 422
    extra = client.post("/api/tables", json={"game": "sandwich-guy", "colour": "red"})
    assert extra.status_code == 422 and "colour" in extra.json()["error"]


def test_a_streamed_body_over_the_limit_gets_413(client) -> None:
    def chunks():
        for _ in range(20):
            yield b" " * 4096
        yield b'{"game": "sandwich-guy"}'

    response = client.post(
        "/api/tables", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413 and "over 65536 bytes" in response.json()["error"]


def test_deeply_nested_json_gets_422(client) -> None:
    body = '{"game": "sandwich-guy", "options": ' + "[" * 5000 + "]" * 5000 + "}"
    response = client.post(
        "/api/tables", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422 and "nested" in response.json()["error"]
    fine = '{"game": "sandwich-guy", "options": {}, "seats": [{"kind": "human"}]}'
    assert (
        client.post(
            "/api/tables", content=fine, headers={"content-type": "application/json"}
        ).status_code
        == 201
    )


def test_head_and_security_headers(client) -> None:
    for path in ("/", "/table/abc", "/healthz", "/api/docs"):
        response = client.head(path)
        assert response.status_code == 200, path
    # a static file as the pages name it (content-hashed), and a static name that is none
    icon = client.get("/").text.split('rel="icon" href="', 1)[1].split('"', 1)[0]
    assert icon.startswith("/static/icon-") and client.get(icon).status_code == 200
    for path in ("/", "/api/games", "/api/tables/nope", icon, "/static/icon.svg", "/api/docs"):
        response = client.get(path)
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"


def test_the_api_reference_is_served_from_the_package(client) -> None:
    page = client.get("/api/docs").text
    assert "cdn" not in page.lower() and "https://" not in page
    assert "<script>" not in page  # no inline script: the page keeps the CSP
    for asset in ("/api/docs/assets/swagger-ui-bundle.js", "/api/docs/assets/swagger-ui.css"):
        assert client.get(asset).status_code == 200
    start = client.get("/api/docs/start.js")
    assert start.status_code == 200 and "/api/openapi.json" in start.text


def test_a_server_fault_is_json_never_plain_text(make_client, monkeypatch) -> None:
    from fastapi.testclient import TestClient

    client = make_client()
    created = create(client, "sandwich-guy", seed=1)
    manager = client.app.state.manager

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(manager, "message_text", broken)
    safe = TestClient(client.app, raise_server_exceptions=False)
    response = safe.get(f"/api/tables/{created['id']}")
    assert response.status_code == 500
    assert response.json() == {"error": "the server failed to answer; nothing changed"}


# ---------------------------------------------------------------------- broken histories


def test_a_table_whose_history_does_not_replay_opens_read_only(make_client, db_path) -> None:
    """What the race of issue 24 left behind (moves 1, 2, 3, 5 stored) must open, read-only,
    with a clear message: never a 500."""
    first = make_client()
    created = create(first, "sandwich-guy", seed=5)
    table_id, token = created["id"], tokens(created)[0]
    url = f"/api/tables/{table_id}"
    for _ in range(5):
        legal = first.get(url, headers=headers(token)).json()["legal"]
        first.post(f"{url}/actions", headers=headers(token), json={"action": legal[0]["notation"]})
    first.__exit__(None, None, None)
    with sqlite3.connect(db_path) as db:
        db.execute("DELETE FROM spyglass_actions WHERE table_id = ? AND step = 4", (table_id,))
        db.execute("UPDATE spyglass_tables SET status = 'over' WHERE id = ?", (table_id,))

    second = make_client()
    seen = second.get(url, headers=headers(token))
    assert seen.status_code == 200
    message = seen.json()
    assert message["table"]["status"] == "broken" and message["view"]["step"] == 3
    assert "damaged at move 4" in message["table"]["problem"]
    assert message["legal"] == [] and message["can_undo"] is False
    for path in ("/record", "/replay?step=1"):
        refused = second.get(url + path)
        assert refused.status_code == 409 and "damaged" in refused.json()["error"]
    moved = second.post(f"{url}/actions", headers=headers(token), json={"action": "anything"})
    assert moved.status_code == 409 and "can no longer be played" in moved.json()["error"]
    assert second.post(f"{url}/undo", headers=headers(token)).status_code == 409
    assert second.post(f"{url}/hint", headers=headers(token)).status_code == 409
    with second.websocket_connect(f"{url}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["table"]["status"] == "broken"
    listed = second.get("/api/tables")
    assert listed.status_code == 200 and table_id in {t["id"] for t in listed.json()}


def test_a_seat_name_shows_as_given_to_everyone(client) -> None:
    created = create(client, "espionage", humans(3), players=3, seed=3)
    assert [s["name"] for s in created["table"]["seats"]] == ["seat 0", "seat 1", "seat 2"]
