"""Accounts (issue 27): sign up, log in and out, log out everywhere; the session cookie's flags;
CSRF refused; wrong passwords and rate limits; a guest who signs up keeps their tables; an
account's seats from another device (device keys); *Your games* with the tables waiting for
you first; names in results and chat; names that imitate refused. SQLite and PostgreSQL."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select

from spyglass.web.accounts import CSRF_HEADER, CSRF_VALUE, AccountSettings, Passwords
from spyglass.web.names import BadName, check_unique, clean_account_name, clean_name, named
from spyglass.web.store import Store, accounts_t, sessions_t
from tests.web.helpers import create, headers, tokens

CSRF = {CSRF_HEADER: CSRF_VALUE}
#: argon2id at its smallest cost: the tests hash many passwords on a shared two-core machine
#: (the server's default is argon2-cffi's RFC 9106 profile).
CHEAP = Passwords(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
PLAIN = AccountSettings(cookie_secure="never")
TWO = [{"kind": "human", "invite": False, "name": "p0"}, {"kind": "human", "invite": False}]


class Person:
    """One person's browser on the shared test client: their own cookie jar."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar = httpx.Cookies()

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        self.client.cookies = self.jar
        try:
            return self.client.request(method, url, **kwargs)
        finally:
            self.jar = self.client.cookies
            self.client.cookies = httpx.Cookies()

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        kwargs["headers"] = {**CSRF, **kwargs.get("headers", {})}
        return self.request("POST", url, **kwargs)

    def sign_up(
        self, name: str, password: str = "correct horse", headers: Any = None, **body: Any
    ) -> dict:
        r = self.post(
            "/api/account/signup",
            json={"name": name, "password": password, **body},
            headers=headers or {},
        )
        assert r.status_code == 201, r.text
        return r.json()

    def log_in(self, name: str, password: str = "correct horse", **body: Any) -> httpx.Response:
        return self.post("/api/account/login", json={"name": name, "password": password, **body})


def database(request: pytest.FixtureRequest, db_path: Any) -> str:
    """The database of a test run on SQLite and PostgreSQL (the ``db_url`` fixtures)."""
    if request.param == "sqlite":
        return f"sqlite:///{db_path}"
    return request.getfixturevalue("postgres_url")


def site_maker(make_client: Callable[..., TestClient], url: str) -> Callable[..., TestClient]:
    """Servers (in-process apps) on ``url`` with plain-http cookies and cheap hashes."""

    def make(settings: AccountSettings = PLAIN, **kwargs: Any) -> TestClient:
        return make_client(url, account_settings=settings, passwords=CHEAP, **kwargs)

    return make


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, db_path) -> str:
    return database(request, db_path)


@pytest.fixture
def make_site(make_client, db_url) -> Callable[..., TestClient]:
    return site_maker(make_client, db_url)


@pytest.fixture
def site(make_site) -> TestClient:
    return make_site()


def play_until(client: Any, table_id: str, seat_tokens: dict[int, str], stop, seed: int = 0):
    """Random legal moves for the people until ``stop(message)`` holds; returns the message."""
    rng = random.Random(seed)
    token = next(iter(seat_tokens.values()))
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        message = client.get(f"/api/tables/{table_id}", headers=headers(token)).json()
        if stop(message):
            return message
        seat = message["table"]["current_player"]
        if seat not in seat_tokens:  # a bot's turn: it moves on the server
            time.sleep(0.01)
            continue
        mine = client.get(f"/api/tables/{table_id}", headers=headers(seat_tokens[seat])).json()
        move = rng.choice(mine["legal"])
        r = client.post(
            f"/api/tables/{table_id}/actions",
            headers=headers(seat_tokens[seat]),
            json={"action": move["notation"], "step": mine["view"]["step"]},
        )
        assert r.status_code == 200, r.text
    raise AssertionError("the condition never held")


def over(message: dict) -> bool:
    return message["view"]["over"]


# ---------------------------------------------------------------------- sign up, log in, out


