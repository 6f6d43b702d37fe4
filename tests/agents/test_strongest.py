"""The strongest agent of each game: the recorded table, the agent that plays it, the hint."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

import pytest
from benchmarks import strength

import spyglass
from spyglass import agents
from spyglass.agents import measured as module
from spyglass.agents.solver import SolverAgent
from spyglass.engine import RulesError

ROOT = Path(__file__).resolve().parents[2]


def test_an_unmeasured_game_falls_back_on_its_bot() -> None:
    assert agents.strongest("no-such-game") == "heuristic"
    assert module.choice("no-such-game").note.startswith("not measured")


def test_the_hint_spec_holds_the_agent_to_under_a_second(monkeypatch) -> None:
    table = {
        "a": module.Choice("a", "pimc:samples=16"),
        "b": module.Choice("b", "ismcts:iterations=40,cutoff=0,milliseconds=5000"),
        "c": module.Choice("c", "heuristic"),
    }
    monkeypatch.setattr(module, "table", lambda: table)
    assert agents.hint_spec("a") == "pimc:samples=16,milliseconds=900"
    assert agents.hint_spec("b") == "ismcts:iterations=40,cutoff=0,milliseconds=900"
    assert agents.hint_spec("c") == "heuristic"
    assert agents.hint_spec("a", 300) == "pimc:samples=16,milliseconds=300"
    assert agents.HINT_MS <= 1000


def test_the_strongest_agent_plays_each_game_with_its_own(monkeypatch) -> None:
    monkeypatch.setattr(
        module, "table", lambda: {"syndicate": module.Choice("syndicate", "solver")}
    )
    agent = agents.load("strongest", seed=1)
    state = spyglass.load("syndicate").new_state(seed=4)
    while not state.is_over:
        state.apply(agent.choose(state.seat(0)))
    assert state.won
    assert isinstance(agent._agents["syndicate"], SolverAgent)
    other = spyglass.load("sandwich-guy").new_state(seed=1)
    assert agent.choose(other.seat(0)) in other.legal_actions()  # its bot: not measured here
    with pytest.raises(RulesError, match="positive time budget"):
        agents.load("strongest", milliseconds=0)


def test_the_recorded_strongest_agents_are_the_best_in_the_committed_results(monkeypatch) -> None:
    """src/spyglass/agents/strongest.toml is what benchmarks/strength.py ranks first from its
    committed results (benchmarks/results/strength.jsonl, read as docs/strength.md's command
    reads them), game by game, figures included."""
    header = (ROOT / "docs" / "strength.md").read_text().split("\n\n", 2)[1]
    argv = shlex.split(header.split("`")[1])[2:]
    out = argv.index("--out")
    del argv[out : out + 2]
    monkeypatch.chdir(ROOT)
    _, infos, budgets, results = strength.collect([*argv, "--report-only"])
    expected = strength.strongest_choices(infos, budgets, results)
    recorded = tomllib.loads((ROOT / "src/spyglass/agents/strongest.toml").read_text())["games"]
    assert set(recorded) == set(expected)
    for game, entry in expected.items():
        assert recorded[game]["agent"] == entry["agent"], game
        assert recorded[game]["deals"] == entry["deals"], game
        assert recorded[game]["win_rate"] == pytest.approx(entry["win_rate"], abs=5e-5), game
    for game in recorded:
        assert agents.strongest(game) == recorded[game]["agent"]
