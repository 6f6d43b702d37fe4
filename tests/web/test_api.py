"""Every HTTP endpoint, and what bad input gets: a 4xx naming the problem, and no change."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest
from fastapi.testclient import TestClient

import spyglass
from spyglass import agents
from spyglass.games import list_games
from spyglass.web import catalogue, create_app
from spyglass.web.app import MAX_BODY
from spyglass.web.bots import Caps
from spyglass.web.rules import rules_html
from tests.web.helpers import create, headers, humans, play_http, tokens


def finished_solo(client) -> tuple[str, str, dict]:
    created = create(client, "sandwich-guy", seed=3)
    token = tokens(created)[0]
    last = play_http(client, created["id"], {0: token}, seed=1)
    return created["id"], token, last


# ---------------------------------------------------------------------- games


def test_games_list_every_registered_game_with_its_layout(client) -> None:
    games = client.get("/api/games").json()
    assert [g["id"] for g in games] == spyglass.games.REGISTRY.ids()
    for g in games:
        spec = spyglass.games.REGISTRY.spec(g["id"])
        assert [r["key"] for r in g["layout"]] == [r.key for r in spec.layout]
        assert g["players"] == list(spec.info.players)


def test_one_game_and_an_unknown_one(client) -> None:
    data = client.get("/api/games/espionage").json()
    assert data["title"] == "Espionage" and data["players"] == [3, 7]
    assert {o["name"] for o in data["options"]} >= {"police_face_up"}
    missing = client.get("/api/games/chess")
    assert missing.status_code == 404
    assert "known games" in missing.json()["error"] and "sandwich-guy" in missing.json()["error"]


def test_rules_are_rendered_from_rules_md_without_raw_html(client) -> None:
    data = client.get("/api/games/sandwich-guy/rules").json()
    assert data["markdown"].startswith("# The Sandwich Guy")
    assert data["html"].startswith("<h1>The Sandwich Guy</h1>")
    assert "<script" not in data["html"]
    assert client.get("/api/games/nope/rules").status_code == 404


def test_agents_name_the_strongest(client) -> None:
    data = client.get("/api/agents").json()
    names = [a["name"] for a in data["agents"]]
    assert {"random", "heuristic"} <= set(names)
    assert data["strongest"] in names
    named = getattr(agents, "STRONGEST", None)
    if named in names:
        assert data["strongest"] == named
    else:
        assert data["strongest"] == ("ismcts" if "ismcts" in names else "heuristic")


def test_each_agent_lists_the_games_it_plays(client) -> None:
    listed = {a["name"]: a["games"] for a in client.get("/api/agents").json()["agents"]}
    solo = [i.id for i in list_games() if i.solo]
    assert listed["expectimax"] == solo and "espionage" not in solo
    assert listed["solver"] == ["syndicate"]
    assert listed["lookahead"] == ["foursquare"]  # the one game with a look-ahead of its own
    assert listed["heuristic"] is None  # every game


class SearchAgent:
    """A stand-in for a tree search agent: takes a budget, plays the first legal move."""

    name = "search"

    def __init__(self, seed: int | None = None, simulations: int = 100) -> None:
        self.simulations = simulations

    def choose(self, seat):
        return seat.legal_actions[0]


def test_the_strongest_agent_and_its_budget_are_found_by_name(client, monkeypatch) -> None:
    monkeypatch.setitem(agents.AGENTS, "search", SearchAgent)
    monkeypatch.setattr(agents, "STRONGEST", "search", raising=False)
    data = client.get("/api/agents").json()
    assert data["strongest"] == "search"
    search = next(a for a in data["agents"] if a["name"] == "search")
    assert search["takes_budget"] and search["games"] is None  # it plays every game
    seats = [{"kind": "bot", "agent": "search", "budget": 7}, {"kind": "human"}, {"kind": "human"}]
    created = create(client, "espionage", seats, players=3, seed=3)
    assert created["table"]["seats"][0]["budget"] == 7
    # the hint comes from the strongest agent, with the hint's budget
    token = tokens(created)[1]
    url = f"/api/tables/{created['id']}"
    for _ in range(200):
        message = client.get(url, headers=headers(token)).json()
        if message["legal"]:
            break
        token = tokens(created)[2] if token == tokens(created)[1] else tokens(created)[1]
    hint = client.post(f"{url}/hint", headers=headers(token)).json()
    assert hint["agent"] == "search"
    assert hint["action"]["notation"] == message["legal"][0]["notation"]


# ---------------------------------------------------------------------- creating tables


def test_create_a_solo_table_by_default(client, db_path) -> None:
    created = create(client, "sandwich-guy")
    [seat] = created["seats"]
    assert seat["kind"] == "human" and len(seat["token"]) >= 32
    assert seat["link"] == f"/table/{created['id']}#seat=0&token={seat['token']}"
    assert created["spectate"] == f"/table/{created['id']}"
    summary = created["table"]
    assert summary["status"] == "playing" and summary["step"] == 0
    assert "seed" not in json.dumps(summary) and "decks" not in json.dumps(summary)
    # The database keeps the token's hash, never the token.
    with sqlite3.connect(db_path) as conn:
        dump = "\n".join(conn.iterdump())
    assert seat["token"] not in dump
    assert conn is not None


def test_create_a_multiplayer_table_with_bots_and_invites(client) -> None:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "human"},
        {"kind": "bot", "agent": "random"},
        {"kind": "bot"},
    ]
    created = create(client, "espionage", seats, players=4, options={"police_face_up": True})
    assert [s["kind"] for s in created["seats"]] == ["human", "human", "bot", "bot"]
    assert created["seats"][0]["name"] == "Ann"
    assert created["seats"][2]["token"] is None and created["seats"][2]["link"] is None
    assert created["table"]["options"]["police_face_up"] is True
    # the first person is the creator; the second is invited: a link, never a token
    assert created["seats"][0]["token"] and created["seats"][1]["token"] is None
    assert "#invite=" in created["seats"][1]["link"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "dead-center", "options": {"jokers": 9}}, "jokers"),
        ({"game": "sandwich-guy", "options": {"colour": "red"}}, "no option"),
        ({"game": "espionage", "players": 2}, "3–7 players"),
        ({"game": "espionage", "players": 3, "seats": [{"kind": "human"}]}, "needs 3 seats"),
        ({"game": "sandwich-guy", "seats": [{"kind": "bot", "agent": "oracle"}]}, "unknown agent"),
        ({"game": "sandwich-guy", "seats": [{"kind": "human", "agent": "random"}]}, "human"),
        (
            {
                "game": "espionage",
                "players": 3,
                "seats": [
                    {"kind": "human"},
                    {"kind": "bot", "agent": "expectimax"},
                    {"kind": "bot"},
                ],
            },
            "agent 'expectimax' does not play Espionage; the agents that do: random, heuristic",
        ),
        ({"game": "boba-tea", "seats": [{"kind": "bot", "agent": "solver"}]}, "does not play"),
        ({"game": "sandwich-guy", "seed": -1}, "seed"),
        ({"game": "sandwich-guy", "seats": [{"kind": "alien"}]}, "kind"),
        ({"players": 1}, "game"),
        ({"game": ["sandwich-guy"]}, "game"),
    ],
)
def test_bad_tables_are_refused_with_the_reason(client, body, fragment) -> None:
    before = client.get("/api/tables").json()
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422, response.text
    assert fragment in response.json()["error"]
    assert client.get("/api/tables").json() == before


def test_a_budget_only_for_agents_that_take_one(client) -> None:
    response = client.post(
        "/api/tables",
        json={"game": "sandwich-guy", "seats": [{"kind": "bot", "agent": "random", "budget": 5}]},
    )
    assert response.status_code == 422 and "budget" in response.json()["error"]


def test_malformed_json_and_oversized_bodies(client) -> None:
    response = client.post(
        "/api/tables", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422 and response.json()["error"]
    big = json.dumps({"game": "sandwich-guy", "seats": [], "pad": "x" * (MAX_BODY + 10)})
    response = client.post(
        "/api/tables", content=big.encode(), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413 and "bytes" in response.json()["error"]


def test_recent_tables_are_listed(client) -> None:
    a = create(client, "sandwich-guy")
    b = create(client, "syndicate")
    listed = client.get("/api/tables").json()
    ids = [t["id"] for t in listed]
    assert a["id"] in ids and b["id"] in ids
    assert {t["title"] for t in listed} >= {"The Sandwich Guy", "Syndicate"}
    assert all("token" not in json.dumps(t) for t in listed)
    assert client.get("/api/tables?limit=0").status_code == 422


# ---------------------------------------------------------------------- seeing a table


def test_a_seat_sees_its_view_and_moves_a_spectator_the_public_view(client) -> None:
    created = create(client, "espionage", humans(3), players=3, seed=11)
    table_id = created["id"]
    state = spyglass.load("espionage").new_state(players=3, seed=11)
    for seat, token in tokens(created).items():
        message = client.get(f"/api/tables/{table_id}", headers=headers(token)).json()
        assert message["seat"] == seat
        assert message["view"] == state.view(seat)
        expected = [a.to_json()["notation"] for a in state.legal_actions()]
        assert [a["notation"] for a in message["legal"]] == (
            expected if state.current_player == seat else []
        )
    spectator = client.get(f"/api/tables/{table_id}").json()
    assert spectator["seat"] is None and spectator["legal"] == []
    assert spectator["view"] == state.view(None)


def test_a_wrong_token_sees_nothing(client) -> None:
    created = create(client, "sandwich-guy")
    response = client.get(f"/api/tables/{created['id']}", headers=headers("x" * 32))
    assert response.status_code == 403
    assert response.json() == {"error": "this token holds no seat at this table"}
    other = create(client, "sandwich-guy")
    response = client.get(f"/api/tables/{created['id']}", headers=headers(tokens(other)[0]))
    assert response.status_code == 403


def test_unknown_tables(client) -> None:
    assert client.get("/api/tables/nothing-here").status_code == 404
    assert client.get("/api/tables/" + "x" * 200).status_code == 404
    assert client.post("/api/tables/nothing/actions", json={"action": "x"}).status_code == 404


# ---------------------------------------------------------------------- moves


def test_a_legal_move_is_applied_committed_and_returned(client, db_path) -> None:
    created = create(client, "sandwich-guy", seed=5)
    token = tokens(created)[0]
    url = f"/api/tables/{created['id']}"
    first = client.get(url, headers=headers(token)).json()
    move = first["legal"][0]
    assert move["text"] and move["labels"] == move["cards"]
    response = client.post(
        f"{url}/actions", headers=headers(token), json={"action": move["notation"]}
    )
    assert response.status_code == 200
    after = response.json()
    state = spyglass.load("sandwich-guy").new_state(seed=5)
    state.apply(move["notation"])
    assert after["view"] == state.view(0)
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT step, seat, notation FROM spyglass_actions").fetchall()
    assert rows == [(1, 0, move["notation"])]


def test_an_illegal_move_names_the_rule_and_changes_nothing(client, db_path) -> None:
    created = create(client, "sandwich-guy", seed=5)
    token = tokens(created)[0]
    url = f"/api/tables/{created['id']}"
    before = client.get(url, headers=headers(token)).json()
    for bad in ("2♠ 2♥ 2♣", "hello", "  "):
        response = client.post(f"{url}/actions", headers=headers(token), json={"action": bad})
        assert response.status_code == 422, bad
        body = response.json()
        assert body["error"]
        if bad.strip():
            assert body["rule"]
    assert client.get(url, headers=headers(token)).json() == before
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM spyglass_actions").fetchone() == (0,)


@pytest.mark.parametrize(
    "body", [{}, {"action": 7}, {"action": "x" * 301}, {"action": "a", "step": "one"}, []]
)
def test_malformed_moves(client, body) -> None:
    created = create(client, "sandwich-guy")
    url = f"/api/tables/{created['id']}/actions"
    response = client.post(url, headers=headers(tokens(created)[0]), json=body)
    assert response.status_code == 422 and response.json()["error"]


def test_moves_need_the_right_seat_at_the_right_time(client) -> None:
    created = create(client, "espionage", humans(3), players=3, seed=2)
    url = f"/api/tables/{created['id']}"
    seat_tokens = tokens(created)
    spectator = client.get(url).json()
    current = spectator["table"]["current_player"]
    other = (current + 1) % 3
    mine = client.get(url, headers=headers(seat_tokens[current])).json()
    move = mine["legal"][0]["notation"]
    # no token, a wrong token, the wrong seat, a stale step: refused, nothing changes
    assert client.post(f"{url}/actions", json={"action": move}).status_code == 401
    wrong = client.post(f"{url}/actions", headers=headers("nope"), json={"action": move})
    assert wrong.status_code == 403
    turn = client.post(f"{url}/actions", headers=headers(seat_tokens[other]), json={"action": move})
    assert turn.status_code == 409 and turn.json()["rule"] == f"seat {current} is to move"
    stale = client.post(
        f"{url}/actions", headers=headers(seat_tokens[current]), json={"action": move, "step": 3}
    )
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    assert client.get(url).json() == spectator
    ok = client.post(
        f"{url}/actions", headers=headers(seat_tokens[current]), json={"action": move, "step": 0}
    )
    assert ok.status_code == 200 and ok.json()["view"]["step"] == 1


def test_bots_move_on_the_server(client) -> None:
    seats = [{"kind": "bot", "agent": "random"}, {"kind": "bot"}, {"kind": "bot"}]
    created = create(client, "espionage", seats, players=3, seed=4)
    url = f"/api/tables/{created['id']}"
    for _ in range(2000):
        message = client.get(url).json()
        if message["view"]["over"]:
            break
    else:
        pytest.fail("the bots did not finish")
    record = client.get(f"{url}/record").json()
    assert spyglass.replay(record).is_over


def test_a_finished_table_nobody_watches_leaves_memory_and_comes_back(client) -> None:
    manager = client.app.state.manager
    created = create(client, "sandwich-guy", seed=3)
    table_id, token = created["id"], tokens(created)[0]
    url = f"/api/tables/{table_id}"
    last = client.get(url, headers=headers(token)).json()
    while not last["view"]["over"]:
        assert table_id in manager.tables
        move = {"action": last["legal"][0]["notation"]}
        last = client.post(f"{url}/actions", headers=headers(token), json=move).json()
    assert table_id not in manager.tables  # released: over, and nobody is connected
    again = client.get(f"/api/tables/{table_id}", headers=headers(token)).json()
    assert again["view"] == last["view"]  # replayed from the database
    # no undo at a finished solo game: its whole deck has been shown (issue 24)
    undone = client.post(f"/api/tables/{table_id}/undo", headers=headers(token))
    assert undone.status_code == 409 and "hidden cards" in undone.json()["error"]
    again = client.get(f"/api/tables/{table_id}", headers=headers(token)).json()
    assert again["view"] == last["view"] and not again["can_undo"]


class WaitingAgent:
    """An agent that thinks until the test lets it move (as a long tree search would)."""

    name = "waiting"
    go = threading.Event()
    thinking = threading.Event()

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, seat):
        WaitingAgent.thinking.set()
        assert WaitingAgent.go.wait(60)
        return seat.legal_actions[0]


def test_a_thinking_bot_holds_up_no_other_table(client, monkeypatch) -> None:
    monkeypatch.setitem(agents.AGENTS, "waiting", WaitingAgent)
    WaitingAgent.go.clear()
    WaitingAgent.thinking.clear()
    slow = create(client, "sandwich-guy", [{"kind": "bot", "agent": "waiting"}], seed=1)
    assert WaitingAgent.thinking.wait(60)  # its bot is thinking, in the worker pool
    try:
        other = create(client, "sandwich-guy", seed=2)
        url, token = f"/api/tables/{other['id']}", tokens(other)[0]
        move = client.get(url, headers=headers(token)).json()["legal"][0]["notation"]
        response = client.post(f"{url}/actions", headers=headers(token), json={"action": move})
        assert response.status_code == 200 and response.json()["view"]["step"] == 1
        assert client.get(f"/api/tables/{slow['id']}").json()["view"]["step"] == 0
    finally:
        WaitingAgent.go.set()
    for _ in range(2000):  # the slow table goes on once its bot has thought
        if client.get(f"/api/tables/{slow['id']}").json()["view"]["step"] > 0:
            break
    else:
        pytest.fail("the bot never moved")


def test_no_moves_after_the_end(client) -> None:
    table_id, token, last = finished_solo(client)
    assert last["view"]["over"] and last["legal"] == []
    response = client.post(
        f"/api/tables/{table_id}/actions", headers=headers(token), json={"action": "x"}
    )
    assert response.status_code == 409 and response.json()["rule"] == "the game is over"


# ---------------------------------------------------------------------- undo and hints


def test_undo_takes_back_the_last_move_of_a_solo_game(client, db_path) -> None:
    created = create(client, "syndicate", seed=8)
    token = tokens(created)[0]
    url = f"/api/tables/{created['id']}"
    assert client.post(f"{url}/undo", headers=headers(token)).status_code == 409  # no move yet
    start = client.get(url, headers=headers(token)).json()
    assert start["can_undo"] is False
    move = start["legal"][0]["notation"]
    moved = client.post(f"{url}/actions", headers=headers(token), json={"action": move}).json()
    assert moved["can_undo"] is True
    assert client.post(f"{url}/undo").status_code == 401
    undone = client.post(f"{url}/undo", headers=headers(token))
    assert undone.status_code == 200
    assert undone.json()["view"] == start["view"] and undone.json()["legal"] == start["legal"]
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM spyglass_actions").fetchone() == (0,)


def test_undo_is_only_for_solo_games(client) -> None:
    created = create(client, "espionage", humans(3), players=3, seed=2)
    url = f"/api/tables/{created['id']}"
    current = client.get(url).json()["table"]["current_player"]
    token = tokens(created)[current]
    move = client.get(url, headers=headers(token)).json()["legal"][0]["notation"]
    client.post(f"{url}/actions", headers=headers(token), json={"action": move})
    response = client.post(f"{url}/undo", headers=headers(token))
    assert response.status_code == 409 and "solo" in response.json()["error"]


def test_a_hint_is_a_legal_move_with_its_sentence(make_client) -> None:
    # time enough for the strongest agent even on a cold start (its first hint imports the
    # search; on a slow machine that alone took over the 1 s cap, and the heuristic answered)
    client = make_client(caps=Caps(hint_seconds=60))
    created = create(client, "sandwich-guy", seed=9)
    token = tokens(created)[0]
    url = f"/api/tables/{created['id']}"
    legal = {a["notation"] for a in client.get(url, headers=headers(token)).json()["legal"]}
    hint = client.post(f"{url}/hint", headers=headers(token))
    assert hint.status_code == 200
    body = hint.json()
    assert body["action"]["notation"] in legal and body["action"]["text"]
    assert body["agent"] == client.get("/api/agents").json()["strongest"]
    assert client.post(f"{url}/hint").status_code == 401


def test_a_hint_only_for_the_seat_to_move(client) -> None:
    created = create(client, "espionage", humans(3), players=3, seed=2)
    url = f"/api/tables/{created['id']}"
    current = client.get(url).json()["table"]["current_player"]
    waiting = tokens(created)[(current + 1) % 3]
    assert client.post(f"{url}/hint", headers=headers(waiting)).status_code == 409


# ---------------------------------------------------------------------- records and replays


def test_the_record_opens_when_the_game_is_over(client) -> None:
    created = create(client, "sandwich-guy", seed=3)
    url = f"/api/tables/{created['id']}"
    closed = client.get(f"{url}/record")
    assert closed.status_code == 409 and "over" in closed.json()["error"]
    assert client.get(f"{url}/replay").status_code == 409
    play_http(client, created["id"], tokens(created), seed=1)
    response = client.get(f"{url}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["game"] == "sandwich-guy" and record["seed"] == 3
    final = client.get(url).json()
    assert spyglass.replay(record).view(None) == final["view"]


def test_replay_any_step_through_any_seat(client) -> None:
    table_id, _token, last = finished_solo(client)
    url = f"/api/tables/{table_id}/replay"
    record = client.get(f"/api/tables/{table_id}/record").json()
    total = len(record["actions"])
    start = client.get(url, params={"step": 0, "seat": 0}).json()
    assert start["steps"] == total and start["move"] is None
    assert start["view"] == spyglass.replay(record, upto=0).view(0)
    one = client.get(url, params={"step": 1}).json()
    assert one["move"] == record["actions"][0] and one["view"]["step"] == 1
    end = client.get(url, params={"step": total, "seat": 0}).json()
    assert end["view"] == last["view"]
    assert client.get(url, params={"step": total + 1}).status_code == 422
    assert client.get(url, params={"step": 0, "seat": 5}).status_code == 422
    assert client.get(url, params={"step": -1}).status_code == 422


# ---------------------------------------------------------------------- documentation and pages


def test_openapi_documents_every_endpoint(client) -> None:
    schema = client.get("/api/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/rules",
        "/api/agents",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/actions",
        "/api/tables/{table_id}/undo",
        "/api/tables/{table_id}/hint",
        "/api/tables/{table_id}/record",
        "/api/tables/{table_id}/replay",
    ):
        assert path in paths, path
    assert "422" in paths["/api/tables/{table_id}/actions"]["post"]["responses"]
    assert client.get("/api/docs").status_code == 200


def test_pages_and_static_files(client) -> None:
    for path in ("/", "/table/abc", "/table/abc/replay", "/new/sandwich-guy"):
        response = client.get(path)
        assert response.status_code == 200 and '<main id="app"' in response.text
    assets = client.app.state.assets
    for entry in ("table.js", "lobby.js", "table.css"):
        assert client.get(assets.url(entry)).status_code == 200
    assert client.get("/static/nothing.js").status_code == 404  # more in test_assets.py


def test_a_warm_server_has_every_game_and_rules_page_ready_before_it_listens(db_path) -> None:
    """``warm`` (what ``spyglass serve`` asks for) loads every game's description, layout and
    rules page in the app's start-up, so the first visitors of a fresh server wait for none of
    it; without it they stay lazy."""
    games = [info.id for info in spyglass.games() if info.unavailable is None]
    for warm, expected in ((False, 0), (True, len(games))):
        catalogue.game_message.cache_clear()
        rules_html.cache_clear()
        app = create_app(f"sqlite:///{db_path}", bot_pool="thread", warm=warm)
        with TestClient(app):
            assert catalogue.game_message.cache_info().currsize == expected
            assert rules_html.cache_info().currsize == expected
