"""Every registered game declares an encoding for learning libraries, and it covers play: each
legal action has an index, each view fits its declared features (no list longer than its
capacity, no value outside its category, no entry outside its bounds), and observing the state
directly gives the encoding of the view. Half the playouts follow the game's bot, which goes
deeper than random play. Each option is also changed on its own, at the smallest table size that
accepts it (some options go together with no other, or not at every size)."""

from __future__ import annotations

from typing import Any

import pytest

import spyglass
from spyglass.engine import OptionSpec, Rng, RulesError
from tests.conformance.test_conformance import player_counts

np = pytest.importorskip("numpy")

from spyglass.adapters.tensors import GameEncoding  # noqa: E402

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


def accepts(game_id: str, players: int, options: dict[str, Any]) -> bool:
    """Whether the game deals a table of ``players`` with these options (some combinations of
    options and table sizes are against the rules)."""
    try:
        spyglass.load(game_id, **options).new_state(players=players, seed=0)
    except RulesError:
        return False
    return True


def cases() -> list[Any]:
    """Each game at each table size with its default options, then each option changed on its
    own, at the smallest table size that accepts the new value."""
    out = []
    for info in spyglass.games():
        counts = player_counts(info)
        for n in counts:
            out.append(pytest.param(info.id, n, {}, id=f"{info.id}-{n}p"))
        for option in info.options:
            changed = {option.name: other_value(option)}
            n = next((n for n in counts if accepts(info.id, n, changed)), None)
            if n is None:
                raise AssertionError(f"{info.id}: no table size accepts {changed}")
            label = f"{option.name}={changed[option.name]}"
            out.append(pytest.param(info.id, n, changed, id=f"{info.id}-{n}p-{label}"))
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
            vector = encoding.observe(state.view(seat))
            assert vector.shape == (encoding.observation_size,)
            assert np.array_equal(encoding.observe_state(state, seat), vector)
            if k % 2 and game.spec.bot is not None:
                state.apply(game.spec.bot(state.determinize(seat, rng), rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        for seat in range(players):
            vector = encoding.observe(state.view(seat))
            assert np.array_equal(encoding.observe_state(state, seat), vector)
