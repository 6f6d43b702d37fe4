"""Skyway: the rulebook's examples with stacked decks, and one test per rule."""

from collections.abc import Callable

import pytest

import spyglass
from spyglass.components import Card, parse_card, parse_cards, stacked, standard_deck
from spyglass.engine import Action, IllegalAction, Rng
from spyglass.games.skyway import bot
from spyglass.games.skyway.rules import SkywayState, draft_action
from spyglass.games.skyway.scoring import LABELS, SPACE_OF_LABEL, longest_path, runs

GAME = spyglass.load("skyway")
NUMBER_CARDS = [c for c in standard_deck() if c.rank <= 10]


def deal(top: str = "", seed: int = 1) -> SkywayState:
    """A game whose deck starts with ``top`` (the rest of the 40 cards follow in order)."""
    state = GAME.new_state(seed=seed, deck=stacked(top, NUMBER_CARDS))
    assert isinstance(state, SkywayState)
    return state


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def stack(state: SkywayState, where: str) -> list[str]:
    return names(state.grid[SPACE_OF_LABEL[where]])


def market(state: SkywayState) -> list[list[str]]:
    return [names(blueprint) for blueprint in state.market]


def grid_of(spaces: dict[str, str]) -> list[list[Card]]:
    """A 3x3 grid from space labels to stacks written bottom card first."""
    grid: list[list[Card]] = [[] for _ in LABELS]
    for where, cards in spaces.items():
        grid[SPACE_OF_LABEL[where]] = parse_cards(cards)
    return grid


def play(state: SkywayState, policy: Callable[[SkywayState], Action], steps: int = 99) -> None:
    for _ in range(steps):
        if state.is_over:
            return
        state.apply(policy(state))


def first_blueprint_on(where: str) -> Callable[[SkywayState], Action]:
    return lambda state: draft_action(state.market[0], SPACE_OF_LABEL[where])


def on_grid(state: SkywayState) -> set[Card]:
    return {c for s in state.grid for c in s}


# --------------------------------------------------------------------------- set-up and market


def test_the_deck_is_the_forty_number_cards() -> None:
    state = deal()
    assert sorted(state.cards()) == sorted(NUMBER_CARDS)
    assert len(state.cards()) == 40
    assert not any(c.rank > 10 for c in state.cards())
    with pytest.raises(spyglass.RulesError):
        GAME.new_state(seed=1, deck=standard_deck())  # face cards are not part of the game


def test_the_market_is_two_two_one_in_deal_order() -> None:
    state = deal("AS 2S 3S 4S 5S 6H 7H 8H 9H 10H")
    assert market(state) == [["A♠", "2♠"], ["3♠", "4♠"], ["5♠"]]
    assert len(state.deck) == 35 and state.discard == [] and state.round == 1
    assert state.log[-1] == "market: A♠ 2♠ | 3♠ 4♠ | 5♠"
    # Every blueprint onto every space: 3 x 9 moves, written bottom card first.
    moves = [str(a) for a in state.legal_actions()]
    assert len(moves) == 27 and moves[0] == "A♠ 2♠ A1" and moves[-1] == "5♠ C3"
    state.apply("5S B2")
    # The next deal is made the same way from the next five cards.
    assert market(state) == [["6♥", "7♥"], ["8♥", "9♥"], ["10♥"]]


def test_drafting_places_the_blueprint_on_top_in_order_and_discards_the_rest() -> None:
    state = deal("AS 2S 3S 4S 5S 6H 7H 8H 9H 10H")
    state.apply("3S 4S B2")
    assert stack(state, "B2") == ["3♠", "4♠"]
    assert names(state.discard) == ["A♠", "2♠", "5♠"]
    state.apply("10H B2")  # a single card on two: three high, nothing leaves
    assert stack(state, "B2") == ["3♠", "4♠", "10♥"]
    assert names(state.discard) == ["A♠", "2♠", "5♠", "6♥", "7♥", "8♥", "9♥"]
    assert sum(len(s) for s in state.grid) == 3


