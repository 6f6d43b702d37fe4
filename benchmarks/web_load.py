"""Load on the web server: many concurrent tables of bot-driven WebSocket clients, on loopback.

    python benchmarks/web_load.py [--tables 100] [--moves 30] [--think 1.0] [--db PATH|URL]
                                  [--games GAME ...] [--url http://127.0.0.1:PORT]

It starts ``spyglass serve`` on a free loopback port with a fresh SQLite database (or uses the
server at ``--url``), then keeps ``--tables`` tables playing at once. Every human seat of every
table is a WebSocket client driven by a bot: it waits a think time (uniform, mean ``--think``
seconds, as a person would), sends a random legal move and measures the *action latency*: from
sending the move to receiving its own next state, which the server sends only after it has
checked the move, committed it to the database and built every seat's view. A table that ends
before its ``--moves`` moves is replaced by a new one of the same game.

It prints p50/p90/p99/max latency, actions per second, errors (refused moves, failed requests,
dropped connections) and the server's memory (resident set of the server and of its bot
workers, at the end and at the peak). Target (issue 7): p99 under 50 ms with no errors for 100
tables. Every connection goes to 127.0.0.1 only, and the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

import spyglass

TARGET_P99_MS = 50.0
QUICK_OPTIONS = {"espionage": {"game_length": "short"}}
#: Multiplayer tables: this many seats, every one a client.
PLAYERS = {"espionage": 4}


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)  # seconds
    errors: list[str] = field(default_factory=list)
    tables: int = 0
    finished: int = 0
    elapsed: float = 0.0  # seconds
    peak_rss: int = 0  # KiB, the highest resident set seen while running


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def memory_kib(pid: int) -> tuple[int, int]:
    """(resident now, peak resident) of a process and its children, in KiB (Linux /proc)."""
    now = peak = 0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        try:
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                now += int(line.split()[1])
            elif line.startswith("VmHWM:"):
                peak += int(line.split()[1])
    return now, peak


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used, in seconds (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(db: str, port: int, log_path: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "spyglass", "serve", "--port", str(port), "--db", db]
    with log_path.open("wb") as log:
        process = subprocess.Popen([*command, "--bot-workers", "1"], stdout=log, stderr=log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited:\n{log_path.read_text(errors='replace')}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start within 60 s")


class Seat:
    """One WebSocket client: a bot in one human seat."""

    def __init__(self, ws, seat: int, rng: random.Random, think: float, figures: Figures):
        self.ws = ws
        self.seat = seat
        self.rng = rng
        self.think = think
        self.figures = figures
        self.latest: dict | None = None
        self.sent_at: float | None = None
        self.sent_step = -1

    async def run(self, budget: list[int]) -> None:
        """Play this seat until the game ends or the table's move budget is spent."""
        while True:
            message = json.loads(await self.ws.recv())
            kind = message.get("type")
            if kind == "error":
                self.figures.errors.append(f"seat {self.seat}: {message.get('error')}")
                self.sent_at = None
                continue
            if kind != "state":
                continue
            step = message["view"]["step"]
            if self.sent_at is not None and step > self.sent_step:
                self.figures.latencies.append(time.perf_counter() - self.sent_at)
                self.sent_at = None
            self.latest = message
            if message["view"]["over"]:
                self.figures.finished += self.seat == 0
                return
            if budget[0] <= 0:
                return
            if message["legal"] and self.sent_at is None:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                budget[0] -= 1
                move = self.rng.choice(message["legal"])["notation"]
                self.sent_step = step
                self.sent_at = time.perf_counter()
                await self.ws.send(json.dumps({"type": "act", "action": move, "step": step}))


async def table_slot(
    index: int,
    base: str,
    game: str,
    *,
    moves: int,
    think: float,
    figures: Figures,
    http: httpx.AsyncClient,
) -> None:
    """Keep one table playing until ``moves`` moves were made at it (new tables as needed)."""
    rng = random.Random(index)
    budget = [moves]
    ws_base = base.replace("http://", "ws://")
    while budget[0] > 0:
        players = PLAYERS.get(game, spyglass.load(game).info.players[0])
        body = {
            "game": game,
            "players": players,
            "seats": [{"kind": "human"} for _ in range(players)],
            "options": QUICK_OPTIONS.get(game, {}),
            "seed": rng.randrange(2**31),
        }
        try:
            response = await http.post(f"{base}/api/tables", json=body)
            response.raise_for_status()
        except httpx.HTTPError as error:
            figures.errors.append(f"create {game}: {error!r}")
            return
        created = response.json()
        figures.tables += 1
        url = f"{ws_base}/api/tables/{created['id']}/ws"
        sockets = []
        try:
            for seat in created["seats"]:
                ws = await websockets.connect(url, max_size=2**22)
                await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
                sockets.append(Seat(ws, seat["seat"], rng, think, figures))
            await asyncio.gather(*(s.run(budget) for s in sockets))
        except (OSError, websockets.WebSocketException) as error:
            figures.errors.append(f"table {created['id']}: {error!r}")
            return
        finally:
            for s in sockets:
                await s.ws.close()
        if not (sockets and sockets[0].latest and sockets[0].latest["view"]["over"]):
            return  # the budget ran out mid-game


