"""The page says when it is offline, and for as long as it is: a real server process stopped
under a table, the page's status line, the seat's dot, the bar above the table and every move
control say so and stay so through several failed attempts to reconnect; the server started
again on the same port and database, the page says it reconnected and the game goes on."""

from __future__ import annotations

import httpx
import pytest

from tests.web.browser import PATIENCE_MS, TableDriver
from tests.web.conftest import Server

pytestmark = pytest.mark.slow

STATE = """() => {
  const page = document.querySelector('.table-page');
  const me = document.querySelector('.seat.me .dot');
  return {
    online: page.dataset.online,
    retries: Number(page.dataset.retries || 0),
    status: document.getElementById('status').textContent,
    bar: !document.querySelector('.offline-bar').hidden,
    dot: me.className,
    spoken: document.querySelector('.seat.me').textContent,
    live: document.querySelectorAll('.board .can, .board [role=button]').length,
    moves: [...document.querySelectorAll('button.move')]
      .map((b) => b.getAttribute('aria-disabled')),
    readOnly: document.getElementById('notation').readOnly,
    hint: document.getElementById('hint').getAttribute('aria-disabled'),
  };
}"""


def test_the_page_stays_offline_until_the_server_is_back(start_server, new_page, tmp_path) -> None:
    db = str(tmp_path / "offline.sqlite3")
    server = start_server(db)
    created = httpx.post(
        f"{server.url}/api/tables",
        json={"game": "espionage", "players": 3, "seed": 6, "options": {"city_limit": 1}},
    ).json()
    page = new_page()
    page.goto(server.url + created["seats"][0]["link"])
    table = TableDriver(page, server.url)
    assert table.wait_ready() == "move"
    before = page.evaluate(STATE)
    step_before = table.step
    assert before["online"] == "yes" and before["status"].startswith("Your move")
    assert before["live"] > 0 and set(before["moves"]) == {"false"} and not before["readOnly"]

    server.stop()  # the process ends; its sockets close
    page.wait_for_function(
        "() => document.querySelector('.table-page').dataset.online === 'no'", timeout=PATIENCE_MS
    )
    # Through four failed attempts (0.5 + 1 + 2 + 3 s), past the 8 s an error notice lasts:
    # the offline state is not a notice that fades, it holds until the link is back.
    page.wait_for_function(
        "() => Number(document.querySelector('.table-page').dataset.retries) >= 5",
        timeout=PATIENCE_MS,
    )
    seen = page.evaluate(STATE)
    assert seen["status"].startswith("Offline"), seen
    assert seen["bar"] and "dot-lost" in seen["dot"] and "offline" in seen["spoken"], seen
    assert seen["live"] == 0, seen  # no card or place can be chosen
    assert set(seen["moves"]) == {"true"} and seen["readOnly"] and seen["hint"] == "true", seen
    # a click on a move does nothing but say why
    page.locator("button.move").first.click(force=True)  # aria-disabled: Playwright would wait
    page.wait_for_selector(".notice-error")
    assert "Offline" in page.locator(".notice-error").last.inner_text()
    assert table.step == step_before  # nothing was played

    again = Server(db, port=server.port).start()
    try:
        # "Try now": no need to wait for the next try (unless that try, on a slow machine,
        # has already reconnected and hidden the bar: then there is nothing to click)
        page.evaluate("() => document.querySelector('.offline-bar:not([hidden]) button')?.click()")
        page.wait_for_function(
            "() => document.querySelector('.table-page').dataset.online === 'yes'",
            timeout=PATIENCE_MS,
        )
        page.wait_for_selector(".notice:has-text('Reconnected')")
        assert table.wait_ready() == "move"
        back = page.evaluate(STATE)
        assert back["status"].startswith("Your move") and not back["bar"], back
        assert "dot-on" in back["dot"] and back["live"] > 0 and set(back["moves"]) == {"false"}
        step = table.step
        table.play(table.legal()[0])
        assert table.step > step
        assert not page.errors
    finally:
        again.stop()


def test_the_rematch_waits_for_the_link_too(start_server, new_page, tmp_path) -> None:
    """A finished game's Rematch asks the server for a table: offline it is turned off (still
    focusable) and a click only says why; back online it works again."""
    server = start_server(str(tmp_path / "rematch-offline.sqlite3"))
    created = httpx.post(f"{server.url}/api/tables", json={"game": "hide-and-seek", "seed": 3})
    assert created.status_code == 201, created.text
    seat = created.json()["seats"][0]
    url = f"{server.url}/api/tables/{created.json()['id']}"
    headers = {"X-Seat-Token": seat["token"]}
    for _ in range(200):  # the first legal move each time, until the game is over
        state = httpx.get(url, headers=headers).json()
        if state["view"]["over"]:
            break
        move = {"action": state["legal"][0]["notation"], "step": state["view"]["step"]}
        assert httpx.post(f"{url}/actions", json=move, headers=headers).status_code == 200
    assert state["view"]["over"]
    page = new_page()
    page.goto(server.url + seat["link"])
    rematch = page.locator("#rematch")
    rematch.wait_for(timeout=PATIENCE_MS)
    assert rematch.get_attribute("aria-disabled") == "false"

    server.stop()
    page.wait_for_function(
        "() => document.querySelector('.table-page').dataset.online === 'no'", timeout=PATIENCE_MS
    )
    page.wait_for_function(
        "() => document.getElementById('rematch').getAttribute('aria-disabled') === 'true'",
        timeout=PATIENCE_MS,
    )
    address = page.url
    rematch.click(force=True)
    page.wait_for_selector(".notice-error")
    assert "Offline" in page.locator(".notice-error").last.inner_text()
    assert page.url == address  # no new table was asked for

    again = Server(str(tmp_path / "rematch-offline.sqlite3"), port=server.port).start()
    try:
        # (no "Try now": the page's own next try, at most 5 s away, may already have got
        # through by the time the server is up, and the bar is gone)
        page.wait_for_function(
            "() => document.getElementById('rematch')?.getAttribute('aria-disabled') === 'false'",
            timeout=PATIENCE_MS,
        )
        page.locator("#rematch").click()
        page.wait_for_function("(old) => location.href !== old", arg=address, timeout=PATIENCE_MS)
        assert not page.errors
    finally:
        again.stop()
