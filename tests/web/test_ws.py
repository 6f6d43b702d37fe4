"""The WebSocket protocol: hello, live states, moves, errors, hints, undo."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

import spyglass
from spyglass.web.app import MAX_MESSAGE
from tests.web.helpers import create, humans, tokens


def ws_url(table_id: str) -> str:
    return f"/api/tables/{table_id}/ws"


def test_a_seat_says_hello_and_gets_its_view(client) -> None:
    created = create(client, "espionage", humans(3), players=3, seed=6)
    state = spyglass.load("espionage").new_state(players=3, seed=6)
    with client.websocket_connect(ws_url(created["id"])) as ws:
        ws.send_json({"type": "hello", "token": tokens(created)[1]})
        message = ws.receive_json()
    assert message["type"] == "state" and message["seat"] == 1
    assert message["view"] == state.view(1)
    assert message["table"]["seats"][1]["connected"] is True


def test_a_spectator_says_hello_without_a_token(client) -> None:
    created = create(client, "espionage", humans(3), players=3, seed=6)
    with client.websocket_connect(ws_url(created["id"])) as ws:
        ws.send_json({"type": "hello"})
        message = ws.receive_json()
        assert message["seat"] is None and message["legal"] == []
        ws.send_json({"type": "act", "action": "x"})
        reply = ws.receive_json()
    assert reply["type"] == "error" and reply["status"] == 401


def test_a_hello_that_asks_for_the_game_gets_its_description_first(client) -> None:
    """The page draws the table from the game's layout: asked for in the hello, it comes first
    on the connection, exactly what /api/games/GAME says (public facts only), and the state
    after it is the one a plain hello gets."""
    created = create(client, "espionage", humans(3), players=3, seed=6)
    described = client.get("/api/games/espionage").json()
    assert described["layout"]
    for token in (tokens(created)[1], tokens(created)[2], None):
        with client.websocket_connect(ws_url(created["id"])) as plain:
            plain.send_json({"type": "hello", "token": token})
            expected = plain.receive_json()
            with client.websocket_connect(ws_url(created["id"])) as ws:
                ws.send_json({"type": "hello", "token": token, "game": True})
                first = ws.receive_json()
                state = ws.receive_json()
        assert first == {"type": "game", "game": described}
        assert state["type"] == "state" and state["seat"] == expected["seat"]
        assert state["view"] == expected["view"] and state["legal"] == expected["legal"]
    with client.websocket_connect(ws_url(created["id"])) as ws:
        ws.send_json({"type": "hello", "game": False})
        assert ws.receive_json()["type"] == "state"


@pytest.mark.parametrize(
    ("hello", "code"),
    [
        ({"type": "hello", "token": "not-a-seat"}, 4403),
        ({"type": "act", "action": "x"}, 4422),
        ({"type": "hello", "token": 42}, 4422),
        ({"type": "hello", "game": "yes"}, 4422),
    ],
)
def test_bad_hellos_are_refused_and_closed(client, hello, code) -> None:
    created = create(client, "sandwich-guy")
    with client.websocket_connect(ws_url(created["id"])) as ws:
        ws.send_json(hello)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == code


def test_not_json_is_refused(client) -> None:
    created = create(client, "sandwich-guy")
    with client.websocket_connect(ws_url(created["id"])) as ws:
        ws.send_text("hello?")
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4422


def test_an_unknown_table_closes_with_404(client) -> None:
    with client.websocket_connect(ws_url("nothing")) as ws:
        assert ws.receive_json()["error"].startswith("there is no table")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4404


def test_moves_over_the_socket_reach_every_seat(client) -> None:
    created = create(client, "espionage", humans(3), players=3, seed=6)
    seat_tokens = tokens(created)
    sockets = {}
    try:
        for seat, token in seat_tokens.items():
            ws = client.websocket_connect(ws_url(created["id"])).__enter__()
            ws.send_json({"type": "hello", "token": token})
            sockets[seat] = ws
        latest = {}
        for seat, ws in sockets.items():
            # one state on joining, then one each time another seat joins
            for _ in range(3 - seat):
                latest[seat] = ws.receive_json()
        current = latest[0]["table"]["current_player"]
        move = latest[current]["legal"][0]["notation"]
        sockets[current].send_json({"type": "act", "action": move, "step": 0})
        for seat, ws in sockets.items():
            message = ws.receive_json()
            assert message["type"] == "state" and message["view"]["step"] == 1
            assert message["seat"] == seat
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)


def test_socket_errors_hints_undo_and_ping(client) -> None:
    created = create(client, "syndicate", seed=2)
    with client.websocket_connect(ws_url(created["id"])) as ws:
        ws.send_json({"type": "hello", "token": tokens(created)[0]})
        first = ws.receive_json()
        ws.send_json({"type": "act", "action": "pick 2♠♠", "ref": 7})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 422 and error["ref"] == 7
        assert error["rule"]
        ws.send_json({"type": "dance"})
        assert "unknown message type" in ws.receive_json()["error"]
        ws.send_text("x" * (MAX_MESSAGE + 1))
        assert ws.receive_json()["status"] == 413
        ws.send_json({"type": "hint", "ref": 1})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["ref"] == 1
        assert hint["action"]["notation"] in {a["notation"] for a in first["legal"]}
        ws.send_json({"type": "act", "action": hint["action"]["notation"]})
        moved = ws.receive_json()
        assert moved["view"]["step"] == 1 and moved["can_undo"]
        ws.send_json({"type": "undo"})
        undone = ws.receive_json()
        assert undone["view"] == first["view"]
        ws.send_json({"type": "ping", "ref": 3})
        assert ws.receive_json() == {"type": "pong", "ref": 3}
