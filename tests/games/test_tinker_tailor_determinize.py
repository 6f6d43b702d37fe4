"""Tinker Tailor determinizations after cards change hands face down (the Outlaw, the Thief,
the Jailor, the Sailor): every guess keeps what the guessing seat saw, and still varies where
it cannot know.

Each scenario first lets the Sailor draw from the goods deck face down, so the deck holds cards
nobody can place: a guess that forgot where a stolen card came from could then deal it any card
of the deck."""

from __future__ import annotations

from collections import Counter

from spyglass.engine import Rng
from spyglass.games.tinker_tailor.rules import TinkerTailorState
from tests.games.tinker_tailor_tables import called, draft, give, hand, table

SAMPLES = 120
#: the goods market (6 places with four players), then the top of the goods deck
GOODS = "bread fish cloth wine gems bread wine fish"


def guesses(state: TinkerTailorState, seat: int) -> list[TinkerTailorState]:
    return [state.determinize(seat, Rng(k), log=False) for k in range(SAMPLES)]


def goods(state: TinkerTailorState, seat: int) -> Counter[str]:
    return Counter(c for c in hand(state, seat) if not c.isdigit())


def money(state: TinkerTailorState, seat: int) -> Counter[str]:
    return Counter(c for c in hand(state, seat) if c.isdigit())


def outlaw_robs_a_known_hand() -> TinkerTailorState:
    """Seat 1 holds wine, wine and fish, as everyone saw; the Sailor (seat 3) has drawn from the
    deck face down; then seat 0's Outlaw robs seat 1 of one goods card at random."""
    state = table(4, 0, money="1 1 2 2 3 3", goods=GOODS, roles="outlaw young-man merchant sailor")
    give(state, 1, "wine wine fish")
    draft(state, "outlaw", "young-man", "merchant", "sailor")
    assert called(state) == "sailor" and state.current_player == 3
    state.apply(state.legal_actions()[0])  # keep one of the two cards looked at
    assert called(state) == "outlaw" and state.current_player == 0
    state.apply("rob 1")
    assert sum(goods(state, 0).values()) == 1 and sum(goods(state, 1).values()) == 2
    return state


def test_a_third_seat_guesses_the_outlaw_took_one_of_the_cards_it_saw() -> None:
    state = outlaw_robs_a_known_hand()
    outcomes = Counter()
    for guess in guesses(state, 2):
        assert guess.view(2)["table"] == state.view(2)["table"]
        # Whatever was taken, seats 0 and 1 hold between them the wine, wine and fish.
        assert goods(guess, 0) + goods(guess, 1) == Counter(wine=2, fish=1)
        outcomes[tuple(sorted(goods(guess, 0)))] += 1
    # Seat 2 cannot know which card went: both a wine and the fish are guessed.
    assert set(outcomes) == {("wine",), ("fish",)}, outcomes


def test_the_robbed_seat_knows_which_card_it_lost_and_who_has_it() -> None:
    state = outlaw_robs_a_known_hand()
    stolen = goods(state, 0)
    for guess in guesses(state, 1):
        assert goods(guess, 0) == stolen
        assert goods(guess, 1) == goods(state, 1)


def test_the_outlaw_knows_what_it_took_and_what_is_left() -> None:
    state = outlaw_robs_a_known_hand()
    for guess in guesses(state, 0):
        assert goods(guess, 1) == Counter(wine=2, fish=1) - goods(state, 0)


def test_the_knowledge_lasts_until_the_stolen_card_could_have_left() -> None:
    """Once the Outlaw's holder sells a goods card, the one sold may be the stolen one: seat 2
    then only knows seat 1 kept at least one of its cards, and the guesses stay sound."""
    state = outlaw_robs_a_known_hand()
    give(state, 0, "gems")
    lent_to_0 = [(0, True) in dests for _, _, dests in state.lent[2]]
    assert any(lent_to_0), "seat 2 knows where the stolen card went"
    sold = state.goods_of(0)[0]  # as if seat 0 sold a goods card (the Merchant), face up
    state._lose(0, sold)
    state.goods_discard.append(sold)
    assert not any((0, True) in dests for _, _, dests in state.lent[2])
    for guess in guesses(state, 2):
        assert guess.view(2)["table"] == state.view(2)["table"]
        assert goods(guess, 1)["wine"] >= 1 and sum(goods(guess, 1).values()) == 2


