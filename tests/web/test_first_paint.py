"""The table page's connections open from the page's head while its modules are still on their
way (frontend/src/early.js, written into the page by the build and allowed by its hash): the
hello carries the seat's token (never the address), the first state is there before the
table's code, and that code takes the connections over (one connection per seat, no second)."""

from __future__ import annotations

import json

import httpx
import pytest

pytestmark = pytest.mark.slow

WAIT_MS = 20_000


def create(base: str, game: str = "espionage", players: int = 3, seed: int = 6) -> dict:
    body = {"game": game, "players": players, "seed": seed, "options": {"city_limit": 1}}
    response = httpx.post(f"{base}/api/tables", json=body, timeout=60)
    response.raise_for_status()
    return response.json()


def test_the_head_opens_the_connection_before_any_module_arrives(web_server, new_page) -> None:
    created = create(web_server.url)
    link = created["seats"][0]["link"]
    token = link.split("token=", 1)[1]
    page = new_page()
    # no module ever arrives: only the page's own script can open a connection
    page.route("**/static/*.js", lambda route: route.abort())
    sent: list[dict] = []
    received: list[dict] = []

    def watch(socket) -> None:
        # (handlers run in the order of events: nothing on this socket is missed)
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", watch)
    with page.expect_websocket(timeout=WAIT_MS) as opened:
        page.goto(web_server.url + link, wait_until="commit")
    socket = opened.value
    if not any(m["type"] == "state" for m in received):
        socket.wait_for_event(
            "framereceived",
            predicate=lambda payload: json.loads(payload)["type"] == "state",
            timeout=WAIT_MS,
        )
    # the hello, with the seat's token and asking for the game's layout; the layout, then
    # the seat's state
    assert sent[0] == {"type": "hello", "token": token, "game": True}
    assert [m["type"] for m in received][:2] == ["game", "state"]
    assert received[0]["game"]["id"] == "espionage"
    state = received[1]
    assert state["seat"] == 0 and state["table"]["id"] == created["id"]
    assert socket.url.endswith(f"/api/tables/{created['id']}/ws")
    assert token not in socket.url
    # the page shows no table: its code never came
    assert page.locator(".table-page").count() == 0


def test_the_table_code_takes_the_connections_over(web_server, new_page) -> None:
    created = create(web_server.url, seed=8)
    base = web_server.url
    page = new_page()
    for address in (
        base + created["seats"][0]["link"],  # a seat from the creator's link
        f"{base}/table/{created['id']}",  # the same browser again: its stored seat
    ):
        sockets: list = []
        page.on("websocket", lambda socket, into=sockets: into.append(socket))
        page.goto(address)
        page.wait_for_selector(".table-page .regions .region")
        assert page.locator(".table-page").get_attribute("data-seat") == "0"
        assert page.evaluate("location.hash") == ""  # the token left the address bar
        assert len(sockets) == 1 and not sockets[0].is_closed()
        assert not page.errors
    # a spectator, and a table that does not exist: refused on the head's connection, said
    # by the table's code once it has taken it over
    page = new_page()
    sockets = []
    page.on("websocket", lambda socket, into=sockets: into.append(socket))
    page.goto(f"{base}/table/{created['id']}")
    page.wait_for_selector(".table-page .regions .region")
    assert page.locator(".table-page").get_attribute("data-seat") == "watch"
    assert len(sockets) == 1
    page.goto(f"{base}/table/no-such-table")
    page.wait_for_selector(".error-page:has-text('there is no such table')", timeout=WAIT_MS)