def test_a_two_card_blueprint_on_two_cards_discards_the_bottom_one() -> None:
    state = deal("AS 2S 3S 4S 5S 6H 7H 8H 9H 10H")
    state.apply("AS 2S A1")
    state.apply("6H 7H A1")
    assert stack(state, "A1") == ["2♠", "6♥", "7♥"]
    assert names(state.discard)[-4:] == ["A♠", "8♥", "9♥", "10♥"]


def test_rulebook_mid_game_draft_keeps_three_and_discards_the_bottom_two() -> None:
    # The middle-right space (C2) holds, bottom to top, 2♥ 4♥ 3♣. Drafting the blueprint
    # 7♥ 6♣ onto it makes five cards: 2♥ and 4♥ leave from the bottom, 3♣ 7♥ 6♣ stay.
    state = deal("2H 4H AS 2S 3S" + " 4S 5S 6S 7S 3C" + " 7H 6C 8S 9S 10S")
    state.apply("2H 4H C2")
    state.apply("3C C2")
    assert stack(state, "C2") == ["2♥", "4♥", "3♣"]
    assert market(state) == [["7♥", "6♣"], ["8♠", "9♠"], ["10♠"]]
    discarded_before = len(state.discard)
    assert state.describe("7H 6C C2") == (
        "Draft blueprint 1 (7♥ 6♣) onto C2: it becomes 3♣ 7♥ 6♣ and 2♥ 4♥ are discarded"
        " from the bottom."
    )
    state.apply("7H 6C C2")
    assert stack(state, "C2") == ["3♣", "7♥", "6♣"]
    assert names(state.discard[discarded_before:]) == ["2♥", "4♥", "8♠", "9♠", "10♠"]
    assert state.log[-2] == (
        "drafted 7♥ 6♣ onto C2; 2♥ 4♥ discarded from the bottom; 8♠ 9♠ 10♠ discarded from the"
        " market"
    )


def test_a_blueprint_keeps_its_order() -> None:
    state = deal("7H 6C 8S 9S 10S")
    reversed_blueprint = Action("draft", (parse_card("6C"), parse_card("7H")), "C2")
    with pytest.raises(IllegalAction, match="keeps its order: it is 7♥ 6♣"):
        state.apply(reversed_blueprint)
    # Typed cards may come in any order: the move is the blueprint as dealt.
    state.apply("6c 7h c2")
    assert stack(state, "C2") == ["7♥", "6♣"]


def test_every_way_of_typing_a_draft() -> None:
    state = deal("7H 6C 8S 9S 10S")
    expected = state.parse("7♥ 6♣ C2")
    for text in ("7h 6c c2", "7H 6C C2", "c2 7h 6c", "7h 6c to c2", "1 c2", "C2 1", "7♥,6♣,c2"):
        assert state.parse(text) == expected, text
    assert state.parse("3 a1") == draft_action((parse_card("10S"),), 0)
    assert state.parse("10s onto A1") == draft_action((parse_card("10S"),), 0)