def test_the_pages_learn_who_is_logged_in_without_an_error_for_a_guest(site) -> None:
    """/api/session (what every page asks for its account corner) answers a guest with null,
    not 401, so no page shows a failed request in its console; a session with its account."""
    ann = Person(site)
    guest = ann.get("/api/session")
    assert guest.status_code == 200 and guest.json() == {"account": None}
    made = ann.sign_up("Ann")
    assert ann.get("/api/session").json() == {"account": made["account"]}
    assert ann.post("/api/account/logout").json() == {"logged_out": True}
    assert ann.get("/api/session").json() == {"account": None}


def test_sign_up_log_out_and_log_in(site, db_url) -> None:
    ann = Person(site)
    made = ann.sign_up("Ann")
    assert made["account"]["name"] == "Ann" and made["kept"] == [] and made["refused"] == []
    assert ann.get("/api/account").json()["name"] == "Ann"
    assert ann.post("/api/account/logout").json() == {"logged_out": True}
    gone = ann.get("/api/account")
    assert gone.status_code == 401 and "log in" in gone.json()["error"]
    # a wrong password and an unknown name get the same answer
    wrong = ann.log_in("Ann", "not the password")
    nobody = ann.log_in("Zed", "correct horse")
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json() == {"error": "wrong name or password"}
    assert ann.get("/api/account").status_code == 401
    # the name is found whatever its case
    again = ann.log_in("aNN")
    assert again.status_code == 200 and again.json()["account"]["name"] == "Ann"
    assert ann.get("/api/account").json()["name"] == "Ann"
    # the database holds an argon2id hash and the hash of the session id, never either secret
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            [stored] = conn.execute(select(accounts_t.c.password_hash)).scalars()
            sessions = list(conn.execute(select(sessions_t.c.id_hash)).scalars())
    finally:
        store.close()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    cookie = ann.jar.get("spyglass_session")
    assert cookie and len(sessions) == 1 and cookie not in sessions[0]


def test_the_session_cookie_is_httponly_strict_and_secure(make_client, db_path) -> None:
    url = f"sqlite:///{db_path}"
    body = {"name": "Ann", "password": "correct horse"}
    auto = make_client(url, account_settings=AccountSettings(), passwords=CHEAP)
    auto.base_url = httpx.URL("https://testserver")
    r = auto.post("/api/account/signup", json=body, headers=CSRF)
    cookie = r.headers["set-cookie"]
    parts = {p.strip().split("=")[0].lower() for p in cookie.split(";")}
    assert cookie.startswith("__Host-spyglass_session=")
    assert {"httponly", "secure", "path", "max-age", "samesite"} <= parts
    assert "samesite=strict" in cookie.lower() and "path=/" in cookie.lower()
    assert "domain" not in parts
    # the cookie carries the session over https
    assert auto.get("/api/account").json()["name"] == "Ann"
    # plain http from a client that is not on loopback: still Secure (the browser keeps it
    # for https); "never" is the documented way out for a trusted network
    auto.base_url = httpx.URL("http://testserver")
    auto.cookies.clear()
    r = auto.post("/api/account/login", json=body, headers=CSRF)
    assert "secure" in r.headers["set-cookie"].lower()
    plain = make_client(url, account_settings=PLAIN, passwords=CHEAP)
    r = plain.post("/api/account/login", json=body, headers=CSRF)
    cookie = r.headers["set-cookie"].lower()
    assert cookie.startswith("spyglass_session=") and "secure" not in cookie
    assert "httponly" in cookie and "samesite=strict" in cookie


def test_a_real_server_on_loopback_sets_a_cookie_plain_http_can_carry(
    start_server, monkeypatch
) -> None:
    monkeypatch.setenv("SPYGLASS_SIGNUP_RATE", "100/minute")
    server = start_server()
    with httpx.Client(base_url=server.url) as http:
        r = http.post(
            "/api/account/signup",
            json={"name": "Ann", "password": "correct horse"},
            headers=CSRF,
        )
        assert r.status_code == 201, r.text
        cookie = r.headers["set-cookie"].lower()
        assert cookie.startswith("spyglass_session=") and "httponly" in cookie
        assert "samesite=strict" in cookie and "secure" not in cookie
        assert http.get("/api/account").json()["name"] == "Ann"
        assert http.post("/api/account/logout", headers=CSRF).status_code == 200
        assert http.get("/api/account").status_code == 401


