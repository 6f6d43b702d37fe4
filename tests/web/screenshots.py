"""The README's screenshots, taken in headless Chromium from a real server (not a test).

    python -m tests.web.screenshots [OUT_DIR]     # default: docs/img

Each table is set up with a fixed seed and played some moves over the API first, so the
pictures show a game under way; the same command makes the same pictures.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

from spyglass.web.auth import HEADER
from tests.web.conftest import CHROMIUM_ARGS, Server, chromium_path
from tests.web.helpers import tokens
from tests.web.mapview import SPIES, draw, layout_json, legal_json, spies_state

#: name -> (game, players, options, seed, moves made first, viewport)
SHOTS = {
    "espionage": ("espionage", 4, {}, 7, 9, (1280, 860)),
    "dead-center": ("dead-center", 1, {}, 4, 12, (1280, 900)),
    "tinker-sailor-soldier-spy": ("tinker-sailor-soldier-spy", 1, {}, 3, 14, (1280, 760)),
    "phone-espionage": ("espionage", 4, {}, 7, 9, (390, 844)),
}


def advance(base: str, created: dict, moves: int, rng: random.Random) -> None:
    """Make ``moves`` moves at the table, each seat's from its own legal moves."""
    url = f"{base}/api/tables/{created['id']}"
    seat_tokens = tokens(created)
    for _ in range(moves):
        current = httpx.get(url).json()["table"]["current_player"]
        token = seat_tokens[current]
        legal = httpx.get(url, headers={HEADER: token}).json()["legal"]
        move = rng.choice(legal)["notation"]
        response = httpx.post(f"{url}/actions", headers={HEADER: token}, json={"action": move})
        response.raise_for_status()


def spies_map(browser, base: str, out: Path) -> Path:
    """The Spies! map at 1300 x 900, the moving spy's destinations outlined (the game is not
    in the catalogue yet, so its view is drawn on a page of its own)."""
    state = spies_state()
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    page.goto(f"{base}/healthz")
    view = state.view(state.current_player)
    draw(page, view, layout_json(SPIES), legal_json(state))
    path = out / "spies-map.png"
    page.locator(".region-map").screenshot(path=str(path))
    context.close()
    return path


def spies_table(browser, base: str, out: Path, seed: int = 5) -> Path:
    """A five-power Spies! table, every seat a person, played at random over the API to the
    first question put to a seat in another power's turn (a search of its spy, a chit against
    it, an offer) after the first year's tiles: that seat's whole page, banner on top."""
    seats = [{"kind": "human", "name": f"Player {i + 1}", "invite": False} for i in range(5)]
    body = {"game": "spies", "players": 5, "seed": seed, "seats": seats}
    created = httpx.post(f"{base}/api/tables", json=body).json()
    url = f"{base}/api/tables/{created['id']}"
    seat_tokens = tokens(created)
    rng = random.Random(seed)
    for _ in range(600):
        current = httpx.get(url).json()["table"]["current_player"]
        message = httpx.get(url, headers={HEADER: seat_tokens[current]}).json()
        table = message["view"]["table"]
        prompt = table["prompt"]
        if len(table["events"]) >= 3 and prompt and prompt["kind"] in ("react", "talks"):
            break
        move = rng.choice(message["legal"])["notation"]
        response = httpx.post(
            f"{url}/actions", headers={HEADER: seat_tokens[current]}, json={"action": move}
        )
        response.raise_for_status()
    link = next(s["link"] for s in created["seats"] if s["seat"] == current)
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    page.goto(base + link)
    page.wait_for_selector('.table-page[data-my-move="yes"]')
    path = out / "spies-table.png"
    page.screenshot(path=str(path), full_page=True)
    context.close()
    return path


