"""Spies! end to end: a person sets up a five-power table in the lobby (four bot seats) and plays
Germany from the page through 1933 into 1934: the set-up placements on the map, an Event Tile,
a spy's move, an offer built and sent, the end of the turn, and any question the bots' turns put
to Germany, all by clicking. The page must show the Action Point track falling as points are
spent, the Time and Victory Record, the bank, the tiles, the offer as it is built and a banner
for each question, and the year moving on to 1934.

Skips without Chromium or Playwright locally; fails without them under CI."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest

from spyglass.web.auth import HEADER
from tests.web.browser import TableDriver, open_lobby_form, set_seats, start_table

pytestmark = pytest.mark.slow

PLAYERS = 5
BOTS = (1, 2, 3, 4)
SEED = 21
SETUP = {"secret", "police", "spy"}


def region(page: Any, key: str) -> Any:
    return page.locator(f'.board [data-key="{key}"]')


def track(page: Any) -> tuple[int, int, str]:
    """The Action Point track as drawn: spaces used, spaces left, its caption."""
    box = region(page, "action_track").locator(".track")
    caption = box.locator(".track-caption").inner_text()
    return int(box.get_attribute("data-used")), int(box.get_attribute("data-left")), caption


def status(page: Any) -> str:
    return region(page, "status").locator(".text").inner_text()


class Person:
    """Germany's decisions, made from the legal moves the server lists for seat 0: placements
    at random, an own tile played rather than discarded, no police re-arranged and no search
    on its own turn, one spy moved, one offer built and sent, then the end of the turn; in the
    bots' turns every question answered from the banner's choices (a search is made, a chit
    answer passed, an offer refused)."""

    def __init__(self, table: TableDriver) -> None:
        self.table = table
        self.page = table.page
        self.rng = random.Random(SEED)
        self.moved_spy = False
        self.traded = False
        self.prompts: list[dict[str, str]] = []
        self.kinds: list[str] = []

    def decide(self) -> None:
        legal = self.table.legal()
        kinds = {m["kind"] for m in legal}
        if self.answers(legal):
            return
        if kinds <= SETUP:
            self.play(self.rng.choice(legal))
        elif kinds & {"play", "discard"}:
            self.play_tile(legal)
        elif "move" in kinds and not self.moved_spy:
            self.move_spy(legal)
        elif "approach" in kinds and not self.traded:
            self.make_offer(legal)
        else:
            # re-arranging police and searching: "done"; moving: "end"
            self.play(next(m for m in legal if m["kind"] in ("done", "end")))

    def play(self, move: dict[str, Any]) -> str:
        self.kinds.append(move["kind"])
        return self.table.play(move)

    def answers(self, legal: list[dict[str, Any]]) -> bool:
        """A question out of the turn's course: the banner says what happened and what is
        asked, with the choices the seat has; answered by the button by the board."""
        banner = region(self.page, "prompt").locator(".banner")
        if not banner.count():
            return False
        assert "banner-yours" in (banner.get_attribute("class") or "")
        title = banner.locator(".banner-title").inner_text()
        choices = banner.locator(".banner-choices li").all_inner_texts()
        assert title.startswith("You are asked (Germany)"), title
        notations = {m["notation"] for m in legal}
        assert {c.split(":", 1)[0] for c in choices} == notations, (choices, notations)
        self.prompts.append({"title": title, "text": banner.inner_text()})
        by_kind = {m["kind"]: m for m in legal}
        choice = by_kind.get("search") or by_kind.get("refuse") or by_kind.get("pass")
        if choice is None:
            choice = legal[0]
        how = self.play(choice)
        assert how == "choice", (choice, how)
        return True

    def play_tile(self, legal: list[dict[str, Any]]) -> None:
        plays = [m for m in legal if m["kind"] == "play"] or legal
        move = plays[0]
        hand = region(self.page, "tiles_in_hand")
        assert hand.locator(f'.chip[data-place="{move["target"]}"]').count() == 1
        # the tile's chip, then "play" among the ways to finish the choice
        assert self.play(move) == "choice"
        events = region(self.page, "events").inner_text()
        assert re.search(r"1933 · Germany", events), events
        assert move["target"] in events

    def move_spy(self, legal: list[dict[str, Any]]) -> None:
        moves = [m for m in legal if m["kind"] == "move"]
        used, left, _ = track(self.page)
        move = self.rng.choice(moves)
        how = self.play(move)
        assert how in ("place", "choice"), how
        self.table.wait_ready()
        after_used, after_left, caption = track(self.page)
        assert (after_used, after_left) == (used + 1, left - 1), (used, left, caption)
        assert f"{after_left} of 12 left" in caption
        self.moved_spy = True

    def make_offer(self, legal: list[dict[str, Any]]) -> None:
        """Approach a power (a click on its money in the bank), offer it £1, ask a chit or
        money of it, and send: the panel shows each side as it grows."""
        approach = next(m for m in legal if m["kind"] == "approach")
        partner = approach["target"]
        used, _, _ = track(self.page)
        assert self.play(approach) == "place"  # the partner's entry in the bank
        self.table.wait_ready()
        assert track(self.page)[0] == used + 1  # an approach costs an Action Point
        panel = region(self.page, "offer_panel")
        columns = panel.locator(".column")
        assert columns.count() == 2
        assert "Germany gives" in columns.nth(0).inner_text()
        assert f"Germany asks of {partner}" in columns.nth(1).inner_text()
        building = self.table.legal()
        give = next(m for m in building if m["notation"] == "offer £1")
        assert self.play(give) == "choice"
        self.table.wait_ready()
        assert self.cards(0) == ["£1"]
        building = self.table.legal()
        asks = [m for m in building if m["kind"] == "ask"]
        ask = next((m for m in asks if m["target"][0] == "chit"), asks[0])
        assert self.play(ask) == "choice"
        self.table.wait_ready()
        wanted = ask["target"][1] if ask["target"][0] == "chit" else f"£{ask['target'][1]}"
        assert self.cards(1) == [wanted]
        talks = region(self.page, "talks").inner_text()
        assert f"Germany offers {partner} £1 for" in talks, talks
        send = next(m for m in self.table.legal() if m["kind"] == "send")
        assert self.play(send) == "choice"
        self.traded = True

    def cards(self, column: int) -> list[str]:
        col = region(self.page, "offer_panel").locator(".column").nth(column)
        return [c.get_attribute("data-card") for c in col.locator(".cardwrap").all()]


def test_germany_plays_1933_into_1934_from_the_page_with_four_bots(web_server, new_page) -> None:
    base = web_server.url
    page = new_page(1300, 1000)
    open_lobby_form(page, base, "spies")
    set_seats(page, PLAYERS, {0: "here", **dict.fromkeys(BOTS, "bot")})
    for seat in BOTS:
        page.select_option(f'select[name="agent-{seat}"]', "heuristic")
    page.fill("#seed", str(SEED))
    start_table(page)
    page.wait_for_selector(".table-page")
    table = TableDriver(page, base)
    assert table.attr("seat") == "0"
    assert page.locator(".seat.bot").count() == len(BOTS)
    person = Person(table)

    in_1934 = False
    for _ in range(300):
        assert table.wait_ready() == "move"
        text = status(page)
        if text.startswith("1934: Germany's turn"):
            in_1934 = True
            break
        person.decide()
    assert in_1934, status(page)

    # the year on the track and in the status line moved on; Germany's turn starts afresh
    used, left, caption = track(page)
    assert (used, left) == (0, 12) and caption.startswith("1934, Germany")
    # the set-up was placed on the map, the turn by the board's buttons: never from the list
    assert table.by["list"] == table.by["only-list"] == 0, (table.by, table.from_list)
    # (a city that takes several faces is clicked, then the face among the buttons)
    assert table.by["place"] + table.by["choice"] == len(person.kinds), table.by
    assert table.by["place"] >= 3, table.by
    assert {"secret", "police", "spy", "play", "move", "approach", "end"} <= set(person.kinds)
    # the bank: every power's money
    bank = region(page, "bank").locator(".chip").all_inner_texts()
    assert [b.split()[0] for b in bank] == ["Germany", "Italy", "Russia", "France", "Britain"]
    assert all(re.search(r"£\d+", b) for b in bank), bank
    # the record: a row per power, a column per year with its multiple, and the points
    record = region(page, "record")
    heads = record.locator(".col-label").all_inner_texts()
    assert heads[:2] == ["1933 ×8", "1934 ×7"] and heads[-1] == "points"
    rows = record.locator(".row-label").all_inner_texts()
    assert rows == ["Germany", "Italy", "Russia", "France", "Britain"]
    assert "now (" in record.inner_text()  # Germany's own score so far; the others' record
    assert record.inner_text().count("on record") == 5

    # what the page showed agrees with the server's view for seat 0
    token = table.tokens()[0]
    message = httpx.get(f"{base}/api/tables/{table.table_id}", headers={HEADER: token}).json()
    shown = message["view"]["table"]
    assert shown["year"] == 1934 and shown["power"] == "Germany"
    assert len(shown["tiles_played"]) >= 5  # every power plays or discards a tile a year
    events = region(page, "events").locator(".row").count()
    assert events == len(shown["events"]) >= 1
    print(f"moves by the page: {table.by}; questions answered: {len(person.prompts)}")
    for prompt in person.prompts:
        print(prompt["title"])
    assert not page.errors