def test_serve_takes_the_account_settings_as_options(start_server, monkeypatch) -> None:
    """``spyglass serve --signup-rate --cookie-secure``: an option wins over the environment."""
    monkeypatch.setenv("SPYGLASS_SIGNUP_RATE", "100/minute")
    server = start_server(args=("--signup-rate", "1/hour", "--cookie-secure", "always"))
    with httpx.Client(base_url=server.url) as http:
        body = {"name": "Ann", "password": "correct horse"}
        r = http.post("/api/account/signup", json=body, headers=CSRF)
        assert r.status_code == 201, r.text
        assert "; secure" in r.headers["set-cookie"].lower()  # even over plain http
        body = {"name": "Bob", "password": "correct horse"}
        r = http.post("/api/account/signup", json=body, headers=CSRF)
        assert r.status_code == 429 and "1 per hour" in r.json()["error"], r.text


def test_cookie_authenticated_changes_need_the_csrf_header_and_this_origin(site) -> None:
    body = {"name": "Ann", "password": "correct horse"}
    bare = site.post("/api/account/signup", json=body)
    assert bare.status_code == 403 and "X-Requested-With" in bare.json()["error"]
    other_site = site.post(
        "/api/account/signup", json=body, headers={**CSRF, "Origin": "https://evil.example"}
    )
    assert other_site.status_code == 403 and "another site" in other_site.json()["error"]
    fetched = site.post(
        "/api/account/signup", json=body, headers={**CSRF, "Sec-Fetch-Site": "cross-site"}
    )
    assert fetched.status_code == 403
    assert site.post("/api/account/login", json=body, headers=CSRF).status_code == 401  # none
    ann = Person(site)
    ann.sign_up("Ann", headers={"Origin": "http://testserver"})
    table = create(site, "tinker-tailor", TWO, players=2, seed=1)
    ann.post(
        "/api/account/seats", json={"seats": [{"table": table["id"], "token": tokens(table)[0]}]}
    )
    for path in (
        "/api/account/logout",
        "/api/account/logout-everywhere",
        f"/api/tables/{table['id']}/device-key",
        "/api/account/seats",
    ):
        refused = ann.request("POST", path, json={"seats": []})
        assert refused.status_code == 403, path
    assert ann.get("/api/account").json()["name"] == "Ann"  # still logged in


def test_a_key_made_on_one_process_works_on_another_before_its_note(
    make_client, postgres_url
) -> None:
    """Two processes on one PostgreSQL database. A device key made on A is good on B at once,
    even when the note that tells B of it never comes (A's notes are dropped here): B checks
    an unknown token against the stored seats before refusing it. A token no seat holds is
    still refused, and B learns the seat's new keys."""
    make = site_maker(make_client, postgres_url)
    a, b = make(), make()

    async def dropped(*args: Any, **kwargs: Any) -> None:
        return None

    a.app.state.manager.bus.publish = dropped  # a note that is slow, or lost
    ann = Person(a)
    ann.sign_up("Ann")
    table = create(a, "tinker-tailor", TWO, players=2, seed=2)
    url = f"/api/tables/{table['id']}"
    seat = {"table": table["id"], "token": tokens(table)[0]}
    assert ann.post("/api/account/seats", json={"seats": [seat]}).status_code == 200
    assert b.get(url, headers=headers(tokens(table)[0])).json()["seat"] == 0  # B holds it now
    key = ann.post(f"{url}/device-key").json()["token"]
    seen = b.get(url, headers=headers(key))
    assert seen.status_code == 200 and seen.json()["seat"] == 0, seen.text
    assert b.get(url, headers=headers("not-a-token-of-this-table")).status_code == 403
    # B reads its seats again: the key is now known to its copy without a database read
    held = b.app.state.manager.tables[table["id"]]
    assert b.app.state.manager.authenticate(held, key) == 0
    # an invite claimed on A, its new token used on B at once (B holds the table)
    invited = create(a, "tinker-tailor", [TWO[0], {"kind": "human"}], players=2, seed=3)
    url = f"/api/tables/{invited['id']}"
    assert b.get(url).status_code == 200  # a spectator: B holds the table now
    invite = next(s["invite"] for s in invited["seats"] if s["invite"])
    claimed = a.post(f"{url}/claim", json={"invite": invite}).json()
    on_b = b.get(url, headers=headers(claimed["token"]))
    assert on_b.status_code == 200 and on_b.json()["seat"] == 1, on_b.text


