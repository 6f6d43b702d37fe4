"""Ratings (issue 27): per game per account with openskill, updated once per finished table
(also when its end is processed twice, by two processes at once, or after a restart), ranks
from the game's result; the profile with ratings, history and replays. SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import delete, select

from spyglass.web.ratings import START, Ratings, ranks
from spyglass.web.store import Store, accounts_t, rated_t, ratings_t
from tests.web.helpers import create, tokens
from tests.web.test_accounts import TWO, Person, database, over, play_until, site_maker


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, db_path) -> str:
    return database(request, db_path)


@pytest.fixture
def make_site(make_client, db_url):
    return site_maker(make_client, db_url)


@pytest.fixture
def site(make_site):
    return make_site()


def test_ranks_follow_the_result() -> None:
    assert ranks([10, 30, 20, 30], [1, 3]) == [4, 1, 3, 1]
    # a winner by the rules' tie-break ranks first though another has as many points
    assert ranks([5, 5, 1], [1]) == [2, 1, 3]
    assert ranks([0, 0], []) == [1, 1]


def two_accounts_finish(site, seed: int, private: bool = False) -> tuple[str, dict, dict]:
    table = create(site, "tinker-tailor", TWO, players=2, seed=seed, private=private)
    ts = tokens(table)
    ann, bob = Person(site), Person(site)
    for person, name, seat in ((ann, "Ann", 0), (bob, "Bob", 1)):
        proof = [{"table": table["id"], "token": ts[seat]}]
        if person.log_in(name, seats=proof).status_code == 401:  # the first game: sign up
            person.sign_up(name, seats=proof)
    end = play_until(site, table["id"], ts, over, seed=seed)
    return table["id"], ts, end


def rating(url: str, name_id: str, game: str = "tinker-tailor") -> tuple[float, float, int]:
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            row = conn.execute(
                select(ratings_t).where(ratings_t.c.player == name_id, ratings_t.c.game == game)
            ).one()
    finally:
        store.close()
    return row.mu, row.sigma, row.games


def accounts(url: str) -> dict[str, str]:
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return {r.name: f"account:{r.id}" for r in conn.execute(select(accounts_t))}
    finally:
        store.close()


def wait_rated(site, table_id: str) -> dict:
    for _ in range(200):
        summary = site.get(f"/api/tables/{table_id}").json()["table"]
        if summary["result"]["rated"]:
            return summary
        time.sleep(0.02)
    raise AssertionError("never rated")


def test_a_finished_table_is_rated_once_with_openskill(site, db_url) -> None:
    table_id, _ts, end = two_accounts_finish(site, seed=41)
    summary = wait_rated(site, table_id)
    result = end["view"]["result"]
    places = ranks(result["scores"], result["winners"])
    # exactly openskill's Plackett-Luce update from the starting ratings, by the game's ranks
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=places)
    ids = accounts(db_url)
    for seat, name in enumerate(("Ann", "Bob")):
        mu, sigma, games = rating(db_url, ids[name])
        assert (round(mu, 9), round(sigma, 9), games) == (
            round(expected[seat][0].mu, 9),
            round(expected[seat][0].sigma, 9),
            1,
        )
        change = summary["result"]["seats"][seat]["rating"]
        assert change["rank"] == places[seat] and change["before"]["mu"] == START.mu
        assert change["after"]["mu"] == round(mu, 3)
    # the end processed again (as a second process would, or after a restart): nothing moves
    store = Store(db_url)
    try:
        [row] = store.load(table_id)
        again = Ratings(store).rate(table_id, row.game, row.seats, result)
    finally:
        store.close()
    assert again is None
    assert rating(db_url, ids["Ann"])[2] == 1 and rating(db_url, ids["Bob"])[2] == 1


def test_two_processes_seeing_one_end_rate_it_once(site, db_url) -> None:
    table_id, _ts, end = two_accounts_finish(site, seed=42)
    wait_rated(site, table_id)
    ids = accounts(db_url)
    before = rating(db_url, ids["Ann"])
    # forget that it was rated (and undo nothing else): two "processes" now race to rate it
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(delete(rated_t).where(rated_t.c.table_id == table_id))
    [row] = store.load(table_id)
    stores = [Store(db_url), Store(db_url)]
    outcomes: list[object] = []
    barrier = threading.Barrier(2)

    def rate(s: Store) -> None:
        barrier.wait()
        outcomes.append(Ratings(s).rate(table_id, row.game, row.seats, end["view"]["result"]))

    threads = [threading.Thread(target=rate, args=(s,)) for s in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for s in (store, *stores):
        s.close()
    assert sum(1 for o in outcomes if o is not None) == 1
    assert rating(db_url, ids["Ann"])[2] == before[2] + 1


def test_a_table_left_unrated_is_rated_at_the_next_start(make_site, db_url) -> None:
    site = make_site()
    table_id, _ts, _end = two_accounts_finish(site, seed=43)
    wait_rated(site, table_id)
    ids = accounts(db_url)
    store = Store(db_url)
    with store.engine.begin() as conn:  # as if the process died between the end and the rating
        conn.execute(delete(rated_t))
        conn.execute(delete(ratings_t))
    store.close()
    restarted = make_site()
    wait_rated(restarted, table_id)
    assert rating(db_url, ids["Ann"])[2] == 1 and rating(db_url, ids["Bob"])[2] == 1


def test_solo_games_and_guest_tables_are_not_rated(site, db_url) -> None:
    solo = create(site, "sandwich-guy", seed=44)
    ann = Person(site)
    ann.sign_up("Ann", seats=[{"table": solo["id"], "token": tokens(solo)[0]}])
    end = play_until(site, solo["id"], tokens(solo), over)
    guests = create(site, "tinker-tailor", TWO, players=2, seed=45)
    play_until(site, guests["id"], tokens(guests), over)
    assert end["table"]["result"]["rated"] is False
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(select(rated_t)).all() == []
    finally:
        store.close()


def test_the_profile_lists_ratings_history_and_replays(site, db_url) -> None:
    public, _ts, end = two_accounts_finish(site, seed=46)
    private, _ts2, _end2 = two_accounts_finish(site, seed=47, private=True)
    wait_rated(site, public)
    wait_rated(site, private)
    anyone = site.get("/api/players/ann").json()
    assert anyone["name"] == "Ann" and anyone["played"] == 1
    [tt] = anyone["ratings"]
    assert tt["game"] == "tinker-tailor" and tt["title"] == "Tinker Tailor" and tt["games"] == 2
    assert tt["ordinal"] == round(tt["mu"] - 3 * tt["sigma"], 3)
    [game] = anyone["history"]  # the private table is not shown to others
    assert game["id"] == public and game["replay"] == f"/table/{public}/replay"
    winner = end["view"]["result"]["winners"]
    assert game["result"]["winner"] == (0 in winner)
    assert game["result"]["rating"]["after"]["games"] == 1
    # the replay and the record it links to open
    steps = site.get(f"/api/tables/{public}/replay", params={"step": 0}).json()["steps"]
    assert steps == end["view"]["step"]
    assert site.get(game["record"]).json()["actions"]
    # Ann herself sees her private game too
    ann = Person(site)
    assert ann.log_in("Ann").status_code == 200
    own = ann.get("/api/players/Ann").json()
    assert [g["id"] for g in own["history"]] == [private, public] and own["played"] == 2
    assert site.get("/api/players/nobody").status_code == 404
    leaders = site.get("/api/ratings/tinker-tailor").json()["players"]
    assert {p["name"] for p in leaders} == {"Ann", "Bob"}
    assert leaders[0]["ordinal"] >= leaders[1]["ordinal"]
    assert site.get("/api/ratings/no-such-game").status_code == 404