def test_a_third_seat_guesses_the_thief_took_one_of_the_coins_it_saw() -> None:
    state = table(4, 0, money="1 1 2 2 3 3", goods=GOODS, roles="thief young-man merchant sailor")
    give(state, 1, "5 4")
    # Seat 3 holds coins nobody else saw: a place that must not be guessed to hold the stolen one.
    give(state, 3, "1 3", face_down=True)
    draft(state, "thief", "young-man", "merchant", "sailor")
    state.apply(state.legal_actions()[0])  # the Sailor keeps one
    state.apply("done")  # and buys nothing
    assert called(state) == "thief"
    state.apply("rob 1")
    outcomes = Counter()
    for guess in guesses(state, 2):
        assert money(guess, 0) + money(guess, 1) == Counter({"5": 1, "4": 1})
        outcomes[tuple(money(guess, 0))] += 1
    assert set(outcomes) == {("5",), ("4",)}, outcomes


def pirate_then_jailor() -> TinkerTailorState:
    """Seat 2's Pirate takes the gems and the wine in view of all; the Jailor (seat 1) then
    gets one of them from seat 2, face down. Seat 0 held the Sailor earlier."""
    state = table(4, 0, money="1 1 2 2 3 3", goods=GOODS, roles="sailor jailor pirate young-man")
    draft(state, "sailor", "jailor", "pirate", "young-man")
    state.apply(state.legal_actions()[0])  # the Sailor keeps one
    assert called(state) == "pirate" and state.current_player == 2
    state.apply("take gems")
    state.apply("take wine")
    assert called(state) == "jailor" and state.current_player == 2
    state.apply("give gems")
    return state


def test_a_third_seat_guesses_the_jailor_got_one_of_the_pirates_cards() -> None:
    state = pirate_then_jailor()
    outcomes = Counter()
    for guess in guesses(state, 3):
        assert guess.view(3)["table"] == state.view(3)["table"]
        assert goods(guess, 1) + goods(guess, 2) == Counter(gems=1, wine=1)
        outcomes[tuple(goods(guess, 1))] += 1
    assert set(outcomes) == {("gems",), ("wine",)}, outcomes
    # The Jailor and the giver both know it was the gems.
    for seat in (1, 2):
        for guess in guesses(state, seat):
            assert goods(guess, 1) == Counter(gems=1) and goods(guess, 2) == Counter(wine=1)


def test_the_sailors_card_comes_from_the_deck_and_the_deck_keeps_the_rest() -> None:
    state = pirate_then_jailor()
    # Seat 3 saw the deck's contents at the start, less the cards shown since.
    deck_and_sailor = Counter(str(c) for c in state.goods_deck) + goods(state, 0)
    kept = Counter()
    for guess in guesses(state, 3):
        assert Counter(str(c) for c in guess.goods_deck) + goods(guess, 0) == deck_and_sailor
        kept[tuple(goods(guess, 0))] += 1
    assert len(kept) > 1, kept


def test_a_guess_where_the_thief_cannot_afford_anything_lets_it_stop_buying() -> None:
    """The Thief's holder took the 4 and may buy; seat 2 may guess it took the 1, too little
    for any goods on offer (none costs 1). The guess still offers the move that ends the
    buying (in play, a seat that cannot buy is not asked)."""
    market = "fish cloth wine gems fish cloth"
    base = table(4, 0, money="1 1 2 2 3 3", goods=market, roles="thief young-man merchant tinker")
    give(base, 1, "4 1")
    draft(base, "thief", "young-man", "merchant", "tinker")
    assert called(base) == "thief"
    for k in range(50):
        state = base.clone()
        state._rng = Rng(k)
        state.apply("rob 1")
        if money(state, 0) == Counter({"4": 1}):
            break
    else:
        raise AssertionError("no theft of the 4 found")
    assert state.current_player == 0 and "done" in [str(a) for a in state.legal_actions()]
    poor = 0
    for guess in guesses(state, 2):
        assert guess.current_player == 0 and guess.legal_actions()
        if money(guess, 0) == Counter({"1": 1}):
            poor += 1
            assert [str(a) for a in guess.legal_actions()] == ["done"]
            guess.apply("done")
            assert called(guess) != "thief"
    assert poor, "no guess gave the Thief the 1"
