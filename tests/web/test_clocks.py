"""Clocks (issue 27, point 4), in one server process: the time of the seat to move runs, and
only that; moves charge and credit it in the same write; undo gives no time back; a move made
after the deadline is refused; what a time-out does (a bot takes the seat, or the seat loses:
solo, two players, three players); the settings a table may ask for.

Real server processes, restarts and two processes on one database: test_clocks_servers.py.
"""

from __future__ import annotations

import time

import spyglass
from tests.web.helpers import create, headers, tokens

TWO_PEOPLE_AND_A_BOT = [
    {"kind": "human", "invite": False, "name": "Ann"},
    {"kind": "human", "invite": False, "name": "Bob"},
    {"kind": "bot", "agent": "heuristic"},
]


def look(client, table_id: str, token: str | None = None) -> dict:
    response = client.get(f"/api/tables/{table_id}", headers=headers(token))
    assert response.status_code == 200, response.text
    return response.json()


def move(client, table_id: str, token: str, message: dict, index: int = 0):
    return client.post(
        f"/api/tables/{table_id}/actions",
        headers=headers(token),
        json={"action": message["legal"][index]["notation"], "step": message["view"]["step"]},
    )


def wait_for(client, table_id: str, done, seconds: float = 10.0) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        message = look(client, table_id)
        if done(message):
            return message
        assert time.monotonic() < deadline, message["table"]
        time.sleep(0.05)


def test_clock_settings_are_checked(client) -> None:
    def make(clock: object) -> int:
        body = {"game": "sandwich-guy", "clock": clock}
        return client.post("/api/tables", json=body).status_code

    assert make({"kind": "realtime", "seconds": 300, "increment": 5}) == 201
    assert make({"kind": "turn", "seconds": 86400, "on_timeout": "lose"}) == 201
    for bad in (
        {"kind": "blitz", "seconds": 60},
        {"kind": "realtime", "seconds": 0.5},  # under a second
        {"kind": "realtime", "seconds": 40 * 86400},  # over 30 days
        {"kind": "realtime", "seconds": "60"},  # a number, not text
        {"kind": "realtime", "seconds": True},
        {"kind": "realtime", "seconds": 60, "increment": -1},
        {"kind": "turn", "seconds": 3600, "increment": 10},  # a move's time has no increment
        {"kind": "realtime", "seconds": 60, "on_timeout": "draw"},
        {"kind": "realtime", "seconds": 60, "extra": 1},
        {"seconds": 60},
    ):
        assert make(bad) == 422, bad


def test_only_the_seat_to_move_loses_time_and_bots_have_no_clock(client) -> None:
    created = create(
        client,
        "tinker-tailor",
        TWO_PEOPLE_AND_A_BOT,
        players=3,
        seed=1,
        clock={"kind": "realtime", "seconds": 60, "increment": 2},
    )
    table_id, seat_tokens = created["id"], tokens(created)
    first = look(client, table_id, seat_tokens[0])
    clock = first["table"]["clock"]
    assert first["table"]["current_player"] == 0
    assert clock["running"] == 0 and clock["kind"] == "realtime" and clock["increment"] == 2
    assert clock["remaining_ms"][1] == 60_000 and clock["remaining_ms"][2] is None
    assert abs(clock["deadline"] - clock["server_time"] - clock["remaining_ms"][0] / 1000) < 0.002
    time.sleep(0.4)
    later = look(client, table_id, seat_tokens[0])["table"]["clock"]
    spent = clock["remaining_ms"][0] - later["remaining_ms"][0]
    assert abs(spent - (later["server_time"] - clock["server_time"]) * 1000) <= 2
    assert spent >= 390
    assert later["remaining_ms"][1:] == [60_000, None]  # the others' clocks stand still
    assert later["deadline"] == clock["deadline"]  # the running clock's end does not move
    # Ann's move: she is charged what she spent and credited the increment; Bob's clock starts
    before = time.time()
    assert move(client, table_id, seat_tokens[0], first).status_code == 200
    after_move = look(client, table_id, seat_tokens[1])
    clock = after_move["table"]["clock"]
    assert after_move["table"]["current_player"] == 1 and clock["running"] == 1
    # Ann's clock ran from the table's creation, before the first look: measure from that look
    # (her time left then) rather than from a full minute
    charged = first["table"]["clock"]["remaining_ms"][0] - clock["remaining_ms"][0]
    assert (before - first["table"]["clock"]["server_time"]) * 1000 - 2_000 - 5 <= charged
    assert charged <= (time.time() - first["table"]["clock"]["server_time"]) * 1000 - 2_000 + 5
    kept = clock["remaining_ms"][0]
    time.sleep(0.3)
    again = look(client, table_id)["table"]["clock"]
    assert again["remaining_ms"][0] == kept  # Ann's clock stopped with her move
    assert again["remaining_ms"][1] <= 60_000 - 290


