"""Fixtures of the web tests: an in-process app, real server processes, PostgreSQL, Chromium.

A missing browser or database skips the tests that need it, with the reason, unless the ``CI``
environment variable is set: then it fails them, so CI cannot pass without running them.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from spyglass.web import create_app
from spyglass.web.limits import Limits
from spyglass.web.store import database_url

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: The tests make many tables from one address: a test of the limits sets its own.
TEST_LIMITS = Limits(tables="10000/minute", hints="1000/minute")
TEST_SERVE_ARGS = ("--table-rate", "10000/minute", "--hint-rate", "1000/minute")


def missing(reason: str) -> None:
    """Skip locally; fail under CI, where everything must be there."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: this must not be skipped)")
    pytest.skip(reason)


# ---------------------------------------------------------------------- in-process app


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def make_client(db_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Builds TestClients (bots in threads, no delay) on one database; closes them after."""
    clients: list[TestClient] = []

    def make(url: str | None = None, **kwargs: object) -> TestClient:
        options = {
            "bot_pool": "thread",
            "bot_delay": 0.0,
            "hint_budget": 20,
            "limits": TEST_LIMITS,
            **kwargs,
        }
        client = TestClient(create_app(url or f"sqlite:///{db_path}", **options))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


# ---------------------------------------------------------------------- PostgreSQL


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh schema in the test PostgreSQL database (SPYGLASS_TEST_POSTGRES), dropped after."""
    base = os.environ.get("SPYGLASS_TEST_POSTGRES")
    if not base:
        missing("no PostgreSQL for tests: set SPYGLASS_TEST_POSTGRES=postgresql://user:pw@host/db")
    from sqlalchemy import create_engine, text

    schema = f"t_{uuid.uuid4().hex[:12]}"
    url = database_url(base)
    admin = create_engine(url)
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as error:
        admin.dispose()
        missing(f"PostgreSQL at SPYGLASS_TEST_POSTGRES is not reachable: {error}")
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


# ---------------------------------------------------------------------- server processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """A real ``spyglass serve`` process on loopback."""

    db: str
    port: int = field(default_factory=free_port)
    bot_delay: float = 0.0
    args: tuple[str, ...] = TEST_SERVE_ARGS  # more `spyglass serve` options
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> Server:
        self.log_path = Path(tempfile.mkstemp(prefix="spyglass-serve-", suffix=".log")[1])
        command = [
            sys.executable,
            "-m",
            "spyglass",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--bot-delay",
            str(self.bot_delay),
            "--bot-workers",
            "2",
            *self.args,
        ]
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start in {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text("utf-8", "replace") if self.log_path else ""

    def children(self) -> list[int]:
        """The server's child processes (its bot workers), from /proc (Linux)."""
        assert self.process is not None
        pid = self.process.pid
        path = Path(f"/proc/{pid}/task/{pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def start(db: str | None = None, **kwargs: object) -> Server:
        server = Server(db or str(tmp_path / "served.sqlite3"), **kwargs).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One real server for a module's browser tests (bots move without delay)."""
    server = Server(str(tmp_path_factory.mktemp("web") / "browser.sqlite3")).start()
    try:
        yield server
    finally:
        server.stop()


# ---------------------------------------------------------------------- the browser


def chromium_path() -> str | None:
    path = os.environ.get("SPYGLASS_TEST_CHROMIUM") or shutil.which("chromium")
    return path if path and os.path.exists(path) else None


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless Debian Chromium driven by Playwright (never a downloaded browser)."""
    path = chromium_path()
    if path is None:
        missing("no Chromium: apt-get install chromium (or set SPYGLASS_TEST_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python is not installed (pip install playwright)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_page(browser: object) -> Iterator[Callable[..., object]]:
    """Pages in fresh browser contexts (separate storage: separate people)."""
    contexts = []

    def make(width: int = 1300, height: int = 900) -> object:
        context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
