"""Every registered game declares an encoding for learning libraries, and it covers random play:
each legal action has an index, each view fits its declared features (nothing dropped)."""

from __future__ import annotations

import pytest

import spyglass
from spyglass.engine import Rng

pytest.importorskip("numpy")

from spyglass.adapters.encoding import GameEncoding

CASES = [
    pytest.param(info.id, n, id=f"{info.id}-{n}p")
    for info in spyglass.games()
    for n in sorted({info.players[0], info.players[1]})
]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_game_has_a_working_encoding(game_id: str, players: int) -> None:
    game = spyglass.load(game_id)
    assert game.spec.encoding is not None, f"{game_id} must declare GameSpec.encoding"
    encoding = GameEncoding(game, players, strict=True)
    assert encoding.num_actions > 0
    for k in range(2):
        state = game.new_state(players=players, seed=900 + k)
        rng = Rng(k)
        while not state.is_over:
            assert len(encoding.legal_indices(state)) == len(state.legal_actions())
            seat = state.current_player
            assert encoding.observe(state.view(seat)).shape == (encoding.observation_size,)
            state.apply(rng.choice(state.legal_actions()))
        encoding.observe(state.view(0))
