"""Tables: create, list, look, move, undo, hint, messages, and a finished game's record and
replay."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

import spyglass
from spyglass.engine import RulesError
from spyglass.web.clocks import MAX_INCREMENT, MAX_SECONDS, MIN_SECONDS, ClockError, ClockSpec
from spyglass.web.manager import MAX_SEED, TableManager
from spyglass.web.names import MAX_NAME
from spyglass.web.tables import SeatSpec, TableError

from .accounts import current_account, current_session
from .deps import TokenHeader, client_address, errors, manager

router = APIRouter(tags=["tables"])

Manager = Annotated[TableManager, Depends(manager)]


class SeatIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    kind: Literal["human", "bot"] = Field("human", description="a person or an agent")
    agent: str | None = Field(
        None, max_length=32, description="for a bot: the agent's name (see /api/agents)"
    )
    budget: int | None = Field(
        None,
        ge=1,
        description="for agents that take one: iterations per move, at most the server's"
        " max_budget (see /api/agents)",
    )
    name: str | None = Field(
        None, max_length=4 * MAX_NAME, description="shown to everyone at the table"
    )
    invite: bool | None = Field(
        None,
        description="a person's seat: false, the creator plays it on this device and gets its"
        " token; true, the creator gets an invite link for someone else (claimed once)."
        " Default: the first person's seat is the creator's, the others are invited",
    )
    open: bool = Field(
        False,
        description="a person's seat left empty for anyone to join from the lobby (public"
        " tables only); the game waits until every seat is taken or the host starts it",
    )


class ClockIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    kind: Literal["realtime", "turn"] = Field(
        description="realtime: seconds per person for the whole game; turn: seconds per move"
    )
    seconds: float = Field(
        ge=MIN_SECONDS,
        le=MAX_SECONDS,
        description="realtime: each person's time for the game; turn: the time for each move",
    )
    increment: float = Field(
        0.0, ge=0, le=MAX_INCREMENT, description="realtime: seconds added after each move"
    )
    on_timeout: Literal["bot", "lose"] = Field(
        "bot",
        description="when a seat's time runs out: the game's bot takes the seat, or the seat"
        " loses (solo: the game is lost; multiplayer: ranked last, see docs/web.md)",
    )


class TableIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    game: str = Field(max_length=64, description="game id, e.g. sandwich-guy")
    options: dict[str, Any] = Field(
        default_factory=dict,
        max_length=32,
        description="game options by name, each of its own JSON type (see /api/games)",
    )
    players: int | None = Field(None, ge=1, le=16, description="default: the number of seats")
    seats: list[SeatIn] = Field(
        default_factory=list,
        max_length=16,
        description="one per player; default: a person in seat 0 and the game's bot elsewhere",
    )
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="default: a random deal")
    private: bool = Field(
        False, description="unlisted: only people with its link find it (invite only)"
    )
    clock: ClockIn | None = Field(None, description="clocks for the people's seats (optional)")


class ActionIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    action: str = Field(min_length=1, max_length=300, description="the move's notation")
    step: int | None = Field(
        None, ge=0, description="the step the move was chosen at; refused if the table moved on"
    )


class SeatLink(BaseModel):
    seat: int
    kind: str
    name: str
    token: str | None = Field(
        None, description="the creator's own seats only: its token, shown once, never stored"
    )
    invite: str | None = Field(None, description="invited seats only: the invite, claimed once")
    link: str | None = Field(
        None, description="the link that opens the seat (secret in the fragment)"
    )


class TableCreated(BaseModel):
    id: str
    table: dict[str, Any]
    seats: list[SeatLink]
    host_key: str = Field(description="re-invites seats (header X-Host-Key); shown once")
    spectate: str
    replay: str


def strict_options(game_id: str, options: dict[str, Any]) -> None:
    """Each option given in its own JSON type: ``"2"`` is not a number, ``"yes"`` not true."""
    try:
        info = spyglass.games.REGISTRY.spec(game_id).info
    except RulesError as error:
        raise TableError(422, str(error)) from None
    for name, value in options.items():
        spec = info.option(name)
        if spec is None:
            continue  # the game's own check names the options it has
        kind = spec.kind
        if kind is bool and not isinstance(value, bool):
            raise TableError(422, f"option {name} is true or false, not {json.dumps(value)}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise TableError(422, f"option {name} is a whole number, not {json.dumps(value)}")
        if kind is str and not isinstance(value, str):
            raise TableError(422, f"option {name} is text, not {json.dumps(value)}")


@router.post(
    "/api/tables",
    status_code=201,
    summary="Create a table; returns the creator's seat tokens, the invites and the host key"
    " (once)",
    responses=errors(413, 422, 429),
)
async def create_table(body: TableIn, request: Request, tables: Manager) -> TableCreated:
    strict_options(body.game, body.options)
    seats = [SeatSpec(s.kind, s.agent, s.budget, s.name, s.invite, s.open) for s in body.seats]
    # A seat may not pass for a registered player, unless it is the logged-in creator's name.
    account = current_account(await current_session(request))
    await request.app.state.players.check_guest_names(
        [s.name for s in body.seats if s.kind == "human" and s.name], account
    )
    clock = None
    if body.clock is not None:
        c = body.clock
        try:
            clock = ClockSpec(c.kind, c.seconds, c.increment, c.on_timeout)
        except ClockError as error:
            raise TableError(422, str(error)) from None
    created = await tables.create(
        body.game,
        dict(body.options),
        body.players,
        seats,
        body.seed,
        private=body.private,
        client=client_address(request),
        clock=clock,
    )
    table = created.table
    links = []
    for row in table.row.seats:
        token = created.tokens.get(row.seat)
        invite = created.invites.get(row.seat)
        if token:
            link = f"/table/{table.id}#seat={row.seat}&token={token}"
        elif invite:
            link = f"/table/{table.id}#invite={invite}"
        else:
            link = None
        links.append(
            SeatLink(
                seat=row.seat, kind=row.kind, name=row.name, token=token, invite=invite, link=link
            )
        )
    return TableCreated(
        id=table.id,
        table=table.summary(),
        seats=links,
        host_key=created.host_key,
        spectate=f"/table/{table.id}",
        replay=f"/table/{table.id}/replay",
    )


@router.get("/api/tables", summary="Recent listed tables (public summaries)")
async def list_tables(
    tables: Manager, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> list[dict[str, Any]]:
    rows = await tables.run_db(tables.store.summaries, limit)
    titles = {info.id: info.title for info in spyglass.games.list_games()}
    for row in rows:
        row["title"] = titles.get(row["game"], row["game"])
        live = tables.tables.get(row["id"])
        if live is not None:  # fresher than the database by at most the current move
            row.update(status=live.status(), step=live.state.step)
    return rows


@router.get(
    "/api/tables/{table_id}",
    summary="What the caller's seat sees (spectator without a token): view and moves",
    responses=errors(403, 404),
)
async def get_table(table_id: str, tables: Manager, token: TokenHeader = None) -> Response:
    async with tables.hold(table_id) as table:
        seat = await tables.identify(table, token)
        return Response(tables.message_text(table, seat), media_type="application/json")


@router.get(
    "/api/tables/{table_id}/messages",
    summary="A page of the messages the caller's seat may read (spectator: the public ones)",
    responses=errors(403, 404),
)
async def get_messages(
    table_id: str,
    tables: Manager,
    token: TokenHeader = None,
    before: Annotated[
        int | None, Query(ge=0, description="the page ending before this position")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    async with tables.hold(table_id) as table:
        seat = await tables.identify(table, token)
        return {"seat": seat, **tables.readable(table, seat, before, limit)}


@router.post(
    "/api/tables/{table_id}/actions",
    summary="Make a move (the seat's token is required)",
    responses=errors(401, 403, 404, 409, 413, 422, 503),
)
async def post_action(
    table_id: str, body: ActionIn, tables: Manager, token: TokenHeader = None
) -> Response:
    async with tables.hold(table_id) as table:
        seat = tables.require_seat(await tables.identify(table, token), "a move")
        await tables.act(table, seat, body.action, body.step)
        return Response(tables.message_text(table, seat), media_type="application/json")


@router.post(
    "/api/tables/{table_id}/undo",
    summary="Take back the last move (solo games, until the game is over)",
    responses=errors(401, 403, 404, 409, 503),
)
async def post_undo(table_id: str, tables: Manager, token: TokenHeader = None) -> Response:
    async with tables.hold(table_id) as table:
        seat = tables.require_seat(await tables.identify(table, token), "undo")
        await tables.undo(table, seat)
        return Response(tables.message_text(table, seat), media_type="application/json")


@router.post(
    "/api/tables/{table_id}/hint",
    summary="The strongest agent's move for the seat to move (limited per seat)",
    responses=errors(401, 403, 404, 409, 429, 503),
)
async def post_hint(table_id: str, tables: Manager, token: TokenHeader = None) -> dict[str, Any]:
    async with tables.hold(table_id) as table:
        seat = tables.require_seat(await tables.identify(table, token), "a hint")
        return await tables.hint(table, seat)


@router.get(
    "/api/tables/{table_id}/record",
    summary="The game record (JSON) of a finished table, to download",
    responses=errors(404, 409),
)
async def get_record(table_id: str, tables: Manager) -> Response:
    async with tables.hold(table_id) as table:
        body = json.dumps(tables.record(table), ensure_ascii=False, indent=1)
        name = f"spyglass-{table.state.game.info.id}-{table.id}.json"
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/api/tables/{table_id}/replay",
    summary="A finished table's position after a given step, seen by a seat",
    responses=errors(404, 409, 422),
)
async def get_replay(
    table_id: str,
    tables: Manager,
    step: Annotated[int, Query(ge=0)] = 0,
    seat: Annotated[int | None, Query(ge=0, description="default: the spectator")] = None,
) -> dict[str, Any]:
    async with tables.hold(table_id) as table:
        return tables.replay_view(table, step, seat)
