"""Time budgets count CPU time by default and real time on request (``clock="wall"``): a server
that promises a move within a cap asks for real time, because a starved process's CPU time
hardly moves (simulated here by a CPU clock that stands still)."""

from __future__ import annotations

import time

import pytest

import spyglass
from spyglass import agents
from spyglass.agents import clock
from spyglass.agents.ismcts import ISMCTSAgent
from spyglass.agents.pimc import PIMCAgent
from spyglass.engine import RulesError
from spyglass.web.bots import capped, hint_params


@pytest.fixture
def starved(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that gets no CPU time at all: its CPU clock stands still."""
    monkeypatch.setitem(clock.CLOCKS, "cpu", lambda: 1.0)


def seat() -> spyglass.Seat:
    """The seat to move at the start of a three-player Espionage game (several moves)."""
    state = spyglass.load("espionage").new_state(players=3, seed=4)
    assert state.current_player is not None and len(state.legal_actions()) > 1
    return state.seat(state.current_player)


def test_a_deadline_reads_its_own_clock(starved: None) -> None:
    cpu = clock.Deadline.after(1.0, "cpu")
    wall = clock.Deadline.after(1.0, "wall")
    time.sleep(0.01)
    assert not cpu.passed() and wall.passed()
    assert not clock.Deadline.after(None, "wall").passed()


def test_ismcts_counts_cpu_time_unless_told_wall(starved: None) -> None:
    on_cpu = ISMCTSAgent(1, iterations=40, milliseconds=1)
    on_cpu.choose(seat())
    assert on_cpu.last_iterations == 40  # the CPU budget never ran out: the iterations did
    on_wall = ISMCTSAgent(1, iterations=1_000_000, milliseconds=50, clock="wall")
    start = time.monotonic()
    on_wall.choose(seat())
    assert time.monotonic() - start < 5.0
    assert 0 < on_wall.last_iterations < 1_000_000


def test_pimc_counts_cpu_time_unless_told_wall(starved: None) -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=2)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    on_cpu = PIMCAgent(1, samples=16, milliseconds=1, margin=0.0)
    on_cpu.choose(state.seat(0))
    on_wall = PIMCAgent(1, samples=10_000, milliseconds=1, margin=0.0, clock="wall")
    on_wall.choose(state.seat(0))
    # the CPU budget stood still, so the samples ran out; the wall budget stopped after a batch
    assert on_wall.last_evaluations < on_cpu.last_evaluations


def test_a_clock_must_be_one_of_the_two() -> None:
    for make in (
        lambda: ISMCTSAgent(1, clock="sundial"),
        lambda: PIMCAgent(1, clock="sundial"),
        lambda: agents.load_spec("strongest:milliseconds=100,clock=sundial"),
    ):
        with pytest.raises(RulesError, match="cpu, wall"):
            make()


def test_a_server_caps_in_real_time() -> None:
    assert capped("ismcts", {"iterations": 500}, 1.0) == {
        "iterations": 500,
        "milliseconds": 850.0,
        "clock": "wall",
    }
    assert capped("strongest", {}, 1.0)["clock"] == "wall"
    assert "clock" not in capped("heuristic", {}, 1.0)  # it takes no time budget
    assert hint_params("pimc", 16, 0.5)["clock"] == "wall"


def test_a_hint_spec_names_the_clock() -> None:
    timed = next(
        g.id
        for g in spyglass.games()
        if agents.parse_spec(agents.strongest(g.id))[0] in ("ismcts", "pimc")
    )
    assert "clock=wall" in agents.hint_spec(timed, 500, "wall")
    assert "clock" not in agents.hint_spec(timed, 500)


@pytest.mark.parametrize("game_id", [g.id for g in spyglass.games()])
def test_every_game_s_hint_agent_loads_on_either_clock(game_id: str) -> None:
    """The hint's agent of every game, held to real time as the server asks: the spec names a
    clock only for an agent that takes one (the solver counts CPU time), and it loads."""
    for clock_name in ("cpu", "wall"):
        spec = agents.hint_spec(game_id, 500, clock_name)
        agent = agents.load_spec(spec, seed=1)
        assert getattr(agent, "clock", "cpu") in ("cpu", clock_name)
    assert agents.load_spec("strongest:milliseconds=500,clock=wall", seed=1)
