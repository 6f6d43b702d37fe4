"""End to end in a real headless Chromium against a real server process: people set tables up
in the lobby and play them by clicking, alone, with bots, hot-seat and online.

These tests skip without Chromium or Playwright locally, and fail without them under CI."""

from __future__ import annotations

import httpx
import pytest

import spyglass
from tests.web.browser import (
    KIT,
    PATIENCE_MS,
    TableDriver,
    open_lobby_form,
    set_seats,
    start_table,
    table_id_of,
)

pytestmark = pytest.mark.slow


#: Shorter games where a game offers them, to keep the suite quick (the rules are the same).
QUICK = {"espionage": {"city_limit": 1}}
#: Table sizes other than the smallest, where that makes the person's part of a whole game
#: shorter: Spies! at 2 players gives seat 0 half of a thousand decisions, at 5 a fifth (its
#: four bots play the rest on the server).
TABLE_SIZE = {"spies": 5}


def created_link(base: str, game: str, seed: int, **body: object) -> str:
    response = httpx.post(f"{base}/api/tables", json={"game": game, "seed": seed, **body})
    assert response.status_code == 201, response.text
    return base + response.json()["seats"][0]["link"]


def hand(page) -> set[str]:
    """The face-up cards of the hand region on a page."""
    cards = page.locator('[data-key="hand"] .cardwrap').all()
    return {c.get_attribute("data-card") for c in cards} - {""}


# ---------------------------------------------------------------------- solo


def test_a_solo_game_from_the_lobby_to_its_end_by_clicking(web_server, new_page) -> None:
    base = web_server.url
    page = new_page()
    open_lobby_form(page, base, "sandwich-guy")
    page.fill("#seed", "12")
    start_table(page)
    page.wait_for_selector(".table-page")
    table = TableDriver(page, base)
    assert table.wait_ready() == "move" and table.step == 0

    # a hint: the strongest agent's move, marked on the board and in the list
    page.keyboard.press("h")
    page.wait_for_selector(".notice-hint", timeout=PATIENCE_MS)
    hinted = page.locator("button.move.hinted")
    assert hinted.count() == 1
    assert page.locator(".board .cardwrap.hinted").count() == 3  # a sandwich is three cards

    # undo (solo games): one move, taken back
    table.play(table.legal()[0])
    page.locator("#undo").click()
    page.wait_for_function("() => document.querySelector('.table-page')?.dataset.step === '0'")

    table.play_to_the_end()
    assert table.by["list"] == table.by["only-list"] == 0 and table.by["cards"] > 1
    result = page.locator("section.result")
    assert result.is_visible() and "game over" in result.inner_text().lower()
    assert page.locator("section.result .summary").inner_text().strip()
    assert not page.errors

    # the record downloads and replays to the same end
    record_link = page.locator('a[download][href$="/record"]')
    record = httpx.get(base + record_link.get_attribute("href")).json()
    assert spyglass.replay(record).is_over

    # the replay viewer: the deal, then step by step, then the end with the result
    page.locator('a.button[href$="/replay"]').click()
    page.wait_for_selector('.replay[data-step="0"]')
    assert "the deal" in page.locator(".replay-move").inner_text()
    page.locator("#replay-next").click()
    page.wait_for_selector('.replay[data-step="1"]')
    assert record["actions"][0] in page.locator(".replay-move").inner_text()
    page.keyboard.press("End")
    page.wait_for_selector(f'.replay[data-step="{len(record["actions"])}"]')
    assert page.locator("section.result").is_visible()
    assert not page.errors


@pytest.mark.parametrize("game_id", spyglass.games.REGISTRY.ids())
def test_every_game_plays_to_its_end_in_the_browser(web_server, new_page, game_id) -> None:
    """Seat 0 a person clicking, the other seats (if any) the game's bot."""
    players = TABLE_SIZE.get(game_id, spyglass.load(game_id).info.players[0])
    page = new_page()
    page.goto(
        created_link(
            web_server.url, game_id, seed=31, players=players, options=QUICK.get(game_id, {})
        )
    )
    table = TableDriver(page, web_server.url)
    table.play_to_the_end()
    assert page.locator("section.result").is_visible()
    # Every move was made on the board: its cards, its place, or a button beside the board.
    # A move left to the list means the layout does not draw a card or a place the move
    # names (its labels must be the cards' labels in the view, its target a drawn place).
    assert table.by["list"] == table.by["only-list"] == 0, (table.by, table.from_list)
    assert not page.errors