async def run(args: argparse.Namespace, base: str, server_pid: int | None) -> Figures:
    figures = Figures()
    games = args.games or spyglass.games.REGISTRY.ids()
    peak = [0, 0]

    async def watch_memory() -> None:
        while server_pid is not None:
            now, _ = memory_kib(server_pid)
            peak[0] = max(peak[0], now)
            await asyncio.sleep(0.5)

    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        watcher = asyncio.create_task(watch_memory())
        started = time.perf_counter()
        slots = [
            table_slot(
                i,
                base,
                games[i % len(games)],
                moves=args.moves,
                think=args.think,
                figures=figures,
                http=http,
            )
            for i in range(args.tables)
        ]
        await asyncio.wait_for(asyncio.gather(*slots), timeout=args.timeout)
        figures.elapsed = time.perf_counter() - started
        watcher.cancel()
    figures.peak_rss = peak[0]
    return figures


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables playing at once")
    parser.add_argument("--moves", type=int, default=30, help="moves made at each table")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--db", help="database for the server (default: a fresh SQLite file)")
    parser.add_argument("--url", help="use the server at this loopback address instead")
    parser.add_argument("--timeout", type=float, default=600, help="stop after this many s")
    args = parser.parse_args()

    process = None
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            base = args.url.rstrip("/")
            host = httpx.URL(base).host
            if host not in ("127.0.0.1", "localhost", "::1"):
                raise SystemExit("this benchmark only talks to a server on loopback")
        else:
            port = free_port()
            db = args.db or str(Path(tmp) / "load.sqlite3")
            process = start_server(db, port, Path(tmp) / "server.log")
            base = f"http://127.0.0.1:{port}"
        try:
            cpu_before = cpu_seconds(process.pid) if process else 0.0
            figures = asyncio.run(run(args, base, process.pid if process else None))
            memory = memory_kib(process.pid) if process else None
            cpu = cpu_seconds(process.pid) - cpu_before if process else None
        finally:
            if process is not None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()

    lat = [x * 1000 for x in figures.latencies]

    print(f"web load: {args.tables} concurrent tables, {len(lat)} actions over WebSocket")
    print(
        f"  tables played {figures.tables} (finished {figures.finished}), "
        f"{figures.elapsed:.1f} s, {len(lat) / figures.elapsed:.1f} actions/s, "
        f"think time {args.think:.2f} s (mean)"
    )
    if lat:
        print(
            f"  action latency: p50 {statistics.median(lat):.1f} ms, "
            f"p90 {quantile(lat, 0.90):.1f} ms, p99 {quantile(lat, 0.99):.1f} ms, "
            f"max {max(lat):.1f} ms (target p99 < {TARGET_P99_MS:.0f} ms)"
        )
    if cpu is not None and lat:
        print(
            f"  server CPU: {cpu:.1f} s ({cpu / figures.elapsed:.0%} of one core), "
            f"{cpu / len(lat) * 1000:.2f} ms per action (tables created and joined included)"
        )
    print(f"  errors: {len(figures.errors)}")
    for error in figures.errors[:10]:
        print(f"    {error}")
    if memory is not None:
        now, hwm = memory
        print(
            f"  server memory (server + bot workers): {now / 1024:.0f} MiB resident at the end, "
            f"{max(figures.peak_rss, now) / 1024:.0f} MiB highest seen, "
            f"{hwm / 1024:.0f} MiB peak by the kernel's count"
        )
    print(
        f"  machine load average (1 min): {load_before:.1f} before, {os.getloadavg()[0]:.1f}"
        f" after, on {os.cpu_count()} cores (other work on a shared machine delays both sides)"
    )
    ok = lat and quantile(lat, 0.99) < TARGET_P99_MS and not figures.errors
    print("  target met" if ok else "  target NOT met")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
