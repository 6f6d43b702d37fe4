"""Playing with the keyboard alone, in the real browser: a whole game made of Tab, Shift+Tab and
Enter presses, the focus checked after every press and every move (it stays on the control
used, or next to it, and when the seat's turn comes back it is on a choice already, so no one
has to Tab across the board again); the move box and the live status line stay the same
elements from keystroke to keystroke and from move to move."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.web.browser import PATIENCE_MS, TableDriver

pytestmark = pytest.mark.slow

#: Where the focus is, in terms a test can compare: on a usable choice or not, in which zone.
FOCUS = """() => {
  const el = document.activeElement;
  const page = document.querySelector('.table-page');
  const dialog = document.querySelector('.overlay .dialog');
  const region = el.closest('.region');
  const onBoard = !!el.closest('.board');
  const live = onBoard ? el.getAttribute('tabindex') === '0' && el.getAttribute('role') === 'button'
    : el.tagName === 'BUTTON' && el.getAttribute('aria-disabled') !== 'true';
  return {
    body: el === document.body,
    inPage: !!page && page.contains(el),
    inDialog: !!dialog && dialog.contains(el),
    zone: onBoard ? 'board' : el.closest('.choice-bar') ? 'choices'
      : el.closest('.move-list') ? 'list' : el.id === 'notation' ? 'box' : 'other',
    region: region ? region.dataset.key : null,
    live,
    marked: el.hasAttribute('data-kbd'),
    pressed: el.getAttribute('aria-pressed'),
    text: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 60),
  };
}"""

#: How many Tab (positive) or Shift+Tab (negative) presses lead from the focus to the element
#: marked data-kbd, in the order Tab follows (the page uses no positive tabindex).
PRESSES = """() => {
  const all = 'a[href], button, input, select, textarea, [tabindex]';
  const stops = [...document.querySelectorAll(all)]
    .filter((el) => !el.disabled && el.tabIndex >= 0 && el.getAttribute('tabindex') !== '-1'
      && !el.closest('[hidden], [inert]') && el.getClientRects().length > 0);
  const target = stops.findIndex((el) => el.hasAttribute('data-kbd'));
  if (target < 0) return null;
  const at = document.activeElement;
  let position = stops.indexOf(at);
  if (position < 0) {
    // not a Tab stop itself (the body, a region holding the focus): between the stops
    const after = (el) => el.compareDocumentPosition(at) & Node.DOCUMENT_POSITION_FOLLOWING;
    const before = stops.filter(after).length;
    position = at === document.body ? -0.5 : before - 0.5;
  }
  return target > position ? Math.ceil(target - position) : -Math.ceil(position - target);
}"""

#: Mark the handle of a place (itself, or its title) for the next reach.
MARK_PLACE = """(el) => {
  document.querySelectorAll('[data-kbd]').forEach((e) => e.removeAttribute('data-kbd'));
  const handle = el.getAttribute('tabindex') === '0' ? el : el.querySelector('[data-handle]');
  (handle || el).setAttribute('data-kbd', '');
}"""
MARK = """(el) => {
  document.querySelectorAll('[data-kbd]').forEach((e) => e.removeAttribute('data-kbd'));
  el.setAttribute('data-kbd', '');
}"""


@dataclass
class Keyboard:
    """One person at a table who uses nothing but the keyboard."""

    table: TableDriver
    presses: int = 0
    moves: int = 0
    #: where each move ended (the zone and region of the last control used) and where the
    #: focus was when the seat's turn came back
    log: list[tuple[Any, Any]] = field(default_factory=list)

    @property
    def page(self) -> Any:
        return self.table.page

    def focus(self) -> dict[str, Any]:
        return self.page.evaluate(FOCUS)

    def reach(self, locator: Any, place: bool = False) -> None:
        """Tab (or Shift+Tab) to the element, as few presses as the order allows."""
        locator.evaluate(MARK_PLACE if place else MARK)
        count = self.page.evaluate(PRESSES)
        assert count is not None, "the element is not a Tab stop"
        count = int(count)
        key = "Tab" if count > 0 else "Shift+Tab"
        for _ in range(abs(count)):
            self.page.keyboard.press(key)
        self.presses += abs(count)
        seen = self.focus()
        assert seen["marked"], f"{abs(count)} × {key} did not reach it: {seen}"

    def press_enter(self) -> dict[str, Any]:
        self.page.keyboard.press("Enter")
        self.presses += 1
        return self.focus()

    def play(self, move: dict[str, Any]) -> tuple[str, str | None]:
        """Make ``move`` with the keyboard: its cards, then its place, then a button by the
        board, else the list. Returns the zone and region of the last control used."""
        page, table = self.page, self.table
        step = table.step
        used: tuple[str, str | None] = ("", None)
        done = False
        for label in move["labels"]:
            card = page.locator(f'.board .cardwrap.can[data-card="{label}"]')
            if not card.count():
                break
            self.reach(card.first)
            used = ("board", self.focus()["region"])
            after = self.press_enter()
            if table.played(step):
                done = True
                break
            # a card chosen: the focus stays on it, and it says it is pressed
            assert after["marked"] and after["pressed"] == "true", after
        if not done and move["target"] is not None:
            place = table.place_for(move["target"])
            if place is not None:
                self.reach(place, place=True)
                used = ("board", self.focus()["region"])
                after = self.press_enter()
                done = table.played(step)
                assert done or after["marked"], after
        if not done:
            choice = page.locator(f'.choice-bar button[data-notation="{move["notation"]}"]')
            if choice.count():
                self.reach(choice)
                used = ("choices", None)
                self.press_enter()
                done = True
        if not done:
            if page.locator(".board .sel").count():
                page.keyboard.press("Escape")
            self.reach(page.locator(f'button.move[data-notation="{move["notation"]}"]'))
            used = ("list", None)
            self.press_enter()
        # right after the move leaves, the focus has not fallen to the page's body
        assert not self.focus()["body"]
        page.wait_for_function(
            "(step) => Number(document.querySelector('.table-page')?.dataset.step) > step",
            arg=step,
            timeout=PATIENCE_MS,
        )
        self.moves += 1
        return used

    def walk_story(self) -> None:
        """A story's dialog: Enter on its focused Next button until Done closes it."""
        for _ in range(200):
            if not self.page.locator(".story-walk").count():
                return
            seen = self.focus()
            assert seen["inDialog"], seen
            self.press_enter()
        raise AssertionError("the story did not end")

    def play_to_the_end(self, limit: int = 400) -> None:
        table = self.table
        used = None
        for _ in range(limit):
            wants = table.wait_ready()
            if wants == "over":
                return
            if wants == "story":
                self.walk_story()
                continue
            seen = self.focus()
            if used is not None:
                self.log.append((used, seen))
                zone, region = used
                # back to the seat's turn: the focus is on a choice already, by the control used
                assert seen["inPage"] and seen["live"], (used, seen)
                same = seen["zone"] == zone and (zone != "board" or seen["region"] == region)
                nearby = seen["zone"] in ("choices", "list", "board")
                assert same or nearby, (used, seen)
            used = self.play(table.rng.choice(table.legal()))
        raise AssertionError(f"no end after {limit} moves")


