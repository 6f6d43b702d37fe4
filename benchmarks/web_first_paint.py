"""How fast the web pages draw, and how many bytes they cost, in headless Chromium on loopback.

    python benchmarks/web_first_paint.py [--loads 5] [--draw 10] [--requests] [--url URL]
                                         [--json FILE]

It starts ``spyglass serve`` on a free loopback port with a fresh SQLite database (or uses the
server at ``--url``), sets up the tables that issue 31 measured (Dead Center; Tinker, Sailor,
Soldier, Spy; Espionage with 4 players; Spies! with 3), and opens the lobby and each table
``--loads`` times in a fresh browser context (a cold load: empty cache, no connection kept
open), then once more in the same context (a warm load: what a returning visitor fetches).

For each page it prints the median of the cold loads of

- *drawn*: milliseconds from the start of the navigation until the page first holds the table
  (the lobby: its game list), and *painted*, the end of the frame after that;
- *ws*: when the page created its WebSocket, and how many requests it made before that (scripts
  and styles that had to arrive first: a waterfall of modules shows up here); *state*: when the
  first state message arrived on it (what is left after it, to *drawn*, is the page's own
  work: waiting for its code, building the table);
- the bytes that crossed the wire (every response's transfer size, headers included: the page,
  its scripts and styles, and its JSON fetches; not the WebSocket), cold and warm, and the
  bytes of the page's own files (HTML, scripts, styles, icon) as sent and as decoded;
- for each table, its critical path: when its style sheet and scripts were in, and the page's
  own marks (frontend/src/marks.js: the head's script ran, the hello went, the first message
  came, the entry module ran, the table's code ran, the drawing began and ended), so that
  what a cold load waits for can be read off;
- with ``--draw N``, the board alone drawn by the board kit in a page, the first time (its
  code cold) and the median of N more (the kit of this Python's build: with ``--url``, the
  server must run the same sources).

The harness runs nothing of its own in the page before the page is painted: it waits for the
probe's console message (Playwright's ``wait_for_function`` compiles a large injected script
on the page's main thread, about 100 ms under load, in the middle of the first drawing).

Target (issue 31): the first table drawn in under 250 ms, median of 5 cold loads. The browser
is Debian's Chromium (``SPYGLASS_TEST_CHROMIUM`` or ``chromium`` on the path) driven by
Playwright for Python; nothing is downloaded. Every connection goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

from spyglass.web.assets import Assets

TARGET_MS = 250.0
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

#: name -> (game, players, options, seed)
TABLES = {
    "dead-center": ("dead-center", 1, {}, 4),
    "tinker-sailor-soldier-spy": ("tinker-sailor-soldier-spy", 1, {}, 3),
    "espionage-4": ("espionage", 4, {}, 7),
    "spies-3": ("spies", 3, {}, 5),
}

#: What the probe writes to the console once the page is painted: the harness waits for it
#: there, so that nothing of its own runs in the page before then (Playwright's
#: ``wait_for_function`` would compile its injected script, ~100 ms of the page's main thread,
#: in the middle of the page's first drawing).
DONE = "spyglass-first-paint-done"

#: Runs before any script of the page: notes when the WebSocket is made and when the page first
#: holds what it is for (a table's regions, the lobby's games), then the end of the next frame.
PROBE = r"""
(() => {
  const DONE = '@DONE@';
  const marks = (window.__firstPaint = { ws: null, state: null, drawn: null, painted: null });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (marks.ws === null) marks.ws = performance.now();
      this.addEventListener('message', (event) => {
        const first = marks.state === null && /^\{"type": ?"state"/.test(event.data);
        if (first) marks.state = performance.now();
      });
    }
  };
  const wanted = '.table-page .regions .region, .game-list .game-card';
  const check = () => {
    if (marks.drawn !== null || !document.querySelector(wanted)) return;
    marks.drawn = performance.now();
    requestAnimationFrame(() => setTimeout(() => {
      marks.painted = performance.now();
      console.debug(DONE);
    }, 0));
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();
""".replace("@DONE@", DONE)

COLLECT = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const entries = [nav, ...performance.getEntriesByType('resource')].map((e) => ({
    name: e.name, type: e.initiatorType || 'navigation', start: e.startTime, end: e.responseEnd,
    transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize,
  }));
  const steps = Object.fromEntries(performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('spyglass:'))
    .map((m) => [m.name.slice('spyglass:'.length), m.startTime]));
  return { marks: window.__firstPaint, entries, steps };
}"""

#: The page's own marks of its critical path (frontend/src/marks.js), in the order they come:
#: the head's script ran, the hello went, the first message came, the entry module ran, the
#: table's code ran, the first drawing began, the table was in the page.
STEPS = ("head", "hello", "first-message", "entry", "table-code", "draw", "drawn")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def chromium() -> str:
    path = os.environ.get("SPYGLASS_TEST_CHROMIUM") or shutil.which("chromium")
    if not path or not os.path.exists(path):
        sys.exit("no Chromium: apt-get install chromium (or set SPYGLASS_TEST_CHROMIUM)")
    return path


def start_server(db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "spyglass", "serve", "--port", str(port), "--db", db]
    command += ["--bot-delay", "0", "--bot-workers", "1"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit("the server exited at start-up")
        try:
            if httpx.get(f"{url}/healthz", timeout=1.0).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    sys.exit("the server did not start in 60 s")


def create_tables(url: str) -> dict[str, str]:
    """The address of each table: its seat 0's link (the creator's seat, with its token in the
    fragment)."""
    links = {}
    for name, (game, players, options, seed) in TABLES.items():
        body = {"game": game, "players": players, "options": options, "seed": seed}
        response = httpx.post(f"{url}/api/tables", json=body, timeout=60)
        response.raise_for_status()
        links[name] = url + response.json()["seats"][0]["link"]
    return links


#: The drawing alone: the board of one state drawn ``times`` times over in one page with the
#: board kit (the table page's own renderer), each into a fresh element of the page.
DRAW = """async ({ kit, view, layout, times }) => {
  const { renderTable } = await import(kit);
  const took = [];
  for (let i = 0; i < times; i++) {
    const box = document.createElement('div');
    document.body.append(box);
    const start = performance.now();
    renderTable(box, view, layout);
    took.push(performance.now() - start);
    box.remove();
  }
  return took;
}"""


def drawing(
    browser: Any, url: str, links: dict[str, str], times: int
) -> dict[str, tuple[float, float]]:
    """Median milliseconds of drawing each table's board (its first seat's view), ``times``
    times in one page, after a few rounds that compile the code. The board kit's address is
    this Python's build's (the server started here runs the same sources). Returns, per table,
    (the first drawing in a fresh page: its code cold, as on a cold load; the median of the
    next ``times``)."""
    kit = Assets().url("board.js")
    out = {}
    for name, link in links.items():
        context = browser.new_context(viewport={"width": 1300, "height": 900})
        page = context.new_page()
        page.goto(f"{url}/")
        table_id = link.split("/table/", 1)[1].split("#", 1)[0]
        token = link.split("token=", 1)[1]
        state = httpx.get(
            f"{url}/api/tables/{table_id}", headers={"X-Seat-Token": token}, timeout=60
        ).json()
        game = httpx.get(f"{url}/api/games/{state['table']['game']}", timeout=60).json()
        args = {"kit": kit, "view": state["view"], "layout": game["layout"]}
        first = page.evaluate(DRAW, {**args, "times": 1})[0]
        page.evaluate(DRAW, {**args, "times": 3})
        out[name] = (first, statistics.median(page.evaluate(DRAW, {**args, "times": times})))
        context.close()
    return out


def own_file(entry: dict[str, Any], url: str) -> bool:
    """The page itself and its static files, not its API calls."""
    path = entry["name"][len(url) :] if entry["name"].startswith(url) else ""
    return not path.startswith("/api/")


def load(context: Any, address: str, url: str) -> dict[str, Any]:
    page = context.new_page()
    with page.expect_console_message(lambda message: message.text == DONE):
        page.goto(address, wait_until="commit")
    data = page.evaluate(COLLECT)
    page.close()
    marks, entries = data["marks"], data["entries"]
    ws = marks["ws"]
    own = [e for e in entries if own_file(e, url)]
    # when the last script and the style sheet had arrived
    static = [e["end"] for e in entries if "/static/" in e["name"] and e["type"] != "img"]
    return {
        "drawn": marks["drawn"],
        "painted": marks["painted"],
        "ws": ws,
        "state": marks["state"],
        "before_ws": sum(1 for e in entries if ws is not None and e["end"] <= ws),
        "requests": len(entries),
        "transfer": sum(e["transfer"] for e in entries),
        "own_sent": sum(e["encoded"] for e in own),
        "own_decoded": sum(e["decoded"] for e in own),
        "entries": entries,
        "steps": data["steps"],
        "files_in": max(static) if static else None,
    }


def measure(browser: Any, address: str, url: str, loads: int) -> dict[str, Any]:
    cold = []
    warm = None
    for i in range(loads):
        context = browser.new_context(viewport={"width": 1300, "height": 900})
        context.add_init_script(PROBE)
        cold.append(load(context, address, url))
        if i == loads - 1:
            # the same person again: the invite link's token is in storage now
            warm = load(context, address.split("#", 1)[0], url)
        context.close()

    def median(key: str) -> float | None:
        values = [c[key] for c in cold if c[key] is not None]
        return statistics.median(values) if values else None

    return {
        "drawn": median("drawn"),
        "drawn_all": [round(c["drawn"], 1) for c in cold],
        "painted": median("painted"),
        "ws": median("ws"),
        "state": median("state"),
        "before_ws": median("before_ws"),
        "requests": median("requests"),
        "cold_transfer": median("transfer"),
        "warm_transfer": warm["transfer"] if warm else None,
        "warm_drawn": warm["drawn"] if warm else None,
        "own_sent": median("own_sent"),
        "own_decoded": median("own_decoded"),
        "last_cold": cold[-1]["entries"],
        "files_in": median("files_in"),
        "steps": {
            step: statistics.median(c["steps"][step] for c in cold)
            for step in STEPS
            if all(step in c["steps"] for c in cold)
        },
    }


def kb(n: float | None) -> str:
    return "-" if n is None else f"{n / 1000:.1f}"


def ms(n: float | None) -> str:
    return "-" if n is None else f"{n:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="cold loads per page (default 5)")
    parser.add_argument("--url", help="use this running server instead of starting one")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--requests", action="store_true", help="list each page's requests")
    parser.add_argument(
        "--draw",
        type=int,
        default=0,
        metavar="N",
        help="also time the drawing alone: each table's board drawn N times in one page",
    )
    args = parser.parse_args()

    process = None
    tmp = tempfile.TemporaryDirectory(prefix="spyglass-first-paint-")
    if args.url:
        url = args.url.rstrip("/")
    else:
        process, url = start_server(str(Path(tmp.name) / "bench.sqlite3"))
    try:
        pages = {"lobby": f"{url}/", **create_tables(url)}
        results = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium(), headless=True, args=CHROMIUM_ARGS
            )
            # one throw-away load: the server's first requests warm its own caches
            warmup = browser.new_context()
            warmup.add_init_script(PROBE)
            load(warmup, pages["dead-center"], url)
            warmup.close()
            for name, address in pages.items():
                results[name] = measure(browser, address, url, args.loads)
                print(f"  measured {name}", file=sys.stderr, flush=True)
            tables = {name: link for name, link in pages.items() if name != "lobby"}
            drawn_alone = drawing(browser, url, tables, args.draw) if args.draw else {}
            browser.close()
    finally:
        if process is not None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
        tmp.cleanup()

    load_avg = os.getloadavg()
    print(f"first paint and transfer, median of {args.loads} cold loads (ms; kB = 1000 bytes)")
    print(f"load average {load_avg[0]:.2f} {load_avg[1]:.2f} {load_avg[2]:.2f}")
    head = (
        f"{'page':28} {'drawn':>6} {'painted':>7} {'ws':>5} {'state':>5} {'req<ws':>6} {'req':>4}"
        f" {'cold kB':>8} {'warm kB':>8} {'files sent':>10} {'decoded':>8}"
    )
    print(head)
    for name, r in results.items():
        print(
            f"{name:28} {ms(r['drawn']):>6} {ms(r['painted']):>7} {ms(r['ws']):>5}"
            f" {ms(r['state']):>5}"
            f" {r['before_ws'] if r['ws'] is not None else '-':>6} {r['requests']:>4.0f}"
            f" {kb(r['cold_transfer']):>8} {kb(r['warm_transfer']):>8}"
            f" {kb(r['own_sent']):>10} {kb(r['own_decoded']):>8}"
        )
    tables = [r["drawn"] for n, r in results.items() if n != "lobby" and r["drawn"] is not None]
    worst = max(tables) if tables else None
    print("\nthe critical path, median ms of the cold loads (files: style sheet and scripts in)")
    print(f"{'page':28} {'files':>6} " + " ".join(f"{s:>8}" for s in STEPS))
    for name, r in results.items():
        if name == "lobby":
            continue
        steps = " ".join(f"{ms(r['steps'].get(s)):>8}" for s in STEPS)
        print(f"{name:28} {ms(r['files_in']):>6} {steps}")
    if drawn_alone:
        print(f"\nthe board drawn alone in a page (ms): the first time, median of {args.draw} more")
        for name, (first, took) in drawn_alone.items():
            print(f"{name:28} {first:6.1f} {took:6.1f}")
    verdict = "meets" if worst is not None and worst < TARGET_MS else "misses"
    print(f"slowest table: {ms(worst)} ms drawn ({verdict} the {TARGET_MS:.0f} ms target)")
    if args.requests:
        for name, r in results.items():
            print(f"\n{name}: the last cold load's requests (start-end ms, bytes sent/decoded)")
            for e in r["last_cold"]:
                short = e["name"].replace(url, "")
                print(
                    f"  {e['start']:7.1f}-{e['end']:7.1f} {e['transfer']:>7} {e['encoded']:>7}"
                    f" {e['decoded']:>7} {e['type']:10} {short}"
                )
    if args.json:
        args.json.write_text(json.dumps({**results, "drawn_alone": drawn_alone}, indent=1))


if __name__ == "__main__":
    main()
