"""The web application: HTTP and WebSocket API, and the browser front-end.

``create_app(db_url)`` builds it; ``spyglass serve`` runs it with uvicorn. See docs/web.md for
the API. Tokens travel in the ``X-Seat-Token`` header (HTTP) or the first WebSocket message,
never in a URL, so no access log can hold one.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import spyglass
from spyglass import agents
from spyglass.engine import RulesError

from . import assets, auth
from .bots import BotPool, strongest_agent, takes_budget
from .rules import rules_html
from .store import Store
from .tables import MAX_SEED, SeatSpec, Subscriber, Table, TableError, TableManager

log = logging.getLogger("spyglass.web")

MAX_BODY = 64 * 1024  # bytes of one request body
MAX_MESSAGE = 16 * 1024  # bytes of one WebSocket message from a client
HELLO_TIMEOUT = 10.0  # seconds a new WebSocket has to say who it is


# ---------------------------------------------------------------------- request bodies


class SeatIn(BaseModel):
    kind: Literal["human", "bot"] = Field("human", description="a person or an agent")
    agent: str | None = Field(
        None, max_length=32, description="for a bot: the agent's name (see /api/agents)"
    )
    budget: int | None = Field(
        None, ge=1, le=1_000_000, description="for agents that take one: iterations per move"
    )
    name: str | None = Field(None, max_length=40, description="shown to everyone at the table")


class TableIn(BaseModel):
    game: str = Field(max_length=64, description="game id, e.g. sandwich-guy")
    options: dict[str, bool | int | str] = Field(
        default_factory=dict, max_length=32, description="game options by name"
    )
    players: int | None = Field(None, ge=1, le=16, description="default: the number of seats")
    seats: list[SeatIn] = Field(
        default_factory=list,
        max_length=16,
        description="one per player; default: a human in seat 0 and the game's bot elsewhere",
    )
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="default: a random deal")


class ActionIn(BaseModel):
    action: str = Field(min_length=1, max_length=300, description="the move's notation")
    step: int | None = Field(
        None, ge=0, description="the step the move was chosen at; refused if the table moved on"
    )


class SeatLink(BaseModel):
    seat: int
    kind: str
    name: str
    token: str | None = Field(None, description="human seats only: shown once, never stored")
    link: str | None = Field(None, description="the invite link (token in the fragment)")


class TableCreated(BaseModel):
    id: str
    table: dict[str, Any]
    seats: list[SeatLink]
    spectate: str
    replay: str


class ErrorOut(BaseModel):
    error: str
    rule: str | None = None


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": text}
    for code, text in (
        (401, "no token where a seat's token is needed"),
        (403, "the token holds no seat here, or the seat is a bot's"),
        (404, "no such table or game"),
        (409, "not now: not your turn, the table moved on, or the game is over"),
        (413, "request body too large"),
        (422, "malformed request or illegal move (with the rule that forbids it)"),
    )
}

TokenHeader = Annotated[
    str | None,
    Header(
        alias=auth.HEADER,
        description="the seat's token from the invite link; leave out to spectate",
    ),
]


# ---------------------------------------------------------------------- body limit


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes (413) before the app reads them."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _too_large(send, self.limit)
                    return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _BodyTooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _BodyTooLarge:
            await _too_large(send, self.limit)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps({"error": f"request body over {limit} bytes"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


# ---------------------------------------------------------------------- the app


def game_json(game_id: str) -> dict[str, Any]:
    spec = spyglass.games.REGISTRY.spec(game_id)
    data = spec.info.to_json()
    data["layout"] = [asdict(region) for region in spec.layout]
    return data


def create_app(
    db_url: str,
    *,
    bot_workers: int | None = None,
    bot_pool: str = "process",
    bot_delay: float = 0.4,
    hint_budget: int | None = None,
    freeze_gc: bool = False,
) -> FastAPI:
    """The web app on the database at ``db_url`` (a SQLAlchemy URL, see store.database_url).

    ``bot_pool`` is "process" (default) or "thread"; ``bot_delay`` is the pause in seconds
    before each bot move at tables with people, so they can follow the play. ``freeze_gc``
    (for a server process of its own) moves everything alive after start-up out of the
    garbage collector's sight."""
    store = Store(db_url)
    bots = BotPool(bot_workers, bot_pool)
    kwargs = {} if hint_budget is None else {"hint_budget": hint_budget}
    manager = TableManager(store, bots, bot_delay=bot_delay, **kwargs)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        restored = await manager.start()
        if restored:
            log.info("restored %d unfinished tables", restored)
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
            f" who they are with the token of their invite link, in the `{auth.HEADER}`"
            " header (HTTP) or the first WebSocket message. See docs/web.md."
        ),
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.manager = manager
    app.add_middleware(BodyLimit, limit=MAX_BODY)

    # ------------------------------------------------------------------ errors

    @app.exception_handler(TableError)
    async def table_error(_request: Request, error: TableError) -> JSONResponse:
        return JSONResponse(error.to_json(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
            problems.append(f"{where}: {item.get('msg')}" if where else str(item.get("msg")))
        return JSONResponse({"error": "; ".join(problems) or "malformed request"}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

    # ------------------------------------------------------------------ games

    @app.get("/api/games", tags=["games"], summary="Every registered game with its layout")
    async def list_games() -> list[dict[str, Any]]:
        return [game_json(info.id) for info in spyglass.games()]

    @app.get(
        "/api/games/{game_id}",
        tags=["games"],
        summary="One game: info, options, player range, table layout",
        responses={404: ERRORS[404]},
    )
    async def get_game(game_id: str) -> dict[str, Any]:
        try:
            return game_json(game_id)
        except RulesError as error:
            raise TableError(404, str(error)) from None

    @app.get(
        "/api/games/{game_id}/rules",
        tags=["games"],
        summary="The game's rules (RULES.md) as Markdown and as HTML",
        responses={404: ERRORS[404]},
    )
    async def get_rules(game_id: str) -> dict[str, str]:
        try:
            markdown, html = rules_html(game_id)
        except RulesError as error:
            raise TableError(404, str(error)) from None
        return {"game": game_id, "markdown": markdown, "html": html}

    @app.get("/api/agents", tags=["games"], summary="The agents a bot seat can use")
    async def list_agents() -> dict[str, Any]:
        return {
            "agents": [{"name": n, "takes_budget": takes_budget(n)} for n in agents.names()],
            "strongest": strongest_agent(),
            "default": "heuristic",
        }

    # ------------------------------------------------------------------ tables

    @app.post(
        "/api/tables",
        tags=["tables"],
        status_code=201,
        summary="Create a table; returns each human seat's token and invite link (once)",
        responses={422: ERRORS[422], 413: ERRORS[413]},
    )
    async def create_table(body: TableIn) -> TableCreated:
        seats = [SeatSpec(s.kind, s.agent, s.budget, s.name) for s in body.seats]
        table, tokens = await manager.create(
            body.game, dict(body.options), body.players, seats, body.seed
        )
        links = []
        for row in table.row.seats:
            token = tokens.get(row.seat)
            link = f"/table/{table.id}#seat={row.seat}&token={token}" if token else None
            links.append(
                SeatLink(seat=row.seat, kind=row.kind, name=row.name, token=token, link=link)
            )
        return TableCreated(
            id=table.id,
            table=table.summary(),
            seats=links,
            spectate=f"/table/{table.id}",
            replay=f"/table/{table.id}/replay",
        )

    @app.get("/api/tables", tags=["tables"], summary="Recent tables (public summaries)")
    async def list_tables(
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
    ) -> list[dict[str, Any]]:
        rows = await manager._run_db(manager.store.summaries, limit)
        titles = {info.id: info.title for info in spyglass.games()}
        for row in rows:
            row["title"] = titles.get(row["game"], row["game"])
            live = manager.tables.get(row["id"])
            if live is not None:  # fresher than the database by at most the current move
                row.update(status=live.summary()["status"], step=live.state.step)
        return rows

    async def find(table_id: str) -> Table:
        if len(table_id) > 64:
            raise TableError(404, "there is no such table")
        return await manager.get(table_id)

    @app.get(
        "/api/tables/{table_id}",
        tags=["tables"],
        summary="What the caller's seat sees (spectator without a token): view and moves",
        responses={k: ERRORS[k] for k in (403, 404)},
    )
    async def get_table(table_id: str, token: TokenHeader = None) -> dict[str, Any]:
        table = await find(table_id)
        seat = manager.authenticate(table, token)
        return manager.message(table, seat)

    @app.get(
        "/api/tables/{table_id}/messages",
        tags=["tables"],
        summary="The messages the caller's seat may read (spectator: the public ones)",
        responses={k: ERRORS[k] for k in (403, 404)},
    )
    async def get_messages(table_id: str, token: TokenHeader = None) -> dict[str, Any]:
        table = await find(table_id)
        seat = manager.authenticate(table, token)
        return {"seat": seat, "messages": manager.readable(table, seat)}

    @app.post(
        "/api/tables/{table_id}/actions",
        tags=["tables"],
        summary="Make a move (the seat's token is required)",
        responses={k: ERRORS[k] for k in (401, 403, 404, 409, 413, 422)},
    )
    async def post_action(
        table_id: str, body: ActionIn, token: TokenHeader = None
    ) -> dict[str, Any]:
        table = await find(table_id)
        seat = manager.require_seat(manager.authenticate(table, token), "a move")
        await manager.act(table, seat, body.action, body.step)
        return manager.message(table, seat)

    @app.post(
        "/api/tables/{table_id}/undo",
        tags=["tables"],
        summary="Take back the last move (solo games)",
        responses={k: ERRORS[k] for k in (401, 403, 404, 409)},
    )
    async def post_undo(table_id: str, token: TokenHeader = None) -> dict[str, Any]:
        table = await find(table_id)
        seat = manager.require_seat(manager.authenticate(table, token), "undo")
        table = await manager.undo(table, seat)
        return manager.message(table, seat)

    @app.post(
        "/api/tables/{table_id}/hint",
        tags=["tables"],
        summary="The strongest agent's move for the seat to move",
        responses={k: ERRORS[k] for k in (401, 403, 404, 409)},
    )
    async def post_hint(table_id: str, token: TokenHeader = None) -> dict[str, Any]:
        table = await find(table_id)
        seat = manager.require_seat(manager.authenticate(table, token), "a hint")
        return await manager.hint(table, seat)

    @app.get(
        "/api/tables/{table_id}/record",
        tags=["tables"],
        summary="The game record (JSON) of a finished table, to download",
        responses={k: ERRORS[k] for k in (404, 409)},
    )
    async def get_record(table_id: str) -> Response:
        table = await find(table_id)
        body = json.dumps(manager.record(table), ensure_ascii=False, indent=1)
        name = f"spyglass-{table.state.game.info.id}-{table.id}.json"
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get(
        "/api/tables/{table_id}/replay",
        tags=["tables"],
        summary="A finished table's position after a given step, seen by a seat",
        responses={k: ERRORS[k] for k in (404, 409, 422)},
    )
    async def get_replay(
        table_id: str,
        step: Annotated[int, Query(ge=0)] = 0,
        seat: Annotated[int | None, Query(ge=0, description="default: the spectator")] = None,
    ) -> dict[str, Any]:
        table = await find(table_id)
        return manager.replay_view(table, step, seat)

    # ------------------------------------------------------------------ live updates

    @app.websocket("/api/tables/{table_id}/ws")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        """First message: {"type": "hello", "token": "..."} (no token: spectate). Then the
        server sends {"type": "state", ...} after every change, and the table's messages
        ({"type": "messages", ...} once, then {"type": "message", ...} as they come); the
        client may send {"type": "act", "action": "...", "step": n}, {"type": "undo"},
        {"type": "hint"}, {"type": "say", "text": "...", "to": seat or null}."""
        await websocket.accept()
        try:
            table = await find(table_id)
            hello = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
            if hello.get("type") != "hello":
                raise TableError(422, 'the first message is {"type": "hello", "token": ...}')
            token = hello.get("token")
            if token is not None and not isinstance(token, str):
                raise TableError(422, "a token is text")
            seat = manager.authenticate(table, token)
        except (TableError, TimeoutError, WebSocketDisconnect, ValueError) as error:
            await _refuse(websocket, error)
            return
        sub = manager.subscribe(table, seat)
        # One task sends, in order: states, and the replies to this client's messages.
        sender = asyncio.create_task(_pump(websocket, sub.queue))
        try:
            while True:
                try:
                    message = await _receive(websocket)
                    reply = await _command(manager, table, sub, message)
                except TableError as error:
                    reply = {"type": "error", "status": error.status, **error.to_json()}
                if reply is not None:
                    try:
                        sub.queue.put_nowait(reply)
                    except asyncio.QueueFull:
                        break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            manager.unsubscribe(table, sub)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    @app.get("/healthz", include_in_schema=False)
    async def health() -> HTMLResponse:
        return HTMLResponse("ok")

    assets.install(app)  # the pages, /static, compression, the Content-Security-Policy
    return app


async def _receive(websocket: WebSocket) -> dict[str, Any]:
    text = await websocket.receive_text()
    if len(text) > MAX_MESSAGE:
        raise TableError(413, f"message over {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise TableError(422, "a message is a JSON object") from None
    if not isinstance(data, dict):
        raise TableError(422, "a message is a JSON object")
    return data


async def _refuse(websocket: WebSocket, error: Exception) -> None:
    if isinstance(error, TableError):
        body, code = error.to_json(), 4000 + error.status
    elif isinstance(error, TimeoutError):
        body, code = {"error": "no hello in time"}, 4408
    else:
        body, code = {"error": "malformed hello"}, 4422
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", **body})
        await websocket.close(code)


async def _pump(websocket: WebSocket, queue: asyncio.Queue[dict[str, Any] | None]) -> None:
    """Send this connection its messages in order; None closes it."""
    while True:
        message = await queue.get()
        if message is None:
            with contextlib.suppress(Exception):
                await websocket.close(1012)
            return
        await websocket.send_json(message)


async def _command(
    manager: TableManager, table: Table, sub: Subscriber, message: dict[str, Any]
) -> dict[str, Any] | None:
    """One client message; returns a direct reply (errors, hints, one's own message) or
    None."""
    kind = message.get("type")
    ref = message.get("ref")
    seat = sub.seat
    try:
        if kind == "act":
            action, step = message.get("action"), message.get("step")
            if not isinstance(action, str) or not action.strip() or len(action) > 300:
                raise TableError(422, "an act message carries the move's notation in 'action'")
            if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
                raise TableError(422, "'step' is a whole number")
            await manager.act(table, manager.require_seat(seat, "a move"), action, step)
            return None
        if kind == "undo":
            await manager.undo(table, manager.require_seat(seat, "undo"))
            return None
        if kind == "hint":
            hint = await manager.hint(table, manager.require_seat(seat, "a hint"))
            return {"type": "hint", "ref": ref, **hint}
        if kind == "say":
            said = await manager.say(table, sub, message.get("text"), message.get("to"))
            return {"type": "message", "ref": ref, "message": said}
        if kind == "ping":
            return {"type": "pong", "ref": ref}
        raise TableError(422, f"unknown message type {kind!r} (act, undo, hint, say, ping)")
    except TableError as error:
        return {"type": "error", "ref": ref, "status": error.status, **error.to_json()}
