"""Driving the front-end in a real browser as a person would: the lobby's forms, and a table
played by clicking the cards and places of each move (the list of moves only when the board
cannot express a move). Every wait is on something the page shows, never on a clock."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from spyglass.web.assets import Assets
from spyglass.web.auth import HEADER

#: How long a page may take to show what a step waits for (a generous bound, not a timing).
PATIENCE_MS = 60_000

_ASSETS = Assets()
#: The board kit (renderer and move controller as a module) and the tables' style sheet, by
#: their hashed addresses (the server process under test serves the same build).
KIT = _ASSETS.url("board.js")
TABLE_CSS = _ASSETS.url("table.css")

#: axe-core from the npm package the front-end's build installs (make test: npm ci): put into
#: each page by the browser itself before the page's scripts, never fetched from elsewhere.
AXE = Path(__file__).resolve().parents[2] / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
#: Every breach of the Content-Security-Policy a page commits, kept for the test to read.
WATCH_CSP = """document.addEventListener('securitypolicyviolation', (e) => {
  (window.__csp = window.__csp || []).push(`${e.violatedDirective} ${e.blockedURI}`);
});"""
#: axe's rules, all of them but the experimental; the findings as plain data.
AXE_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}"""


def audit(page: Any) -> None:
    """Make ``page`` (before it loads anything) carry axe and record policy breaches, and the
    errors its console shows (``page.console_errors``: a request that failed shows there too,
    and costs the page Lighthouse's best-practices marks)."""
    page.context.add_init_script(path=str(AXE))
    page.context.add_init_script(WATCH_CSP)
    page.console_errors = []
    page.on(
        "console",
        lambda message: (
            page.console_errors.append(f"{message.text} ({message.location.get('url')})")
            if message.type == "error"
            else None
        ),
    )


def axe_findings(page: Any, impacts: tuple[str, ...] = ("critical", "serious", "moderate")) -> list:
    """What axe finds on the page as it is now, of the given impacts."""
    return [v for v in page.evaluate(AXE_RUN) if v["impact"] in impacts]


def csp_breaches(page: Any) -> list[str]:
    return page.evaluate("() => window.__csp || []")


def open_lobby_form(page: Any, base: str, game_id: str) -> None:
    page.goto(f"{base}/")
    page.locator(f'article.game-card[data-game="{game_id}"] button.primary').click()
    page.wait_for_selector("form.new-table")


def set_seats(page: Any, players: int, who: dict[int, str]) -> None:
    """Players and who sits where: "here", "invite" or "bot" (seats not given: the default)."""
    page.select_option("#players", str(players))
    for seat, kind in who.items():
        page.select_option(f'select[name="who-{seat}"]', kind)


def start_table(page: Any) -> None:
    page.locator('form.new-table button[type="submit"]').click()


def table_id_of(page: Any) -> str:
    match = re.search(r"/table/([^/#?]+)", page.url)
    assert match, page.url
    return match.group(1)


def click_place(place: Any) -> None:
    """Click a place as a person would: a map place on its dot (the middle of its group may be
    bare map). If a neighbour's name or pieces lie over the dot, the click goes to the place
    itself, as the keyboard's Enter on it would (a real click there would choose the
    neighbour)."""
    dot = place.locator("circle.place-hit")
    if not dot.count():
        place.click()
        return
    try:
        dot.click(timeout=1500, trial=True)  # the checks only: is the dot the click's target?
    except Exception as covered:  # Playwright's TimeoutError: another mark is on top
        if "Timeout" not in type(covered).__name__:
            raise
        place.dispatch_event("click")
    else:
        dot.click()


