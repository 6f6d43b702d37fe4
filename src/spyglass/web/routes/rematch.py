"""Rematch: a seated player of a finished table gets their seat at its rematch (made by the
first such request). See docs/web.md, "Rematch"."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from spyglass.web.manager import TableManager
from spyglass.web.rematch import rematch

from .deps import TokenHeader, errors, manager

router = APIRouter(tags=["tables"])

Manager = Annotated[TableManager, Depends(manager)]


class RematchOut(BaseModel):
    id: str = Field(description="the rematch's table id")
    seat: int = Field(description="the caller's seat there (the old seat plus one)")
    token: str = Field(description="that seat's token, for the caller alone")
    link: str
    table: dict[str, Any]
    host_key: str | None = Field(
        None, description="only to the request that made the rematch: re-invites its seats"
    )
    invites: dict[int, str] = Field(
        default_factory=dict,
        description="only to the request that made the rematch: invites of seats nobody held",
    )


@router.post(
    "/api/tables/{table_id}/rematch",
    summary="Your seat at this finished table's rematch (same people and options, seats"
    " rotated, a new deal), made by the first player who asks",
    responses=errors(401, 403, 404, 409, 503),
)
async def post_rematch(table_id: str, tables: Manager, token: TokenHeader = None) -> RematchOut:
    async with tables.hold(table_id) as table:
        seat = tables.require_seat(await tables.identify(table, token), "a rematch")
        seated = await rematch(tables, table, seat)
    new = seated.table
    return RematchOut(
        id=new.id,
        seat=seated.seat,
        token=seated.token,
        link=f"/table/{new.id}#seat={seated.seat}&token={seated.token}",
        table=new.summary(),
        host_key=seated.host_key,
        invites=seated.invites or {},
    )