def start(base: str, page: Any, game: str, players: int, seed: int, **options: Any) -> Keyboard:
    body = {"game": game, "players": players, "seed": seed, "options": options}
    created = httpx.post(f"{base}/api/tables", json=body).json()
    page.goto(base + created["seats"][0]["link"])
    table = TableDriver(page, base)
    table.rng.seed(seed)
    return Keyboard(table)


@pytest.mark.parametrize(
    ("game", "players", "seed", "options"),
    [("espionage", 3, 21, {"city_limit": 1}), ("sandwich-guy", 1, 5, {})],
    ids=["espionage-with-two-bots", "sandwich-guy"],
)
def test_a_whole_game_by_keyboard_alone(web_server, new_page, game, players, seed, options):
    page = new_page()
    person = start(web_server.url, page, game, players, seed, **options)
    person.play_to_the_end()
    assert person.moves >= 5
    # every turn after the first began with the focus on a choice, none on the page's body
    assert len(person.log) == person.moves - 1
    # the same zone (and region) as the control used, most of the time
    same = sum(1 for used, seen in person.log if seen["zone"] == used[0])
    assert same >= len(person.log) * 0.6, person.log
    # at the end the focus is on the result, not lost
    end = person.focus()
    assert not end["body"], end
    assert page.locator("section.result").is_visible()
    assert not page.errors


def test_the_move_box_and_the_live_status_line_stay_the_same_elements(web_server, new_page):
    page = new_page()
    person = start(web_server.url, page, "sandwich-guy", 1, 12)
    table = person.table
    assert table.wait_ready() == "move"
    page.evaluate(
        """() => { window.__box = document.getElementById('notation');
                   window.__status = document.getElementById('status'); }"""
    )
    # the table's live regions: one, the status line
    live = page.evaluate(
        """() => [...document.querySelectorAll(
                 ['aria-live', 'role=status', 'role=alert', 'role=log']
                 .map((a) => `.table-page [${a}]`).join(', '))].map((e) => e.id)"""
    )
    assert live == ["status"]
    assert page.locator("#status").get_attribute("aria-live") == "polite"
    # typing: the box keeps the focus and stays the same element at every keystroke
    page.keyboard.press("/")
    first = table.legal()[0]["notation"]
    for i, char in enumerate(first.lower()):
        page.keyboard.type(char)
        same = page.evaluate(
            """() => document.activeElement === window.__box
                     && document.getElementById('notation') === window.__box"""
        )
        assert same, f"after {i + 1} characters"
    assert page.locator("#notation").input_value() == first.lower()
    assert page.locator(f'button.move[data-notation="{first}"]').count() == 1
    page.keyboard.press("Enter")
    texts = []
    for _ in range(3):
        assert table.wait_ready() == "move"
        texts.append(page.locator("#status").inner_text())
        assert page.evaluate("() => document.getElementById('status') === window.__status")
        table.play(table.legal()[-1])
    assert page.evaluate("() => document.getElementById('notation') === window.__box")
    assert len(set(texts)) == 3, texts  # the same element, its text updated: "Last: ..."
    assert all(t.startswith("Your move.") for t in texts), texts
    assert not page.errors
