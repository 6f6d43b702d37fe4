import pytest

import spyglass
from spyglass import agents
from spyglass.engine import RulesError, State


def test_registry_names_and_errors() -> None:
    assert agents.names() == [
        "random",
        "heuristic",
        "ismcts",
        "pimc",
        "solver",
        "tuned",
        "rollout",
        "expectimax",
        "lookahead",
        "strongest",
    ]
    with pytest.raises(RulesError, match="unknown agent 'genius'; known agents: random"):
        agents.load("genius")
    with pytest.raises(RulesError, match="agent 'random'"):
        agents.load("random", depth=3)


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_agents_choose_legal_moves_deterministically(name: str) -> None:
    game = spyglass.load("syndicate")
    moves = []
    for _ in range(2):
        state = game.new_state(seed=8)
        agent = agents.load(name, seed=1)
        line = []
        while not state.is_over:
            action = agent.choose(state.seat(0))
            assert action in state.legal_actions()
            state.apply(action)
            line.append(str(action))
        moves.append(line)
    assert moves[0] == moves[1]


def test_heuristic_agent_gives_the_bot_only_a_determinization(monkeypatch) -> None:
    seen: list[State] = []
    spec = spyglass.load("sandwich-guy").spec
    original = spec.bot

    def spy(state: State, rng):
        seen.append(state)
        return original(state, rng)

    state = spyglass.load("sandwich-guy").new_state(seed=4)
    monkeypatch.setattr(type(spec), "bot", property(lambda self: spy), raising=False)
    agents.load("heuristic", seed=0).choose(state.seat(0))
    assert seen and all(s.determinized and s.seed is None for s in seen)


def test_an_agent_cannot_move_for_a_waiting_seat() -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=4)
    seat = state.seat(None)
    with pytest.raises(spyglass.IllegalAction):
        agents.load("random").choose(seat)
