"""Lighthouse's scores for the web pages: the lobby and the tables issue 31 measured.

    python benchmarks/web_lighthouse.py [--lighthouse CMD] [--url URL] [--json FILE]

It starts ``spyglass serve`` on a free loopback port with a fresh SQLite database (or uses the
server at ``--url``), sets up a Dead Center; a Tinker, Sailor, Soldier, Spy; a four-seat
Espionage and a three-seat Spies! table, and runs Lighthouse on the lobby and each table (seat
0's invite link) with Debian's Chromium, printing the four category scores of each page and
the audits that did not pass in full.

Lighthouse is not a dependency of spyglass: install it once where you like (``npm install -g
lighthouse@12``, or ``npm install --prefix DIR lighthouse@12`` and pass ``--lighthouse
DIR/node_modules/.bin/lighthouse``). Its defaults apply: a mobile screen, simulated slow 4G and
a 4x slower CPU for the performance score. The target of issue 31: accessibility 100 on every
page.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# run as a script, this folder is on the path: the server and tables of the first-paint benchmark
from web_first_paint import chromium, create_tables, start_server

CATEGORIES = ("accessibility", "best-practices", "seo", "performance")


def lighthouse(command: list[str], url: str, out: Path) -> dict:
    flags = "--headless=new --no-sandbox --disable-gpu --no-first-run"
    run = subprocess.run(
        [
            *command,
            url,
            f"--chrome-path={chromium()}",
            f"--chrome-flags={flags}",
            f"--only-categories={','.join(CATEGORIES)}",
            "--output=json",
            f"--output-path={out}",
            "--quiet",
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if run.returncode != 0 or not out.exists():
        sys.exit(f"lighthouse failed on {url}:\n{run.stderr[-2000:]}")
    return json.loads(out.read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", help="the command that runs Lighthouse")
    parser.add_argument("--url", help="use this running server instead of starting one")
    parser.add_argument("--json", type=Path, help="also write the scores to this file")
    args = parser.parse_args()
    command = shlex.split(args.lighthouse) if args.lighthouse else None
    if command is None:
        found = shutil.which("lighthouse")
        if not found:
            sys.exit("no lighthouse: npm install -g lighthouse@12, or pass --lighthouse CMD")
        command = [found]

    tmp = tempfile.TemporaryDirectory(prefix="spyglass-lighthouse-")
    process = None
    if args.url:
        url = args.url.rstrip("/")
    else:
        process, url = start_server(str(Path(tmp.name) / "bench.sqlite3"))
    try:
        pages = {"lobby": f"{url}/", **create_tables(url)}
        scores = {}
        for name, address in pages.items():
            report = lighthouse(command, address, Path(tmp.name) / f"{name}.json")
            cats = report["categories"]
            scores[name] = {c: round(cats[c]["score"] * 100) for c in CATEGORIES}
            failing = sorted(
                audit_id
                for c in CATEGORIES
                for ref in cats[c]["auditRefs"]
                if ref["weight"] > 0
                and (audit_id := ref["id"])
                and report["audits"][audit_id]["score"] is not None
                and report["audits"][audit_id]["score"] < 1
            )
            scores[name]["not in full"] = failing
            print(f"  measured {name}", file=sys.stderr, flush=True)
    finally:
        if process is not None:
            process.terminate()
            process.wait(15)
        tmp.cleanup()

    print(f"Lighthouse {lighthouse_version(command)}, load average {os.getloadavg()[0]:.1f}")
    print(f"{'page':28} " + " ".join(f"{c:>14}" for c in CATEGORIES))
    for name, s in scores.items():
        print(f"{name:28} " + " ".join(f"{s[c]:>14}" for c in CATEGORIES))
    for name, s in scores.items():
        if s["not in full"]:
            print(f"{name}: audits short of full marks: {', '.join(s['not in full'])}")
    if args.json:
        args.json.write_text(json.dumps(scores, indent=1))


def lighthouse_version(command: list[str]) -> str:
    run = subprocess.run(
        [*command, "--version"], check=False, capture_output=True, text=True, timeout=60
    )
    return run.stdout.strip()


if __name__ == "__main__":
    main()
