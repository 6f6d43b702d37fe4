"""Agent specs are checked against what each agent declares, before a game is played."""

from __future__ import annotations

import pytest

from spyglass.engine import RulesError
from spyglass.lab import simulate
from spyglass.lab.agentspec import check_agent


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:c=abc", "agent 'ismcts:c=abc': c is a number, not 'abc'"),
        ("ismcts:iterations=abc", "iterations is a whole number, not 'abc'"),
        ("ismcts:iterations=2.5", "iterations is a whole number, not 2.5"),
        ("ismcts:rollout=3", "rollout is str, not 3"),
        ("ismcts:depth=2", "no parameter 'depth' (its parameters: iterations, milliseconds"),
        ("random:x=1", "no parameter 'x' (its parameters: none)"),
        ("genius", "unknown agent 'genius'"),
        ("ismcts:iterations=0", "at least one iteration"),
        ("tuned:surviving=2", "no tuned policy has a weight 'surviving'; their weights: "),
    ],
)
def test_a_bad_spec_is_one_clear_line(spec: str, message: str) -> None:
    with pytest.raises(RulesError) as raised:
        check_agent(spec)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_good_specs_pass_and_no_game_is_played_with_a_bad_one() -> None:
    for spec in (
        "random",
        "heuristic",
        "ismcts:iterations=20,c=0.5,rollout=random,cutoff=3",
        "tuned:survival=2.5,suit_outs=4",  # the tuned agent's weights, as `spyglass tune` sets them
    ):
        check_agent(spec)
    played = []
    with pytest.raises(RulesError, match="c is a number"):
        simulate("syndicate", ["ismcts:c=abc"], 5, progress=played.append)
    assert played == []


@pytest.mark.parametrize(
    ("game", "agent"),
    [("boba-tea", "lookahead"), ("espionage", "expectimax:depth=1"), ("skyway", "solver")],
)
def test_an_agent_that_does_not_play_the_game_is_refused_before_any_game(
    game: str, agent: str
) -> None:
    """Refused with the agents that do, before the first move (the agent's own refusal at
    its first move, which this used to be, names no others)."""
    refused = r"does not play .*; the agents that do: random, heuristic"
    with pytest.raises(RulesError, match=refused):
        simulate(game, agent, 2)