def test_password_rules(site) -> None:
    ann = Person(site)
    for password, why in (
        ("short", "at least 8"),
        ("aaaaaaaaaaaa", "one character repeated"),
        ("my name is Ann!", "account's name"),
        ("x" * 300, "at most 256"),
    ):
        r = ann.post("/api/account/signup", json={"name": "Ann", "password": password})
        assert r.status_code == 422 and why in r.json()["error"], (password, r.text)
    assert ann.get("/api/account").status_code == 401


def test_log_in_and_sign_up_are_rate_limited(make_site) -> None:
    settings = AccountSettings(
        cookie_secure="never", signups="2/minute", logins="6/minute", failures="3/minute"
    )
    site = make_site(settings)
    ann = Person(site)
    ann.sign_up("Ann")
    ann.sign_up("Bob")
    third = ann.post("/api/account/signup", json={"name": "Cy", "password": "correct horse"})
    assert third.status_code == 429 and int(third.headers["Retry-After"]) >= 1
    assert "new accounts from your address" in third.json()["error"]
    # three failed log-ins for Ann: the fourth try is refused, even with the right password,
    # while Bob (another name) can still log in
    for _ in range(3):
        assert ann.log_in("Ann", "guess guess").status_code == 401
    blocked = ann.log_in("Ann")
    assert blocked.status_code == 429 and "failed log-ins" in blocked.json()["error"]
    assert ann.log_in("Bob").status_code == 200
    # and the address's attempts in all: six a minute
    for _ in range(1):
        ann.log_in("Bob")
    over_rate = ann.log_in("Bob")
    assert over_rate.status_code == 429 and "log-in attempts" in over_rate.json()["error"]


# ---------------------------------------------------------------------- seats and devices


def test_a_guest_who_signs_up_keeps_their_tables(site) -> None:
    live = create(site, "tinker-tailor", TWO, players=2, seed=3)
    solo = create(site, "sandwich-guy", seed=4)
    other = create(site, "tinker-tailor", TWO, players=2, seed=5)
    ann = Person(site)
    made = ann.sign_up(
        "Ann",
        seats=[
            {"table": live["id"], "token": tokens(live)[1]},
            {"table": solo["id"], "token": tokens(solo)[0]},
            {"table": other["id"], "token": "not-a-token-of-this-table"},
            {"table": "nosuchtable", "token": "x"},
        ],
    )
    assert made["kept"] == [{"table": live["id"], "seat": 1}, {"table": solo["id"], "seat": 0}]
    assert [r["table"] for r in made["refused"]] == [other["id"], "nosuchtable"]
    assert "holds no seat" in made["refused"][0]["error"]
    # the seat now carries the account's name, for everyone at the table
    seat = site.get(f"/api/tables/{live['id']}").json()["table"]["seats"][1]
    assert seat["name"] == "Ann" and seat["account"] == "Ann"
    games = ann.get("/api/account/games").json()
    assert {g["id"] for g in games["live"]} == {live["id"], solo["id"]}
    # a second device: log in there, get a device key to the seat, play with it
    phone = Person(site)
    assert phone.log_in("Ann").status_code == 200
    key = phone.post(f"/api/tables/{live['id']}/device-key").json()
    assert key["seat"] == 1 and key["token"] not in tokens(live).values()
    seen = site.get(f"/api/tables/{live['id']}", headers=headers(key["token"])).json()
    assert seen["seat"] == 1 and seen["view"]["seat"] == 1
    # the browser's own token keeps working beside it
    assert (
        site.get(f"/api/tables/{live['id']}", headers=headers(tokens(live)[1])).json()["seat"] == 1
    )
    # a seat of another account is not Ann's to take, and a table she has no seat at gives
    # her no key
    bob = Person(site)
    refused = bob.sign_up("Bob", seats=[{"table": live["id"], "token": key["token"]}])
    assert refused["kept"] == [] and "another account" in refused["refused"][0]["error"]
    nokey = bob.post(f"/api/tables/{live['id']}/device-key")
    assert nokey.status_code == 403 and "no seat" in nokey.json()["error"]