def css_string(text: str) -> str:
    """``text`` as a CSS string, for an attribute selector."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass
class TableDriver:
    """One browser page at one table."""

    page: Any
    base: str
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    #: How the moves were made: by clicking cards, a place, a button by the board ("choice"),
    #: or in the list of moves: "list" for a move the board offered too, "only-list" else.
    by: dict[str, int] = field(
        default_factory=lambda: {"cards": 0, "place": 0, "choice": 0, "list": 0, "only-list": 0}
    )
    #: the notations of the moves made from the list (for failure messages)
    from_list: list[str] = field(default_factory=list)
    stories: int = 0

    @property
    def table_id(self) -> str:
        return table_id_of(self.page)

    def attr(self, name: str) -> str:
        value = self.page.locator(".table-page").get_attribute(f"data-{name}")
        assert value is not None, name
        return value

    @property
    def step(self) -> int:
        return int(self.attr("step"))

    def tokens(self) -> dict[int, str]:
        raw = self.page.evaluate(
            "(id) => localStorage.getItem('spyglass.seats.' + id)", self.table_id
        )
        return {int(k): v for k, v in json.loads(raw or "{}").items()}

    def wait_ready(self) -> str:
        """Wait until the page wants something: "story", "cover", "move" or "over"."""
        self.page.wait_for_function(
            """() => {
              if (document.querySelector('.story-walk') || document.querySelector('#show-hand'))
                return true;
              const t = document.querySelector('.table-page');
              return t && (t.dataset.over === 'yes' || (t.dataset.myMove === 'yes'
                && !document.querySelector('.regions.pending')));
            }""",
            timeout=PATIENCE_MS,
        )
        if self.page.locator(".story-walk").count():
            return "story"
        if self.page.locator("#show-hand").count():
            return "cover"
        return "over" if self.attr("over") == "yes" else "move"

    def wait_for_step(self, step: int) -> str:
        """Wait until the page shows ``step`` with a move to make ("move"), or a story."""
        self.page.wait_for_function(
            """(step) => {
              if (document.querySelector('.story-walk')) return true;
              const t = document.querySelector('.table-page');
              return t && Number(t.dataset.step) === step && t.dataset.myMove === 'yes'
                && !document.querySelector('.regions.pending');
            }""",
            arg=step,
            timeout=PATIENCE_MS,
        )
        return "story" if self.page.locator(".story-walk").count() else "move"

    def walk_story(self) -> int:
        """Step through the story on screen to its end; returns how many steps it had."""
        dialog = self.page.locator(".story-walk")
        steps = 0
        while dialog.count():
            steps += 1
            button = dialog.locator("button.primary")
            done = button.inner_text().strip() == "Done"
            button.click()
            if done:
                break
        self.page.wait_for_selector(".story-walk", state="detached")
        self.stories += 1
        return steps

    def legal(self) -> list[dict[str, Any]]:
        """The moves of the seat on screen, as the server lists them for that seat."""
        seat = int(self.attr("seat"))
        token = self.tokens()[seat]
        message = httpx.get(
            f"{self.base}/api/tables/{self.table_id}", headers={HEADER: token}
        ).json()
        assert message["seat"] == seat
        return message["legal"]

    def played(self, step: int) -> bool:
        """Whether the move left: the board waits for the server, the server answered, or
        (hot-seat) the pass-the-device screen went up over the next seat's turn."""
        return bool(
            self.page.evaluate(
                """(step) => {
                  const t = document.querySelector('.table-page');
                  return !t || Number(t.dataset.step) > step
                    || !!document.querySelector('#show-hand')
                    || !!document.querySelector('.regions.pending');
                }""",
                step,
            )
        )

    def place_for(self, target: Any) -> Any:
        """The highlighted place that names ``target``, if one does (a locator by the place's
        name, which stays right if the page draws again or a hovered place comes forward)."""
        places = self.page.locator(".board .can[data-place]")
        found = places.evaluate_all(
            "(els) => els.map((e) => [e.dataset.place || '', e.dataset.id || ''])"
        )
        names = [name for name, _ in found]
        if not names:
            return None

        def by_name(i: int) -> Any:
            return self.page.locator(f".board .can[data-place={css_string(names[i])}]").first

        if len(names) == 1:
            return by_name(0)
        if isinstance(target, list) and len(target) > 1:
            # a piece (or a value) and where it goes: the place its last item names, as the
            # page's move controller finds it (a map place by its label or its id)
            last = str(target[-1]).strip().lower()
            for i, (name, ident) in enumerate(found):
                if last in (name.strip().lower(), ident.strip().lower()):
                    return by_name(i)
        wanted = ",".join(map(str, target)) if isinstance(target, list) else str(target)
        for i, name in enumerate(names):
            if name.strip().lower() == wanted.lower():
                return by_name(i)
        if isinstance(target, int):
            number = re.compile(rf"(?<![0-9]){target}(?![0-9a-z])", re.IGNORECASE)
            for i, name in enumerate(names):
                if number.search(name):
                    return by_name(i)
        return None

    def play(self, move: dict[str, Any]) -> str:
        """Make ``move`` by clicking its cards, then its place; by the list if need be.
        Returns how: "cards", "place" or "list"."""
        page = self.page
        step = self.step
        how = None
        for label in move["labels"]:
            card = page.locator(f'.board .cardwrap.can[data-card="{label}"]')
            if not card.count():
                break
            # near the top left corner: what shows of a card in a fan or a stack
            card.first.click(position={"x": 8, "y": 6})
            if self.played(step):
                how = "cards"
                break
        if how is None and move["target"] is not None:
            place = self.place_for(move["target"])
            if place is not None:
                click_place(place)
                if self.played(step):
                    how = "place"
        if how is None:
            # the buttons by the board: the ways to finish the choice, or moves off the board
            choice = page.locator(f'.choice-bar button[data-notation="{move["notation"]}"]')
            if choice.count():
                choice.click()
                how = "choice"
        if how is None:
            if page.locator(".board .sel").count():
                page.keyboard.press("Escape")
            page.locator(f'button.move[data-notation="{move["notation"]}"]').click()
            how = "list" if move["labels"] or move["target"] is not None else "only-list"
            self.from_list.append(move["notation"])
        # the next state: a later step, or (hot-seat) the pass-the-device screen over it
        page.wait_for_function(
            """(step) => {
              const t = document.querySelector('.table-page');
              return document.querySelector('#show-hand') || (t && Number(t.dataset.step) > step);
            }""",
            arg=step,
            timeout=PATIENCE_MS,
        )
        self.by[how] += 1
        return how

    def play_to_the_end(self, choose: Any = None, limit: int = 2000) -> None:
        """Play every move of the seats this page holds until the game is over."""
        for _ in range(limit):
            wants = self.wait_ready()
            if wants == "over":
                return
            if wants == "story":
                self.walk_story()
            elif wants == "cover":
                self.page.locator("#show-hand").click()
            else:
                legal = self.legal()
                self.play(choose(legal) if choose else self.rng.choice(legal))
        raise AssertionError(f"no end after {limit} moves")
