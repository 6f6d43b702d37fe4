"""The message panel in a real headless Chromium: three people at one online table, each in a
browser context of their own, and a spectator. A public message reaches every page; a whisper
reaches its two seats, and not one WebSocket frame of the third seat's page or the spectator's
holds it. Enter sends, the panel folds with an unread count, text is never read as HTML, and a
page that reloads gets what its seat may read.

These tests skip without Chromium or Playwright locally, and fail without them under CI."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.browser import PATIENCE_MS

pytestmark = pytest.mark.slow


def join(new_page: Any, url: str) -> tuple[Any, list[str]]:
    """A page in a fresh browser context at ``url``, and every WebSocket frame it receives."""
    page = new_page()
    frames: list[str] = []

    def keep(frame: str) -> None:  # Playwright wants a Python function, not a bound builtin
        frames.append(frame)

    page.on("websocket", lambda ws: ws.on("framereceived", keep))
    page.goto(url)
    page.wait_for_selector(".table-page")
    page.wait_for_selector(".messages-panel:not([hidden])")
    return page, frames


def texts(page: Any) -> list[str]:
    return [
        t.strip() for t in page.locator(".message-list .message .message-text").all_inner_texts()
    ]


def wait_for_text(page: Any, text: str) -> None:
    page.wait_for_function(
        """(text) => [...document.querySelectorAll('.message-list .message-text')]
                    .some((node) => node.textContent === text)""",
        arg=text,
        timeout=PATIENCE_MS,
    )


def write(page: Any, text: str, to: str | None = None) -> None:
    """Type a message into the panel's box and press Enter (to: a seat number, or everyone)."""
    page.select_option(".message-to", "" if to is None else to)
    page.locator(".message-input").fill(text)
    page.locator(".message-input").press("Enter")


def test_people_at_an_online_table_talk_and_whisper(web_server, new_page) -> None:
    base = web_server.url
    response = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "espionage",
            "players": 4,
            "seed": 5,
            "options": {"city_limit": 1},
            "seats": [
                {"kind": "human", "name": "Ann"},
                {"kind": "human", "name": "Bob"},
                {"kind": "human", "name": "Cy"},
                {"kind": "bot", "agent": "random"},
            ],
        },
    )
    assert response.status_code == 201, response.text
    created = response.json()
    links = {s["seat"]: base + s["link"] for s in created["seats"] if s["link"]}
    ann, _ = join(new_page, links[0])
    bob, _ = join(new_page, links[1])
    cy, cy_frames = join(new_page, links[2])
    watcher, watcher_frames = join(new_page, base + created["spectate"])
    pages = (ann, bob, cy, watcher)

    # whom one may write to: everyone, or one of the other people (never a bot, never oneself)
    options = ann.locator(".message-to option").all_inner_texts()
    assert options == ["everyone", "only Bob (seat 1)", "only Cy (seat 2)"]
    # the spectator reads but has no box to write in
    assert watcher.locator(".message-form").is_hidden()
    assert "Spectators read" in watcher.locator(".message-note").inner_text()

    # a public message, sent with Enter, reaches every page (its markup shown as typed)
    hello = "Hello all <b>not bold</b> & welcome"
    write(ann, hello)
    for page in pages:
        wait_for_text(page, hello)
        assert page.locator(".message-list .message-text b").count() == 0
    assert ann.locator(".message-input").input_value() == ""
    first = bob.locator(".message-list .message").first
    assert first.locator(".message-from").inner_text() == "Ann"
    assert first.get_attribute("data-to") == "all"
    assert first.locator("time").inner_text().strip()

    # a whisper from Bob to Ann: the two of them see it, marked private
    secret = "Ann, I will back your claim on Vienna"
    write(bob, secret, to="0")
    for page in (ann, bob):
        wait_for_text(page, secret)
        whisper = page.locator(".message.private")
        assert whisper.count() == 1 and "privately" in whisper.inner_text()
    assert "Bob" in ann.locator(".message.private .message-from").inner_text()
    assert "Ann" in bob.locator(".message.private .message-whisper").inner_text()

    # Cy folds the panel; Bob then writes to everyone: Cy's tab counts it as unread
    cy.locator(".messages-toggle").click()
    assert cy.locator(".messages-body").is_hidden()
    after = "Shall we agree on Berlin?"
    write(bob, after)
    wait_for_text(watcher, after)
    cy.wait_for_function(
        "() => document.querySelector('.messages-panel').dataset.unread === '1'",
        timeout=PATIENCE_MS,
    )
    assert cy.locator(".unread-count").inner_text() == "1"
    cy.locator(".messages-toggle").click()
    assert cy.locator(".unread-count").is_hidden()
    # the public messages arrived after the whisper, yet neither Cy nor the spectator got it:
    # not on the page, not in any frame their sockets received
    for page, frames in ((cy, cy_frames), (watcher, watcher_frames)):
        assert texts(page) == [hello, after]
        assert any(after in frame for frame in frames)  # the frames hold the messages...
        assert not any(secret in frame for frame in frames)  # ... but never the whisper

    # a page that reloads gets back what its seat may read, and no more
    cy.reload()
    cy.wait_for_selector(".table-page")
    wait_for_text(cy, after)
    assert texts(cy) == [hello, after]
    assert not any(secret in frame for frame in cy_frames)
    ann.reload()
    ann.wait_for_selector(".table-page")
    wait_for_text(ann, after)
    assert texts(ann) == [hello, secret, after]

    # the keyboard: m opens the box; an empty message is not sent; a refused one says why
    bob.locator("body").click(position={"x": 5, "y": 5})
    bob.keyboard.press("m")
    assert bob.evaluate("() => document.activeElement.classList.contains('message-input')")
    assert bob.locator(".message-input").input_value() == ""  # the m opened it, unwritten
    bob.keyboard.press("Enter")
    assert texts(bob) == [hello, secret, after]
    # eight messages in one go: the server takes a few, refuses the rest, and the panel says
    # so and gives back the refused words
    bob.evaluate(
        """() => {
          const input = document.querySelector('.message-input');
          const form = document.querySelector('.message-form');
          for (let i = 0; i < 8; i++) {
            input.value = `quick ${i}`;
            form.requestSubmit();
          }
        }"""
    )
    bob.wait_for_selector(".message-error:not([hidden])", timeout=PATIENCE_MS)
    assert "too many messages" in bob.locator(".message-error").inner_text()
    assert bob.locator(".message-input").input_value().startswith("quick ")
    for page in pages:
        assert not page.errors