# --------------------------------------------------------------------------- illegal moves


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        (Action("pick", (), "A1"), "the only move is drafting a blueprint"),
        (Action("draft", tuple(parse_cards("7H 6C")), "D4"), "'D4' is not a space"),
        (Action("draft", tuple(parse_cards("7H 6C")), 3), "3 is not a space"),
        (Action("draft", tuple(parse_cards("7H 6C")), None), "None is not a space"),
        (Action("draft", (), "A1"), "one or two cards, not 0"),
        (Action("draft", parse_cards("7H 6C 10S"), "A1"), "one or two cards, not 3"),
        (Action("draft", (7, 6), "A1"), "named by its cards"),
        (Action("draft", tuple(parse_cards("KS")), "A1"), "K♠ is not in the market"),
        (Action("draft", tuple(parse_cards("JK")), "A1"), "JK is not in the market"),
        (Action("draft", tuple(parse_cards("AH 2H")), "A1"), "A♥ 2♥ are not in the market"),
        (Action("draft", tuple(parse_cards("7H")), "A1"), "drafted whole"),
        (Action("draft", tuple(parse_cards("6C 8S")), "A1"), "drafted whole"),
        ("7h c2", "drafted whole"),
        ("6c 7h 8s c2", "one or two cards, not 3"),
        ("kh a1", "K♥ is not in the market"),
        ("7h 6c", "this is not a move"),
        ("7h 6c d4", "this is not a move"),
        ("4 c2", "this is not a move"),
        ("1 2 c2", "this is not a move"),
    ],
)
def test_illegal_moves_name_the_rule_and_change_nothing(move, rule: str) -> None:
    state = deal("7H 6C 8S 9S 10S")
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=rule):
        state.apply(move)
    assert state.snapshot() == before


# --------------------------------------------------------------------------- passes and the end


def test_the_first_pass_is_eight_markets_then_the_whole_discard_pile_is_the_new_deck() -> None:
    state = deal(seed=5)
    play(state, first_blueprint_on("A1"), steps=7)
    assert state.round == 1 and len(state.deck) == 0  # the eighth market is the last five cards
    assert not state.last_turn
    play(state, first_blueprint_on("A1"), steps=1)
    # The deck ran out when the ninth market needed a card: the discard pile, including the
    # eighth turn's leftovers, was shuffled into the second round's deck.
    assert state.round == 2 and state.discard == []
    assert len(state.deck) == 40 - 3 - 5
    dealt = {c for b in state.market for c in b}
    assert set(state.deck) | dealt == set(NUMBER_CARDS) - on_grid(state)
    assert "round 2: the next round marker is turned" in state.log[-2]


def test_a_deal_cut_short_is_finished_from_the_new_deck_and_the_third_ends_the_game() -> None:
    # Every blueprint 1 onto A1: the grid holds 3 cards from turn 2 on, so the second and third
    # rounds have 37 and 35 cards and both run out two cards into a deal: 23 markets in all.
    state = deal(seed=9)
    play(state, first_blueprint_on("A1"), steps=14)
    assert state.round == 2 and len(state.deck) == 2
    last_two = (state.deck[-1], state.deck[-2])
    play(state, first_blueprint_on("A1"), steps=1)
    assert state.round == 3 and not state.last_shuffle
    assert state.market[0] == last_two  # dealt from the old deck, the rest from the new one
    assert len(state.deck) == 35 - 3 and state.discard == []
    play(state, first_blueprint_on("A1"), steps=6)
    assert state.round == 3 and len(state.deck) == 2 and not state.last_turn
    last_two = (state.deck[-1], state.deck[-2])
    play(state, first_blueprint_on("A1"), steps=1)
    # The third round ran out two cards into the deal: one last shuffle finishes it.
    assert state.last_shuffle and state.last_turn and state.round == 3
    assert state.market[0] == last_two
    assert len(state.deck) == 35 - 3
    assert "one last shuffle finishes this market" in state.log[-2]
    assert state.view(0)["table"]["round"] == "3 of 3, last turn (dealt from one last shuffle)"
    play(state, first_blueprint_on("A1"), steps=1)
    assert state.is_over and state.step == 23 == GAME.max_actions(1)
    assert state.log[-2] == "that was the last market: the game is over"
    assert sum(line.startswith("the deck ran out") for line in state.log) == 3


