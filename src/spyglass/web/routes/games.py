"""The catalogue: games with their layouts, their rules, and the agents a bot seat can use."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from spyglass import agents
from spyglass.engine import RulesError
from spyglass.web.bots import games_played, strongest_agent, takes_budget
from spyglass.web.catalogue import game_json, games_json
from spyglass.web.manager import TableManager
from spyglass.web.rules import rules_html
from spyglass.web.tables import TableError

from .deps import errors, manager

router = APIRouter(tags=["games"])


@router.get("/api/games", summary="Every registered game with its layout")
async def list_games() -> list[dict[str, Any]]:
    """A game whose data will not load is listed with ``unavailable`` (the reason) and no
    layout, instead of failing the whole list."""
    return games_json()


@router.get(
    "/api/games/{game_id}",
    summary="One game: info, options, player range, table layout",
    responses=errors(404),
)
async def get_game(game_id: str) -> dict[str, Any]:
    try:
        return game_json(game_id)
    except RulesError as error:
        raise TableError(404, str(error)) from None


@router.get(
    "/api/games/{game_id}/rules",
    summary="The game's rules (RULES.md) as Markdown and as HTML",
    responses=errors(404),
)
async def get_rules(game_id: str) -> dict[str, str]:
    try:
        markdown, html = rules_html(game_id)
    except RulesError as error:
        raise TableError(404, str(error)) from None
    return {"game": game_id, "markdown": markdown, "html": html}


@router.get("/api/agents", summary="The agents a bot seat can use, and this server's caps")
async def list_agents(tables: Annotated[TableManager, Depends(manager)]) -> dict[str, Any]:
    caps = tables.caps
    return {
        "agents": [
            {"name": n, "takes_budget": takes_budget(n), "games": games_played(n)}
            for n in agents.names()
        ],
        "strongest": strongest_agent(),
        "default": "heuristic",
        "max_budget": caps.max_budget,
        "bot_seconds": caps.bot_seconds,
        "hint_seconds": caps.hint_seconds,
    }
