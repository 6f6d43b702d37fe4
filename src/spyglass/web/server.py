"""Running the app with uvicorn: address, database, and access logs without secrets."""

from __future__ import annotations

import logging
from typing import Any

import uvicorn

from .app import MAX_MESSAGE, create_app
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


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    bot_workers: int | None = None,
    bot_delay: float = 0.4,
    access_log: bool = True,
    announce: Any = print,
) -> None:
    """Run the server until interrupted. ``announce`` receives the lines to show people."""
    url = database_url(db)
    safe = Store.describe_url(url)
    app = create_app(url, bot_workers=bot_workers, bot_delay=bot_delay, freeze_gc=True)
    shown = f"[{host}]" if ":" in host else host
    announce(f"spyglass is at http://{shown}:{port}  (database: {safe}; Ctrl-C stops it)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_MESSAGE,
        log_config=log_config(),
        access_log=access_log,
        proxy_headers=True,
    )
