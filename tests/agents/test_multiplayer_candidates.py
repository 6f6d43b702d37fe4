"""The search options tried against the heuristic seats of the multiplayer games (issue 28):
``evaluation`` (another evaluation for cut-off playouts), ``decisions`` (search only some
decisions, the bot playing the rest), and the evaluations they name; and that the searches so
configured still read nothing of the true state."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

import spyglass
from spyglass import agents
from spyglass.engine import RulesError, State
from spyglass.games.espionage import bot as espionage_bot
from spyglass.games.tinker_tailor import evaluate as tinker_evaluate
from spyglass.games.tinker_tailor.bot import worth


def _tinker(seed: int, moves: int) -> State:
    """A four-player Tinker Tailor table after ``moves`` heuristic moves."""
    game = spyglass.load("tinker-tailor")
    state = game.new_state(players=4, seed=seed)
    bots = [agents.load("heuristic", seed=seed * 10 + p) for p in range(4)]
    for _ in range(moves):
        player = state.current_player
        state.apply(bots[player].choose(state.seat(player)))
    return state


def _at(state: State, word: str, multiple: bool = True) -> State:
    """``state`` played on by the heuristic until a decision whose moves begin with ``word``
    (with more than one move, if ``multiple``)."""
    rng = spyglass.engine.Rng(5)
    while not state.is_over:
        legal = state.legal_actions()
        if legal[0].text.split()[0] == word and (len(legal) > 1 or not multiple):
            return state
        state.apply(state.game.spec.bot(state, rng))
    raise AssertionError(f"no {word} decision left")


@pytest.mark.parametrize("name", ["ismcts", "pimc"])
def test_an_evaluation_that_does_not_exist_is_named(name: str) -> None:
    state = _at(_tinker(1, 0), "pick")
    agent = agents.load_spec(f"{name}:cutoff=3,evaluation=nowhere", seed=1)
    with pytest.raises(RulesError, match="no evaluation called 'nowhere'"):
        agent.choose(state.seat(state.current_player))
    with pytest.raises(RulesError, match="decisions names"):
        agents.load_spec(f"{name}:decisions=+", seed=1)


@pytest.mark.parametrize(
    "spec", ["ismcts:iterations=12,cutoff=4", "pimc:samples=8,cutoff=4,margin=0"]
)
def test_the_named_evaluation_scores_the_cut_off_playouts(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"by_worth": 0, "evaluate": 0}
    originals = {name: getattr(tinker_evaluate, name) for name in calls}

    def counting(name: str):
        def counted(state):
            calls[name] += 1
            return originals[name](state)

        return counted

    monkeypatch.setattr(tinker_evaluate, "by_worth", counting("by_worth"))
    state = _at(_tinker(2, 40), "buy")
    player = state.current_player
    game = state.game
    monkeypatch.setattr(game, "spec", replace(game.spec, evaluate=counting("evaluate")))
    agents.load_spec(spec + ",evaluation=by_worth", seed=3).choose(state.seat(player))
    assert calls == {"by_worth": calls["by_worth"], "evaluate": 0} and calls["by_worth"] > 0
    calls["by_worth"] = 0
    agents.load_spec(spec, seed=3).choose(state.seat(player))  # the game's own, as before
    assert calls["evaluate"] > 0 and calls["by_worth"] == 0


@pytest.mark.parametrize(
    ("spec", "counter"),
    [
        ("ismcts:iterations=8,cutoff=4,decisions=pick", "last_iterations"),
        ("pimc:samples=8,cutoff=4,decisions=pick+rob", "last_evaluations"),
    ],
)
def test_only_the_decisions_named_are_searched(spec: str, counter: str) -> None:
    game_state = _tinker(4, 0)
    picking = _at(game_state.clone(), "pick")
    agent = agents.load_spec(spec, seed=2)
    agent.choose(picking.seat(picking.current_player))
    assert getattr(agent, counter) > 0
    buying = _at(game_state.clone(), "buy")
    player = buying.current_player
    for seed in range(3):
        agent = agents.load_spec(spec, seed=seed)
        heuristic = agents.load("heuristic", seed=seed)
        move = agent.choose(buying.seat(player))
        assert getattr(agent, counter) == 0  # not searched: the bot's move, at once
        assert move == heuristic.choose(buying.seat(player))


def test_by_worth_is_a_share_of_the_win_led_by_the_hand_the_bot_values_most() -> None:
    state = _tinker(6, 70)
    values = tinker_evaluate.by_worth(state)
    assert len(values) == 4 and math.isclose(sum(values), 1.0)
    left = 1.0 - (state.round - 1) / state.rounds
    if state.phase != "draft":
        left -= max(state.rhyme, 0) / 17 / state.rounds
    worths = [worth(hand, left) for hand in state.hands]
    assert max(range(4), key=lambda s: values[s]) == max(range(4), key=lambda s: worths[s])
    assert [values[s] for s in sorted(range(4), key=lambda s: worths[s])] == sorted(values)
    assert tinker_evaluate.evaluate(state) != values  # a different model from the points now


def test_by_worth_predicts_the_winner_better_than_the_points_now() -> None:
    # Heuristic self-play, every seventh position: by_worth's log-loss on the eventual winners
    # is below the game's own evaluation's (1.14 against 1.19 over 120 games when fitted).
    game = spyglass.load("tinker-tailor")
    loss = {"by_worth": 0.0, "evaluate": 0.0}
    for seed in range(20):
        state = game.new_state(players=4, seed=500 + seed)
        rng = spyglass.engine.Rng(seed)
        positions = []
        while not state.is_over:
            if len(state.history) % 7 == 0:
                positions.append(state.clone())
            state.apply(game.spec.bot(state, rng))
        rewards = state.result.rewards
        for position in positions:
            for name in loss:
                values = getattr(tinker_evaluate, name)(position)
                loss[name] -= sum(
                    w * math.log(max(v, 1e-9)) for w, v in zip(rewards, values, strict=True)
                )
    assert loss["by_worth"] < loss["evaluate"]


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=30,cutoff=6,evaluation=by_worth,decisions=pick",
        "pimc:samples=8,cutoff=6,evaluation=by_worth,decisions=pick",
    ],
)
def test_the_search_cannot_tell_states_the_seat_cannot_tell_apart(spec: str) -> None:
    """Two true Tinker Tailor tables that differ only in what the seat cannot see (other
    hands, the decks' order) get the same move from the same seeded agent."""
    true = _at(_tinker(7, 30), "pick")
    player = true.current_player
    twin = true.determinize(player, rng=91)
    assert twin.view(player) == true.view(player)
    assert twin.snapshot() != true.snapshot()  # the hidden parts really differ
    moves, counts = [], []
    for state in (true, twin):
        agent = agents.load_spec(spec, seed=4)
        moves.append(agent.choose(state.seat(player)))
        counts.append(getattr(agent, "last_iterations", getattr(agent, "last_evaluations", 0)))
    assert moves[0] == moves[1] and counts[0] == counts[1] > 0


def _espionage(seed: int) -> State:
    """A four-player Espionage city some turns in, seat 0 to play with cards received."""
    game = spyglass.load("espionage")
    state = game.new_state(players=4, seed=seed)
    rng = spyglass.engine.Rng(seed)
    while len(state.plays) < 13 or state.current_player != 0:
        state.apply(game.spec.bot(state, rng))
    return state


def test_pimc_belief_weighs_that_many_determinizations_per_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    weighed: list[int] = []
    original = espionage_bot.likelihood

    def counted(state, seat):
        weighed.append(seat)
        return original(state, seat)

    monkeypatch.setattr(espionage_bot, "likelihood", counted)
    state = _espionage(3)
    agent = agents.load_spec("pimc:samples=8,cutoff=4,belief=5,margin=0", seed=1)
    agent.choose(state.seat(0))
    samples = len(weighed) // 5
    assert len(weighed) == 5 * samples and 1 <= samples <= 8 and set(weighed) == {0}
    weighed.clear()
    agents.load_spec("pimc:samples=8,cutoff=4", seed=1).choose(state.seat(0))
    assert weighed == []  # belief=1 (the default) samples uniformly, as before
    with pytest.raises(RulesError, match="belief"):
        agents.load_spec("pimc:belief=0")


def test_pimc_belief_reads_nothing_of_the_true_state() -> None:
    true = _espionage(4)
    twin = true.determinize(0, rng=33)
    assert twin.view(0) == true.view(0) and twin.snapshot() != true.snapshot()
    moves = [
        agents.load_spec("pimc:samples=8,cutoff=6,belief=4,margin=0", seed=2).choose(s.seat(0))
        for s in (true, twin)
    ]
    assert moves[0] == moves[1]


def _movers(node, found: set[int]) -> set[int]:
    for child in node.children.values():
        found.add(child.mover)
        _movers(child, found)
    return found


def test_with_bot_opponents_the_tree_holds_only_the_seats_own_decisions() -> None:
    state = _espionage(5)
    spec = "ismcts:iterations=60,cutoff=12,belief=3"
    tree = agents.load_spec(spec, seed=1).search(state.seat(0))
    assert _movers(tree, set()) > {0}  # the usual search: the other seats choose in the tree
    agent = agents.load_spec(spec + ",opponents=bot", seed=1)
    own = agent.search(state.seat(0))
    assert _movers(own, set()) == {0} and own.visits == 60
    assert max(len(c.children) for c in own.children.values()) > 0  # it looks past one move
    with pytest.raises(RulesError, match="opponents is one of tree, bot"):
        agents.load_spec("ismcts:opponents=oracle")


def test_bot_opponents_read_nothing_of_the_true_state() -> None:
    true = _espionage(6)
    twin = true.determinize(0, rng=55)
    assert twin.view(0) == true.view(0) and twin.snapshot() != true.snapshot()
    trees = []
    for state in (true, twin):
        agent = agents.load_spec("ismcts:iterations=40,cutoff=8,belief=4,opponents=bot", seed=7)
        root = agent.search(state.seat(0))
        trees.append({k: (c.visits, c.reward) for k, c in root.children.items()})
    assert trees[0] == trees[1]
