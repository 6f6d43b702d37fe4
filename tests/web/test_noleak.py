"""Hidden information: every message a seat receives, over HTTP and WebSocket, holds that
seat's view and moves and nothing else: no card, role or move it could not know."""

from __future__ import annotations

import json
import random
import re

import spyglass
from tests.web.helpers import create, headers, humans, tokens

CARD = re.compile(r"(?<![\w#])(?:10|[2-9AJQK])[♠♥♦♣](?:#\d+)?")
MESSAGE_KEYS = {"type", "table", "seat", "view", "legal", "can_undo"}
SUMMARY_KEYS = {
    "id", "game", "title", "options", "players", "status", "step", "current_player", "seats",
    "created", "private", "rematch", "started",
}  # fmt: skip
OVER_KEYS = {"result"}  # once the game is over: the result by name (docs/web.md, Ratings)
SEAT_KEYS = {"seat", "kind", "name", "agent", "budget", "connected", "claimed", "account", "open"}


def cards_in(data: object) -> set[str]:
    return set(CARD.findall(json.dumps(data, ensure_ascii=False)))


def check(message: dict, state: spyglass.State, seat: int | None) -> None:
    """``message`` was sent to ``seat`` when the table was at ``state``."""
    assert set(message) == MESSAGE_KEYS
    assert set(message["table"]) == SUMMARY_KEYS | (OVER_KEYS if state.is_over else set())
    assert all(set(s) == SEAT_KEYS for s in message["table"]["seats"])
    assert message["seat"] == seat
    view = state.view(seat)
    assert message["view"] == view
    to_move = seat is not None and state.current_player == seat
    legal = [a.to_json()["notation"] for a in state.legal_actions()] if to_move else []
    assert [a["notation"] for a in message["legal"]] == legal
    allowed = cards_in(view) | cards_in(
        message["legal"] and [a.to_json() for a in state.legal_actions()]
    )
    assert cards_in(message) <= allowed, cards_in(message) - allowed


def test_no_message_carries_anything_outside_the_seats_view(client) -> None:
    players = 4
    options = {"city_limit": 2}
    created = create(
        client, "espionage", humans(players), players=players, seed=21, options=options
    )
    table_id = created["id"]
    seat_tokens = tokens(created)
    rng = random.Random(5)
    received: list[tuple[int | None, dict]] = []
    sockets = {}
    try:
        for seat in [*range(players), None]:
            ws = client.websocket_connect(f"/api/tables/{table_id}/ws").__enter__()
            hello = {"type": "hello"}
            if seat is not None:
                hello["token"] = seat_tokens[seat]
            ws.send_json(hello)
            sockets[seat] = ws
        latest = {}

        def drain(step: int) -> None:
            for seat, ws in sockets.items():
                while seat not in latest or latest[seat]["view"]["step"] < step:
                    latest[seat] = ws.receive_json()
                    assert latest[seat]["type"] == "state"
                    received.append((seat, latest[seat]))

        drain(0)
        step = 0
        while not latest[None]["view"]["over"]:
            current = latest[None]["table"]["current_player"]
            # the seat to move reads its moves over HTTP half the time
            if rng.random() < 0.5:
                response = client.get(
                    f"/api/tables/{table_id}", headers=headers(seat_tokens[current])
                )
                received.append((current, response.json()))
            move = rng.choice(latest[current]["legal"])["notation"]
            if rng.random() < 0.5:
                sockets[current].send_json({"type": "act", "action": move, "step": step})
            else:
                response = client.post(
                    f"/api/tables/{table_id}/actions",
                    headers=headers(seat_tokens[current]),
                    json={"action": move, "step": step},
                )
                assert response.status_code == 200
                received.append((current, response.json()))
            step += 1
            drain(step)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)

    record = client.get(f"/api/tables/{table_id}/record").json()
    assert len(record["actions"]) == step > 40
    states = [spyglass.replay(record, upto=k) for k in range(step + 1)]
    for seat, message in received:
        check(message, states[message["view"]["step"]], seat)

    # The check is not vacuous: at the time of each message, other seats held cards that the
    # message does not show, and the roles of others were secret in the seats' views.
    hidden = 0
    for seat, message in received:
        state = states[message["view"]["step"]]
        others = set().union(
            *(set(state.view(q)["table"]["hand"]) for q in range(players) if q != seat)
        )
        hidden += len(others - cards_in(message))
    assert hidden > len(received)
