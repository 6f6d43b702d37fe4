"""Every registered game plays to its end through the server: moves from the legal actions,
each seat with its own token, the record replaying to the same final position."""

from __future__ import annotations

import pytest

import spyglass
from tests.web.helpers import create, humans, play_http, tokens

#: Shorter games where a game offers them, to keep the suite quick (the rules are the same).
QUICK = {"espionage": {"game_length": "short"}}


@pytest.mark.parametrize("game_id", spyglass.games.REGISTRY.ids())
def test_every_game_plays_to_the_end_through_the_server(client, game_id) -> None:
    info = spyglass.load(game_id).info
    players = info.players[0]
    options = QUICK.get(game_id, {})
    created = create(client, game_id, humans(players), players=players, seed=17, options=options)
    last = play_http(client, created["id"], tokens(created), seed=3)
    assert last["view"]["over"] and last["table"]["status"] == "over"
    result = last["view"]["result"]
    assert len(result["scores"]) == players and result["summary"]
    record = client.get(f"/api/tables/{created['id']}/record").json()
    final = spyglass.replay(record)
    assert final.is_over and final.result.to_json() == result
    assert final.view(last["seat"]) == last["view"]


def test_a_bot_seat_in_every_multiplayer_game(client) -> None:
    for info in spyglass.games():
        if info.solo:
            continue
        seats = [{"kind": "human"}] + [{"kind": "bot"} for _ in range(info.players[0] - 1)]
        options = QUICK.get(info.id, {})
        created = create(client, info.id, seats, players=info.players[0], seed=5, options=options)
        last = play_http(client, created["id"], tokens(created), seed=2)
        assert last["view"]["over"]
