"""The action-index mapping and the observation encoder, over random playouts of every game."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

import spyglass
from spyglass.adapters.tensors import EncodingError, GameEncoding
from spyglass.engine import Action, Rng
from spyglass.games.boba_tea.rules import RANK

STEPS = 150  # per playout: long games are checked on their first moves

CASES = [
    pytest.param(info.id, n, id=f"{info.id}-{n}p")
    for info in spyglass.games()
    for n in sorted(set(info.players))
]


def _observed_as_viewed(encoding: GameEncoding, state: Any) -> np.ndarray:
    """The kept observation of seat 0, checked against the encoding of its view."""
    got = encoding.observe_state(state, 0)
    assert np.array_equal(got, encoding.observe(state.view(0)))
    return got


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_legal_action_maps_to_an_index_and_back(game_id: str, players: int) -> None:
    game = spyglass.load(game_id)
    encoding = GameEncoding(game, players, strict=True)
    checked = 0
    for k in range(2):
        state = game.new_state(players=players, seed=101 + k)
        rng = Rng(k)
        while not state.is_over and state.step < STEPS:
            legal = encoding.legal_indices(state)
            assert len(legal) == len(state.legal_actions())
            for index, action in legal.items():
                assert 0 <= index < encoding.num_actions
                assert encoding.action(state, index) == action
                kind, _cards, target = encoding.describe_index(index)
                assert (kind, target) == (action.kind, action.target)
                checked += 1
            mask = encoding.mask(legal)
            assert mask.sum() == len(legal)
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 0


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observation_has_a_fixed_shape_and_reads_the_view_only(game_id: str, players: int) -> None:
    game = spyglass.load(game_id)
    encoding = GameEncoding(game, players, strict=True)
    state = game.new_state(players=players, seed=5)
    rng = Rng(5)
    seen_change = False
    previous = None
    while not state.is_over and state.step < STEPS:
        for seat in range(players):
            view = state.view(seat)
            vector = encoding.observe(view)
            assert vector.shape == (encoding.observation_size,)
            assert vector.dtype == np.float32
            # What a seat's determinization shows it encodes the same: nothing hidden leaks in.
            if state.step % 10 == 0:
                guess = state.determinize(seat, rng)
                assert np.array_equal(encoding.observe(guess.view(seat)), vector)
        current = encoding.observe(state.view(0))
        seen_change = seen_change or (
            previous is not None and not np.array_equal(previous, current)
        )
        previous = current
        state.apply(rng.choice(state.legal_actions()))
    assert seen_change


def test_card_counts_land_in_their_zone() -> None:
    game = spyglass.load("sandwich-guy")
    encoding = GameEncoding(game, 1)
    state = game.new_state(seed=3)
    view = state.view(0)
    vector = encoding.observe(view)
    start = encoding.header_size  # the first feature is the hand
    hand = vector[start : start + len(encoding.cards)]
    assert hand.sum() == len(view["table"]["hand"])
    for card in view["table"]["hand"]:
        assert hand[encoding.cards.index(card)] == 1.0


def test_an_action_outside_the_universe_is_reported() -> None:
    encoding = GameEncoding(spyglass.load("sandwich-guy"), 1)
    with pytest.raises(EncodingError, match="not in the declared action universe"):
        encoding.index(Action("juggle", (), None, "juggle"))


def test_an_index_that_is_not_legal_is_refused() -> None:
    game = spyglass.load("area-52")
    encoding = GameEncoding(game, 1)
    state = game.new_state(seed=1)
    illegal = next(i for i in range(encoding.num_actions) if i not in encoding.legal_indices(state))
    with pytest.raises(spyglass.RulesError, match="not legal"):
        encoding.action(state, illegal)


def offset_of(encoding: GameEncoding, description: str) -> int:
    return next(o for d, o, _ in encoding.feature_table() if d.startswith(description))


def test_the_suit_of_each_chip_in_the_second_row_is_encoded() -> None:
    """Tinker, Sailor, Soldier, Spy: "Moons chip" in the second row used to count as a bare
    mark, so which suit paid was lost."""
    game = spyglass.load("tinker-sailor-soldier-spy")
    encoding = GameEncoding(game, 1, strict=True)
    at = encoding.at("chips in the second row")
    suits = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
    seen = 0
    for seed in range(30):
        state = game.new_state(seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            row = state.view(0)["table"]["second_row"]
            vector = encoding.observe_state(state, 0)
            for k, suit in enumerate(suits):
                assert vector[at + k] * 6 == pytest.approx(row.count(f"{suit} chip"))
            seen += any(item.endswith(" chip") for item in row)
            state.apply(rng.choice(state.legal_actions()))
    assert seen > 0


def test_the_merchants_sale_and_a_purchase_encode_differently() -> None:
    """Tinker Tailor: nothing but the status line told the Merchant's sale from a purchase."""
    game = spyglass.load("tinker-tailor")
    encoding = GameEncoding(game, 2, strict=True)
    at = offset_of(encoding, "one of 13 at status")
    names = game.spec.encoding({}, 2).observation[0].values
    sell, buy = at + names.index("may sell goods"), at + names.index("may buy goods")
    found = {"sell": 0, "buy": 0}
    for seed in range(12):
        state = game.new_state(players=2, seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            kinds = {a.kind for a in state.legal_actions()}
            vector = encoding.observe_state(state, state.current_player)
            if "sell" in kinds:
                assert (vector[sell], vector[buy]) == (1.0, 0.0)
                found["sell"] += 1
            elif "buy" in kinds:
                assert (vector[sell], vector[buy]) == (0.0, 1.0)
                found["buy"] += 1
            state.apply(rng.choice(state.legal_actions()))
    assert found["sell"] and found["buy"]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observing_the_state_equals_encoding_its_view(game_id: str, players: int) -> None:
    """``observe_state`` (the game's direct observer where it declares one, else its table
    view alone) gives exactly the encoding of ``view(seat)``, for every seat at every step."""
    game = spyglass.load(game_id)
    encoding = GameEncoding(game, players, strict=True)
    for k in range(3):
        state = game.new_state(players=players, seed=300 + k)
        rng = Rng(k)
        while True:
            for seat in range(players):
                expected = encoding.observe(state.view(seat))
                got = encoding.observe_state(state, seat)
                if not np.array_equal(got, expected):
                    wrong = int(np.flatnonzero(got != expected)[0])
                    raise AssertionError(
                        f"step {state.step}, seat {seat}: entry {wrong}"
                        f" ({encoding.entry_name(wrong)}) is {got[wrong]}, not {expected[wrong]}"
                    )
            if state.is_over or state.step >= STEPS:
                break
            state.apply(rng.choice(state.legal_actions()))


def test_the_rhyme_names_the_role_it_reached_by_title() -> None:
    """Tinker Tailor: "▶ Rich Man (seat 0)" used to count as a bare mark (its two words are no
    card), so five roles at the rhyme encoded alike."""
    from spyglass.games.tinker_tailor.cards import ROLE_CARDS, TITLES

    titles = [TITLES[c] for c in ROLE_CARDS]  # in rhyme order
    game = spyglass.load("tinker-tailor")
    encoding = GameEncoding(game, 3, strict=True)
    at = encoding.at("rhyme")
    reached = set()
    for seed in range(4):
        state = game.new_state(players=3, seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            line = state.view(0)["table"]["rhyme"]
            vector = encoding.observe_state(state, 0)
            marked = [part for part in line.split(" · ") if part.startswith("▶ ")]
            block = vector[at + 1 : at + 1 + len(titles)]
            if marked:
                title = titles[int(block.argmax())]
                assert vector[at] == 1.0 and block.sum() == 1.0
                assert marked[0].removeprefix("▶ ").startswith(title + " (")
                reached.add(title)
            else:
                assert vector[at] == 0.0 and block.sum() == 0.0
            state.apply(rng.choice(state.legal_actions()))
    assert {"Rich Man", "Poor Man"} <= reached


def test_observations_kept_per_table_stay_exact_across_tables_and_clones() -> None:
    """Espionage keeps each seat's plays between observations (``Segment``): several tables
    observed in turn, clones taken along the way and new cities all encode as the views do."""
    game = spyglass.load("espionage")
    encoding = GameEncoding(game, 4, strict=True)
    tables = [game.new_state(players=4, seed=70 + k) for k in range(3)]
    rngs = [Rng(k) for k in range(3)]
    cities = set()
    for step in range(400):
        for k in range(len(tables)):
            if step % 9 == 4:
                tables[k] = tables[k].clone()
            state = tables[k]
            if state.is_over:
                continue
            seat = (step + k) % 4
            assert np.array_equal(
                encoding.observe_state(state, seat), encoding.observe(state.view(seat))
            )
            state.apply(rngs[k].choice(state.legal_actions()))
            cities.add((k, state.city))
    assert len(cities) > 3


def test_put_cards_writes_what_put_ones_writes_and_refuses_unknown_cards() -> None:
    """``put_cards`` sets the same entries as one ``put_ones`` per card, through a memoryview
    as on the vector itself, and a card outside the vocabulary raises instead of landing on a
    wrong entry."""
    from spyglass.components.cards import Card

    encoding = GameEncoding(spyglass.load("boba-tea"), 1)
    cards = list(encoding.card_slots)[:20]
    by_cards = np.zeros(encoding.observation_size, np.float32)
    by_list = by_cards.copy()
    encoding.put_cards(memoryview(by_cards), 7, cards)
    encoding.put_ones(by_list, [7 + encoding.card_slot(c) for c in cards])
    assert np.array_equal(by_cards, by_list) and by_cards.sum() == len(set(cards))
    outside = next(Card(code) for code in range(54, 200) if Card(code) not in encoding.card_slots)
    with pytest.raises(EncodingError, match="not in the encoding's vocabulary"):
        encoding.put_cards(memoryview(by_cards), 7, [outside])


def test_new_action_objects_equal_to_known_ones_get_their_index() -> None:
    """``legal_map`` finds an action made afresh (another object, another notation) by what
    Action's equality compares, the index of the equal action indexed before; an action that
    differs in its target gets its own index."""
    from dataclasses import replace

    game = spyglass.load("boba-tea")
    encoding = GameEncoding(game, 1)
    state = game.new_state(players=1, seed=5)
    first = encoding.legal_map(state)
    legal = state._legal_list()
    state._legal = [replace(a, text=f"again {a.text}") for a in legal]  # new objects
    again = encoding.legal_map(state)
    assert {i: (a.kind, a.cards, a.target) for i, a in again.items()} == {
        i: (a.kind, a.cards, a.target) for i, a in first.items()
    }
    assert all(again[i] is not first[i] for i in first)  # the state's own objects come back
    assert all(str(a).startswith("again ") for a in again.values())


def test_a_new_action_among_known_ones_is_the_only_one_looked_up_by_value() -> None:
    """When a game hands out one action object not met before among known ones, ``legal_map``
    looks up that one alone (it looked up every legal action again), and the next time finds
    it by identity like the others."""
    game = spyglass.load("skyway")
    encoding = GameEncoding(game, 1)
    state = game.new_state(players=1, seed=2)
    legal = list(state._legal_list())
    state._legal = legal[:-1]
    encoding.legal_map(state)  # every action but the last is met
    looked_up: list[Action] = []
    index = encoding.index

    def counted(action: Action) -> int:
        looked_up.append(action)
        return index(action)

    encoding.index = counted  # type: ignore[method-assign]
    state._legal = legal
    found = encoding.legal_map(state)
    assert looked_up == [legal[-1]]
    assert found == {index(a): a for a in legal}
    assert encoding.legal_map(state) == found
    assert looked_up == [legal[-1]]  # found by identity the second time


def test_a_discard_pile_kept_between_observations_stays_exact() -> None:
    """Boba Tea keeps each table's vector between observations (``GameEncoding.kept``):
    several tables observed in turn, clones taken along the way (a clone's pile is another
    list) and a pile emptied behind the observer's back all encode as the views do."""
    game = spyglass.load("boba-tea")
    encoding = GameEncoding(game, 1, strict=True)
    tables = [game.new_state(players=1, seed=40 + k) for k in range(3)]
    rngs = [Rng(k) for k in range(3)]
    longest = 0
    for step in range(60):
        for k in range(len(tables)):
            if step % 7 == 3:
                tables[k] = tables[k].clone()
            state = tables[k]
            if state.is_over:
                tables[k] = state = game.new_state(players=1, seed=100 + step + k)
            assert np.array_equal(encoding.observe_state(state, 0), encoding.observe(state.view(0)))
            longest = max(longest, len(state.discard))
            state.apply(rngs[k].choice(state.legal_actions()))
    assert longest >= 10
    # The same list object made shorter and refilled with other cards is written afresh.
    state = tables[0]
    pile = state.discard
    kept = list(pile)
    pile.clear()
    state.discarded = [0] * 14
    assert np.array_equal(encoding.observe_state(state, 0), encoding.observe(state.view(0)))
    pile.extend(kept[::-1])
    for card in kept:
        state.discarded[RANK[card]] += 1
    assert np.array_equal(encoding.observe_state(state, 0), encoding.observe(state.view(0)))


def test_boba_tea_kept_vectors_follow_changes_behind_the_observers_back() -> None:
    """Each part of Boba Tea's kept vector compares the table with what it wrote from: a
    deck determinized, cut or refilled, a queue changed in its middle, a card put back into
    the discard pile's place, tables that share ids with tables gone, and observations handed
    out earlier (each is a copy) all stay exact."""
    game = spyglass.load("boba-tea")
    encoding = GameEncoding(game, 1, strict=True)

    exact = partial(_observed_as_viewed, encoding)

    rng = Rng(3)
    state = game.new_state(players=1, seed=8)
    first = exact(state)
    held = first.copy()
    seen_rude = False
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        exact(state)
        # A determinization is another table: its deck is the same cards in another order.
        other = state.determinize(0, rng)
        exact(other)
        exact(state)
        seen_rude = seen_rude or state.held is not None
    assert seen_rude
    assert np.array_equal(first, held)  # the first observation was not changed since
    state = game.new_state(players=1, seed=9)
    for _ in range(6):
        state.apply(rng.choice(state.legal_actions()))
    exact(state)
    longest = max(state.queues, key=len)
    longest.reverse()  # a queue changed in place, in its middle
    exact(state)
    longest.reverse()
    state.deck.reverse()  # the same cards, another order: the same contents
    exact(state)
    taken = state.deck[:3]
    del state.deck[:3]  # cards taken from the bottom of the deck, not its top
    exact(state)
    state.deck.extend(taken)  # and put back on top
    exact(state)
    # (The counts by rank are the state's own: kept as the rules keep them.)
    card = state.deck.pop()
    state.discard.append(card)
    state.discarded[RANK[card]] += 1
    exact(state)
    swapped = state.deck[-1]  # the pile's last card swapped with the deck's top
    state.discard[-1], state.deck[-1] = swapped, card
    state.discarded[RANK[card]] -= 1
    state.discarded[RANK[swapped]] += 1
    exact(state)
    # Many tables in turn, made and dropped: ids come back, contents do not.
    for seed in range(40):
        table = game.new_state(players=1, seed=seed)
        for _ in range(seed % 9):
            table.apply(rng.choice(table.legal_actions()))
        exact(table)
        exact(state)


def test_actions_met_before_by_value_are_found_without_a_lookup_each() -> None:
    """A legal list of action objects never met by identity, each equal to one met before
    (a game whose memo of actions was rebuilt), is indexed without one ``index`` call per
    action, and the next time by identity."""
    from dataclasses import replace

    game = spyglass.load("skyway")
    encoding = GameEncoding(game, 1)
    state = game.new_state(players=1, seed=4)
    first = encoding.legal_map(state)
    state._legal = [replace(a, text=a.text) for a in state._legal_list()]  # new objects
    looked_up: list[Action] = []
    index = encoding.index

    def counted(action: Action) -> int:
        looked_up.append(action)
        return index(action)

    encoding.index = counted  # type: ignore[method-assign]
    again = encoding.legal_map(state)
    assert looked_up == []
    assert list(again) == list(first)
    assert all(again[i] is not first[i] and again[i] == first[i] for i in first)
    by_id = dict(encoding._by_id)
    assert all(by_id[id(a)] == i for i, a in again.items())  # remembered by identity
    assert encoding.legal_map(state) == again
    # Two equal actions in one list share an index: refused, as by the long way.
    state._legal = [*state._legal_list(), replace(state._legal_list()[0])]
    with pytest.raises(EncodingError, match="share one index"):
        encoding.legal_map(state)


def test_keep_cards_brings_a_zone_to_what_put_cards_writes() -> None:
    """``keep_cards`` turns a zone written from one list of distinct cards into the zone of
    another, whatever the change (cards lost or gained at the end, in the middle, the order
    changed, emptied, refilled), the same as writing the new list afresh; a card the encoding
    has not yet placed in ``card_slots`` (the Emissary's advisors) is found all the same."""
    from spyglass.games.emissary.rules import JACKS

    encoding = GameEncoding(spyglass.load("emissary"), 1)
    for jack in JACKS:  # as before the observer first looked them up
        del encoding.card_slots[jack]
    pool = list(encoding.card_slots) + list(JACKS)
    rng = Rng(11)
    kept: list[Any] = []
    vector = np.zeros(encoding.observation_size, np.float32)
    out = memoryview(vector)
    start = encoding.at("hand")
    cards: list[Any] = []
    for step in range(400):
        move = rng.below(7)
        if move == 0 and cards:
            del cards[-1 - rng.below(min(3, len(cards))) :]  # lost its end
        elif move == 1:
            cards += [c for c in rng.shuffled(pool)[:3] if c not in cards]  # gained at its end
        elif move == 2 and cards:
            del cards[rng.below(len(cards))]  # lost one in its middle
        elif move == 3:
            cards = rng.shuffled(cards)  # the same cards in another order
        elif move == 4:
            cards = list(rng.shuffled(pool)[: rng.below(12)])  # another list
        elif move == 5 and step % 5 == 0:
            cards = []
        else:
            cards.insert(0, next(c for c in rng.shuffled(pool) if c not in cards))
        encoding.keep_cards(out, start, list(cards), kept)
        fresh = np.zeros(encoding.observation_size, np.float32)
        encoding.put_cards(memoryview(fresh), start, cards)
        assert np.array_equal(vector, fresh), step
        assert kept == cards
    entry = start + 3
    assert encoding.switch(out, -1, entry) == entry and vector[entry] == 1.0
    assert encoding.switch(out, entry, -1) == -1 and vector[entry] == 0.0


def test_the_emissary_kept_vector_follows_changes_behind_the_observers_back() -> None:
    """The Emissary keeps each table's vector and compares each group of its entries with
    what it was written from: whole games with a determinization observed at every step,
    then the hand, the deck, the discard pile, the debates won, the rulers, the kingdoms won,
    the advisors used and the supporters spent changed in place, and many tables whose ids
    come back, all encode as the views do."""
    game = spyglass.load("emissary")
    encoding = GameEncoding(game, 1, strict=True)

    exact = partial(_observed_as_viewed, encoding)

    rng = Rng(5)
    abilities = wins = 0
    for seed in range(12):
        state = game.new_state(players=1, seed=seed)
        first = exact(state)
        held = first.copy()
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            exact(state)
            exact(state.determinize(0, rng))
            abilities += state.jacks_used != 0 or state.spent != 0
            wins = max(wins, len(state.won))
        assert np.array_equal(first, held)  # handed out earlier: a copy, unchanged since
    assert abilities and wins
    state = next(
        s
        for s in (game.new_state(players=1, seed=seed) for seed in range(100, 200))
        if _played_until_won(s, rng)
    )
    exact(state)
    state.hand.reverse()  # the same cards in another order: the same zone
    exact(state)
    state.hand.append(state.deck.pop(0))  # the deck's bottom card into the hand
    exact(state)
    state.discard.insert(0, state.hand.pop())  # into the pile's bottom, not its top
    exact(state)
    state.scoring.append(state.discard.pop())
    exact(state)
    state.rulers.reverse()  # kingdoms ruled by others
    exact(state)
    state.won.append(next(k for k in range(8) if k not in state.won))
    exact(state)
    state.jacks_used ^= 0b0101
    exact(state)
    state.spent ^= 1 << state.won[0]
    exact(state)
    state.topic = state.deck[-1]
    exact(state)
    for seed in range(40):  # tables made and dropped: ids come back, contents do not
        table = game.new_state(players=1, seed=seed)
        for _ in range(seed % 7):
            if not table.is_over:
                table.apply(rng.choice(table.legal_actions()))
        exact(table)
        exact(state)


def _played_until_won(state: Any, rng: Rng) -> bool:
    """Play ``state`` at random until a kingdom is won (True) or the game ends (False)."""
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        if state.won and state.deck and state.hand and not state.is_over:
            return True
    return False


@pytest.mark.parametrize("game_id", ["hide-and-seek", "skyway", "syndicate"])
def test_the_mask_marks_the_legal_indices_alone_and_is_a_writable_int8_array(
    game_id: str,
) -> None:
    """Small action sets are masked through a bytearray, large ones (the Syndicate's 191,920
    actions) or long legal lists through numpy: each way, 1 exactly at the legal indices."""
    game = spyglass.load(game_id)
    encoding = GameEncoding(game, 1)
    state = game.new_state(players=1, seed=3)
    for legal in (
        encoding.legal_map(state),
        (),
        tuple(range(0, min(200, encoding.num_actions), 3)),
        (encoding.num_actions - 1,),
    ):
        mask = encoding.mask(legal)
        assert mask.dtype == np.int8 and mask.shape == (encoding.num_actions,)
        assert mask.flags.writeable
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal)
        mask[0] = 1  # the client's own: the next mask is fresh
        assert encoding.mask(()).sum() == 0


def test_two_legal_actions_on_one_index_are_refused() -> None:
    """Two legal actions known by identity on one index (a declaration bug) are not merged
    silently by the fast path: the lookup by value reports them."""
    game = spyglass.load("skyway")
    encoding = GameEncoding(game, 1)
    state = game.new_state(players=1, seed=2)
    legal = list(state._legal_list())
    encoding.legal_map(state)
    state._legal = [*legal, legal[0]]  # the same object twice
    with pytest.raises(EncodingError, match="share one index"):
        encoding.legal_map(state)
