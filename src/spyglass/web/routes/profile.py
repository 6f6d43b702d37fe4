"""Players' profiles (name, ratings per game, game history with replays) and each game's
best-rated players."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

import spyglass
from spyglass.web.players import HISTORY, Players
from spyglass.web.tables import TableError

from .accounts import current_account, current_session, players
from .deps import errors

router = APIRouter(tags=["accounts"])

Accounts = Annotated[Players, Depends(players)]


@router.get(
    "/api/players/{name}",
    summary="A player's profile: ratings per game and finished games with replay links",
    responses=errors(404),
)
async def profile(
    name: str,
    request: Request,
    accounts: Accounts,
    limit: Annotated[int, Query(ge=1, le=500)] = HISTORY,
) -> dict[str, Any]:
    if len(name) > 200:
        raise TableError(404, "there is no such player")
    viewer = current_account(await current_session(request))
    return await accounts.profile(name, viewer, limit)


@router.get(
    "/api/ratings/{game}",
    summary="The best-rated players of a game",
    responses=errors(404),
)
async def leaders(
    game: str, accounts: Accounts, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> dict[str, Any]:
    if game not in {info.id for info in spyglass.games.list_games()}:
        raise TableError(404, f"there is no game {game!r}")
    manager = accounts.manager
    return {"game": game, "players": await manager.run_db(manager.ratings.leaders, game, limit)}
