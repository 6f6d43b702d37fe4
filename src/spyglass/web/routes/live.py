"""The live table over a WebSocket: a seat's state after every change, its messages, and the
moves, undos, hints and words it sends."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from spyglass.web.manager import TableManager
from spyglass.web.tables import Close, LiveTable, Outgoing, Subscriber, TableError

router = APIRouter()

MAX_MESSAGE = 16 * 1024  # bytes of one WebSocket message from a client
HELLO_TIMEOUT = 10.0  # seconds a new WebSocket has to say who it is


@router.websocket("/api/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """First message: {"type": "hello", "token": "..."} (no token: spectate; ``"game": true``
    asks for the game's description and layout first, as {"type": "game", "game": ...}). Then
    the server sends {"type": "state", ...} at once and after every change, and the table's
    messages ({"type": "messages", ...} once, then {"type": "message", ...} as they come); the
    client may send {"type": "act", "action": "...", "step": n}, {"type": "undo"}, {"type":
    "hint"}, {"type": "say", "text": "...", "to": seat or null}, {"type": "ping"}."""
    tables: TableManager = websocket.app.state.manager
    client = websocket.client.host if websocket.client else "unknown"
    await websocket.accept()
    try:
        async with tables.hold(table_id) as table:
            try:
                hello = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
                if hello.get("type") != "hello":
                    raise TableError(422, 'the first message is {"type": "hello", "token": ...}')
                token = hello.get("token")
                if token is not None and not isinstance(token, str):
                    raise TableError(422, "a token is text")
                game = hello.get("game", False)
                if not isinstance(game, bool):
                    raise TableError(422, "'game' is true or false")
                seat = await tables.identify(table, token)
                await tables.catch_up(table)
                sub = tables.subscribe(table, seat, token or None, client, game=game)
            except (TableError, TimeoutError, WebSocketDisconnect, ValueError) as error:
                await _refuse(websocket, error)
                return
            await _serve(websocket, tables, table, sub)
    except TableError as error:  # no such table
        await _refuse(websocket, error)


async def _serve(
    websocket: WebSocket, tables: TableManager, table: LiveTable, sub: Subscriber
) -> None:
    # One task sends, in order: states, and the replies to this client's messages.
    sender = asyncio.create_task(_pump(websocket, sub.queue))
    try:
        while not sender.done():
            try:
                message = await _receive(websocket)
                reply = await _command(tables, table, sub, message)
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
        tables.unsubscribe(table, sub)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _receive(websocket: WebSocket) -> dict[str, Any]:
    text = await websocket.receive_text()
    if len(text) > MAX_MESSAGE:
        raise TableError(413, f"message over {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
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


async def _pump(websocket: WebSocket, queue: asyncio.Queue[Outgoing]) -> None:
    """Send this connection its messages in order; None or a :class:`Close` closes it."""
    while True:
        message = await queue.get()
        if message is None or isinstance(message, Close):
            close = message or Close(1012)
            with contextlib.suppress(Exception):
                if close.message is not None:
                    await websocket.send_json(close.message)
                await websocket.close(close.code)
            return
        if isinstance(message, str):
            await websocket.send_text(message)
        else:
            await websocket.send_json(message)


async def _command(
    tables: TableManager, table: LiveTable, sub: Subscriber, message: dict[str, Any]
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
            await tables.act(table, tables.require_seat(seat, "a move"), action, step)
            return None
        if kind == "undo":
            await tables.undo(table, tables.require_seat(seat, "undo"))
            return None
        if kind == "hint":
            hint = await tables.hint(table, tables.require_seat(seat, "a hint"))
            return {"type": "hint", "ref": ref, **hint}
        if kind == "say":
            said = await tables.say(table, sub, message.get("text"), message.get("to"))
            return {"type": "message", "ref": ref, "message": said}
        if kind == "ping":
            return {"type": "pong", "ref": ref}
        raise TableError(422, f"unknown message type {kind!r} (act, undo, hint, say, ping)")
    except TableError as error:
        return {"type": "error", "ref": ref, "status": error.status, **error.to_json()}