def test_a_third_round_that_runs_out_between_deals_ends_the_game() -> None:
    # Seven blueprints onto A1 and the eighth onto B1 leave 5 cards on the grid: the second
    # and third rounds are 35 cards each, seven markets, and the third ends on a deal's edge.
    def policy(state: SkywayState) -> Action:
        return first_blueprint_on("B1" if state.step == 7 else "A1")(state)

    state = deal(seed=3)
    play(state, policy, steps=8)
    assert state.round == 2 and len(state.deck) == 30
    play(state, policy, steps=13)
    assert state.round == 3 and len(state.deck) == 0 and state.last_turn
    assert not state.last_shuffle
    assert state.view(0)["table"]["round"] == "3 of 3, last turn (the deck is empty)"
    play(state, policy, steps=1)
    assert state.is_over and state.step == 22
    assert state.market == [] and len(state.discard) == 35
    assert "that was the last market" in state.log[-2]


def test_the_game_over_position_has_no_moves_and_refuses_more() -> None:
    state = deal(seed=4)
    play(state, first_blueprint_on("C3"))
    assert state.is_over and state.legal_actions() == [] and state.current_player is None
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply("1 A1")


# --------------------------------------------------------------------------- scoring


def test_a_run_may_come_back_to_a_space_it_has_left() -> None:
    grid = grid_of({"A1": "AS 3S 5S", "B1": "2S 4S"})  # A1 B1 A1 B1 A1
    assert runs(grid) == (5, 0, 0, 0)
    assert [(str(c), LABELS[s]) for c, s in longest_path(grid, "S")] == [
        ("A♠", "A1"),
        ("2♠", "B1"),
        ("3♠", "A1"),
        ("4♠", "B1"),
        ("5♠", "A1"),
    ]


def test_each_step_moves_to_an_orthogonally_adjacent_space() -> None:
    assert runs(grid_of({"A1": "AH 2H 3H"})) == (0, 1, 0, 0)  # one space: no step
    assert runs(grid_of({"A1": "AD", "B2": "2D"})) == (0, 0, 0, 1)  # diagonal
    assert runs(grid_of({"A1": "AD", "C1": "2D"})) == (0, 0, 0, 1)  # two apart
    assert runs(grid_of({"A1": "AD", "A2": "2D", "B2": "3D"})) == (0, 0, 0, 3)


def test_every_layer_counts() -> None:
    grid = grid_of({"A1": "2C 9S 9H", "B1": "8D 7D 3C"})  # bottom card, then top card
    assert runs(grid)[2] == 2


def test_runs_only_go_up_and_the_ace_is_low() -> None:
    assert runs(grid_of({"A1": "5S", "B1": "3S", "C1": "7S"})) == (2, 0, 0, 0)
    assert runs(grid_of({"A1": "AS", "B1": "2S", "C1": "10S"})) == (3, 0, 0, 0)
    # An ace is 1, never above the ten: 9 10 A in a row is two runs of two.
    assert runs(grid_of({"A1": "9S", "B1": "10S", "C1": "AS"})) == (2, 0, 0, 0)


# The rulebook's winning play area (its picture is missing; the four paths in the text place
# all twenty cards, and no space needs more than three): rows 1 (top) to 3, columns A to C.
BOOK_GRID = {
    "A1": "7S",
    "B1": "5D 10D 10H",
    "C1": "4D 9D AC",
    "A2": "5S 6H",
    "B2": "5H 8H",
    "C2": "2D 3C",
    "A3": "4S 10C",
    "B3": "2H 3S 8C",
    "C3": "AS 5C",
}
BOOK_PATHS = {
    # Hearts from bottom-centre 2, up 5, left 6, right 8 (back to the centre), up 10.
    "H": [("2♥", "B3"), ("5♥", "B2"), ("6♥", "A2"), ("8♥", "B2"), ("10♥", "B1")],
    # Spades from bottom-right A, left 3, left 4, up 5, up 7.
    "S": [("A♠", "C3"), ("3♠", "B3"), ("4♠", "A3"), ("5♠", "A2"), ("7♠", "A1")],
    # Diamonds from middle-right 2, up 4, left 5, right 9, left 10.
    "D": [("2♦", "C2"), ("4♦", "C1"), ("5♦", "B1"), ("9♦", "C1"), ("10♦", "B1")],
    # Clubs from top-right A, down 3, down 5, left 8, left 10.
    "C": [("A♣", "C1"), ("3♣", "C2"), ("5♣", "C3"), ("8♣", "B3"), ("10♣", "A3")],
}