# ---------------------------------------------------------------------- multiplayer


def test_espionage_with_three_bots(web_server, new_page) -> None:
    base = web_server.url
    page = new_page()
    open_lobby_form(page, base, "espionage")
    set_seats(page, 4, {0: "here", 1: "bot", 2: "bot", 3: "bot"})
    page.fill("#opt-city_limit", "2")
    page.fill("#seed", "5")
    start_table(page)
    page.wait_for_selector(".table-page")
    table = TableDriver(page, base)
    assert table.attr("seat") == "0"
    assert page.locator(".seat.bot").count() == 3

    table.play_to_the_end()
    # every move by clicking a card of the hand, then the seat to pass it to
    assert table.by["list"] == 0 and table.by["place"] > 5, table.by
    # each city's scoring was walked back, step by step
    assert table.stories >= 1
    rows = page.locator("section.result table.breakdown tbody tr")
    assert rows.count() == 4
    assert not page.errors


def test_hot_seat_hides_the_last_hand_until_the_next_player_takes_the_device(
    web_server, new_page
) -> None:
    base = web_server.url
    page = new_page()
    open_lobby_form(page, base, "espionage")
    set_seats(page, 3, {0: "here", 1: "here", 2: "bot"})
    page.fill("#opt-city_limit", "1")
    page.fill("#seed", "8")
    start_table(page)
    page.wait_for_selector(".table-page")
    table = TableDriver(page, base)
    assert set(table.tokens()) == {0, 1}

    covers = 0
    for _ in range(400):
        wants = table.wait_ready()
        if wants == "over":
            break
        if wants == "story":
            table.walk_story()
        elif wants == "cover":
            # the pass-the-device screen shows no card and no move of anyone
            assert page.locator(".cardwrap").count() == 0
            assert page.locator("button.move").count() == 0
            name = page.locator("#show-hand").inner_text()
            page.locator("#show-hand").click()
            page.wait_for_selector(".table-page")
            seat = table.attr("seat")
            assert f"seat {seat}" in name
            covers += 1
        else:
            table.play(table.rng.choice(table.legal()))
    assert table.attr("over") == "yes"
    assert covers >= 4
    assert not page.errors


def test_two_browsers_play_online_with_invite_links(web_server, new_page) -> None:
    base = web_server.url
    host = new_page()
    open_lobby_form(host, base, "espionage")
    set_seats(host, 3, {0: "here", 1: "invite", 2: "bot"})
    host.fill("#opt-city_limit", "1")
    host.fill("#seed", "13")
    start_table(host)
    link = host.locator('.invite-link[data-seat="1"]').input_value()
    invite = link.split("invite=", 1)[1]
    assert link.startswith(f"{base}/table/") and "#invite=" in link and "token" not in link
    spectate = host.locator(".dialog a[href^='/table/']").first.get_attribute("href")
    host.locator(".dialog a.button.primary").click()
    host.wait_for_selector(".table-page")

    guest = new_page()
    guest.goto(link)
    guest.wait_for_selector(".table-page")
    assert "invite" not in guest.url  # the claimed invite leaves the address bar
    # an invite is claimed once: the same link opened again holds no seat
    late = new_page()
    late.goto(link)
    late.wait_for_selector(".table-page")
    assert late.locator(".table-page").get_attribute("data-seat") == "watch"
    assert "already been used" in late.locator("#notices").inner_text()
    watcher = new_page()
    watcher.goto(base + spectate)
    watcher.wait_for_selector(".table-page")
    assert watcher.locator(".table-page").get_attribute("data-seat") == "watch"

    a, b = TableDriver(host, base), TableDriver(guest, base)
    assert a.table_id == b.table_id == table_id_of(watcher)
    # each browser holds its own seat's token alone: the host never had the guest's
    assert set(a.tokens()) == {0} and set(b.tokens()) == {1}
    assert a.attr("seat") == "0" and b.attr("seat") == "1"
    # each sees its own hand; the spectator sees none
    hand_a, hand_b = hand(host), hand(guest)
    assert hand_a and hand_b and not hand_a & hand_b
    assert not hand(watcher)

    players = {0: a, 1: b}
    for _ in range(400):
        summary = httpx.get(f"{base}/api/tables/{a.table_id}").json()
        if summary["view"]["over"]:
            break
        step, current = summary["view"]["step"], summary["table"]["current_player"]
        if current in players:
            # the person to move answers on their own page, once it shows that step
            p = players[current]
            if p.wait_for_step(step) == "story":
                p.walk_story()
            else:
                p.play(p.rng.choice(p.legal()))
        else:
            # the bot's move reaches the host's page
            host.wait_for_function(
                "(step) => Number(document.querySelector('.table-page')?.dataset.step) > step",
                arg=step,
                timeout=PATIENCE_MS,
            )
    else:
        pytest.fail("the online game did not end")
    watcher.wait_for_selector('.table-page[data-over="yes"]', timeout=PATIENCE_MS)
    for p in (host, guest, watcher):
        assert p.locator("section.result").is_visible()
        assert not p.errors
    # no invite and no token in the server's logs
    log = web_server.log()
    assert invite not in log
    for secret in (*a.tokens().values(), *b.tokens().values()):
        assert secret not in log