def test_log_out_everywhere_ends_every_session_and_device_key(site) -> None:
    table = create(site, "tinker-tailor", TWO, players=2, seed=6)
    desk, phone = Person(site), Person(site)
    desk.sign_up("Ann", seats=[{"table": table["id"], "token": tokens(table)[0]}])
    assert phone.log_in("Ann").status_code == 200
    desk_key = desk.post(f"/api/tables/{table['id']}/device-key").json()["token"]
    phone_key = phone.post(f"/api/tables/{table['id']}/device-key").json()["token"]
    with site.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": phone_key})
        assert ws.receive_json()["seat"] == 0
        # logging out one device ends that device's key only
        assert desk.post("/api/account/logout").status_code == 200
        assert site.get(f"/api/tables/{table['id']}", headers=headers(desk_key)).status_code == 403
        assert phone.get("/api/account").status_code == 200
        assert desk.log_in("Ann").status_code == 200
        # everywhere: both sessions end, the phone's live connection is closed
        assert phone.post("/api/account/logout-everywhere").json() == {"logged_out": True}
        while True:
            message = ws.receive_json()
            if message["type"] == "error":
                break
        assert message["status"] == 401
    for person in (desk, phone):
        assert person.get("/api/account").status_code == 401
    assert site.get(f"/api/tables/{table['id']}", headers=headers(phone_key)).status_code == 403
    # the seat's own token, which only the browser that played it holds, still works
    own = site.get(f"/api/tables/{table['id']}", headers=headers(tokens(table)[0]))
    assert own.status_code == 200 and own.json()["seat"] == 0


def test_a_reinvited_seat_leaves_the_account(site) -> None:
    table = create(site, "tinker-tailor", [TWO[0], {"kind": "human"}], players=2, seed=7)
    invite = next(s["invite"] for s in table["seats"] if s["invite"])
    claimed = site.post(f"/api/tables/{table['id']}/claim", json={"invite": invite}).json()
    bob = Person(site)
    bob.sign_up("Bob", seats=[{"table": table["id"], "token": claimed["token"]}])
    key = bob.post(f"/api/tables/{table['id']}/device-key").json()["token"]
    r = site.post(
        f"/api/tables/{table['id']}/seats/1/invite", headers={"X-Host-Key": table["host_key"]}
    )
    assert r.status_code == 200
    assert site.get(f"/api/tables/{table['id']}", headers=headers(key)).status_code == 403
    assert bob.get("/api/account/games").json()["live"] == []
    seat = site.get(f"/api/tables/{table['id']}").json()["table"]["seats"][1]
    assert seat["account"] is None