def test_a_move_after_the_deadline_is_refused_and_the_seat_times_out(client) -> None:
    manager = client.app.state.manager
    client.portal.call(manager.timekeeper.stop)  # nobody applies time-outs for now
    created = create(
        client, "sandwich-guy", seed=3, clock={"kind": "turn", "seconds": 1, "on_timeout": "lose"}
    )
    table_id, token = created["id"], tokens(created)[0]
    mine = look(client, table_id, token)
    time.sleep(1.1)
    late = move(client, table_id, token, mine)
    assert late.status_code == 409 and late.json()["rule"] == "time", late.text
    assert look(client, table_id)["view"]["step"] == 0  # the move was not stored
    client.portal.call(manager.timekeeper.start)
    over = wait_for(client, table_id, lambda m: m["table"]["status"] == "over")
    result = over["table"]["result"]
    assert (result["by"], result["out"], result["winners"]) == ("time", [0], [])
    assert result["won"] is False
    assert result["seats"][0]["out_of_time"] and result["summary"] == "seat 0 ran out of time."
    [timeout] = over["table"]["clock"]["timeouts"]
    assert (timeout["seat"], timeout["step"], timeout["then"]) == (0, 0, "lost")
    assert move(client, table_id, token, mine).status_code == 409  # the game is over
    assert look(client, table_id, token)["legal"] == []
    # the record of the moves made so far opens, as at any finished table
    assert client.get(f"/api/tables/{table_id}/record").status_code == 200


def test_a_turn_based_clock_gives_each_move_its_own_time(client) -> None:
    created = create(
        client,
        "sandwich-guy",
        seed=4,
        clock={"kind": "turn", "seconds": 3600, "on_timeout": "lose"},
    )
    table_id, token = created["id"], tokens(created)[0]
    mine = look(client, table_id, token)
    start = mine["table"]["clock"]["deadline"]
    time.sleep(0.2)
    before = time.time()
    assert move(client, table_id, token, mine).status_code == 200
    clock = look(client, table_id, token)["table"]["clock"]
    assert clock["running"] == 0
    # a new move: a new hour from the moment the last one was stored
    assert before + 3600 <= clock["deadline"] <= time.time() + 3600
    assert clock["deadline"] >= start + 0.19
    left = (clock["deadline"] - clock["server_time"]) * 1000
    assert abs(clock["remaining_ms"][0] - left) <= 1


def test_a_turn_based_clock_shows_the_others_a_full_move(client) -> None:
    people = [{"kind": "human", "invite": False}, {"kind": "human", "invite": False}]
    created = create(
        client, "tinker-tailor", people, players=2, seed=1, clock={"kind": "turn", "seconds": 60}
    )
    table_id, seat_tokens = created["id"], tokens(created)
    mine = look(client, table_id, seat_tokens[0])
    assert mine["table"]["current_player"] == 0
    time.sleep(0.2)
    assert move(client, table_id, seat_tokens[0], mine).status_code == 200
    clock = look(client, table_id)["table"]["clock"]
    assert clock["running"] == 1 and clock["remaining_ms"][0] == 60_000


def test_undo_gives_back_no_time(client) -> None:
    created = create(
        client, "sandwich-guy", seed=4, clock={"kind": "realtime", "seconds": 60, "increment": 10}
    )
    table_id, token = created["id"], tokens(created)[0]
    mine = look(client, table_id, token)
    assert move(client, table_id, token, mine).status_code == 200
    after = look(client, table_id, token)["table"]["clock"]
    assert 60_000 < after["remaining_ms"][0] <= 70_000  # the increment earned
    undone = client.post(f"/api/tables/{table_id}/undo", headers=headers(token))
    assert undone.status_code == 200, undone.text
    clock = undone.json()["table"]["clock"]
    # the increment goes with the move, and the time spent meanwhile stays spent
    spent = (clock["server_time"] - after["server_time"]) * 1000
    assert abs(clock["remaining_ms"][0] - (after["remaining_ms"][0] - 10_000 - spent)) <= 3
    assert clock["running"] == 0


