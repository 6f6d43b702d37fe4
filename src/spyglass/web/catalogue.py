"""The games as the web app describes them: each game's public description and table layout
(``/api/games``, and the first message of every table connection), and the warm-up that loads
all of it before a server listens.

The registry imports a game's module the first time it is asked for it, and rendering a rules
page parses its Markdown: done lazily, the first visitors of a fresh server would wait for it
(half a second for the first ``/api/games``). :func:`warm` does it at start-up instead.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from functools import cache
from typing import Any

import spyglass
from spyglass.engine import RulesError

from .rules import rules_html


def game_json(game_id: str) -> dict[str, Any]:
    """One game's public description with its layout (a new dict each call: callers may add
    to it). RulesError for an unknown game."""
    spec = spyglass.games.REGISTRY.spec(game_id)
    data = spec.info.to_json()
    data["layout"] = [asdict(region) for region in spec.layout]
    return data


def games_json() -> list[dict[str, Any]]:
    """Every registered game; one whose data will not load is listed with ``unavailable`` (the
    reason) and no layout, instead of failing the whole list."""
    listed = []
    for info in spyglass.games.list_games():
        if info.unavailable is not None:
            listed.append({**info.to_json(), "layout": []})
        else:
            listed.append(game_json(info.id))
    return listed


@cache
def game_message(game_id: str) -> str:
    """The first message of every connection to a table of this game, as JSON text (made once
    per game): ``{"type": "game", "game": ...}``, what ``/api/games/GAME`` answers. The page
    draws the table from its layout, so it never waits for a request of its own for it. Only
    public facts about the game: nothing of any table."""
    return json.dumps({"type": "game", "game": game_json(game_id)}, ensure_ascii=False)


def warm() -> int:
    """Load every game, its description and its rules page now; returns the number of games
    that loaded. Run before the server listens (see app.create_app). A game that does not load
    is left for its requests to report, as they do without a warm-up."""
    count = 0
    for info in spyglass.games.list_games():
        if info.unavailable is not None:
            continue
        try:
            game_message(info.id)
            rules_html(info.id)
        except RulesError:
            continue
        count += 1
    return count