def test_your_games_puts_the_least_time_left_first(site) -> None:
    """Among the tables waiting for you, the clock that runs out soonest comes first, then
    the tables without a clock (the newest first); each says when its time runs out."""
    ann = Person(site)
    ann.sign_up("Ann")
    day = {"kind": "turn", "seconds": 86400, "on_timeout": "lose"}
    hours = {"kind": "turn", "seconds": 7200, "on_timeout": "lose"}
    made = {}
    for name, clock in (("day", day), ("hours", hours), ("none", None), ("newer", None)):
        body = {"clock": clock} if clock else {}
        table = create(site, "sandwich-guy", seed=len(made) + 1, **body)
        seat = {"table": table["id"], "token": tokens(table)[0]}
        assert ann.post("/api/account/seats", json={"seats": [seat]}).status_code == 200
        made[name] = table["id"]
        time.sleep(0.01)  # "newer" changed last
    now = time.time()
    live = ann.get("/api/account/games").json()["live"]
    assert all(g["your_move"] for g in live)
    assert [g["id"] for g in live] == [made[k] for k in ("hours", "day", "newer", "none")]
    assert now + 7200 - 60 < live[0]["deadline"] <= now + 7200
    assert now + 86400 - 60 < live[1]["deadline"] <= now + 86400
    assert live[2]["deadline"] is None and live[3]["deadline"] is None


def test_your_games_lists_the_tables_waiting_for_you_first(site) -> None:
    ann, bob = Person(site), Person(site)
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    made = []
    for seed in (11, 12, 13):
        table = create(site, "tinker-tailor", TWO, players=2, seed=seed)
        ts = tokens(table)
        ann.post("/api/account/seats", json={"seats": [{"table": table["id"], "token": ts[0]}]})
        bob.post("/api/account/seats", json={"seats": [{"table": table["id"], "token": ts[1]}]})
        made.append((table["id"], ts))
    (first, t1), (second, t2), (done, t3) = made
    play_until(site, first, t1, lambda m: m["table"]["current_player"] == 0)
    play_until(site, second, t2, lambda m: m["table"]["current_player"] == 1, seed=1)
    play_until(site, done, t3, over, seed=2)
    # the second table changed last, yet Ann's move at the first comes first for her
    for person, waiting, other, seat in ((ann, first, second, 0), (bob, second, first, 1)):
        games = person.get("/api/account/games").json()
        assert [g["id"] for g in games["live"]] == [waiting, other]
        assert [g["your_move"] for g in games["live"]] == [True, False]
        assert games["live"][1]["to_move_name"] == ("Bob" if seat == 0 else "Ann")
        [finished] = games["finished"]
        assert finished["id"] == done and finished["seat"] == seat
        assert finished["replay"] == f"/table/{done}/replay"
        result = site.get(f"/api/tables/{done}").json()["table"]["result"]
        mine = result["seats"][seat]
        assert finished["result"]["rank"] == mine["rank"]
        assert finished["result"]["score"] == mine["score"]
        assert finished["result"]["winner"] == mine["winner"]
        assert set(finished["result"]["winners"]) <= {"Ann", "Bob"}
    assert site.get("/api/account/games").status_code == 401


# ---------------------------------------------------------------------- names


def test_names_in_results_and_chat(site) -> None:
    table = create(site, "tinker-tailor", TWO, players=2, seed=21)
    ann, bob = Person(site), Person(site)
    ts = tokens(table)
    ann.sign_up("Ann", seats=[{"table": table["id"], "token": ts[0]}])
    bob.sign_up("Bob", seats=[{"table": table["id"], "token": ts[1]}])
    with (
        site.websocket_connect(f"/api/tables/{table['id']}/ws") as ws0,
        site.websocket_connect(f"/api/tables/{table['id']}/ws") as ws1,
    ):
        ws0.send_json({"type": "hello", "token": ts[0]})
        state = ws0.receive_json()
        assert [s["name"] for s in state["table"]["seats"]] == ["Ann", "Bob"]
        ws1.send_json({"type": "hello", "token": ts[1]})
        ws1.receive_json()
        ws0.send_json({"type": "say", "text": "good luck", "to": 1, "ref": 1})
        mine = next(m for m in iter(ws0.receive_json, None) if m["type"] == "message")
        assert mine["message"]["from_name"] == "Ann" and mine["message"]["to_name"] == "Bob"
        theirs = next(m for m in iter(ws1.receive_json, None) if m["type"] == "message")
        assert theirs["message"] == mine["message"]
    history = site.get(f"/api/tables/{table['id']}/messages", headers=headers(ts[1])).json()
    assert history["messages"][0]["from_name"] == "Ann"
    end = play_until(site, table["id"], ts, over)
    result = end["table"]["result"]
    assert [s["name"] for s in result["seats"]] == ["Ann", "Bob"]
    winner = result["seats"][0] if result["seats"][0]["winner"] else result["seats"][1]
    raw = end["view"]["result"]["summary"]
    assert raw.startswith(f"seat {winner['seat']} ")  # the game counts seats ...
    assert result["summary"] == raw.replace(f"seat {winner['seat']}", winner["name"], 1)
    # ... the same rule names the seats of any log line
    assert named("seat 1 plays the Miller; seat 7 waits", ["Ann", "Bob"]) == (
        "Bob plays the Miller; seat 7 waits"
    )
    # a seat named by its number keeps it (as the pages do): the log and the result agree
    bots = ["Ann", "seat 1 (heuristic bot)", "seat 2"]
    assert named("seat 1 wins; seat 2 and seat 0 tie", bots) == "seat 1 wins; seat 2 and Ann tie"


