"""The standard deck and its notation."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spyglass.components import Card, parse_card, parse_cards, stacked, standard_deck
from spyglass.components.cards import MAX_DECKS, PER_DECK, by_rank, card_list
from spyglass.engine import RulesError

ALL_CARDS = st.integers(min_value=0, max_value=MAX_DECKS * PER_DECK - 1).map(Card)


@given(ALL_CARDS)
def test_both_notations_round_trip(card: Card) -> None:
    assert parse_card(str(card)) is card
    assert parse_card(card.ascii) is card
    assert parse_card(card.ascii.lower()) is card


def test_both_notations_read_the_same_cards() -> None:
    assert parse_cards("10H QS AC JK") == parse_cards("10♥ Q♠ A♣ JK")
    assert [str(c) for c in parse_cards("10H QS AC JK")] == ["10♥", "Q♠", "A♣", "JK"]
    assert parse_card("TH") is parse_card("10h")
    assert parse_card("7♡") is parse_card("7H")


def test_card_properties() -> None:
    queen = parse_card("QS")
    assert (queen.rank, queen.suit, queen.colour, queen.deck) == (12, "S", "black", 0)
    assert queen.is_face and queen.is_black and not queen.is_red
    assert queen.name == "Queen of spades"
    ten = parse_card("10♦")
    assert ten.is_red and ten.colour == "red" and not ten.is_face and ten.symbol == "♦"
    joker = parse_card("JK")
    assert joker.is_joker and joker.rank == 0 and joker.suit is None and joker.colour is None
    assert str(parse_card("JK2")) == "JK2" and parse_card("JK2") != joker


def test_several_decks_keep_their_index() -> None:
    two = standard_deck(decks=2)
    assert len(two) == 104 and len(set(two)) == 104
    first, second = Card.of(7, "S"), Card.of(7, "S", deck=1)
    assert first != second and first.rank == second.rank and second.deck == 1
    assert str(second) == "7♠#2" and parse_card("7S#2") is second
    assert parse_card("7♠#1") is first


def test_standard_deck_sizes() -> None:
    assert len(standard_deck()) == 52
    assert len(standard_deck(jokers=2)) == 54
    assert len(standard_deck(jokers=1, decks=3)) == 159
    with pytest.raises(RulesError):
        standard_deck(jokers=3)


@pytest.mark.parametrize("token", ["ZZ", "11S", "AX", "", "JK3", "7S#9", "S7"])
def test_bad_notation_names_the_token(token: str) -> None:
    with pytest.raises(RulesError) as error:
        parse_card(token)
    assert repr(token) in str(error.value)


def test_bad_token_inside_a_list_is_named() -> None:
    with pytest.raises(RulesError, match="'XX'"):
        parse_cards("10H XX AC")


def test_sorting_by_rank_and_listing() -> None:
    cards = parse_cards("KS AH 5D AS JK")
    assert card_list(sorted(cards, key=by_rank)) == ["A♠", "A♥", "5♦", "K♠", "JK"]


def test_stacked_puts_the_given_cards_on_top() -> None:
    deck = stacked("KD QD", standard_deck())
    assert card_list(deck[:3]) == ["K♦", "Q♦", "A♠"]
    assert sorted(deck) == sorted(standard_deck())
    with pytest.raises(RulesError):
        stacked("KD KD", standard_deck())
    with pytest.raises(RulesError):
        stacked("JK", standard_deck())


def test_cards_are_interned_and_picklable() -> None:
    import copy
    import pickle

    card = parse_card("9C")
    assert Card(int(card)) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card
