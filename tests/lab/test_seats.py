"""The seats the lab hands agents: exactly what ``state.seat(p)`` gives, built only as far as
the agent reads it, so that ``simulate`` costs no more than a plain loop on the public API."""

from __future__ import annotations

import pytest

import spyglass
from spyglass import agents
from spyglass.engine import State, derive_seed
from spyglass.engine.rng import Rng
from spyglass.lab import simulate
from spyglass.lab.play import game_seed
from spyglass.lab.seats import LabSeat

GAMES = [(i.id, min(3, i.players[1]) if i.players[0] > 1 else 1) for i in spyglass.games()]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_lab_seat_answers_what_state_seat_answers(game_id: str, players: int) -> None:
    state = spyglass.load(game_id).new_state(players=players, seed=11)
    rng = Rng(5)
    for step in range(40):
        if state.is_over:
            break
        player = state.current_player
        eager = state.seat(player)
        lazy = LabSeat(state, player, state.legal_actions())
        assert lazy.legal_actions == eager.legal_actions and lazy.players == eager.players
        assert lazy.view == eager.view
        seed = 1000 + step
        assert lazy.determinize(Rng(seed)).snapshot() == eager.determinize(Rng(seed)).snapshot()
        action = lazy.legal_actions[rng.below(len(lazy.legal_actions))]
        assert lazy.describe(action) == eager.describe(action)
        assert lazy.parse(str(action)) == eager.parse(str(action))
        lazy.close()
        state.apply(action)


def test_a_seat_kept_past_its_move_shows_that_move_and_never_the_live_state() -> None:
    state = spyglass.load("espionage").new_state(players=3, seed=2)
    player = state.current_player
    eager = state.seat(player)
    kept = LabSeat(state, player, state.legal_actions())
    kept.close(kept=True)  # the agent held on to it: it builds what it may read, now
    dropped = LabSeat(state, player, state.legal_actions())
    dropped.close()
    state.apply(state.legal_actions()[0])
    assert kept.view == eager.view and kept.view["step"] == 0
    assert kept.determinize(Rng(3)).snapshot() == eager.determinize(Rng(3)).snapshot()
    with pytest.raises(RuntimeError, match="within choose"):
        _ = dropped.view


class Counting:
    """Counts what a simulation asks of the state, by wrapping the public methods."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = {"seat": 0, "view": 0, "determinize": 0}
        for name in self.calls:
            original = getattr(State, name)

            def counted(*args, _name=name, _original=original, **kwargs):
                self.calls[_name] += 1
                return _original(*args, **kwargs)

            monkeypatch.setattr(State, name, counted)


def test_random_agents_get_no_view_and_no_determinization(monkeypatch) -> None:
    counting = Counting(monkeypatch)
    result = simulate("tinker-tailor", "random", 3, players=4, seed=1)
    assert sum(o.length for o in result.outcomes) > 100
    assert counting.calls == {"seat": 0, "view": 0, "determinize": 0}


def test_the_heuristic_gets_one_determinization_per_decision_and_no_view(monkeypatch) -> None:
    counting = Counting(monkeypatch)
    result = simulate("espionage", "heuristic", 2, players=4, seed=1)
    decisions = sum(sum(o.decisions) for o in result.outcomes)
    assert decisions > 50
    assert counting.calls == {"seat": 0, "view": 0, "determinize": decisions}


def eager_loop(game_id: str, agent: str, players: int, games: int, seed: int) -> list:
    """The lab's loop before: ``state.seat(p)`` built whole for every move."""
    game = spyglass.load(game_id)
    outcomes = []
    for index in range(games):
        state = game.new_state(players=players, seed=game_seed(seed, index))
        seated = [
            agents.load_spec(agent, seed=derive_seed(state.seed, f"agent/{p}"))
            for p in range(players)
        ]
        while not state.is_over:
            player = state.current_player
            state.apply(seated[player].choose(state.seat(player)))
        outcomes.append((state.result.winners, state.result.scores, state.step))
    return outcomes


@pytest.mark.parametrize(
    ("game_id", "agent", "players"),
    [
        ("tinker-tailor", "heuristic", 3),
        ("espionage", "heuristic", 4),
        ("sandwich-guy", "heuristic", 1),
        ("hide-and-seek", "heuristic", 1),
        ("syndicate", "ismcts:iterations=3", 1),
        ("tinker-tailor", "random", 4),
    ],
)
def test_the_games_are_the_ones_eager_seats_played(game_id: str, agent: str, players: int) -> None:
    fast = simulate(game_id, agent, 3, players=players, seed=4)
    played = [(o.winners, o.scores, o.length) for o in fast.outcomes]
    assert played == eager_loop(game_id, agent, players, 3, 4)
