"""The HAProxy configuration for several ``spyglass serve`` processes on one PostgreSQL database
(docs/web.md, "Several processes"): the one the cluster tests and ``benchmarks/web_load.py`` run,
printed for people by ``spyglass balancer``.

Any process serves any table (the database arbitrates every change and the processes tell each
other over LISTEN/NOTIFY), so the balancer needs no stickiness: round robin, health checks on
``/healthz``, a dead process's WebSockets closed so that their clients reconnect to another, and
requests that could not reach a process sent to another.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Health checks: every 300 ms; a refused connection fails at once, a slow answer has 3 s (a busy
#: process is not a dead one); down after two failures, back after one success.
CHECK = "check inter 300ms fall 2 rise 1 on-marked-down shutdown-sessions"


def haproxy_config(
    backends: Sequence[str],
    listen: str | Sequence[str] = "127.0.0.1:8000",
    *,
    pinned: bool = False,
    maxconn: int = 4000,
) -> str:
    """An HAProxy configuration (HAProxy 2.2 or newer) for the server processes at
    ``backends`` (``host:port`` each).

    With ``pinned`` (for tests), ``listen`` holds one address per backend, and each sends its
    clients to its own process, the others being backups: two people can be put on two
    processes for sure, and a dead process's clients are moved by the balancer.
    """
    if not backends:
        raise ValueError("no server processes to balance")
    lines = [
        "global",
        f"    maxconn {maxconn}",
        "defaults",
        "    mode http",
        "    timeout connect 2s",
        "    timeout client 1h",  # WebSockets idle between moves
        "    timeout server 1h",
        "    timeout tunnel 1h",
        "    timeout check 3s",
        "    option redispatch",  # a request whose process is gone goes to another
        "    retries 3",
        "    retry-on conn-failure empty-response response-timeout",
        "    option http-buffer-request",  # needed to retry a request with a body
        "    option forwardfor",  # the client's address, for the per-address limits
    ]
    check = ["    option httpchk GET /healthz", "    http-check expect status 200"]
    if not pinned:
        address = listen if isinstance(listen, str) else listen[0]
        lines += [
            "frontend web",
            f"    bind {address}",
            "    default_backend spyglass",
            "backend spyglass",
            "    balance roundrobin",
            *check,
        ]
        lines += [f"    server s{i} {b} {CHECK}" for i, b in enumerate(backends)]
        return "\n".join(lines) + "\n"
    addresses = [listen] if isinstance(listen, str) else list(listen)
    if len(addresses) != len(backends):
        raise ValueError("pinned: one listening address per server process")
    for i, address in enumerate(addresses):
        lines += [
            f"frontend web{i}",
            f"    bind {address}",
            f"    default_backend first{i}",
            f"backend first{i}",
            *check,
        ]
        lines += [
            f"    server s{j} {b} {CHECK}{'' if j == i else ' backup'}"
            for j, b in enumerate(backends)
        ]
    return "\n".join(lines) + "\n"
