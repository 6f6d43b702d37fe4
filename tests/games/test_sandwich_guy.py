"""The Sandwich Guy: the rulebook's examples with stacked decks, and one test per rule."""

from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import spyglass
from spyglass.cli.render import render_table
from spyglass.components import parse_card, stacked, standard_deck
from spyglass.engine import IllegalAction, Rng
from spyglass.games.sandwich_guy import bot
from spyglass.games.sandwich_guy.rules import SandwichGuyState, is_sandwich

GAME = spyglass.load("sandwich-guy")
NO_SANDWICH = "AS AH 2S 2H 4S 4H 5S 5H"  # ranks 1 2 4 5 hold no evenly spaced triple


def deal(top: str) -> SandwichGuyState:
    """A game whose deck starts with ``top`` (the first eight are the hand)."""
    state = GAME.new_state(seed=1, deck=stacked(top, standard_deck()))
    assert isinstance(state, SandwichGuyState)
    return state


def hand(state: SandwichGuyState) -> set[str]:
    return {str(c) for c in state.hand}


def cards(text: str) -> tuple:
    return tuple(parse_card(t) for t in text.split())


# --------------------------------------------------------------------------- the examples


def test_example_ace_three_five_of_clubs_draws_four() -> None:
    # A mixed sandwich first makes room, so the four-card draw is not cut by the hand limit.
    state = deal("8H 8S 8D AC 3C 5C 9D KH" + " 2D 3D 4D 6D 7D")
    state.apply("8H 8S 8D")
    assert len(state.hand) == 7  # 8 - 3 + 2
    state.apply("AC 3C 5C")
    assert len(state.hand) == 8  # 7 - 3 + 4
    assert {"3♦", "4♦", "6♦", "7♦"} <= hand(state)
    assert state.tally == {"same suit": 1, "same colour": 0, "mixed colours": 1}


def test_example_eight_queen_three_one_colour_draws_three() -> None:
    # 8 Q K A 2 3: step 4, wrapping past the King. Spades and clubs: one colour, two suits.
    state = deal("8H 8D 8C 8S QS 3C 9D KH" + " 2D 3D 4D 6D 7D")
    state.apply("8H 8D 8C")  # mixed colours: 8 - 3 + 2 = 7
    deck_before = len(state.deck)
    state.apply("8S QS 3C")
    assert len(state.hand) == 7 and len(state.deck) == deck_before - 3
    assert state.tally["same colour"] == 1


def test_example_three_eights_of_both_colours_draw_two() -> None:
    state = deal("8H 8S 8D AC 3C 5C 9D KH" + " 2D 3D 4D 6D 7D")
    state.apply("8H 8S 8D")
    assert len(state.hand) == 7 and {"2♦", "3♦"} <= hand(state)
    assert "4♦" not in hand(state)


def test_issue_spelling_of_the_second_example_is_all_spades_and_draws_four() -> None:
    state = deal("8H 8D 8C 8S QS 3S 9D KH" + " 2D 3D 4D 6D 7D")
    state.apply("8H 8D 8C")
    state.apply("8S QS 3S")
    assert len(state.hand) == 8 and state.tally["same suit"] == 1


def test_example_eight_ten_eight_is_not_a_sandwich() -> None:
    state = deal("8H 10H 8D AS 2C 4H 6S 9D")
    assert not is_sandwich(cards("8H 10H 8D"))
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="not a sandwich"):
        state.apply("8H 10H 8D")
    assert state.snapshot() == before


# --------------------------------------------------------------------------- rule clauses


@given(st.tuples(*[st.integers(min_value=1, max_value=13)] * 3))
def test_sandwich_means_evenly_spaced_mod_13(ranks: tuple[int, int, int]) -> None:
    spaced = any((b - a) % 13 == (c - b) % 13 for a, b, c in permutations(ranks))
    small_step = any((b - a) % 13 == (c - b) % 13 <= 6 for a, b, c in permutations(ranks))
    assert spaced == small_step  # "at most six steps" loses nothing
    trio = tuple(
        parse_card(f"{'A23456789TJQK'[r - 1]}{s}") for r, s in zip(ranks, "SHC", strict=False)
    )
    assert is_sandwich(trio) == spaced


def test_hand_limit_leaves_the_fourth_card_on_the_deck() -> None:
    state = deal("AC 3C 5C 9D KH 2S 4H 6S" + " 7D 8D 9H 10S")
    state.apply("AC 3C 5C")
    assert len(state.hand) == 8
    assert {"7♦", "8♦", "9♥"} <= hand(state) and "10♠" not in hand(state)
    assert str(state.deck[-1]) == "10♠"  # still the top card
    assert "(1 not drawn: hand limit)" in state.log[-1]


def test_a_hand_without_sandwich_loses_at_once() -> None:
    state = deal(NO_SANDWICH)
    assert state.is_over and state.legal_actions() == []
    result = state.result
    assert result is not None and result.won is False and result.score is None
    assert result.detail[0]["cards_left_in_deck"] == 44
    assert result.summary == "Lost: no sandwich in hand with 44 cards still in the deck"


