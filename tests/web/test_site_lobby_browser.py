"""Open tables in real Chromium, and names that never break the layout. A host makes a public
table with an open seat and a clock from the lobby's form; a second person (another browser
context) finds it in the lobby's *Open tables*, joins it with a name, and both tables start;
the host of another open table starts it with bots in the empty seats; a private table is not
listed. Then 40-character names at an online table with messages: the page is never wider
than the window at 1,300 and 390 pixels (the chat's *To* menu, the seats, the log, the end of
a four-seat Espionage and its score breakdown).

Skips without Chromium locally; fails without it under CI."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.web.browser import PATIENCE_MS, open_lobby_form, start_table, table_id_of

pytestmark = pytest.mark.slow

WIDTH = "() => document.scrollingElement.scrollWidth"


def test_open_table_joined_from_the_lobby_host_start_and_private_tables(
    web_server, new_page
) -> None:
    base = web_server.url
    host = new_page()
    open_lobby_form(host, base, "tinker-tailor")
    host.select_option("#players", "2")
    host.fill('input[name="name-0"]', "Hostess")
    host.select_option('select[name="who-1"]', "open")
    # a private table cannot have open seats: the choice is turned off while Private is ticked
    host.check("#private")
    assert host.locator('select[name="who-1"]').input_value() == "invite"
    assert host.locator('select[name="who-1"] option[value="open"]').is_disabled()
    host.uncheck("#private")
    host.select_option('select[name="who-1"]', "open")
    host.select_option("#clock-kind", "realtime")
    host.fill("#clock-minutes", "5")
    host.fill("#clock-increment", "3")
    start_table(host)
    host.wait_for_selector(".waiting-panel", timeout=PATIENCE_MS)
    table_id = table_id_of(host)
    assert "seat 1" in host.locator(".waiting-panel").inner_text()
    assert host.locator("#start-with-bots").count() == 1
    assert host.locator(".seat-list .clock").first.inner_text() == "5:00"

    # a private table of someone else's, never listed
    private = httpx.post(
        f"{base}/api/tables",
        json={"game": "tinker-tailor", "players": 2, "private": True},
    ).json()

    guest = new_page()
    guest.goto(f"{base}/")
    row = guest.locator(f'.open-tables tr[data-table="{table_id}"]')
    row.wait_for(timeout=PATIENCE_MS)
    assert guest.locator(f'.open-tables tr[data-table="{private["id"]}"]').count() == 0
    assert "Hostess" in row.inner_text() and "5 min + 3 s a move" in row.inner_text()
    row.locator('button.join[data-seat="1"]').click()
    guest.fill("#join-name", "Joiner")
    guest.locator("form.join-form button[type=submit]").click()
    guest.wait_for_selector(".table-page[data-seat='1']", timeout=PATIENCE_MS)
    assert table_id_of(guest) == table_id
    # the last seat taken, the game starts on both pages, with both names
    for page in (host, guest):
        page.wait_for_selector(".waiting-panel", state="detached", timeout=PATIENCE_MS)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.seat-list .seat-name')]"
            ".map((e) => e.textContent).join() === 'Hostess,Joiner'",
            timeout=PATIENCE_MS,
        )

    # another open table, started by its host with a bot in the empty seat
    open_lobby_form(host, base, "tinker-tailor")
    host.select_option("#players", "2")
    host.select_option('select[name="who-1"]', "open")
    start_table(host)
    host.locator("#start-with-bots").click()
    host.wait_for_selector(".waiting-panel", state="detached", timeout=PATIENCE_MS)
    host.wait_for_function(
        "() => document.querySelectorAll('.seat-list .seat.bot').length === 1",
        timeout=PATIENCE_MS,
    )
    assert not host.errors and not guest.errors


def test_forty_character_names_never_widen_the_page(web_server, new_page) -> None:
    base = web_server.url
    names = ["W" * 40, "M" * 40, "Q" * 40]
    live = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "espionage",
            "players": 4,
            "seed": 5,
            "options": {"city_limit": 1},
            "seats": [{"kind": "human", "name": n} for n in names]
            + [{"kind": "bot", "agent": "random"}],
        },
    ).json()
    # a four-seat game played to its end by bots with long names (its score breakdown)
    over = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "espionage",
            "players": 4,
            "seed": 5,
            "options": {"city_limit": 1},
            "seats": [
                {"kind": "bot", "agent": "random", "name": "X" * 28 + str(i)} for i in range(4)
            ],
        },
    ).json()
    deadline = time.monotonic() + 60
    while not httpx.get(f"{base}/api/tables/{over['id']}").json()["view"]["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.3)
    for width, height in ((1300, 900), (390, 844)):
        page = new_page(width, height)
        page.goto(base + live["seats"][0]["link"])
        page.wait_for_selector(".messages-panel:not([hidden])", timeout=PATIENCE_MS)
        assert page.evaluate(WIDTH) <= width
        if page.locator(".messages-panel[data-open=no]").count():
            # folded on a phone: the tab is in the page's flow, over nothing
            assert (
                page.evaluate(
                    "getComputedStyle(document.querySelector('.messages-panel')).position"
                )
                == "static"
            )
            page.locator(".messages-toggle").click()
        page.select_option(".message-to", "1")
        assert page.evaluate(WIDTH) <= width, "the chat's To menu"
        page.goto(f"{base}/table/{over['id']}")
        page.wait_for_selector(".result .breakdown", timeout=PATIENCE_MS)
        assert page.evaluate(WIDTH) <= width, "the end of the game"
        # the breakdown's seat column fits its box, or its box scrolls sideways by itself
        box = page.locator(".breakdown-scroll")
        assert box.evaluate("(el) => el.getBoundingClientRect().right") <= width
        assert not page.errors
