"""Running the app with uvicorn: address, database, and access logs without secrets."""

from __future__ import annotations

import errno
import logging
import socket
from typing import Any

import uvicorn

from spyglass.engine import RulesError

from .accounts import AccountSettings
from .app import MAX_MESSAGE, create_app
from .bots import Caps
from .limits import Limits
from .store import Store, database_url


class NoQueryStrings(logging.Filter):
    """Access-log lines keep the path but never the query string: whatever a client puts
    there (it should not, but people paste links) stays out of the logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], args[2].split("?", 1)[0], *args[3:])
        return True


def log_config() -> dict[str, Any]:
    config: dict[str, Any] = dict(uvicorn.config.LOGGING_CONFIG)
    config = {**config, "filters": {"no_query": {"()": f"{__name__}.NoQueryStrings"}}}
    handlers = {name: dict(h) for name, h in config["handlers"].items()}
    handlers["access"]["filters"] = ["no_query"]
    config["handlers"] = handlers
    loggers = {name: dict(v) for name, v in config["loggers"].items()}
    loggers["spyglass.web"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    config["loggers"] = loggers
    return config


def check_port(host: str, port: int) -> None:
    """RulesError, before anything starts, if the address cannot be listened on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise RulesError(
                    f"port {port} on {host} is already in use: stop what listens there, or"
                    " choose another with --port"
                ) from None
            raise RulesError(f"cannot listen on {host}:{port}: {error.strerror}") from None


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    bot_workers: int | None = None,
    bot_delay: float = 0.4,
    caps: Caps | None = None,
    limits: Limits | None = None,
    account_settings: AccountSettings | None = None,
    access_log: bool = True,
    announce: Any = print,
) -> None:
    """Run the server until interrupted. ``announce`` receives the lines to show people."""
    check_port(host, port)
    url = database_url(db)
    safe = Store.describe_url(url)
    app = create_app(
        url,
        bot_workers=bot_workers,
        bot_delay=bot_delay,
        caps=caps,
        limits=limits,
        account_settings=account_settings,
        freeze_gc=True,
        warm=True,
    )
    shown = f"[{host}]" if ":" in host else host
    announce(f"spyglass is at http://{shown}:{port}  (database: {safe}; Ctrl-C stops it)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_MESSAGE,
        log_config=log_config(),
        timeout_graceful_shutdown=10,
        access_log=access_log,
        proxy_headers=True,
    )
