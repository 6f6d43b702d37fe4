"""Every registered game declares an encoding for learning libraries, and it covers play: each
legal action has an index, each view fits its declared features (no list longer than its
capacity, no value outside its category). Half the playouts follow the game's bot, which goes
deeper than random play; each game is also played once with every option changed."""

from __future__ import annotations

from typing import Any

import pytest

import spyglass
from spyglass.engine import OptionSpec, Rng

pytest.importorskip("numpy")

from spyglass.adapters.encoding import GameEncoding

PLAYOUTS = 2  # one random, one by the bot


def other_value(option: OptionSpec) -> Any:
    """A value of the option other than its default."""
    if isinstance(option.default, bool):
        return not option.default
    if option.choices:
        return next(c for c in option.choices if c != option.default)
    if option.minimum is not None and option.minimum != option.default:
        return option.minimum
    return option.maximum


def cases() -> list[Any]:
    out = []
    for info in spyglass.games():
        for n in sorted(set(info.players)):
            out.append(pytest.param(info.id, n, {}, id=f"{info.id}-{n}p"))
        changed = {o.name: other_value(o) for o in info.options}
        if changed:
            label = ",".join(f"{k}={v}" for k, v in changed.items())
            out.append(pytest.param(info.id, info.players[0], changed, id=f"{info.id}-{label}"))
    return out


@pytest.mark.parametrize(("game_id", "players", "options"), cases())
def test_every_game_has_a_working_encoding(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    game = spyglass.load(game_id, **options)
    assert game.spec.encoding is not None, f"{game_id} must declare GameSpec.encoding"
    encoding = GameEncoding(game, players, strict=True)
    assert encoding.num_actions > 0
    for k in range(PLAYOUTS):
        state = game.new_state(players=players, seed=900 + k)
        rng = Rng(k)
        while not state.is_over:
            seat = state.current_player
            assert len(encoding.legal_indices(state)) == len(state.legal_actions())
            assert encoding.observe(state.view(seat)).shape == (encoding.observation_size,)
            if k % 2 and game.spec.bot is not None:
                state.apply(game.spec.bot(state.determinize(seat, rng), rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        for seat in range(players):
            encoding.observe(state.view(seat))