def test_names_that_imitate_are_refused(site) -> None:
    ann = Person(site)
    ann.sign_up("Ann")
    for name, status, why in (
        ("Аnn", 422, "one script"),  # a Cyrillic А
        ("ann", 409, "taken"),
        ("ANN", 409, "taken"),
        ("B0t", 422, "bot"),
        ("Sneaky Bot", 422, "bot"),
        ("seat 3", 422, "pass for a seat"),
        ("everyone", 422, "pages use"),
        ("A", 422, "2 to 24"),
        ("Ann\u202e", 422, "U+202E"),
    ):
        r = Person(site).post("/api/account/signup", json={"name": name, "password": "pass words"})
        assert r.status_code == status and why in r.json()["error"], (name, r.text)
    # I and l look alike: once Bill exists, BiII (capital i's) is taken
    Person(site).sign_up("Bill")
    r = Person(site).post("/api/account/signup", json={"name": "BiII", "password": "pass words"})
    assert r.status_code == 409
    # a guest's seat cannot carry a registered player's name, in any look-alike spelling ...
    for name in ("Ann", "ANN", "Bi11"):
        r = site.post(
            "/api/tables",
            json={
                "game": "tinker-tailor",
                "players": 2,
                "seats": [{"kind": "human", "name": name, "invite": False}, {"kind": "human"}],
            },
        )
        assert r.status_code == 422 and "registered player" in r.json()["error"], name
    # ... except the logged-in creator's own
    r = ann.post(
        "/api/tables",
        json={
            "game": "tinker-tailor",
            "players": 2,
            "seats": [{"kind": "human", "name": "Ann", "invite": False}, {"kind": "human"}],
        },
    )
    assert r.status_code == 201
    # two seats whose names look alike
    r = site.post(
        "/api/tables",
        json={
            "game": "tinker-tailor",
            "players": 2,
            "seats": [
                {"kind": "human", "name": "Joe", "invite": False},
                {"kind": "human", "name": "Jоe", "invite": False},
            ],
        },  # a Cyrillic о
    )
    assert r.status_code == 422 and "cannot both be called" in r.json()["error"]


def test_name_rules() -> None:
    assert clean_account_name("  Zoë  O'Neil ") == "Zoë O'Neil"
    assert clean_account_name("李小龙") == "李小龙"
    for bad in ("b0t", "BOT", "seat l", "Jоe", "_ann", "ann!"):
        with pytest.raises(BadName):
            clean_account_name(bad)
    with pytest.raises(BadName, match="another seat"):
        clean_name("seat l", 2)  # a lower-case L reads as 1
    assert clean_name("seat l", 1) == "seat l"
    with pytest.raises(BadName, match="bot"):
        clean_name("R0B0T B0T", 0)
    for a, b in (("Bill", "BiII"), ("Bob", "Воb"), ("ann", "ANN"), ("O'Neil", "0'Neil")):
        with pytest.raises(BadName):
            check_unique([(0, a), (1, b)])
    check_unique([(0, "Ann"), (1, "Anne"), (2, "Ali"), (3, "All")])