def test_undo_that_would_leave_no_time_is_refused(client) -> None:
    # 3 s and 5 s a move: a move after 2 s leaves 6 s at most; 1.2 s later, taking it back (and
    # its 5 s) would leave less than nothing: without that move the time would have run out
    created = create(
        client, "sandwich-guy", seed=4, clock={"kind": "realtime", "seconds": 3, "increment": 5}
    )
    table_id, token = created["id"], tokens(created)[0]
    mine = look(client, table_id, token)
    time.sleep(2.0)
    assert move(client, table_id, token, mine).status_code == 200
    time.sleep(1.2)
    refused = client.post(f"/api/tables/{table_id}/undo", headers=headers(token))
    assert refused.status_code == 409 and refused.json()["rule"] == "time", refused.text
    message = look(client, table_id)
    assert message["view"]["step"] == 1 and message["table"]["clock"]["remaining_ms"][0] > 3_000


def test_time_out_at_two_players_with_lose_ends_the_game_for_the_other(client) -> None:
    created = create(
        client,
        "tinker-tailor",
        [{"kind": "human", "invite": False}, {"kind": "human", "invite": False}],
        players=2,
        seed=3,
        clock={"kind": "realtime", "seconds": 1, "on_timeout": "lose"},
    )
    table_id = created["id"]
    assert created["table"]["clock"]["running"] == 1
    over = wait_for(client, table_id, lambda m: m["table"]["status"] == "over")
    result = over["table"]["result"]
    assert (result["by"], result["out"], result["winners"]) == ("time", [1], [0])
    assert [(s["rank"], s["out_of_time"]) for s in result["seats"]] == [(1, False), (2, True)]
    assert over["table"]["clock"]["running"] is None and over["table"]["clock"]["deadline"] is None
    assert over["table"]["current_player"] == 1 and over["view"]["step"] == 0
    assert [s["kind"] for s in over["table"]["seats"]] == ["human", "human"]


def test_time_out_at_three_players_with_lose_a_bot_plays_the_seat_out_ranked_last(client) -> None:
    created = create(
        client,
        "espionage",
        [{"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}],
        players=3,
        seed=1,
        options={"game_length": "short"},
        clock={"kind": "realtime", "seconds": 1, "on_timeout": "lose"},
    )
    table_id = created["id"]
    over = wait_for(client, table_id, lambda m: m["table"]["status"] == "over", seconds=60)
    table = over["table"]
    assert table["seats"][0]["kind"] == "bot" and table["seats"][0]["name"] == "Ann (heuristic bot)"
    assert table["clock"]["out"] == [0]
    [timeout] = table["clock"]["timeouts"]
    assert (timeout["seat"], timeout["then"], timeout["name"]) == (0, "out", "Ann")
    record = client.get(f"/api/tables/{table_id}/record").json()
    final = spyglass.replay(record)
    assert final.is_over  # played to its end by the bots
    scores = final.result.scores
    best = max(scores[1], scores[2])
    result = table["result"]
    assert (result["by"], result["out"]) == ("time", [0])
    assert result["winners"] == [s for s in (1, 2) if scores[s] == best]
    assert result["seats"][0]["rank"] == 3 and result["seats"][0]["out_of_time"]


def test_time_out_with_bot_a_bot_takes_the_seat_and_the_result_stands(client) -> None:
    created = create(
        client,
        "tinker-tailor",
        [{"kind": "human", "invite": False, "name": "Ann"}, {"kind": "bot", "agent": "random"}],
        players=2,
        seed=0,
        clock={"kind": "turn", "seconds": 1, "on_timeout": "bot"},
    )
    table_id, token = created["id"], tokens(created)[0]
    over = wait_for(client, table_id, lambda m: m["view"]["over"], seconds=60)
    table = over["table"]
    assert table["status"] == "over"
    final = spyglass.replay(client.get(f"/api/tables/{table_id}/record").json())
    assert table["result"]["by"] == "game"  # the game's own result: nobody is out
    assert table["result"]["winners"] == list(final.result.winners)
    assert table["seats"][0] == {**table["seats"][0], "kind": "bot", "agent": "heuristic"}
    assert [t["then"] for t in table["clock"]["timeouts"]] == ["bot"]
    assert table["clock"]["remaining_ms"] == [None, None]
    # Ann's token still shows her seat, now the bot's: she sees it play, and cannot move
    mine = look(client, table_id, token)
    assert mine["seat"] == 0 and mine["legal"] == []