# ---------------------------------------------------------------------- the renderer itself

#: A layout with every kind of region, as a game added later might declare it.
LAYOUT = [
    {"kind": "cards", "key": "hand", "label": "Hand"},
    {"kind": "pile", "key": "discard", "label": "Discard", "show": "top"},
    {"kind": "count", "key": "deck", "label": "Deck"},
    {"kind": "text", "key": "scores", "label": "Scores"},
    {"kind": "columns", "key": "ranks", "label": "Ranks", "parts": ["members"]},
    {"kind": "grid", "key": "board", "label": "Board"},
    {"kind": "rows", "key": "kingdoms", "label": "The kingdoms row"},
    {"kind": "story", "key": "walk", "label": "Last round"},
    {"kind": "map", "key": "map", "label": "Map"},
    {"kind": "text", "key": "nothing", "label": "Hidden when empty", "hide_empty": True},
]
VIEW = {
    "table": {
        "hand": ["10♥", "JK", None, "Merchant 9 ❦⌘"],
        "discard": ["2♣", "3♣"],
        "deck": 12,
        "scores": {"seat 0": 4, "seat 1": 7},
        "ranks": [{"title": "R1", "members": ["A♠"]}, {"title": "R2", "members": []}],
        "board": {
            "cells": [
                [None, ["5♦"]],
                ["X", {"cards": ["K♠", "Q♠"], "note": "two", "style": "dim"}],
            ],
            "col_labels": ["A", "B"],
            "row_labels": ["1", "2"],
        },
        "kingdoms": [{"title": "Kingdom 1", "cards": ["Sailor 4 ≈❦"], "note": "ruled"}],
        "walk": {"id": "r1", "title": "Round 1", "steps": [{"title": "one", "lines": ["a"]}]},
        "map": {
            "places": [
                {"id": "lon", "label": "London", "x": 10, "y": 10},
                {"id": "par", "label": "Paris", "x": 60, "y": 40},
                {"id": "ber", "label": "Berlin", "x": 90, "y": 20},
            ],
            "routes": [{"from": "lon", "to": "par", "label": "2"}, {"from": "par", "to": "ber"}],
            "pieces": [{"place": "par", "owner": 1, "label": "spy"}, {"place": "lon", "owner": 0}],
        },
        "nothing": [],
    }
}
LEGAL = [
    {"notation": "travel Paris", "labels": ["10♥"], "target": "par", "kind": "travel"},
    {"notation": "travel Berlin", "labels": ["10♥"], "target": "Berlin", "kind": "travel"},
    {"notation": "place B2", "labels": ["Merchant 9 ❦⌘"], "target": "B2", "kind": "place"},
    {"notation": "crown 1", "labels": [], "target": "Kingdom 1", "kind": "crown"},
]


