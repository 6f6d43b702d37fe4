"""Two people play online in real Chromium, each in a browser context of their own: their
account names on every page, the tab's title and icon when it is their move, a notification
when the page is hidden, clocks counting down from the server's figures, a time-out that
ends the game ("ran out of time"), the rematch followed by both with the seats moved round,
and the ratings on the end screen and the profile.

Skips without Chromium locally; fails without it under CI."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from spyglass.web.auth import HEADER
from tests.web.browser import PATIENCE_MS

pytestmark = pytest.mark.slow

#: each person's time: long enough for a loaded machine to open a page and make one move
CLOCK = 25

CSRF = {"X-Requested-With": "spyglass"}
#: the page's hidden state and every Notification it makes, seen by the test
HIDDEN_AND_NOTIFIED = """
Object.defineProperty(document, 'hidden', { get: () => true });
Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
window.__notes = [];
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) {
    super(title, options);
    window.__notes.push([title, options && options.body]);
  }
};
Object.defineProperty(window.Notification, 'permission',
  { get: () => Real.permission });
window.Notification.requestPermission = (...a) => Real.requestPermission(...a);
"""


def person(new_page: Any, base: str, name: str, hidden: bool = False) -> Any:
    """A browser context signed up as ``name`` (through its own cookie jar)."""
    page = new_page()
    if hidden:
        page.context.grant_permissions(["notifications"], origin=base)
        page.context.add_init_script(HIDDEN_AND_NOTIFIED)
    answer = page.request.post(
        f"{base}/api/account/signup",
        data={"name": name, "password": "correct horse battery"},
        headers={**CSRF, "Origin": base},
    )
    assert answer.status == 201, answer.text()
    page.goto(f"{base}/")  # the page learns who is logged in (as after the sign-up dialog)
    page.wait_for_selector("header.top .account-name", timeout=PATIENCE_MS)
    return page


def seat_names(page: Any) -> list[str]:
    return page.locator(".seat-list .seat-name").all_inner_texts()


def test_two_people_names_turn_clocks_time_out_rematch_and_ratings(web_server, new_page) -> None:
    base = web_server.url
    ann = person(new_page, base, "Annika")
    bob = person(new_page, base, "Bertram", hidden=True)
    # a public table of two open seats: the clocks start when the second person joins
    created = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "tinker-tailor",
            "players": 2,
            "seed": 11,
            "seats": [{"kind": "human", "open": True}, {"kind": "human", "open": True}],
            "clock": {"kind": "realtime", "seconds": CLOCK, "on_timeout": "lose"},
        },
    ).json()
    first = created["table"]["current_player"]  # dealt already: who moves first is known
    table_id = created["id"]
    # he turned notifications on (the Notify me button, in an earlier visit)
    bob.context.add_init_script("localStorage.setItem('spyglass.notify', '1')")
    # each joins from the lobby's Open tables (as their account: no name to type); Annika
    # takes the seat that moves first, Bertram the other
    for page, seat in ((ann, first), (bob, 1 - first)):
        page.goto(f"{base}/")
        page.locator(f'.open-tables tr[data-table="{table_id}"] button[data-seat="{seat}"]').click()
        page.locator("form.join-form button[type=submit]").click()
        page.wait_for_selector(f".table-page[data-seat='{seat}']", timeout=PATIENCE_MS)
    for page in (ann, bob):
        page.wait_for_function(
            """() => ['Annika,Bertram', 'Bertram,Annika'].includes(
                 [...document.querySelectorAll('.seat-list .seat-name')]
                   .map((e) => e.textContent).join())""",
            timeout=PATIENCE_MS,
        )
    expected = ["Annika", "Bertram"] if first == 0 else ["Bertram", "Annika"]
    assert seat_names(ann) == seat_names(bob) == expected
    # the log names people, never "seat N" where a name exists
    ann.wait_for_function("() => document.querySelector('.log-lines li')", timeout=PATIENCE_MS)
    log = " ".join(ann.locator(".log-lines li").all_inner_texts())
    assert f"seat {first}" not in log and f"seat {1 - first}" not in log, log

    # Annika's move: her title and icon say so; Bertram's do not
    ann.wait_for_function("() => document.title.startsWith('● Your move — ')", timeout=PATIENCE_MS)
    assert ann.evaluate("document.querySelector('link[rel=icon]').href").startswith(
        "data:image/svg"
    )
    assert not bob.title().startswith("●")
    assert bob.evaluate("window.__notes.length") == 0
    # her clock runs and counts down, his stands at his full time
    running = ann.locator(f'.seat[data-seat="{first}"] .clock.running')
    running.wait_for(timeout=PATIENCE_MS)
    before = int(running.get_attribute("data-ms"))
    ann.wait_for_function(
        "(ms) => Number(document.querySelector('.clock.running').dataset.ms) < ms - 600",
        arg=before,
        timeout=PATIENCE_MS,
    )
    assert bob.locator(f'.seat[data-seat="{1 - first}"] .clock').inner_text() == f"0:{CLOCK}"

    # she moves (through her own token, as her page would); his hidden page notifies him
    token = ann.evaluate(f"() => JSON.parse(localStorage.getItem('spyglass.seats.{table_id}'))")
    state = httpx.get(f"{base}/api/tables/{table_id}", headers={HEADER: token[str(first)]}).json()
    move = httpx.post(
        f"{base}/api/tables/{table_id}/actions",
        json={"action": state["legal"][0]["notation"], "step": state["view"]["step"]},
        headers={HEADER: token[str(first)]},
    )
    assert move.status_code == 200, move.text
    bob.wait_for_function("() => window.__notes.length === 1", timeout=PATIENCE_MS)
    title, body = bob.evaluate("window.__notes[0]")
    assert title == "Your move: Tinker Tailor" and body.startswith("Bertram")
    assert bob.title().startswith("● Your move — Tinker Tailor")
    ann.wait_for_function("() => !document.title.startsWith('●')", timeout=PATIENCE_MS)

    # Bertram never moves: his time runs out, he loses, the game is over for both pages
    for page in (ann, bob):
        page.wait_for_selector(".result .winners", timeout=PATIENCE_MS)
        assert page.locator(".result .summary").inner_text() == "Bertram ran out of time."
        assert page.locator(".result .winners").inner_text() == "Annika wins."
        assert (
            page.locator(".log-lines li")
            .last.inner_text()
            .startswith("Bertram ran out of time at step")
        )
    # both are accounts: the table is rated, and each page shows both changes
    ann.wait_for_selector(".ratings-after li", timeout=PATIENCE_MS)
    ratings = ann.locator(".ratings-after li").all_inner_texts()
    assert len(ratings) == 2 and any(r.startswith("Annika") and "(+" in r for r in ratings)

    # the rematch: Annika asks, Bertram's page learns of it and follows; each gets their own
    # seat of one new table, the seats moved round by one
    # (each page is on the old table's address until it has moved: wait for the move itself)
    moved = "(old) => !location.pathname.endsWith('/' + old)"
    ann.locator("#rematch").click()
    ann.wait_for_function(moved, arg=table_id, timeout=PATIENCE_MS)
    ann.wait_for_selector(".table-page", timeout=PATIENCE_MS)
    bob.wait_for_selector("#rematch:text('Join the rematch')", timeout=PATIENCE_MS)
    bob.locator("#rematch").click()
    bob.wait_for_function(moved, arg=table_id, timeout=PATIENCE_MS)
    bob.wait_for_selector(".table-page", timeout=PATIENCE_MS)
    new_id = ann.url.rsplit("/", 1)[1]
    assert bob.url.rsplit("/", 1)[1] == new_id != table_id
    for page, old in ((ann, first), (bob, 1 - first)):
        page.wait_for_function(
            "(seat) => document.querySelector('.table-page')?.dataset.seat === String(seat)",
            arg=(old + 1) % 2,
            timeout=PATIENCE_MS,
        )
    assert seat_names(ann)[(first + 1) % 2] == "Annika"

    # the profile: Annika's rating for the game and the finished table with its replay
    ann.goto(f"{base}/players/annika")
    ann.wait_for_selector("h1.player-name")
    assert ann.locator("h1.player-name").inner_text() == "Annika"
    rows = ann.locator("section[aria-labelledby=ratings-title] tbody tr")
    assert rows.count() == 1 and rows.first.locator("td").first.inner_text() == "Tinker Tailor"
    replay = ann.locator(f'section[aria-labelledby=history-title] tr[data-table="{table_id}"] a')
    assert replay.get_attribute("href") == f"/table/{table_id}/replay"

    # the replay names the players too, and its last step shows the table's result: time
    # ended this game, which its rules alone would not call over
    replay.click()
    ann.wait_for_selector(".replay[data-step='0']", timeout=PATIENCE_MS)
    ann.keyboard.press("End")
    ann.wait_for_selector(".replay[data-step='1'] .result .winners", timeout=PATIENCE_MS)
    assert ann.locator(".result .summary").inner_text() == "Bertram ran out of time."
    assert ann.locator(".result .winners").inner_text() == "Annika wins."
    log = " ".join(ann.locator(".log-lines li").all_inner_texts())
    assert "Annika" in log and "seat 0" not in log and "seat 1" not in log, log
    seen_by = ann.locator("#replay-seat option").all_inner_texts()
    assert sorted(seen_by) == ["Annika", "Bertram", "spectator"]
    assert not ann.errors and not bob.errors
