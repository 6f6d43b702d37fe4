"""Load on the web server: a mixed load of many concurrent tables, people and bots, on loopback.

    python benchmarks/web_load.py [--tables 100] [--moves 30] [--think 1.0] [--seconds 120]
                                  [--bot-workers N] [--db PATH|URL] [--url http://127.0.0.1:PORT]
                                  [--processes 1,2,3 --db postgresql://...]

It starts ``spyglass serve`` on a free loopback port with a fresh SQLite database (or uses the
server at ``--url``) and keeps ``--tables`` tables playing at once, of five kinds in turn:

- a solo game played over HTTP (a ``POST`` per move, then a ``GET`` of the new state);
- a solo game played over a WebSocket;
- Espionage, two people and two bots (the game's bot and ISMCTS at 100 iterations);
- Tinker Tailor, two people and two bots (the same);
- Spies!, one person and two bots (the game's bot).

Every person is a client driven by a random legal move after a think time (uniform, mean
``--think`` seconds). It measures the *action latency* (from sending a move to receiving its
own next state, which the server sends only after it has checked the move, committed it and
built every seat's view; for HTTP the request's round trip) and the *bot wait* (from the state
in which a bot is to move to the next state: the bot's thinking, its queueing behind other
tables' bots, and the commit). A table that ends before ``--moves`` moves is replaced by a new
one of the same kind.

It prints p50/p95/p99/max action latency, the bot wait, actions per second, errors (refused
moves, failed requests, dropped connections) and the server's memory (server and bot workers).
Target (issue 24): p99 action latency under 100 ms with no errors while the bots think. The
server runs with ``--bot-delay 0`` (the pause that lets people follow bots would only add to the
bot wait). Every connection goes to 127.0.0.1 only, and the run stops by itself.

With ``--processes 1,2,3`` it runs the same load once per count of ``spyglass serve`` processes
sharing one PostgreSQL database behind HAProxy (the configuration ``spyglass balancer`` prints;
issue 26), each run on a fresh schema, and ends with a table of throughput and p99 per count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
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

TARGET_P99_MS = 100.0
SOLO = [info.id for info in spyglass.games() if info.players == (1, 1)]
SEARCH_BOT = {"kind": "bot", "agent": "ismcts", "budget": 100}
GAME_BOT = {"kind": "bot", "agent": "heuristic"}
PERSON = {"kind": "human", "invite": False}  # the benchmark holds every person's token


@dataclass(frozen=True)
class Kind:
    """A kind of table in the mix."""

    name: str
    game: str | None  # None: the solo games in turn
    seats: tuple[dict, ...]
    http: bool = False
    options: dict = field(default_factory=dict)


KINDS = (
    Kind("solo/http", None, (PERSON,), http=True),
    Kind("solo/ws", None, (PERSON,)),
    Kind(
        "espionage",
        "espionage",
        (PERSON, PERSON, GAME_BOT, SEARCH_BOT),
        options={"game_length": "short"},
    ),
    Kind("tinker-tailor", "tinker-tailor", (PERSON, PERSON, GAME_BOT, SEARCH_BOT)),
    Kind("spies", "spies", (PERSON, GAME_BOT, GAME_BOT)),
)


@dataclass
class Figures:
    latencies: dict[str, list[float]] = field(default_factory=dict)  # seconds, by kind
    bot_waits: list[float] = field(default_factory=list)  # seconds
    errors: list[str] = field(default_factory=list)
    tables: int = 0
    elapsed: float = 0.0  # seconds
    peak_rss: int = 0  # KiB, the highest resident set seen while running

    def latency(self, kind: str, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)

    def all_latencies(self) -> list[float]:
        return [x for values in self.latencies.values() for x in values]


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
    """CPU time (user + system) a process and its children used, in seconds (Linux /proc)."""
    total = 0.0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def start_server(db: str, port: int, log_path: Path, workers: int | None) -> subprocess.Popen:
    command = [sys.executable, "-m", "spyglass", "serve", "--port", str(port), "--db", db]
    # every client of the benchmark comes from loopback: no per-address limits in the way
    command += ["--bot-delay", "0", "--table-rate", "100000/minute", "--connections", "100000"]
    if workers:
        command += ["--bot-workers", str(workers)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=log)
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


class BotClock:
    """Times the bots at one table: from the first state in which a bot is to move to the
    first state after it (seen by any of the table's clients)."""

    def __init__(self, figures: Figures) -> None:
        self.figures = figures
        self.waiting: tuple[int, float] | None = None  # (step, since)

    def saw(self, message: dict) -> None:
        step = message["view"]["step"]
        if self.waiting is not None and step > self.waiting[0]:
            self.figures.bot_waits.append(time.perf_counter() - self.waiting[1])
            self.waiting = None
        current = message["table"]["current_player"]
        over = message["view"]["over"]
        bot = not over and current is not None
        bot = bot and message["table"]["seats"][current]["kind"] == "bot"
        if bot and (self.waiting is None or self.waiting[0] != step):
            self.waiting = (step, time.perf_counter())


class Player:
    """One person at a table, over a WebSocket: a random legal move after a think time."""

    def __init__(self, ws, kind: str, rng: random.Random, *, think: float, figures, clock):
        self.ws = ws
        self.kind = kind
        self.rng = rng
        self.think = think
        self.figures = figures
        self.clock = clock
        self.latest: dict | None = None
        self.sent_at: float | None = None
        self.sent_step = -1

    async def run(self, budget: list[int], deadline: float) -> None:
        while time.monotonic() < deadline:
            message = json.loads(await self.ws.recv())
            kind = message.get("type")
            if kind == "error":
                self.figures.errors.append(f"{self.kind}: {message.get('error')}")
                self.sent_at = None
                continue
            if kind != "state":
                continue
            self.clock.saw(message)
            step = message["view"]["step"]
            if self.sent_at is not None and step > self.sent_step:
                self.figures.latency(self.kind, time.perf_counter() - self.sent_at)
                self.sent_at = None
            self.latest = message
            if message["view"]["over"] or budget[0] <= 0:
                return
            if message["legal"] and self.sent_at is None:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                budget[0] -= 1
                move = self.rng.choice(message["legal"])["notation"]
                self.sent_step = step
                self.sent_at = time.perf_counter()
                await self.ws.send(json.dumps({"type": "act", "action": move, "step": step}))


async def play_http(
    http: httpx.AsyncClient,
    url: str,
    created: dict,
    *,
    think: float,
    rng,
    figures,
    budget,
    deadline,
) -> bool:
    """A solo game over HTTP: each move a POST, timed; True when the game ended."""
    token = created["seats"][0]["token"]
    headers = {"X-Seat-Token": token}
    url = f"{url}/api/tables/{created['id']}"
    message = (await http.get(url, headers=headers)).json()
    while budget[0] > 0 and time.monotonic() < deadline:
        if message["view"]["over"]:
            return True
        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        move = rng.choice(message["legal"])["notation"]
        budget[0] -= 1
        started = time.perf_counter()
        response = await http.post(
            f"{url}/actions",
            headers=headers,
            json={"action": move, "step": message["view"]["step"]},
        )
        figures.latency("solo/http", time.perf_counter() - started)
        if response.status_code != 200:
            figures.errors.append(f"solo/http: {response.status_code} {response.text[:100]}")
            return False
        message = response.json()
    return message["view"]["over"]


async def table_slot(
    index: int,
    base: str,
    args: argparse.Namespace,
    *,
    figures: Figures,
    http: httpx.AsyncClient,
    deadline: float,
) -> None:
    """Keep one table of its kind playing until ``moves`` moves were made at it."""
    rng = random.Random(index)
    kind = KINDS[index % len(KINDS)]
    budget = [args.moves]
    ws_base = base.replace("http://", "ws://")
    n = 0
    while budget[0] > 0 and time.monotonic() < deadline:
        game = kind.game or SOLO[(index // len(KINDS) + n) % len(SOLO)]
        n += 1
        body = {
            "game": game,
            "players": len(kind.seats),
            "seats": list(kind.seats),
            "options": kind.options,
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
        if kind.http:
            over = await play_http(
                http,
                base,
                created,
                think=args.think,
                rng=rng,
                figures=figures,
                budget=budget,
                deadline=deadline,
            )
            if not over:
                return
            continue
        url = f"{ws_base}/api/tables/{created['id']}/ws"
        players: list[Player] = []
        clock = BotClock(figures)
        try:
            for seat in created["seats"]:
                if not seat["token"]:
                    continue
                ws = await websockets.connect(url, max_size=2**22)
                await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
                players.append(
                    Player(ws, kind.name, rng, think=args.think, figures=figures, clock=clock)
                )
            await asyncio.gather(*(p.run(budget, deadline) for p in players))
        except (OSError, websockets.WebSocketException) as error:
            figures.errors.append(f"{kind.name} table {created['id']}: {error!r}")
            return
        finally:
            for p in players:
                await p.ws.close()
        if not (players and players[0].latest and players[0].latest["view"]["over"]):
            return  # the budget ran out mid-game


async def run(args: argparse.Namespace, base: str, pids: list[int]) -> Figures:
    figures = Figures()
    peak = [0]

    async def watch_memory() -> None:
        while pids:
            peak[0] = max(peak[0], sum(memory_kib(pid)[0] for pid in pids))
            await asyncio.sleep(0.5)

    limits = httpx.Limits(max_connections=50, keepalive_expiry=1.0)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        watcher = asyncio.create_task(watch_memory())
        started = time.perf_counter()
        deadline = time.monotonic() + args.seconds
        slots = [
            table_slot(i, base, args, figures=figures, http=http, deadline=deadline)
            for i in range(args.tables)
        ]
        await asyncio.wait_for(asyncio.gather(*slots), timeout=args.seconds + 120)
        figures.elapsed = time.perf_counter() - started
        watcher.cancel()
    figures.peak_rss = peak[0]
    return figures


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def describe(values: list[float]) -> str:
    ms = [x * 1000 for x in values]
    return (
        f"p50 {statistics.median(ms):.0f} ms, p95 {quantile(ms, 0.95):.0f} ms, "
        f"p99 {quantile(ms, 0.99):.0f} ms, max {max(ms):.0f} ms ({len(ms)})"
    )


def report(args: argparse.Namespace, figures: Figures, memory, cpu, load_before: float) -> bool:
    lat = figures.all_latencies()
    print(f"web load: {args.tables} concurrent tables (mixed), {len(lat)} actions by people")
    print(
        f"  tables played {figures.tables}, {figures.elapsed:.1f} s, "
        f"{len(lat) / figures.elapsed:.1f} actions/s, think time {args.think:.2f} s (mean)"
    )
    if lat:
        print(f"  action latency: {describe(lat)} (target p99 < {TARGET_P99_MS:.0f} ms)")
        for kind, values in sorted(figures.latencies.items()):
            print(f"    {kind:14} {describe(values)}")
    if figures.bot_waits:
        print(f"  bot wait: {describe(figures.bot_waits)}")
    if cpu is not None and lat:
        print(
            f"  server CPU (with bot workers): {cpu:.1f} s ({cpu / figures.elapsed:.0%} of a core)"
        )
    print(f"  errors: {len(figures.errors)}")
    for error in figures.errors[:10]:
        print(f"    {error}")
    if memory is not None:
        now, _ = memory
        print(
            f"  server memory (server + bot workers): {now / 1024:.0f} MiB resident at the end, "
            f"{max(figures.peak_rss, now) / 1024:.0f} MiB highest seen"
        )
    print(
        f"  machine load average (1 min): {load_before:.1f} before, {os.getloadavg()[0]:.1f}"
        f" after, on {os.cpu_count()} cores (other work on a shared machine delays both sides)"
    )
    ok = bool(lat) and quantile(lat, 0.99) * 1000 < TARGET_P99_MS and not figures.errors
    print("  target met" if ok else "  target NOT met")
    return ok


def stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()


def start_balancer(ports: list[int], port: int, tmp: Path) -> subprocess.Popen:
    """HAProxy in front of the servers, with the configuration `spyglass balancer` prints."""
    from spyglass.web.balancer import haproxy_config  # noqa: PLC0415

    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.path.exists(haproxy):
        raise SystemExit("--processes needs HAProxy: apt-get install haproxy")
    config = tmp / "haproxy.cfg"
    config.write_text(haproxy_config([f"127.0.0.1:{p}" for p in ports], f"127.0.0.1:{port}"))
    log = tmp / "haproxy.log"
    with log.open("wb") as out:
        process = subprocess.Popen([haproxy, "-db", "-f", str(config)], stdout=out, stderr=out)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"HAProxy did not come up within 30 s:\n{log.read_text(errors='replace')}")


def fresh_schema(url: str) -> tuple[str, str]:
    """A new PostgreSQL schema for one run (so that each process count starts from an empty
    database): (the database URL that uses it, its name)."""
    from sqlalchemy import create_engine, text  # noqa: PLC0415

    from spyglass.web.store import database_url  # noqa: PLC0415

    base = database_url(url)
    name = f"web_load_{os.getpid()}_{int(time.time() * 1000) % 10**9}"
    engine = create_engine(base)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{name}"'))
    engine.dispose()
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{name}", name


def drop_schema(url: str, name: str) -> None:
    from sqlalchemy import create_engine, text  # noqa: PLC0415

    from spyglass.web.store import database_url  # noqa: PLC0415

    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
    engine.dispose()


def one_run(args: argparse.Namespace, processes: int, tmp: Path) -> tuple[Figures, bool]:
    """The mixed load against ``processes`` servers (behind HAProxy when ``--processes`` was
    given), or against the server at ``--url``, or one fresh server."""
    servers: list[subprocess.Popen] = []
    balancer = None
    schema = None
    load_before = os.getloadavg()[0]
    if args.processes:
        print(f"\n{processes} server process(es) behind HAProxy, one PostgreSQL database:")
    try:
        if args.url:
            base = args.url.rstrip("/")
        else:
            db = args.db or str(tmp / "load.sqlite3")
            if args.processes:
                db, schema = fresh_schema(args.db)
            ports = [free_port() for _ in range(processes)]
            for i, port in enumerate(ports):
                log = tmp / f"server-{processes}-{i}.log"
                servers.append(start_server(db, port, log, args.bot_workers))
            if args.processes:
                port = free_port()
                balancer = start_balancer(ports, port, tmp)
                base = f"http://127.0.0.1:{port}"
            else:
                base = f"http://127.0.0.1:{ports[0]}"
        pids = [p.pid for p in servers]
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        figures = asyncio.run(run(args, base, pids))
        memory = None
        if pids:
            sizes = [memory_kib(pid) for pid in pids]
            memory = (sum(a for a, _ in sizes), sum(b for _, b in sizes))
        cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before if pids else None
    finally:
        if balancer is not None:
            balancer.terminate()
            balancer.wait(10)
        for process in servers:
            stop(process)
        if schema is not None:
            drop_schema(args.db, schema)
    return figures, report(args, figures, memory, cpu, load_before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables playing at once")
    parser.add_argument("--moves", type=int, default=30, help="moves made at each table")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, seconds")
    parser.add_argument("--seconds", type=float, default=120, help="stop starting moves after")
    parser.add_argument("--bot-workers", type=int, help="each server's bot workers")
    parser.add_argument("--db", help="database for the server (default: a fresh SQLite file)")
    parser.add_argument("--url", help="use the server at this loopback address instead")
    parser.add_argument(
        "--processes",
        help="e.g. 1,2,3: run the load once per count of server processes behind HAProxy"
        " (needs --db postgresql://...; each run gets a fresh schema)",
    )
    args = parser.parse_args()
    counts = [1]
    if args.processes:
        try:
            counts = [int(n) for n in args.processes.split(",")]
        except ValueError:
            parser.error("--processes: counts separated by commas, e.g. 1,2,3")
        if not counts or min(counts) < 1:
            parser.error("--processes: counts of at least 1")
        if not (args.db or "").startswith("postgres") or args.url:
            parser.error("--processes needs --db postgresql://... (and no --url)")
    if args.url and httpx.URL(args.url).host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("this benchmark only talks to a server on loopback")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in counts:
            figures, _ok = one_run(args, n, Path(tmp))
            rows.append((n, figures))
    if len(rows) > 1:
        print("\nscaling (the same mixed load, one run):")
        print("  processes  actions/s  p50 ms  p99 ms  bot wait p99 ms  errors")
        for n, figures in rows:
            lat = [x * 1000 for x in figures.all_latencies()] or [0.0]
            waits = [x * 1000 for x in figures.bot_waits] or [0.0]
            print(
                f"  {n:9d}  {len(figures.all_latencies()) / figures.elapsed:9.1f}"
                f"  {statistics.median(lat):6.0f}  {quantile(lat, 0.99):6.0f}"
                f"  {quantile(waits, 0.99):15.0f}  {len(figures.errors):6d}"
            )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
