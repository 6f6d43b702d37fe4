"""Spies! for learning libraries: every move has an index that leads back to it, distinct moves
have distinct indices, a seat's observation holds nothing it may not see, and a whole game runs
through an adapter."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import spyglass
from spyglass.engine import Action, Rng, State
from spyglass.games.spies.edition import EDITION
from spyglass.games.spies.encoding import MARKERS, MOST_MONEY, PIECES, SECRET_LABELS, SPIES
from spyglass.games.spies.notation import spell
from spyglass.games.spies.pieces import ACTIVE
from spyglass.games.spies.police import CAPTURE_MONEY

pytest.importorskip("numpy")

import numpy as np

from spyglass.adapters.tensors import GameEncoding


def playout(players: int, seed: int, **options: object) -> Iterator[State]:
    """Every state of a whole game played by uniform random moves."""
    state = spyglass.load("spies", **options).new_state(players=players, seed=seed)
    rng = Rng(seed)
    while not state.is_over:
        yield state
        state.apply(rng.choice(state.legal_actions()))
    yield state


@pytest.mark.parametrize("options", [{}, {"russia_bidding": True}], ids=["standard", "bidding"])
def test_every_index_names_one_move_and_leads_back_to_it(options: dict[str, object]) -> None:
    encoding = GameEncoding(spyglass.load("spies", **options), 2, strict=True)
    for index in range(encoding.num_actions):
        kind, cards, target = encoding.describe_index(index)
        assert cards == ()
        move = Action(kind, (), target, spell(kind, target))
        assert encoding.index(move) == index
    kinds = {encoding.describe_index(i)[0] for i in range(encoding.num_actions)}
    assert ("bid" in kinds) == bool(options)


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (5, {}), (2, {"russia_bidding": True, "secret_money": True})],
    ids=["2p", "5p", "2p-bidding-secret-money"],
)
def test_legal_moves_round_trip_over_a_whole_game(players: int, options: dict[str, object]) -> None:
    encoding = GameEncoding(spyglass.load("spies", **options), players, strict=True)
    rng = Rng(3)
    kinds: set[str] = set()
    for state in playout(players, 40 + players, **options):
        legal = state.legal_actions()
        indices = [encoding.index(a) for a in legal]
        assert len(set(indices)) == len(legal), "two legal moves share an index"
        for index, move in zip(indices, legal, strict=True):
            assert encoding.describe_index(index) == (move.kind, (), move.target)
            kinds.add(move.kind)
        if legal:  # index -> move -> index through the state, for one move a state
            index = rng.choice(indices)
            move = encoding.action(state, index)
            assert move in legal
            assert encoding.index(move) == index
    assert {"secret", "police", "spy", "move", "search", "end"} <= kinds
    if options:
        assert "bid" in kinds


def test_the_capacities_rest_on_facts_of_the_edition() -> None:
    """The bound on money (so on bids) counts one capture per spy: a spy is captured again only
    after an Escape or a Recruit, which must cost at least the capture's reward. The bound on
    Sanctioned markers needs Sanctions and Recruits to cost Action Points."""
    for chit in ("Escape", "Recruit"):
        assert EDITION.chit(chit).money >= CAPTURE_MONEY
    assert EDITION.chit("Sanction").action_points > 0
    assert EDITION.chit("Recruit").action_points > 0
    assert (MOST_MONEY, MARKERS) == (1307, 117)  # the figures the report and docs give


def test_the_views_list_pieces_by_the_labels_the_encoding_knows() -> None:
    """Secrets are read by position (X1 first); spies and police carry a label among the
    edition's."""
    for state in playout(4, 7):
        table = state.view(0)["table"]
        assert [s["label"] for s in table["secrets"]] == list(
            SECRET_LABELS[: len(table["secrets"])]
        )
        assert {s["label"] for s in table["spies"]} <= set(SPIES)
        assert {u["label"] for u in table["police"]} <= set(PIECES) - set(SPIES)


def test_what_a_seat_cannot_see_never_changes_its_observation() -> None:
    encoding = GameEncoding(spyglass.load("spies"), 3, strict=True)
    rng = Rng(11)
    compared = resampled = 0
    for state in playout(3, 12):
        if state.step % 9:
            continue
        for seat in range(3):
            guess = state.determinize(seat, rng)
            mine = encoding.observe(state.view(seat))
            assert np.array_equal(mine, encoding.observe(guess.view(seat)))
            compared += 1
            if (
                guess.board.spies != state.board.spies
                or guess.board.police != state.board.police
                or any(guess.hands.chits[p] != state.hands.chits[p] for p in state.hands.chits)
            ):
                resampled += 1
    assert compared > 100
    assert resampled > compared // 2, "the determinizations should differ from the true state"


def test_a_face_changes_the_observation_of_the_seats_that_see_it_only() -> None:
    """The check above could pass on an observation blind to faces: this one would fail then."""
    encoding = GameEncoding(spyglass.load("spies"), 2, strict=True)
    state = next(s for s in playout(2, 5) if s.phase == "move")
    spy = next(
        s
        for s in state.board.spies.values()
        if s.status == ACTIVE
        and not s.cousin
        and not state.sees_piece(1 - state.controller(s.power), s.label, s.power)
    )
    owner = state.controller(spy.power)
    changed = state.clone()
    changed.board.spies[spy.label] = spy.with_face(1 if spy.strength > 1 else 2, False)
    before, after = encoding.observe(state.view(owner)), encoding.observe(changed.view(owner))
    assert not np.array_equal(before, after)
    other = 1 - owner
    before, after = encoding.observe(state.view(other)), encoding.observe(changed.view(other))
    assert np.array_equal(before, after)


def test_a_two_player_game_plays_to_the_end_through_pettingzoo() -> None:
    pytest.importorskip("pettingzoo")
    from spyglass.adapters.pettingzoo import env as spyglass_env

    env = spyglass_env("spies", players=2)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, done, truncated, _ = env.last()
        rewards[agent] += reward
        assert obs["observation"].shape == (env.encoding.observation_size,)
        if done or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 300  # a whole game: set-up and seven years
    assert sum(rewards.values()) == pytest.approx(1.0)
