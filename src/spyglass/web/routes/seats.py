"""Seats and their secrets: claiming an invite, the host re-inviting a seat, a player replacing
their seat's token. See docs/web.md, "Seats, invites and keys" for the threat model."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from spyglass.web.manager import TableManager

from .deps import HostHeader, TokenHeader, client_address, errors, manager

router = APIRouter(tags=["seats"])

Manager = Annotated[TableManager, Depends(manager)]


class ClaimIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    invite: str = Field(min_length=1, max_length=64, description="the invite from the link")


class Claimed(BaseModel):
    seat: int
    token: str = Field(description="this seat's token, for the claimer alone; never shown again")
    table: dict[str, Any]


class Invited(BaseModel):
    seat: int
    invite: str
    link: str


class Rotated(BaseModel):
    seat: int
    token: str


@router.post(
    "/api/tables/{table_id}/claim",
    summary="Claim an invite: its seat's token, for the claimer alone (once per invite)",
    responses=errors(404, 410, 422, 429),
)
async def claim(table_id: str, body: ClaimIn, request: Request, tables: Manager) -> Claimed:
    async with tables.hold(table_id) as table:
        seat, token = await tables.claim(table, body.invite, client_address(request))
        return Claimed(seat=seat, token=token, table=table.summary())


@router.post(
    "/api/tables/{table_id}/seats/{seat}/invite",
    summary="The host re-invites a person's seat: a new invite; the seat's old token and"
    " invite stop working",
    responses=errors(403, 404, 409, 422),
)
async def reinvite(
    table_id: str, seat: int, tables: Manager, host_key: HostHeader = None
) -> Invited:
    async with tables.hold(table_id) as table:
        invite = await tables.reinvite(table, host_key, seat)
        return Invited(seat=seat, invite=invite, link=f"/table/{table.id}#invite={invite}")


@router.post(
    "/api/tables/{table_id}/token",
    summary="Replace your seat's token by a new one (the old one stops working)",
    responses=errors(401, 403, 404),
)
async def rotate(table_id: str, tables: Manager, token: TokenHeader = None) -> Rotated:
    async with tables.hold(table_id) as table:
        seat = tables.require_seat(await tables.identify(table, token), "a new token")
        assert token is not None
        return Rotated(seat=seat, token=await tables.rotate(table, seat, token))