def test_rulebook_winning_play_area_scores_five_in_every_suit() -> None:
    grid = grid_of(BOOK_GRID)
    assert sum(len(s) for s in grid) == 20 and max(len(s) for s in grid) == 3
    assert runs(grid) == (5, 5, 5, 5)
    for suit, path in BOOK_PATHS.items():
        assert [(str(c), LABELS[s]) for c, s in longest_path(grid, suit)] == path


# A full game that ends on the rulebook's winning play area. The first round is stacked: its
# eight markets lay out 7♠ and the five pairs of the two-card spaces, then half of B1 and C1.
# The later rounds are shuffled from seed 10; every other card goes onto B3 until 2♥ 3♠ and,
# from the last shuffle of the third round, 8♣ finish it.
BOOK_GAME_DECK = (
    "2S 3S 6S 8S 7S 5S 6H 9S 10S AH 5H 8H 2H 3H 4H 2D 3C 7H 9H 10H"
    " 4S 10C AC 2C 4C AS 5C 6C 7C 8C 5D 10D 9C AD 3D 4D 9D 6D 7D 8D"
)
BOOK_GAME_MOVES = [
    # round 1 (stacked)
    "7♠ A1", "5♠ 6♥ A2", "5♥ 8♥ B2", "2♦ 3♣ C2", "4♠ 10♣ A3", "A♠ 5♣ C3", "5♦ 10♦ B1",
    "4♦ 9♦ C1",
    # round 2
    "8♣ 3♠ B3", "3♦ 2♥ B3", "6♠ 10♠ B3", "10♥ B1", "9♠ B3",
    # round 3, then one last shuffle for the last market
    "8♦ 3♦ B3", "A♣ C1", "9♣ B3", "2♥ 3♠ B3", "8♣ B3",
]  # fmt: skip


def test_rulebook_winning_play_area_reached_in_a_full_game() -> None:
    state = GAME.new_state(seed=10, deck=parse_cards(BOOK_GAME_DECK))
    assert isinstance(state, SkywayState)
    for move in BOOK_GAME_MOVES[:8]:
        state.apply(move)
    assert state.round == 2 and "discard pile (25 cards) is shuffled" in state.log[-2]
    for move in BOOK_GAME_MOVES[8:13]:
        state.apply(move)
    assert state.round == 3 and "discard pile (21 cards) is shuffled" in state.log[-2]
    for move in BOOK_GAME_MOVES[13:17]:
        state.apply(move)
    assert state.last_shuffle and state.last_turn
    assert market(state) == [["8♠", "3♦"], ["2♠", "6♠"], ["8♣"]]
    assert len(state.deck) == 19 - 4  # the rest of the last shuffle is never used
    state.apply(BOOK_GAME_MOVES[17])
    assert state.is_over and state.step == 18
    assert {where: sorted(stack(state, where)) for where in BOOK_GRID} == {
        where: sorted(names(parse_cards(cards))) for where, cards in BOOK_GRID.items()
    }
    result = state.result
    assert result.won and result.score == 20 and result.scores == (1.0,)
    assert result.summary == "Won: every suit has a run of 5 or more; score 20"
    detail = result.detail[0]
    for suit, name in (("S", "spades"), ("H", "hearts"), ("C", "clubs"), ("D", "diamonds")):
        assert detail[name] == 5
        assert detail[f"{name}_path"] == ", ".join(f"{c} {w}" for c, w in BOOK_PATHS[suit])
    assert detail["total"] == 20
    assert state.log[-1] == "final runs: spades 5, hearts 5, clubs 5, diamonds 5 (total 20): won"


# --------------------------------------------------------------------------- results


