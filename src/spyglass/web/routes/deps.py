"""What the routers share: the table manager, the caller's address, token headers and the error
descriptions of the OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Header, Request
from pydantic import BaseModel

from spyglass.web import auth
from spyglass.web.manager import TableManager


def manager(request: Request) -> TableManager:
    return request.app.state.manager


def client_address(request: Request) -> str:
    """The caller's address (the one a trusted proxy in front reports, see docs/web.md)."""
    return request.client.host if request.client else "unknown"


class ErrorOut(BaseModel):
    error: str
    rule: str | None = None


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": text}
    for code, text in (
        (401, "no token where a seat's token is needed"),
        (403, "the token holds no seat here, or the seat is a bot's, or not the host's key"),
        (404, "no such table or game"),
        (409, "not now: not your turn, the table moved on, the game is over or read-only"),
        (410, "an invite already used or replaced"),
        (413, "request body too large"),
        (422, "malformed request or illegal move (with the rule that forbids it)"),
        (429, "over a rate limit: try again later (Retry-After says when)"),
        (503, "the server could not do it now; nothing changed"),
    )
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: ERRORS[code] for code in codes}


TokenHeader = Annotated[
    str | None,
    Header(
        alias=auth.HEADER,
        description="the seat's token (from the claim of its invite); leave out to spectate",
    ),
]

HostHeader = Annotated[
    str | None,
    Header(alias=auth.HOST_HEADER, description="the host key returned when the table was made"),
]
