"""The web application: HTTP and WebSocket API, and the browser front-end.

``create_app(db_url)`` builds it from the routers in :mod:`.routes`; ``spyglass serve`` runs it
with uvicorn. See docs/web.md for the API, the limits and the threat model. Tokens travel in
the ``X-Seat-Token`` header (HTTP) or the first WebSocket message, never in a URL, so no access
log can hold one.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

import spyglass

from . import auth, catalogue
from .accounts import AccountError, AccountSettings, Passwords
from .bots import Caps
from .limits import Limits
from .manager import TableManager
from .players import Players
from .routes import accounts, games, live, lobby, pages, profile, rematch, seats, tables
from .security import MAX_BODY, Guard
from .store import Store
from .tables import TableError
from .workers import BotPool

log = logging.getLogger("spyglass.web")

MAX_MESSAGE = live.MAX_MESSAGE


def create_app(
    db_url: str,
    *,
    bot_workers: int | None = None,
    bot_pool: str = "process",
    bot_delay: float = 0.4,
    hint_budget: int | None = None,
    caps: Caps | None = None,
    limits: Limits | None = None,
    freeze_gc: bool = False,
    warm: bool = False,
    account_settings: AccountSettings | None = None,
    passwords: Passwords | None = None,
) -> FastAPI:
    """The web app on the database at ``db_url`` (a SQLAlchemy URL, see store.database_url).

    ``bot_pool`` is "process" (default) or "thread"; ``bot_delay`` is the pause in seconds
    before each bot move at tables with people, so they can follow the play; ``caps`` and
    ``limits`` are what the server allows bots, hints and clients. ``freeze_gc`` (for a server
    process of its own) moves everything alive after start-up out of the garbage collector's
    sight. ``warm`` (for a server about to listen) loads every game, its layout and its rules
    page at start-up, so that no visitor waits for it. ``account_settings`` (default: from
    the environment, see :meth:`AccountSettings.from_env`) and ``passwords`` (the hasher) are
    the accounts'."""
    store = Store(db_url)
    bots = BotPool(bot_workers, bot_pool)
    kwargs = {} if hint_budget is None else {"hint_budget": hint_budget}
    manager = TableManager(store, bots, bot_delay=bot_delay, caps=caps, limits=limits, **kwargs)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm:
            # before the server listens (uvicorn runs this first): the first request of a
            # fresh server would otherwise import the games (half a second cold)
            log.info("loaded %d games", catalogue.warm())
        restored = await manager.start()
        if restored:
            log.info("restored %d tables a bot is to move at", restored)
        if freeze_gc:
            # The modules, the app and the restored tables live as long as the process. A full
            # collection that walks them all stalls every table for 100 ms or more; frozen,
            # they are never walked again.
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            await manager.close()
            bots.close()
            store.close()

    app = FastAPI(
        title="spyglass",
        version=spyglass.__version__,
        summary="Play the spyglass tabletop games online: lobby, tables, live updates.",
        description=(
            "Every table is run by the server: it checks each move against the rules, commits"
            " it to the database, then sends every seat what that seat may see. Seats prove"
            f" who they are with their token, in the `{auth.HEADER}` header (HTTP) or the first"
            " WebSocket message; invited people get their token by claiming their invite."
            " See docs/web.md."
        ),
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.manager = manager
    app.state.players = Players(manager, account_settings or AccountSettings.from_env(), passwords)
    app.add_middleware(Guard, limit=MAX_BODY)

    @app.exception_handler(TableError)
    async def table_error(_request: Request, error: TableError) -> JSONResponse:
        headers = {}
        if error.retry_after is not None:
            headers["Retry-After"] = str(max(1, round(error.retry_after)))
        return JSONResponse(error.to_json(), status_code=error.status, headers=headers)

    @app.exception_handler(AccountError)
    async def account_error(_request: Request, error: AccountError) -> JSONResponse:
        headers = {}
        if error.retry_after is not None:
            headers["Retry-After"] = str(max(1, round(error.retry_after)))
        return JSONResponse({"error": error.message}, status_code=error.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
            problems.append(f"{where}: {item.get('msg')}" if where else str(item.get("msg")))
        return JSONResponse({"error": "; ".join(problems) or "malformed request"}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            {"error": str(error.detail)}, status_code=error.status_code, headers=error.headers
        )

    @app.exception_handler(Exception)
    async def server_fault(request: Request, error: Exception) -> JSONResponse:
        # Never a bare text 500: the client gets JSON like every other answer, the log the
        # cause (with the path, never the query string or a header).
        log.exception("%s %s failed: %s", request.method, request.url.path, type(error).__name__)
        return JSONResponse({"error": "the server failed to answer; nothing changed"}, 500)

    for router in (games.router, tables.router, seats.router, live.router, pages.router):
        app.include_router(router)
    for router in (accounts.router, profile.router, rematch.router, lobby.router):
        app.include_router(router)
    pages.mount_static(app)
    return app