def test_hot_seat_shows_each_seat_only_its_own_messages(web_server, new_page) -> None:
    """Two people share a device (seats 0 and 1) and a third plays online (seat 2). The panel
    shows the messages of the seat on screen; while the device is passed on it shows none."""
    base = web_server.url
    response = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "espionage",
            "players": 3,
            "seed": 3,
            "options": {"city_limit": 1},
            "seats": [
                {"kind": "human", "invite": False},
                {"kind": "human", "invite": False},
                {"kind": "human", "name": "Di", "invite": False},
            ],
        },
    )
    assert response.status_code == 201, response.text
    created = response.json()
    links = {s["seat"]: base + s["link"] for s in created["seats"]}
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    device = new_page()
    device.goto(links[1])  # the device holds both seats' tokens
    device.wait_for_selector(".table-page")
    device.goto("about:blank")  # else the next link, the same page, only changes its fragment
    device.goto(links[0])
    device.wait_for_selector(".messages-panel:not([hidden])")
    di, _ = join(new_page, links[2])

    shown = int(device.locator(".table-page").get_attribute("data-seat"))
    other = 1 - shown
    for_shown, for_other = f"only for seat {shown}", f"only for seat {other}"
    write(di, for_other, to=str(other))
    write(di, for_shown, to=str(shown))
    wait_for_text(device, for_shown)
    assert texts(device) == [for_shown]

    # moves are made (over HTTP, as any client may) until the other local seat is to move:
    # the device is to be passed on, and the panel shows nothing meanwhile
    for _ in range(20):
        if device.locator("#show-hand").count():
            break
        state = httpx.get(f"{base}/api/tables/{created['id']}").json()
        current = state["table"]["current_player"]
        mine = httpx.get(
            f"{base}/api/tables/{created['id']}", headers={"X-Seat-Token": tokens[current]}
        ).json()
        step = mine["view"]["step"]
        moved = httpx.post(
            f"{base}/api/tables/{created['id']}/actions",
            headers={"X-Seat-Token": tokens[current]},
            json={"action": mine["legal"][0]["notation"], "step": step},
        )
        assert moved.status_code == 200, moved.text
        device.wait_for_function(
            """(step) => document.querySelector('#show-hand')
                 || Number(document.querySelector('.table-page')?.dataset.step) > step""",
            arg=step,
            timeout=PATIENCE_MS,
        )
    assert device.locator("#show-hand").count(), "the other local seat never came to move"
    assert device.locator(".messages-panel").is_hidden()
    assert device.locator(".message").count() == 0
    device.locator("#show-hand").click()
    device.wait_for_selector(f'.table-page[data-seat="{other}"]')
    wait_for_text(device, for_other)
    assert texts(device) == [for_other]
    assert not device.errors and not di.errors