def test_any_layout_is_drawn_and_played_by_its_regions_alone(web_server, new_page) -> None:
    page = new_page()
    page.goto(web_server.url + "/healthz")  # a plain page of the server, to import modules from
    result = page.evaluate(
        """async ([layout, view, legal, kit]) => {
          document.body.innerHTML = '<main id="app"></main>';
          const { renderTable, MoveController } = await import(kit);
          const box = document.getElementById('app');
          const reg = renderTable(box, view, layout, {});
          const played = [];
          // as the table page does: a move played clears the choice (here none is refused)
          const controller = new MoveController({ onPlay: (m) => {
            played.push(m.notation);
            controller.wait();
            controller.resume();
          } });
          controller.update(legal, reg);
          const out = {
            regions: [...box.querySelectorAll('section.region')].map((s) => s.dataset.key),
            svgCards: box.querySelectorAll('svg.card').length,
            backs: box.querySelectorAll('svg.card-back').length,
            decktet: box.querySelectorAll('svg.card-decktet').length,
            places: box.querySelectorAll('svg.map g.place').length,
            routes: box.querySelectorAll('svg.map line.route').length,
            pieces: box.querySelectorAll('svg.map g.piece').length,
            can: [...box.querySelectorAll('.can')].map((e) => e.dataset.card || e.dataset.place),
          };
          const click = (selector) =>
            box.querySelector(selector).dispatchEvent(new MouseEvent('click', {bubbles: true}));
          const enter = (selector) => box.querySelector(selector).dispatchEvent(
            new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
          // a card, then a place on the map: the one move they make is played
          click('[data-card="10♥"]');
          out.afterCard = [...box.querySelectorAll('.can')]
            .map((e) => e.dataset.card || e.dataset.place);
          click('g.place[data-place="Paris"]');
          // a row of the kingdoms: the move with no card that targets it
          out.choices = controller.choices().map((m) => m.notation);
          click('[data-place="Kingdom 1"]');
          // a grid cell, by keyboard: Enter on cell B2 (its one move takes the Decktet card)
          enter('.cell[data-place="B2"]');
          out.played = played;
          return out;
        }""",
        [LAYOUT, VIEW, LEGAL, KIT],
    )
    assert result["regions"] == [r["key"] for r in LAYOUT if r["key"] != "nothing"]
    assert result["backs"] == 1 and result["decktet"] == 2
    assert result["places"] == 3 and result["routes"] == 2 and result["pieces"] == 2
    # every card and place of a legal move is highlighted; a chosen card narrows them down
    assert set(result["can"]) == {"10♥", "Merchant 9 ❦⌘", "Kingdom 1", "Paris", "Berlin", "B2"}
    assert set(result["afterCard"]) == {"Paris", "Berlin"}
    assert result["choices"] == []
    assert result["played"] == ["travel Paris", "crown 1", "place B2"]


def fits(page, width: int) -> bool:
    """Whether the page, the board and the side column all fit ``width`` pixels."""
    right = page.evaluate(
        """() => Math.max(document.documentElement.scrollWidth,
             ...[...document.querySelectorAll('.board, .side, .regions, .region')]
               .map((e) => e.getBoundingClientRect().right))"""
    )
    return right <= width


def test_a_table_fits_a_phone_and_plays_by_keyboard(web_server, new_page) -> None:
    page = new_page(width=390, height=844)
    base = web_server.url
    response = httpx.post(
        f"{base}/api/tables",
        json={"game": "espionage", "players": 4, "seed": 2, "options": {"city_limit": 1}},
    )
    page.goto(base + response.json()["seats"][0]["link"])
    table = TableDriver(page, base)
    assert table.wait_ready() == "move"
    # nothing wider than the screen (a wide grid scrolls in its region); cards readable
    assert fits(page, 390)
    width = page.locator('[data-key="hand"] .cardwrap').first.bounding_box()["width"]
    assert width >= 40
    # the keyboard: a digit opens the move box, Enter plays that move of the list
    step = table.step
    first = table.legal()[0]["notation"]
    page.keyboard.press("1")
    assert page.locator("#notation").input_value() == "1"
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(step) => Number(document.querySelector('.table-page')?.dataset.step) > step", arg=step
    )
    # the move was the list's first: the seat's log says it played that card there
    card, _on, seat = first.split()
    token = table.tokens()[0]
    mine = httpx.get(f"{base}/api/tables/{table.table_id}", headers={"X-Seat-Token": token}).json()
    assert any(f"plays {card} on seat {seat}" in line for line in mine["view"]["log"])
    # later in the game, with the mats filling up, the table still fits
    table.play_to_the_end()
    assert fits(page, 390)
    assert not page.errors