def test_losing_after_a_sandwich_reports_the_deck() -> None:
    state = deal("3S 5S 7S AS AH 2S 2H 4S" + " 4H 5D 5H")
    state.apply("3S 5S 7S")  # one suit: draws 3 (hand limit), all of ranks 4 and 5
    assert state.is_over and not state.result.won
    assert state.result.detail[0]["cards_left_in_deck"] == 41


def play_to_a_win(seed_from: int = 0) -> tuple[SandwichGuyState, list[SandwichGuyState]]:
    """A won game played by the bot, with every position along the way."""
    for seed in range(seed_from, seed_from + 50):
        state = GAME.new_state(seed=seed)
        positions = [state.clone()]
        rng = Rng(seed)
        while not state.is_over:
            state.apply(bot.choose(state, rng))
            positions.append(state.clone())
        if state.result.won:
            return state, positions
    raise AssertionError("the bot won none of 50 games")


def test_drawing_the_last_card_wins_and_play_goes_on_without_draws() -> None:
    state, positions = play_to_a_win()
    done_at = next(i for i, p in enumerate(positions) if p.deck_done)
    assert len(positions[done_at - 1].deck) > 0 and len(positions[done_at].deck) == 0
    assert "drew the last card: the game is won" in positions[done_at].log[-1]
    for before, after in zip(positions[done_at:], positions[done_at + 1 :], strict=False):
        assert len(after.hand) == len(before.hand) - 3  # nothing drawn any more
    result = state.result
    assert result.won and result.score == len(state.hand)
    assert len(state.hand) % 3 == 1  # 52 cards: one more than a multiple of three
    assert result.detail[0]["sandwiches"] == (52 - len(state.hand)) // 3
    assert state.legal_actions() == []


def test_the_game_is_won_even_when_no_sandwich_follows_the_last_draw() -> None:
    for seed in range(400):
        state = GAME.new_state(seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            state.apply(bot.choose(state, rng))
            if state.deck_done and state.is_over:
                assert state.result.won
                return
    pytest.fail("no game ended right at the last draw")


def test_notation_in_any_order_and_either_suit_style() -> None:
    state = deal("AC 3C 5C 9D KH 2S 4H 6S")
    same = state.parse("5c ac 3♣")
    assert same == state.parse("A♣ 3♣ 5♣") and str(same) == "A♣ 3♣ 5♣"


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("AC 3C 7H", "7♥ is not in your hand"),
        ("AC 3C", "exactly three different cards"),
        ("AC 3C 3C", "exactly three different cards"),
        ("AC 3C 9D", "not a sandwich"),
        ("pass", "a sandwich is three cards of your hand"),
    ],
)
def test_illegal_moves_say_why(move: str, rule: str) -> None:
    state = deal("AC 3C 5C 9D KH 2S 4H 6S")
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)


def test_descriptions_give_the_draw() -> None:
    state = deal("8H 8S 8D AC 3C 5C 9D KH")
    assert state.describe("8H 8S 8D") == (
        "Discard 8♠ 8♥ 8♦ (three of a rank, mixed colours) and draw 2."
    )
    assert state.describe("AC 3C 5C").endswith("draw 3 of 4 (the hand limit is 8).")


def test_view_shows_the_deck_contents_but_never_its_order() -> None:
    state = deal("AC 3C 5C 9D KH 2S 4H 6S")
    table = state.view(0)["table"]
    assert table["hand"] == ["A♣", "2♠", "3♣", "4♥", "5♣", "6♠", "9♦", "K♥"]
    assert table["deck"] == 44 and len(table["deck_contents"]) == 44
    other = state.determinize(0, Rng(1))
    assert other.view(0) == state.view(0) and other.deck != state.deck


def test_the_table_shows_the_deck_contents() -> None:
    """The rulebook lets the player look through the deck: the layout draws its contents."""
    region = next(r for r in spyglass.load("sandwich-guy").spec.layout if r.key == "deck_contents")
    assert region.kind == "cards"
    state = deal("AC 3C 5C 9D KH 2S 4H 6S")
    console = Console(record=True, width=200)
    console.print(render_table(state.view(0), state.game.spec.layout, state.game.info))
    text = console.export_text()
    line = next(line for line in text.splitlines() if "in the deck, any order" in line)
    assert all(card in line for card in state.view(0)["table"]["deck_contents"][:10])


def test_a_perfect_game_says_one_card_not_one_cards() -> None:
    moves = (
        "K♦ 4♦ 8♦, 6♥ 10♦ A♥, 7♠ Q♠ 4♣, 3♦ 7♦ J♦, 6♣ J♣ 3♣, 9♣ A♠ 6♠, Q♥ 5♦ J♥, K♠ K♥ K♣,"
        " 2♥ 6♦ 10♥, 3♠ 5♣ 7♣, 9♥ Q♦ 2♦, 8♠ 9♠ 10♣, 10♠ A♣ 5♠, 2♣ 3♥ 4♠, 4♥ 8♣ Q♣, A♦ 5♥ 9♦,"
        " 7♥ J♠ 2♠"
    )
    state = GAME.new_state(seed=1)
    for move in moves.split(", "):
        state.apply(move)
    assert state.log[-1] == "no sandwich left: finished with 1 card in hand"
    assert state.result.summary.startswith("Won: through the whole deck, 1 card left in hand")
