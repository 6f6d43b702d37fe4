"""Shared steps of the web tests."""

from __future__ import annotations

import random
import time
from typing import Any

from spyglass.web.auth import HEADER


def headers(token: str | None) -> dict[str, str]:
    return {HEADER: token} if token else {}


def create(client: Any, game: str, seats: list[dict[str, Any]] | None = None, **body: Any) -> dict:
    payload = {"game": game, **body}
    if seats is not None:
        payload["seats"] = seats
    response = client.post("/api/tables", json=payload)
    assert response.status_code == 201, response.text
    return response.json()


def tokens(created: dict) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


def humans(n: int) -> list[dict[str, Any]]:
    return [{"kind": "human", "invite": False} for _ in range(n)]


def play_http(client: Any, table_id: str, seat_tokens: dict[int, str], seed: int = 0) -> dict:
    """Play every human seat with random legal moves over HTTP until the game ends; returns
    the last message. Bots (if any) move on the server meanwhile."""
    rng = random.Random(seed)
    any_token = next(iter(seat_tokens.values()))
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        message = client.get(f"/api/tables/{table_id}", headers=headers(any_token)).json()
        if message["view"]["over"]:
            return message
        current = message["table"]["current_player"]
        if current not in seat_tokens:
            time.sleep(0.01)
            continue  # a bot's turn: it moves on the server
        mine = client.get(f"/api/tables/{table_id}", headers=headers(seat_tokens[current])).json()
        assert mine["seat"] == current and mine["legal"], mine
        move = rng.choice(mine["legal"])
        response = client.post(
            f"/api/tables/{table_id}/actions",
            headers=headers(seat_tokens[current]),
            json={"action": move["notation"], "step": mine["view"]["step"]},
        )
        assert response.status_code == 200, response.text
    raise AssertionError("the game did not end in 300 s")
