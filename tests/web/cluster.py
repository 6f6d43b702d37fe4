"""Several ``spyglass serve`` processes on one PostgreSQL database behind a real HAProxy, all on
loopback: the set-up that docs/web.md describes for a site that outgrows one process.

Two topologies:

- ``roundrobin``: one address, requests and WebSockets spread over every process (the
  production set-up; rolling restarts and the benchmark).
- ``pinned``: one address per process (127.0.0.1, 127.0.0.2, ... on the same port), each sending
  its clients to its own process first and to the others as backups. Tests use it to put two
  people on two different processes for sure, and to see a dead process's clients moved to
  another by the balancer.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from spyglass.web.balancer import haproxy_config
from tests.web.conftest import TEST_SERVE_ARGS, Server, free_port, missing

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


@dataclass
class Cluster:
    """``n`` server processes on database ``db`` behind HAProxy."""

    db: str
    n: int = 2
    pinned: bool = False
    args: tuple[str, ...] = TEST_SERVE_ARGS
    bot_delay: float = 0.0
    servers: list[Server] = field(default_factory=list)
    port: int = field(default_factory=free_port)
    haproxy: subprocess.Popen[bytes] | None = None
    config: Path | None = None

    def url(self, i: int = 0) -> str:
        """The balancer's address (``pinned``: the one that prefers process ``i``)."""
        host = f"127.0.0.{i + 1}" if self.pinned else "127.0.0.1"
        return f"http://{host}:{self.port}"

    def start(self) -> Cluster:
        if not os.path.exists(HAPROXY):
            missing("no HAProxy: apt-get install haproxy")
        for _ in range(self.n):
            server = Server(self.db, bot_delay=self.bot_delay, args=self.args)
            self.servers.append(server.start())
        self.config = Path(tempfile.mkstemp(prefix="haproxy-", suffix=".cfg")[1])
        self.config.write_text(
            haproxy_config(
                [f"127.0.0.1:{s.port}" for s in self.servers],
                [f"{httpx.URL(self.url(i)).host}:{self.port}" for i in range(self.n)],
                pinned=self.pinned,
            )
        )
        self.haproxy = subprocess.Popen(
            [HAPROXY, "-db", "-f", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.haproxy.poll() is not None:
                raise RuntimeError(f"HAProxy exited: {self.haproxy.stderr.read().decode()}")
            try:
                if all(
                    httpx.get(f"{self.url(i)}/healthz", timeout=1).status_code == 200
                    for i in range(self.n if self.pinned else 1)
                ):
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("HAProxy did not come up in 30 s")

    def kill(self, i: int) -> None:
        """SIGKILL process ``i``: no shutdown code runs, as in a crash."""
        self.servers[i].kill()

    def restart(self, i: int, graceful: bool = True) -> None:
        """Stop process ``i`` (SIGTERM, as systemd would; or SIGKILL) and start it again on the
        same port; returns once it answers its health check."""
        server = self.servers[i]
        if graceful and server.process and server.process.poll() is None:
            server.process.send_signal(signal.SIGTERM)
            server.process.wait(60)
        else:
            server.kill()
        server.start(timeout=180)  # a loaded machine starts Python slowly

    def stop(self) -> None:
        if self.haproxy is not None and self.haproxy.poll() is None:
            self.haproxy.terminate()
            self.haproxy.wait(10)
        for server in self.servers:
            server.stop()
        if self.config is not None:
            self.config.unlink(missing_ok=True)
