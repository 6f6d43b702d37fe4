"""Foursquare: the rulebook's worked example with a stacked deck, and one test per rule."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spyglass
from spyglass.components import parse_card, stacked, standard_deck
from spyglass.components.bits import set_bits
from spyglass.engine import Action, IllegalAction, Rng
from spyglass.games.foursquare import bot
from spyglass.games.foursquare.frame import LABEL
from spyglass.games.foursquare.rules import FoursquareState, line_counts

GAME = spyglass.load("foursquare")
NUMBER_CARDS = [c for c in standard_deck() if c.rank <= 10]


def deal(top: str) -> FoursquareState:
    """A game whose deck starts with ``top``: the first card starts the grid on D4."""
    state = GAME.new_state(seed=1, deck=stacked(top, NUMBER_CARDS))
    assert isinstance(state, FoursquareState)
    return state


def play(top: str, moves: str) -> FoursquareState:
    state = deal(top)
    for move in moves.split():
        state.apply(move)
    return state


def face_down(state: FoursquareState) -> set[str]:
    return {LABEL[i] for i in set_bits(state.down)}


def tops(state: FoursquareState) -> dict[str, str]:
    return {label: pile["cards"][-1] for label, pile in state.view(0)["table"]["piles"].items()}


def pile(state: FoursquareState, label: str) -> list[str]:
    return state.view(0)["table"]["piles"][label]["cards"]


def rule_of(state: FoursquareState, move: str | Action) -> str:
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    return str(error.value)


# --------------------------------------------------------------------------- the worked example
#
# The rulebook's picture of this example is missing and its suits are partly scrambled. The
# position below is the one we reconstructed from its sentences (rulebook coordinates, columns
# A-E and rows 1-4; the drawn card is 6♦):
#
#        A      B       C     D
#   1   9♠    10♣
#   2        [A♥]     6♠    3♦        [A♥]: face down, on a pile of two (6♥ under it)
#   3                  2♥    3♠
#
# Every statement then holds: on B3 the 6 is highest in row 3 and lowest among the face-up tops
# of column B; on B1 it is lowest in row 1 and alone face up in column B; on B2 it ties the 6♠
# of row 2 (and the 3♦ is lower) but is lowest in column B; A3 touches no pile; E2 makes the
# grid five wide; D1 flips 9♠, 10♣, 3♦ and 3♠, leaving five face-down tops.
#
# Our frame puts the first card on D4. The reconstruction starts with the 2♥ on C3, so each
# rulebook space is one column right and one row down in our labels.
BOOK = {
    "A1": "B2",
    "B1": "C2",
    "C1": "D2",
    "D1": "E2",
    "A2": "B3",
    "B2": "C3",
    "C2": "D3",
    "D2": "E3",
    "E2": "F3",
    "A3": "B4",
    "B3": "C4",
    "C3": "D4",
    "D3": "E4",
}
EXAMPLE_DECK = "2H 6S 6H AH 9H 9S 3D 3S AC 10C 6D"
# The path to the position, in rulebook coordinates (the 2♥ starts the grid on C3).
EXAMPLE_PATH = "C2 B2 B2 B1 A1 D2 D3 B1 B1"


TO_BOOK = {ours: theirs for theirs, ours in BOOK.items()}


def example() -> FoursquareState:
    state = deal(EXAMPLE_DECK)
    for space in EXAMPLE_PATH.split():
        state.apply(BOOK[space])
    return state


def down_in_book(state: FoursquareState) -> set[str]:
    return {TO_BOOK[label] for label in face_down(state)}


def test_example_position_is_reached_by_legal_placements() -> None:
    state = example()
    assert {TO_BOOK[label]: top for label, top in tops(state).items()} == {
        "A1": "9♠",
        "B1": "10♣",
        "B2": "A♥",
        "C2": "6♠",
        "D2": "3♦",
        "C3": "2♥",
        "D3": "3♠",
    }
    assert down_in_book(state) == {"B2"}
    assert pile(state, BOOK["B2"]) == ["6♥", "A♥"]
    assert str(state.card) == "6♦"
    assert state.view(0)["table"]["grid"]["col_labels"] == ["B", "C", "D", "E"]


def test_example_six_on_b3_flips_three_down_and_b2_up() -> None:
    state = example()
    state.apply(BOOK["B3"])
    # Row 3: 6 is above 2♥ and 3♠. Column B: 6 is below 10♣; the face-down B2 is ignored.
    assert down_in_book(state) == {"B1", "C3", "D3"}
    assert "A♥ on C3 face up" in state.log[-2]
    assert "10♣ on C2, 2♥ on D4 and 3♠ on E4 face down" in state.log[-2]


def test_example_six_on_b1_flips_the_nine_and_the_card_on_b2() -> None:
    state = example()
    state.apply(BOOK["B1"])
    assert down_in_book(state) == {"A1"}  # 9♠ closed, B2's A♥ open again
    assert pile(state, BOOK["B1"]) == ["9♥", "A♣", "10♣", "6♦"]


def test_example_six_on_b2_flips_the_ten_but_not_row_2() -> None:
    state = example()
    state.apply(BOOK["B2"])
    assert down_in_book(state) == {"B1"}  # only the 10♣; 6♠ and 3♦ stay face up
    assert pile(state, BOOK["B2"]) == ["6♥", "A♥", "6♦"]


def test_example_a3_e2_and_d1_are_refused() -> None:
    state = example()
    legal = {str(a) for a in state.legal_actions()}
    assert not legal & {BOOK["A3"], BOOK["E2"], BOOK["D1"]}
    assert {BOOK["B3"], BOOK["B1"], BOOK["B2"]} <= legal
    assert "does not touch any pile" in rule_of(state, BOOK["A3"])
    assert "would make the grid 5 cards wide" in rule_of(state, BOOK["E2"])
    assert "would leave 5 piles with a face-down top" in rule_of(state, BOOK["D1"])
    assert "would leave 5 piles" in rule_of(state, "6D " + BOOK["D1"])


# --------------------------------------------------------------------------- set-up and turn


def test_first_card_starts_the_grid_and_the_next_is_drawn() -> None:
    state = deal("5S 9C")
    assert tops(state) == {"D4": "5♠"} and str(state.card) == "9♣"
    assert len(state.deck) == 38 and len(state.cards()) == 40
    assert state.log == ["the first card, 5♠, starts the grid on D4", "drew 9♣"]
    # Four orthogonal neighbours and the pile itself, row by row.
    assert [str(a) for a in state.legal_actions()] == ["D3", "C4", "D4", "E4", "D5"]


def test_only_the_forty_number_cards_are_used() -> None:
    contents = GAME.deck_contents()["deck"]
    assert len(contents) == 40 and {c.rank for c in contents} == set(range(1, 11))
    with pytest.raises(spyglass.RulesError):
        GAME.new_state(seed=1, deck=stacked("KS", standard_deck()))


def test_a_new_pile_must_touch_a_pile_orthogonally() -> None:
    state = deal("5S 9C")
    assert "C3 does not touch any pile" in rule_of(state, "C3")  # diagonal only
    assert "does not touch any pile" in rule_of(state, "D6")


def test_a_card_may_go_on_any_pile_face_up_or_face_down() -> None:
    state = play("5S 2H 5D", "E4")  # 2♥ is lowest: 5♠ goes face down
    assert face_down(state) == {"D4"}
    state.apply("D4")  # 5♦ covers the face-down 5♠ and is face up
    assert pile(state, "D4") == ["5♠", "5♦"]
    assert "D4" not in face_down(state)
    assert face_down(state) == {"E4"}  # 5♦ is highest against 2♥


def test_a_pile_holds_at_most_four_cards() -> None:
    state = play("5S 5H 5D 5C 9C", "D4 D4 D4")  # alone in its lines: nothing flips
    assert pile(state, "D4") == ["5♠", "5♥", "5♦", "5♣"]
    assert "D4" not in {str(a) for a in state.legal_actions()}
    assert "already holds four cards" in rule_of(state, "D4")


def test_the_grid_is_at_most_four_wide() -> None:
    state = play("5S 5H 5D 5C 9C", "E4 F4 G4")  # ties: nothing flips
    assert face_down(state) == set()
    legal = {str(a) for a in state.legal_actions()}
    assert "C4" not in legal and {"D3", "G5", "E4"} <= legal
    assert "would make the grid 5 cards wide" in rule_of(state, "C4")
    assert "H4 is off the grid" in rule_of(state, "H4")


def test_the_grid_is_at_most_four_high() -> None:
    state = play("5S 5H 5D 5C 9C", "D5 D6 D7")
    assert "would make the grid 5 cards high" in rule_of(state, "D3")
    assert "D8 is off the grid" in rule_of(state, "D8")
    assert state.view(0)["table"]["grid"]["row_labels"] == ["4", "5", "6", "7"]


# --------------------------------------------------------------------------- flipping


def test_uniquely_highest_in_a_row_flips_the_other_tops_of_the_row() -> None:
    state = play("5S 5H 9C", "E4")
    assert face_down(state) == set()  # 5♥ ties 5♠: not uniquely anything
    state.apply("F4")
    assert face_down(state) == {"D4", "E4"}
    assert state.log[-2] == "placed 9♣ on F4 (a new pile): flipped 5♠ on D4 and 5♥ on E4 face down"


def test_uniquely_lowest_in_a_row_flips_too() -> None:
    state = play("5S 2H", "E4")
    assert face_down(state) == {"D4"}


def test_a_tie_with_the_highest_flips_nothing() -> None:
    state = play("5S 5H 9C 9D", "E4 F4")
    assert face_down(state) == {"D4", "E4"}
    state.apply("G4")  # 9♦ ties 9♣; the face-down fives do not count
    assert face_down(state) == {"D4", "E4"}
    assert state.log[-2].endswith(": nothing flips")


def test_the_column_is_checked_as_well_as_the_row() -> None:
    state = play("5S 9C", "D5")
    assert face_down(state) == {"D4"}
    both = play("5S 5H 5D 9C", "E4 D5")  # ties: nothing flipped yet
    assert face_down(both) == set()
    both.apply("E5")  # 9♣ is highest in row 5 (5♦) and in column E (5♥)
    assert face_down(both) == {"D5", "E4"}
    assert tops(both)["D4"] == "5♠" and "D4" not in face_down(both)


def test_flips_toggle_and_face_down_tops_are_ignored() -> None:
    state = play("10C 5S 7D", "E4")  # 5♠ lowest: 10♣ face down
    assert face_down(state) == {"D4"}
    # 7♦ against the face-up 5♠ only (the face-down 10♣ is ignored): uniquely highest.
    state.apply("F4")
    assert face_down(state) == {"E4"}  # 10♣ came back up, 5♠ went down


def test_the_only_face_up_card_flips_face_down_tops_up() -> None:
    state = play("5S 9C 2H", "E4")
    assert face_down(state) == {"D4"}
    state.apply("D5")  # column D holds only the face-down 5♠: 2♥ is the only face-up top
    assert face_down(state) == set()


def test_the_covered_top_no_longer_counts() -> None:
    # D4 5♠ and E4 9♣ face up, then 7♦ covers the 9♣: against the 5♠ alone it is highest.
    state = play("5S 9C 2H 7D", "E4 D5")
    assert face_down(state) == set() and tops(state) == {"D4": "5♠", "E4": "9♣", "D5": "2♥"}
    state.apply("E4")
    assert face_down(state) == {"D4"}


def test_at_most_four_face_down_tops() -> None:
    state = play("5S 5H 5D 5C 10C 10H 10D 10S AC", "E4 F4 G4 D3 E3 F3 G3")
    assert face_down(state) == {"D4", "E4", "F4", "G4"}  # four is allowed
    legal = {str(a) for a in state.legal_actions()}
    assert "D5" in legal  # A♣ flips 10♣ down and 5♠ up: still four
    # A♣ on 10♣ is lowest in row 3 (three tens go down) and alone face up in column D (5♠
    # comes up): six face-down tops.
    assert "D3" not in legal
    assert "would leave 6 piles with a face-down top; at most 4" in rule_of(state, "D3")
    state.apply("D5")
    assert face_down(state) == {"D3", "E4", "F4", "G4"}


# --------------------------------------------------------------------------- end of the game

WIN_DECK = "AS 6C 7C 8C 2S 6H 6S 3D 10D 6D 4H 2C 8D 9S 10C 10S 7S 7H 4D 4C"
WIN_MOVES = "C4 D3 C5 C6 B5 B4 A4 A3 A5 C3 D6 A5 A6 A6 B6 B6 D5 B3 B3"


def test_a_full_grid_with_every_top_face_up_wins_and_scores_the_deck() -> None:
    state = deal(WIN_DECK)
    moves = WIN_MOVES.split()
    for move in moves[:-1]:
        state.apply(move)
    assert not state.is_over and state.occupied.bit_count() == 16
    assert face_down(state) == {"B4", "B5", "B6"}
    # 4♣ on 4♦: in the middle of row 3, and the only face-up top of column B.
    state.apply(moves[-1])
    assert state.log[-2] == (
        "placed 4♣ on B3 (a pile of 1): flipped 6♠ on B4, 6♥ on B5 and 7♠ on B6 face up"
    )
    assert state.is_over and state.legal_actions() == []
    result = state.result
    assert result.won and result.score == 20 == len(state.deck)
    assert result.summary == (
        "Won: sixteen open restaurants with 20 cards left in the deck (score, higher is better)"
    )
    assert result.detail[0]["cards_placed"] == 20 and result.detail[0]["face_down_tops"] == 0
    assert state.log[-1].startswith("a 4x4 grid with every top face up: the game is won")
    assert state.view(0)["table"]["card"] == []


STUCK_DECK = "4S 7D 3S 6C 9H 6D 4D 6H 2C 8C 3C 8S 10H 10S 5H 8D AC 7C 6S 7S 3H 4C 4H AS"
STUCK_MOVES = "E4 E3 F3 F2 F1 G3 G2 F1 F1 F1 F3 D3 D3 E2 F4 F2 F3 F2 F3 F2 E3 G4"


def test_a_card_that_cannot_be_placed_loses() -> None:
    state = play(STUCK_DECK, STUCK_MOVES)
    assert face_down(state) == {"E2", "G2", "F3", "F4"}
    assert state.is_over and state.legal_actions() == []
    result = state.result
    assert not result.won and result.score is None
    assert result.summary == "Lost: A♠ cannot be placed (16 cards left in the deck)"
    assert result.detail[0]["unplaced_card"] == "A♠"
    assert state.log[-1] == "A♠ cannot be placed anywhere: the game is lost"
    assert str(state.card) == "A♠" and len(state.cards()) == 40


def test_running_out_of_cards_loses() -> None:
    state = GAME.new_state(seed=0)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    assert state.step == 39 and state.deck == [] and state.card is None
    result = state.result
    assert not result.won and result.score is None
    assert result.summary == "Lost: the deck ran out with 13 piles and 2 face-down tops"
    assert state.log[-1] == "no card left to place: the game is lost"
    assert "unplaced_card" not in result.detail[0]


# --------------------------------------------------------------------------- notation and words


def test_notation_is_the_space_with_an_optional_card() -> None:
    state = deal("5S 9C")
    move = state.parse("E4")
    assert move.kind == "place" and move.target == "E4" and move.cards == (parse_card("9C"),)
    for text in ("e4", " E4 ", "9c e4", "9♣ E4", "9C on e4", "e4 9c"):
        assert state.parse(text) == move
    assert "7♦ is not the card you drew: place 9♣" in rule_of(state, "7d e4")
    for unreadable in ("e4 e5", "9c 7d e4", "9c", "on", "pass"):
        assert "a move is the space for the drawn card" in rule_of(state, unreadable)


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Action("discard", (), "E4"), "the only move is placing the drawn card"),
        (Action("place", (), "E4"), "a placement is exactly one card"),
        (Action("place", (parse_card("9C"), parse_card("5S")), "E4"), "exactly one card"),
        (Action("place", (parse_card("KS"),), "E4"), "K♠ is not the card you drew"),
        (Action("place", (parse_card("9C"),), None), "name the space"),
        (Action("place", (parse_card("9C"),), (3, 4)), "name the space"),
        (Action("place", (parse_card("9C"),), "Z99"), "Z99 is off the grid"),
        (Action("place", (parse_card("9C"),), "C3"), "does not touch any pile"),
    ],
)
def test_malformed_actions_are_refused_with_the_rule(action: Action, rule: str) -> None:
    state = deal("5S 9C")
    before = state.snapshot()
    assert rule in rule_of(state, action)
    assert state.snapshot() == before


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_any_typed_text_is_a_move_or_an_illegal_action(text: str) -> None:
    state = deal("5S 9C")
    try:
        state.apply(text)
    except IllegalAction:
        return
    assert state.step == 1


def test_descriptions_say_what_flips() -> None:
    state = example()
    assert state.describe(BOOK["B3"]) == (
        "Start a new pile on C4 with 6♦: flips 10♣ on C2, 2♥ on D4 and 3♠ on E4 face down and"
        " A♥ on C3 face up (3 face-down tops)."
    )
    assert state.describe(BOOK["B2"]) == (
        "Place 6♦ on C3, covering the face-down A♥: flips 10♣ on C2 face down (1 face-down top)."
    )
    assert state.describe(BOOK["B1"]).startswith("Place 6♦ on 10♣ on C2: flips 9♠ on B2 face")


# --------------------------------------------------------------------------- what is seen


def test_view_names_face_down_cards_and_hides_only_the_deck_order() -> None:
    state = example()
    table = state.view(0)["table"]
    assert table["card"] == ["6♦"]
    assert table["piles"]["C3"] == {"cards": ["6♥", "A♥"], "face_down": True}
    assert table["face_down_tops"] == 1 and table["closed"] == "1 of at most 4"
    assert table["deck"] == 29 and len(table["deck_contents"]) == 29
    assert table["remaining"].startswith("A×2  2×3  3×2")
    grid = table["grid"]
    # The grid spans rows 2-4, so rows 1 and 5 are still in play; columns B-E are full width.
    assert grid["col_labels"] == ["B", "C", "D", "E"]
    assert grid["row_labels"] == ["1", "2", "3", "4", "5"]
    c3 = grid["cells"][2][1]
    assert c3 == {"cards": [None], "note": "A♥ (2)"}  # face down, named beside it
    assert grid["cells"][3][1] == "+"  # C4 (the rulebook's B3): the 6♦ may start a pile there
    assert grid["cells"][3][0] is None  # B4 (the rulebook's A3): it may not
    other = state.determinize(0, Rng(1))
    assert other.view(0) == state.view(0) and other.deck != state.deck
    assert sorted(other.deck) == sorted(state.deck)


def test_the_rows_and_columns_tally_stays_in_step_with_the_grid() -> None:
    for seed in range(20):
        state = GAME.new_state(seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            assert state.face_up_tops == line_counts(state.piles, state.down)


# --------------------------------------------------------------------------- the bot


def test_bot_plays_legal_moves_and_wins_where_random_play_does_not() -> None:
    wins = 0
    for seed in range(12):
        state = GAME.new_state(seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            move = bot.choose(state.determinize(0, rng), rng)
            assert move in state.legal_actions()
            state.apply(move)
        wins += state.result.won
    assert wins >= 6