def signed_up(browser, base: str, name: str, size: tuple[int, int] = (1280, 800)):
    """A browser context logged in as a new account ``name``, and its page."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    answer = page.request.post(
        f"{base}/api/account/signup",
        data={"name": name, "password": "correct horse battery"},
        headers={"X-Requested-With": "spyglass", "Origin": base},
    )
    assert answer.status == 201, answer.text()
    page.goto(f"{base}/")
    page.wait_for_selector("header.top .account-name")
    return context, page


def site_shots(browser, base: str, out: Path) -> list[Path]:
    """Issue 27's pictures: a table with names and clocks, the end of a game that time ended
    (ratings, the rematch), and Your games."""
    marlowe_ctx, marlowe = signed_up(browser, base, "Marlowe")
    vesper_ctx, vesper = signed_up(browser, base, "Vesper")
    paths = []
    # a table with names and clocks, some moves in
    body = {
        "game": "tinker-tailor",
        "players": 3,
        "seed": 8,
        "seats": [
            {"kind": "human", "invite": False},
            {"kind": "human", "name": "Guillam", "invite": False},
            {"kind": "human", "name": "Smiley", "invite": False},
        ],
        "clock": {"kind": "realtime", "seconds": 600, "increment": 5, "on_timeout": "bot"},
    }
    created = httpx.post(f"{base}/api/tables", json=body).json()
    advance(base, created, 4, random.Random(8))
    current = httpx.get(f"{base}/api/tables/{created['id']}").json()["table"]["current_player"]
    link = next(s["link"] for s in created["seats"] if s["seat"] == current)
    marlowe.goto(base + link)
    marlowe.wait_for_selector('.table-page[data-my-move="yes"] .clock.running')
    path = out / "table-names-clocks.png"
    marlowe.screenshot(path=str(path))
    paths.append(path)
    # a two-person game that time ends: the one to move first lets their 3 seconds run out
    body = {
        "game": "tinker-tailor",
        "players": 2,
        "seed": 11,
        "seats": [{"kind": "human", "invite": True}, {"kind": "human", "invite": True}],
        "clock": {"kind": "realtime", "seconds": 3, "on_timeout": "lose"},
    }
    created = httpx.post(f"{base}/api/tables", json=body).json()
    first = created["table"]["current_player"]
    links = {s["seat"]: base + s["link"] for s in created["seats"]}
    vesper.goto(links[first])
    marlowe.goto(links[1 - first])
    marlowe.wait_for_selector("#rematch")
    marlowe.wait_for_selector(".ratings-after")
    path = out / "rematch.png"
    marlowe.screenshot(path=str(path))
    paths.append(path)
    # a solo game of Marlowe's, waiting for his move; then Your games
    solo = httpx.post(f"{base}/api/tables", json={"game": "sandwich-guy", "seed": 3}).json()
    marlowe.goto(base + solo["seats"][0]["link"])
    marlowe.wait_for_selector('.table-page[data-my-move="yes"]')
    marlowe.goto(f"{base}/me")
    marlowe.wait_for_selector("section[aria-labelledby=finished-title] tbody tr")
    path = out / "your-games.png"
    marlowe.screenshot(path=str(path))
    paths.append(path)
    marlowe_ctx.close()
    vesper_ctx.close()
    return paths


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    path = chromium_path()
    if path is None:
        raise SystemExit("no Chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "shots.sqlite3")).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=path, headless=True, args=CHROMIUM_ARGS
                )
                for name, (game, players, options, seed, moves, size) in SHOTS.items():
                    body = {
                        "game": game,
                        "players": players,
                        "seed": seed,
                        "options": options,
                        # every seat a person, so the pictures do not wait on bots
                        "seats": [
                            {"kind": "human", "name": f"Player {i + 1}", "invite": False}
                            for i in range(players)
                        ],
                    }
                    created = httpx.post(f"{server.url}/api/tables", json=body).json()
                    advance(server.url, created, moves, random.Random(seed))
                    current = httpx.get(f"{server.url}/api/tables/{created['id']}").json()
                    seat = current["table"]["current_player"]
                    link = next(s["link"] for s in created["seats"] if s["seat"] == seat)
                    width, height = size
                    context = browser.new_context(
                        viewport={"width": width, "height": height},
                        device_scale_factor=2 if width < 600 else 1,
                    )
                    page = context.new_page()
                    page.goto(server.url + link)
                    page.wait_for_selector('.table-page[data-my-move="yes"]')
                    page.screenshot(path=str(out / f"{name}.png"))
                    print(out / f"{name}.png")
                    context.close()
                print(spies_map(browser, server.url, out))
                print(spies_table(browser, server.url, out))
                for shot in site_shots(browser, server.url, out):
                    print(shot)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
