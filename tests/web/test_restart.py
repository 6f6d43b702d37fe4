"""A server killed mid-game (SIGKILL) and restarted on the same database: every table, seat and
token is back exactly where it was, and every game goes on to its end."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

import spyglass
from tests.web.helpers import headers, play_http, tokens


def snapshot(http: httpx.Client, table_id: str, seat_tokens: dict[int, str]) -> dict:
    seen = {"watch": http.get(f"/api/tables/{table_id}").json()}
    for seat, token in seat_tokens.items():
        seen[seat] = http.get(f"/api/tables/{table_id}", headers=headers(token)).json()
    for message in seen.values():
        message["table"].pop("seats")  # who is connected changes with a restart
    return seen


def make_tables(http: httpx.Client) -> dict[str, dict]:
    tables = {}
    specs = {
        "solo": {"game": "syndicate", "seed": 4},
        "hot": {
            "game": "espionage",
            "players": 3,
            "seed": 8,
            "options": {"game_length": "short"},
            "seats": [
                {"kind": "human", "invite": False},
                {"kind": "bot"},
                {"kind": "human", "invite": False},
            ],
        },
        "bots": {
            "game": "espionage",
            "players": 4,
            "seed": 9,
            "options": {"game_length": "short"},
            "seats": [{"kind": "bot", "agent": "random"}] * 4,
        },
    }
    for name, body in specs.items():
        response = http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        tables[name] = response.json()
    return tables


def advance(http: httpx.Client, table_id: str, seat_tokens: dict[int, str], moves: int) -> None:
    """Make ``moves`` human moves (bots answer on the server)."""
    made = 0
    while made < moves:
        message = http.get(f"/api/tables/{table_id}").json()
        current = message["table"]["current_player"]
        if current not in seat_tokens:
            time.sleep(0.01)
            continue
        mine = http.get(f"/api/tables/{table_id}", headers=headers(seat_tokens[current])).json()
        move = mine["legal"][-1]["notation"]
        response = http.post(
            f"/api/tables/{table_id}/actions",
            headers=headers(seat_tokens[current]),
            json={"action": move, "step": mine["view"]["step"]},
        )
        assert response.status_code == 200, response.text
        made += 1


def kill_and_restart(start_server, db: str) -> None:
    first = start_server(db, bot_delay=0.02)
    with httpx.Client(base_url=first.url, timeout=30) as http:
        tables = make_tables(http)
        seat_tokens = {name: tokens(created) for name, created in tables.items()}
        advance(http, tables["solo"]["id"], seat_tokens["solo"], 5)
        advance(http, tables["hot"]["id"], seat_tokens["hot"], 6)
        # the bots' table is mid-game: watch a few of its positions go by
        watched = {}
        while len(watched) < 4:
            message = http.get(f"/api/tables/{tables['bots']['id']}").json()
            watched[message["view"]["step"]] = message["view"]
        assert not message["view"]["over"]
        before = {
            name: snapshot(http, tables[name]["id"], seat_tokens[name]) for name in ("solo", "hot")
        }
    workers = first.children()
    assert workers  # the bot pool's processes
    first.kill()
    # the killed server's bot workers notice and leave (nothing is left running)
    deadline = time.monotonic() + 60
    while any(Path(f"/proc/{pid}").exists() for pid in workers):
        assert time.monotonic() < deadline, "the bot workers outlived their server"
        time.sleep(0.1)

    second = start_server(db)
    with httpx.Client(base_url=second.url, timeout=30) as http:
        for name in ("solo", "hot"):
            assert snapshot(http, tables[name]["id"], seat_tokens[name]) == before[name], name
        # every table goes on to its end, with the same tokens
        for name in ("solo", "hot"):
            last = play_http(http, tables[name]["id"], seat_tokens[name], seed=1)
            assert last["view"]["over"]
        bots = tables["bots"]["id"]
        deadline = time.monotonic() + 120
        while not http.get(f"/api/tables/{bots}").json()["view"]["over"]:
            assert time.monotonic() < deadline, "the bots' table did not go on after the restart"
            time.sleep(0.05)
        record = http.get(f"/api/tables/{bots}/record").json()
        for step, view in watched.items():
            assert spyglass.replay(record, upto=step).view(None) == view
        for name in ("solo", "hot"):
            record = http.get(f"/api/tables/{tables[name]['id']}/record").json()
            assert spyglass.replay(record).is_over
    # every request carried a token, none reached either server's log (the access log is on)
    logs = first.log() + second.log()
    assert "GET /api/tables/" in logs
    for seats in seat_tokens.values():
        for token in seats.values():
            assert token not in logs


@pytest.mark.slow
def test_sigkill_and_restart_on_sqlite(start_server, tmp_path) -> None:
    kill_and_restart(start_server, str(tmp_path / "restart.sqlite3"))


@pytest.mark.slow
def test_sigkill_and_restart_on_postgresql(start_server, postgres_url) -> None:
    kill_and_restart(start_server, postgres_url)