def test_a_loss_reports_every_run_and_no_score() -> None:
    state = deal(seed=4)
    play(state, first_blueprint_on("C3"))
    result = state.result
    assert result.won is False and result.score is None and result.scores == (0.0,)
    detail = result.detail[0]
    lengths = [detail[name] for name in ("spades", "hearts", "clubs", "diamonds")]
    assert tuple(lengths) == runs(state.grid)
    assert detail["total"] == sum(lengths)
    assert result.summary.startswith("Lost: runs shorter than 5 in")
    assert state.log[-1].startswith("final runs: spades")


# --------------------------------------------------------------------------- what is seen


def test_the_view_shows_the_table_but_not_the_deck_order() -> None:
    state = deal("7H 6C 8S 9S 10S", seed=2)
    state.apply("7H 6C C2")
    table = state.view(0)["table"]
    assert table["market"][0]["title"] == "blueprint 1"
    assert table["play_area"]["cells"][1][2] == ["7♥", "6♣"]
    assert table["play_area"]["col_labels"] == ["A", "B", "C"]
    assert table["discard"] == ["8♠", "9♠", "10♠"]
    assert table["deck"] == 30
    assert table["runs"] == {"♠": 0, "♥": 1, "♣": 1, "♦": 0}
    # The deck's contents are known (everything not on the table), in a fixed order.
    seen = {c for b in state.market for c in b} | on_grid(state) | set(state.discard)
    assert set(table["deck_contents"]) == {str(c) for c in set(NUMBER_CARDS) - seen}
    assert table["deck_contents"][:4] == ["A♥", "A♣", "A♦", "2♥"]  # A♠ 2♠ are in the market
    assert "deck_top_first" not in table


def test_determinizing_reshuffles_only_the_deck() -> None:
    state = deal(seed=2)
    state.apply("1 A1")
    first = state.determinize(0, Rng(1))
    second = state.determinize(0, Rng(2))
    assert first.view(0) == second.view(0) == state.view(0)
    assert sorted(first.deck) == sorted(second.deck) == sorted(state.deck)
    assert first.deck != second.deck
    assert first.grid == state.grid and first.market == state.market
    assert first.discard == state.discard


# --------------------------------------------------------------------------- the bot


def test_the_bot_wins_where_random_play_does_not() -> None:
    bot_wins = random_wins = 0
    for seed in range(12):
        state, rng = GAME.new_state(seed=seed), Rng(seed)
        while not state.is_over:
            move = bot.choose(state.determinize(0, rng), rng)
            assert move in state.legal_actions()
            state.apply(move)
        bot_wins += state.result.won
        state, rng = GAME.new_state(seed=seed), Rng(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        random_wins += state.result.won
    assert bot_wins >= 6 and random_wins == 0  # measured: 8 of 12 and 0 of 12


def test_the_bot_keeps_the_win_on_the_last_turn() -> None:
    state = GAME.new_state(seed=10, deck=parse_cards(BOOK_GAME_DECK))
    for move in BOOK_GAME_MOVES[:17]:
        state.apply(move)
    assert state.last_turn
    state.apply(bot.choose(state.determinize(0, Rng(1)), Rng(1)))
    assert state.result.won


def test_the_runs_kept_by_the_state_are_the_grids_at_every_step() -> None:
    """The state keeps each suit's places as cards come and go (``run_lengths``, and the
    result's paths read them): at every step of random games they give what the grid itself
    gives (``runs`` and ``longest_path`` search it afresh)."""
    rng = Rng(8)
    for seed in range(12):
        state = deal(seed=seed)
        while True:
            assert state.run_lengths == runs(state.grid)
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        result = state.result
        assert result is not None
        for suit, name in zip("SHCD", ("spades", "hearts", "clubs", "diamonds"), strict=True):
            path = ", ".join(f"{c} {LABELS[s]}" for c, s in longest_path(state.grid, suit))
            assert result.detail[0][f"{name}_path"] == (path or "none")
