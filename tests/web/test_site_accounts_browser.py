"""Accounts in real Chromium: a guest playing a table signs up through the page's dialog and
keeps it; the same person logs in on a second browser (a second device), where *Your games*
lists the table waiting for their move before a newer one that is not, the table opens at
their seat (a device key), and *Log out everywhere* ends both devices' sessions. Run on
SQLite and on PostgreSQL.

Skips without Chromium (or PostgreSQL for the second run) locally; fails without them under
CI."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.browser import PATIENCE_MS

pytestmark = pytest.mark.slow

PASSWORD = "correct horse battery"


def fill_and_send(page: Any, how: str, name: str) -> None:
    page.locator(f"header.top #{how}").click()
    form = page.locator(f'form.account-form[data-how="{how}"]')
    form.wait_for()
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    page.wait_for_selector("header.top .account-name", timeout=PATIENCE_MS)


def accounts_flow(base: str, new_page: Any) -> None:
    # a guest's solo table (waiting for their move), made and opened in this browser
    solo = httpx.post(f"{base}/api/tables", json={"game": "sandwich-guy", "seed": 3}).json()
    phone = new_page(390, 844)
    phone.goto(base + solo["seats"][0]["link"])
    phone.wait_for_selector(".table-page[data-my-move=yes]", timeout=PATIENCE_MS)
    # a wrong password keeps the dialog and what was typed, with the reason
    phone.locator("header.top #login").click()
    phone.locator('form.account-form input[name="name"]').fill("Rosalind")
    phone.locator('form.account-form input[name="password"]').fill("wrong password")
    phone.locator('form.account-form button[type="submit"]').click()
    error = phone.locator("form.account-form .form-error")
    error.wait_for(timeout=PATIENCE_MS)
    assert error.inner_text() == "wrong name or password"
    assert phone.locator('form.account-form input[name="name"]').input_value() == "Rosalind"
    phone.keyboard.press("Escape")
    fill_and_send(phone, "signup", "Rosalind")
    assert phone.locator("header.top .account-name").inner_text() == "Rosalind"
    # the seat the guest held is the account's now: its name is the account's
    phone.wait_for_function(
        "() => document.querySelector('.seat-list .seat-name')?.textContent === 'Rosalind'",
        timeout=PATIENCE_MS,
    )

    # a newer table of hers that waits for others (an open seat): not waiting for her
    token = phone.evaluate(
        f"() => JSON.parse(localStorage.getItem('spyglass.seats.{solo['id']}'))['0']"
    )
    assert token
    later = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "tinker-tailor",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human", "open": True}],
        },
    ).json()
    kept = phone.evaluate(
        """async ([table, token]) => (await fetch('/api/account/seats', {method: 'POST',
             headers: {'Content-Type': 'application/json', 'X-Requested-With': 'spyglass'},
             body: JSON.stringify({seats: [{table, token}]})})).json()""",
        [later["id"], later["seats"][0]["token"]],
    )
    assert kept["kept"] == [{"table": later["id"], "seat": 0}]

    # a second device: log in; Your games lists the solo table first (her move), then the
    # newer one
    desk = new_page()
    desk.goto(f"{base}/me")
    desk.wait_for_selector("main button.primary:text('Log in')")
    fill_and_send(desk, "login", "rosalind")
    desk.wait_for_selector("section[aria-labelledby=live-title] tbody tr", timeout=PATIENCE_MS)
    rows = desk.locator("section[aria-labelledby=live-title] tbody tr")
    assert [rows.nth(i).get_attribute("data-table") for i in range(rows.count())] == [
        solo["id"],
        later["id"],
    ]
    assert rows.first.get_attribute("class") == "waiting-for-you"
    assert rows.first.locator(".your-move").inner_text() == "Your move"
    # the table opens at her seat on this device too (a device key, not the phone's token)
    rows.first.locator("a").click()
    desk.wait_for_selector(".table-page[data-seat='0'][data-my-move=yes]", timeout=PATIENCE_MS)
    assert desk.title().startswith("● Your move — ")
    keys = desk.evaluate(f"() => JSON.parse(localStorage.getItem('spyglass.seats.{solo['id']}'))")
    assert keys["0"] != token

    # log out everywhere: both devices' sessions end; the phone's own seat token still plays
    desk.locator("header.top #logout-everywhere").click()
    desk.wait_for_selector("header.top #login", timeout=PATIENCE_MS)
    phone.reload()
    phone.wait_for_selector("header.top #login", timeout=PATIENCE_MS)
    phone.wait_for_selector(".table-page[data-my-move=yes]", timeout=PATIENCE_MS)
    assert not phone.errors and not desk.errors


def test_guest_signs_up_keeps_tables_and_a_second_device_finds_them(web_server, new_page) -> None:
    accounts_flow(web_server.url, new_page)


def test_the_same_on_postgresql(postgres_url, start_server, new_page) -> None:
    accounts_flow(start_server(postgres_url).url, new_page)
