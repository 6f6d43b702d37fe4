"""Open tables: the lobby's list of tables waiting for players, joining an empty seat, and the
host starting a table with bots in the seats still empty (web/lobby.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

import spyglass
from spyglass.web.manager import TableManager
from spyglass.web.names import MAX_NAME

from .deps import HostHeader, client_address, errors, manager

router = APIRouter(tags=["lobby"])

Manager = Annotated[TableManager, Depends(manager)]


class JoinIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    seat: int = Field(ge=0, le=15, description="the open seat to take")
    name: str | None = Field(
        None, max_length=4 * MAX_NAME, description="shown to everyone (default: seat N)"
    )


class Joined(BaseModel):
    seat: int
    token: str = Field(description="this seat's token, for the joiner alone; never shown again")
    table: dict[str, Any]


class StartIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    agent: str | None = Field(
        None, max_length=32, description="the bots' agent in the empty seats (default: heuristic)"
    )
    budget: int | None = Field(None, ge=1, description="for agents that take one")


@router.get("/api/lobby", summary="Open tables waiting for players, with their empty seats")
async def open_tables(
    tables: Manager,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    game: Annotated[str | None, Query(max_length=64, description="only this game")] = None,
) -> list[dict[str, Any]]:
    rows = await tables.lobby.open_tables(limit, game)
    titles = {info.id: info.title for info in spyglass.games.list_games()}
    for row in rows:
        row["title"] = titles.get(row["game"], row["game"])
    return rows


@router.post(
    "/api/tables/{table_id}/join",
    summary="Take an open seat of a public table: its token, for the joiner alone",
    responses=errors(403, 404, 409, 422, 429),
)
async def join(table_id: str, body: JoinIn, request: Request, tables: Manager) -> Joined:
    async with tables.hold(table_id) as table:
        token = await tables.lobby.join(table, body.seat, body.name, client_address(request))
        return Joined(seat=body.seat, token=token, table=table.summary())


@router.post(
    "/api/tables/{table_id}/start",
    summary="The host starts an open table now, with bots in the empty seats",
    responses=errors(403, 404, 409, 422),
)
async def start(
    table_id: str, tables: Manager, body: StartIn | None = None, host_key: HostHeader = None
) -> dict[str, Any]:
    async with tables.hold(table_id) as table:
        agent, budget = (None, None) if body is None else (body.agent, body.budget)
        await tables.lobby.start(table, host_key, agent, budget)
        return table.summary()
