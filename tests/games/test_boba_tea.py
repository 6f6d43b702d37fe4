"""The First Boba Tea Shop in London: the rulebook's example with stacked decks, rule by rule."""

from collections.abc import Iterable

import pytest

import spyglass
from spyglass.components import Card, parse_card, stacked, standard_deck
from spyglass.components.cards import parse_cards
from spyglass.engine import Action, IllegalAction, Rng
from spyglass.games.boba_tea import bot
from spyglass.games.boba_tea.rules import BobaTeaState, fits, window

GAME = spyglass.load("boba-tea")
RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# The rulebook's mid-game position, rebuilt by play (its picture is missing): Q1 9 4 4 2, an
# 8♠ right above an A♥ in Q2, three 8s discarded. The deal starts the queues with the first four.
MIDGAME_DEAL = "9S {q2} QC JH"
MIDGAME_DRAWS = "4H 2C 4D AH KD 8H 8D KC 8C 3S KH"
MIDGAME_MOVES = (
    "q1 bottom",  # 4♥ fits below 9♠
    "q1 bottom",  # 2♣ fits below 4♥
    "q1 4h 2c",  # 4♦ fits between 4♥ and 2♣: 9 4 4 2
    "q2 bottom",  # A♥ below the Q2 card
    "q2 top",  # K♦ on top of Q2
    "q3 top",  # 8♥ is rude above Q♣ (only Q or K fit) ...
    "kick",  # ... kicked out with 8♦; K♣ then fits
    "q4 top",  # 8♣ is rude above J♥ ...
    "kick",  # ... kicked out with 3♠; K♥ then fits
)


def cards(text: str) -> list[str]:
    return [str(parse_card(t)) for t in text.split()]


def deal(top: str, tail: str = "") -> BobaTeaState:
    """A game whose deck starts with ``top`` (the first four start the queues) and ends with
    ``tail`` (its last card is the last one drawn)."""
    order = stacked(top, standard_deck())
    last = parse_cards(tail)
    order = [c for c in order if c not in last] + last
    state = GAME.new_state(seed=1, deck=order)
    assert isinstance(state, BobaTeaState)
    return state


def play(state: BobaTeaState, moves: Iterable[str]) -> BobaTeaState:
    for move in moves:
        state.apply(move)
    return state


def midgame(q2: str = "8S", then: str = "") -> BobaTeaState:
    state = deal(f"{MIDGAME_DEAL.format(q2=q2)} {MIDGAME_DRAWS} {then}")
    return play(state, MIDGAME_MOVES)


def queues(state: BobaTeaState) -> list[list[str]]:
    return [[str(c) for c in q] for q in state.queues]


def top_of_deck(state: BobaTeaState) -> Card:
    return state.deck[-1]


def fitting_move(state: BobaTeaState) -> Action:
    """A target where the deck's next card fits (test-only: it peeks at the true deck)."""
    card = top_of_deck(state)
    for move in state.legal_actions():
        number, position = move.target
        if fits(state.queues[number - 1], position, card):
            return move
    raise AssertionError(f"{card} fits nowhere")


def rude_move(state: BobaTeaState) -> Action:
    """A target where the deck's next card does not fit, in the shortest queue possible."""
    card = top_of_deck(state)
    by_length = sorted(state.legal_actions(), key=lambda m: len(state.queues[m.target[0] - 1]))
    for move in by_length:
        number, position = move.target
        if not fits(state.queues[number - 1], position, card):
            return move
    raise AssertionError(f"{card} fits everywhere")


def run_down(state: BobaTeaState, left: int) -> BobaTeaState:
    """Place fitting customers until ``left`` cards remain in the deck."""
    while len(state.deck) > left:
        state.apply(fitting_move(state))
    return state


# --------------------------------------------------------------------------- the worked example


def test_midgame_example_position() -> None:
    state = midgame()
    assert queues(state) == [
        cards("9S 4H 4D 2C"),
        cards("KD 8S AH"),
        cards("KC QC"),
        cards("KH JH"),
    ]
    assert state.discarded[8] == 3 and sorted(map(str, state.discard)) == sorted(
        cards("8H 8D 8C 3S")
    )
    assert state.view(0)["table"]["discard_rows"][0]["cards"] == cards("3S 8H")
    assert state.view(0)["table"]["discard_rows"][1]["cards"] == cards("8D")
    assert state.view(0)["table"]["discard_rows"][2]["cards"] == cards("8C")
    assert not state.is_over and state.held is None


def test_midgame_example_gap_between_eight_and_ace_is_eight_ranks_wide() -> None:
    state = midgame(then="5C")
    q2 = state.queues[1]
    assert window(q2, 2) == (1, 8)
    assert [rank for rank in range(1, 14) if fits(q2, 2, Card.of(rank, "C"))] == list(range(1, 9))
    assert "takes A to 8" in state.describe("q2 8s ah")
    state.apply("q2 8s ah")
    assert queues(state)[1] == cards("KD 8S 5C AH")


def test_midgame_example_letting_a_rude_customer_stay_in_q2_discards_the_fourth_eight() -> None:
    state = midgame(then="10C")
    state.apply("q2 8s ah")
    assert state.held == parse_card("10C") and state.phase == "rude customer"
    assert "fourth 8 and loses" in state.describe("stay")
    state.apply("stay")
    assert state.is_over and state.lost_rank == 8
    assert {"K♦", "8♠", "A♥"} <= set(map(str, state.discard))
    result = state.result
    assert result.won is False and result.score is None
    assert result.detail[0]["fourth_of_rank"] == "8"
    assert result.summary.startswith("Lost: the fourth 8 was discarded")


def test_midgame_example_kicking_out_a_string_of_customers() -> None:
    # All four 8s are accounted for, so kicks cannot lose on an 8; each kick costs two cards.
    state = midgame(then="10C 10D 9C 9D 2H")
    state.apply("q2 8s ah")
    state.apply("kick")  # 10♣ and 10♦ out; 9♣ is rude too
    assert state.held == parse_card("9C")
    state.apply("kick")  # 9♣ and 9♦ out; 2♥ fits
    assert not state.is_over and state.held is None
    assert queues(state)[1] == cards("KD 8S 2H AH")
    assert len(state.discard) == 8 and state.kicks == 4


def test_fourth_eight_risk_kicking_out_the_fourth_eight_loses() -> None:
    # The same position, except that Q2 holds a 7♠ and the last 8 is still in the deck.
    state = midgame(q2="7S", then="8S 2H")
    state.apply("q2 top")  # only a K fits above K♦
    assert state.held == parse_card("8S")
    stay = state.clone()
    stay.apply("stay")  # letting the 8 stay discards K♦ 7♠ A♥: safe
    assert not stay.is_over and queues(stay)[1] == cards("8S")
    assert "it is the fourth 8, so this loses" in state.describe("kick")
    state.apply("kick")
    assert state.is_over and state.lost_rank == 8 and not state.result.won
    table = state.view(0)["table"]
    assert table["phase"] == "over" and table["target"] is None and table["drawn"] == []
    assert table["discard_rows"][3] == {"title": "4th", "cards": ["8♠"]}


def test_fourth_eight_risk_the_card_kicked_with_the_customer_is_the_fourth_eight() -> None:
    state = midgame(q2="7S", then="10C 8S")
    state.apply("q2 top")
    assert state.held == parse_card("10C")
    assert "1 of the" in state.describe("kick")  # one card of the deck would be a fourth
    state.apply("kick")
    assert state.is_over and state.lost_rank == 8
    assert list(map(str, state.discard[-2:])) == cards("10C 8S")


# --------------------------------------------------------------------------- set-up and turn


def test_set_up_four_queues_of_one_customer_in_deal_order() -> None:
    state = deal("5S KH 2C 9D 7H")
    assert queues(state) == [["5♠"], ["K♥"], ["2♣"], ["9♦"]]
    assert len(state.deck) == 48 and state.discard == [] and str(top_of_deck(state)) == "7♥"
    assert [str(a) for a in state.legal_actions()] == [
        "q1 top",
        "q1 bottom",
        "q2 top",
        "q2 bottom",
        "q3 top",
        "q3 bottom",
        "q4 top",
        "q4 bottom",
    ]


def test_a_queue_of_k_cards_has_k_plus_one_positions() -> None:
    state = midgame()
    targets = [a for a in state.legal_actions() if a.kind == "target"]
    assert len(targets) == (4 + 1) + (3 + 1) + (2 + 1) + (2 + 1)
    assert [str(a) for a in targets[:5]] == [
        "q1 top",
        "q1 9♠ 4♥",
        "q1 4♥ 4♦",
        "q1 4♦ 2♣",
        "q1 bottom",
    ]


def test_position_is_chosen_before_the_draw() -> None:
    state = deal("5S KH 2C 9D 7H")
    assert all(a.kind == "target" for a in state.legal_actions())
    assert state.held is None and len(state.deck) == 48
    state.apply("q1 top")  # only now is 7♥ drawn
    assert len(state.deck) == 47 and queues(state)[0] == ["7♥", "5♠"]


def test_politeness_with_equal_ranks() -> None:
    state = midgame()
    q1 = state.queues[0]  # 9 4 4 2
    assert [window(q1, p) for p in range(5)] == [(9, 13), (4, 9), (4, 4), (2, 4), (1, 2)]
    four, five = parse_card("4C"), parse_card("5C")
    assert [fits(q1, p, four) for p in range(5)] == [False, True, True, True, False]
    assert [fits(q1, p, five) for p in range(5)] == [False, True, False, False, False]
    assert fits(q1, 0, parse_card("9C")) and fits(q1, 4, parse_card("2S"))


def test_a_card_equal_to_both_neighbours_joins_between_them() -> None:
    state = midgame(then="4C")
    state.apply("q1 4h 4d")
    assert queues(state)[0] == cards("9S 4H 4C 4D 2C")


def test_a_card_between_two_equal_ranks_of_another_rank_is_rude() -> None:
    state = midgame(then="5C")
    state.apply("q1 4h 4d")
    assert state.held == parse_card("5C") and queues(state)[0] == cards("9S 4H 4D 2C")


def test_a_rude_customer_can_only_stay_or_be_kicked_out() -> None:
    state = deal("5S KH 2C 9D 3H")
    state.apply("q1 top")  # 3♥ under 5♠ is not polite
    assert [str(a) for a in state.legal_actions()] == ["stay", "kick"]
    with pytest.raises(IllegalAction, match="target position cannot change"):
        state.apply("q1 bottom")


def test_stay_discards_the_whole_queue_and_restarts_it() -> None:
    state = deal("5S KH 2C 9D 3S 8H", "")
    state.apply("q1 bottom")  # 3♠ fits below 5♠
    state.apply("q1 bottom")  # 8♥ is rude below 3♠
    state.apply("stay")
    assert queues(state)[0] == ["8♥"]
    assert list(map(str, state.discard)) == ["5♠", "3♠"]
    assert state.held is None and state.target is None and state.stays == 1
    assert all(a.kind == "target" for a in state.legal_actions())


def test_kick_discards_two_and_tries_the_next_at_the_same_position() -> None:
    # 2♦ would fit Q3 (below 2♣) but the target stays at Q1's top: it is rude again.
    state = deal("5S KH 2C 9D 3H 4H 2D 7S QS")
    state.apply("q1 top")  # 3♥ rude
    state.apply("kick")  # 3♥ and 4♥ out, 2♦ drawn for the same position
    assert list(map(str, state.discard)) == ["3♥", "4♥"]
    assert state.held == parse_card("2D") and state.target == (0, 0)
    state.apply("kick")  # 2♦ and 7♠ out, Q♠ fits above 5♠
    assert queues(state)[0] == ["Q♠", "5♠"] and state.kicks == 2
    assert list(map(str, state.discard)) == ["3♥", "4♥", "2♦", "7♠"]


def test_fourth_of_a_rank_loses_from_a_kicked_customer() -> None:
    state = deal("KS KH KC KD 7S 7H 7C 6D 7D")
    state.apply("q1 top")  # 7♠ rude
    state.apply("kick")  # 7♠ and 7♥ out; 7♣ rude
    state.apply("kick")  # 7♣ and 6♦ out: three 7s; 7♦ rude
    assert not state.is_over and state.discarded[7] == 3
    state.apply("kick")
    assert state.is_over and state.lost_rank == 7
    assert state.result.detail[0]["fourth_of_rank"] == "7"


def test_fourth_of_a_rank_loses_when_a_queue_with_two_of_them_leaves() -> None:
    state = deal("5S KH KC KD 5H 5C 5D KS 2S")
    state.apply("q1 top")  # 5♥ joins: Q1 5♥ 5♠
    state.apply("q2 top")  # 5♣ rude above K♥
    state.apply("kick")  # 5♣ and 5♦ out; K♠ fits
    assert state.discarded[5] == 2 and queues(state)[0] == ["5♥", "5♠"]
    state.apply("q1 top")  # 2♠ rude
    state.apply("stay")  # Q1 leaves with two 5s: four 5s
    assert state.is_over and state.lost_rank == 5 and not state.result.won


def test_deck_runs_out_on_a_fitting_customer_wins_with_every_card_queued() -> None:
    state = run_down(GAME.new_state(seed=5), 0)
    assert state.is_over and state.deck == [] and state.discard == []
    result = state.result
    assert result.won and result.score == 52 and state.customers == 52
    assert result.summary == "Won: through the whole deck with 52 customers in the queues (score)"
    assert state.legal_actions() == [] and state.current_player is None
    assert state.step == 48


def test_kick_with_one_card_left_discards_both_and_ends_the_game() -> None:
    state = run_down(deal("5S KH 2C 9D", "3H 6D"), 2)
    state.apply(rude_move(state))
    assert state.held == parse_card("3H") and len(state.deck) == 1
    state.apply("kick")
    assert state.is_over and state.deck == []
    assert list(map(str, state.discard)) == ["3♥", "6♦"]
    assert state.result.won and state.result.score == 50


def test_kick_of_the_last_card_discards_it_alone_and_ends_the_game() -> None:
    state = run_down(deal("5S KH 2C 9D", "3H"), 1)
    state.apply(rude_move(state))
    assert state.deck == [] and "the deck is empty" in state.describe("kick")
    state.apply("kick")
    assert state.is_over and state.result.won and state.result.score == 51
    assert list(map(str, state.discard)) == ["3♥"]


def test_stay_with_the_last_card_wins_and_scores_the_queues() -> None:
    state = run_down(deal("5S KH 2C 9D", "3H"), 1)
    move = rude_move(state)
    number = move.target[0]
    leaving = len(state.queues[number - 1])
    state.apply(move)
    state.apply("stay")
    assert state.is_over and state.result.won
    assert state.result.score == 52 - leaving and state.queues[number - 1] == [parse_card("3H")]


def test_last_card_making_a_fourth_loses_even_at_the_end() -> None:
    state = deal("KS KH KC KD 7S 7H 7C 6D", "7D")
    play(state, ["q1 top", "kick", "kick"])  # three 7s discarded; A♠ is rude above K♠ ...
    state.apply("stay")  # ... and restarts Q1
    run_down(state, 1)
    state.apply(rude_move(state))
    assert state.held == parse_card("7D")
    state.apply("kick")
    assert state.is_over and not state.result.won and state.lost_rank == 7
    assert state.result.detail[0]["cards_left_in_deck"] == 0


def test_max_actions_bounds_the_longest_game() -> None:
    assert GAME.max_actions(1) == 96


# --------------------------------------------------------------------------- notation


def test_notation_reads_letters_symbols_any_case_and_other_forms() -> None:
    state = midgame()
    canonical = state.parse("q2 8♠ A♥")
    for text in ("Q2 8s ah", "q2 8S AH", "8s ah", "q2 below 8s", "q2 above ah", "q2 2", "q2 p2"):
        assert state.parse(text) == canonical, text
    assert state.parse("Q1 TOP") == state.parse("q1 0") == state.parse("above 9s")
    assert state.parse("q1 bottom") == state.parse("below 2c") == state.parse("q1 4")


def test_answers_in_other_words() -> None:
    state = deal("5S KH 2C 9D 3H")
    state.apply("q1 top")
    assert str(state.parse("let stay")) == "stay" and str(state.parse("Kick out")) == "kick"


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("stay", "no rude customer is waiting"),
        ("kick", "no rude customer is waiting"),
        ("q5 top", "there are four queues"),
        ("q0 bottom", "there are four queues"),
        ("q1 7", "positions are 0 (top) to 4 (bottom)"),
        ("q1 9s 4d", "9♠ and 4♦ are not next to each other in Q1"),
        ("q2 9s 4h", "9♠ is not in Q2"),
        ("kd ah", "K♦ and A♥ are not next to each other in any queue"),
        ("q2 8s 10c", "10♣ is not in Q2"),
        ("q3 above 8s", "8♠ is not in Q3"),
        ("above 10c", "10♣ is not in"),
        ("pass", "this is not a move"),
    ],
)
def test_illegal_moves_say_why(move: str, rule: str) -> None:
    state = midgame()
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)
    assert state.snapshot() == before


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Action("sandwich", ()), "a move is a target position"),
        (Action("target", (), "q1"), "a target names a queue"),
        (Action("target", (), (1,)), "a target names a queue"),
        (Action("target", (), (True, 0)), "there are four queues"),
        (Action("target", (), (1, "top")), "its positions are 0 (top) to 4"),
        (Action("target", (Card.joker(),), (1, 0)), "the cards beside that position"),
        (Action("target", (Card.of(9, "S", deck=1),), (1, 0)), "the cards beside that position"),
        (Action("target", (parse_card("9S"),), (1, 1)), "the cards beside that position"),
        (Action("stay", (parse_card("9S"), parse_card("2C"))), "no rude customer"),
    ],
)
def test_malformed_actions_raise_illegal_action(action: Action, rule: str) -> None:
    state = midgame()
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert rule in str(error.value)
    with pytest.raises(IllegalAction):
        state.describe(action)


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Action("kick", ()), "the rude customer is 3♥"),
        (Action("stay", (Card.joker(),), 1), "the rude customer is 3♥"),
        (Action("stay", (parse_card("3H"),), 2), "the rude customer came for Q1"),
        (Action("target", (parse_card("5S"),), (1, 0)), "the target position cannot change"),
    ],
)
def test_malformed_answers_raise_illegal_action(action: Action, rule: str) -> None:
    state = deal("5S KH 2C 9D 3H")
    state.apply("q1 top")
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert rule in str(error.value)


def test_descriptions_give_the_odds_and_the_consequences() -> None:
    # Ranks 5 to K: 36 cards, less 5♠, K♥ and 9♦ in the queues.
    state = deal("5S KH 2C 9D 3H")
    assert state.describe("q1 top") == (
        "Target Q1 at the top, above 5♠, then draw: it takes 5 to K, 33 of the 48 cards in the"
        " deck."
    )
    state.apply("q1 top")
    assert state.describe("stay") == "Let 3♥ stay: Q1 (5♠) is discarded and 3♥ starts it again."
    assert state.describe("kick") == (
        "Kick 3♥ out: discard it and the top card of the deck, then draw again for Q1 at the"
        " top, above 5♠ (takes 5 to K)."
    )


# --------------------------------------------------------------------------- views and bot


def test_view_shows_queues_target_drawn_card_and_deck_contents_but_not_its_order() -> None:
    state = midgame(then="10C")
    state.apply("q2 8s ah")
    table = state.view(0)["table"]
    assert table["phase"] == "rude customer" and table["drawn"] == ["10♣"]
    assert table["target"] == "Q2 between 8♠ and A♥"
    assert table["queues"][1] == {
        "title": "Q2",
        "cards": cards("KD 8S AH"),
        "note": "◀ target between 8♠ and A♥",
    }
    assert table["deck"] == len(state.deck) == len(table["deck_contents"])
    assert table["deck_contents"] == sorted(
        table["deck_contents"],
        key=lambda c: (RANK_ORDER.index(c[:-1]), "♠♥♣♦".index(c[-1])),
    )
    assert table["discarded_by_rank"]["8"] == 3
    other = state.determinize(0, Rng(1))
    assert other.view(0) == state.view(0) and other.deck != state.deck
    assert sorted(other.deck) == sorted(state.deck)


def test_terminal_table_draws_the_queues_as_rows() -> None:
    from rich.console import Console

    from spyglass.cli.render import render_table

    state = midgame(then="10C")
    state.apply("q2 8s ah")
    console = Console(width=120, record=True, color_system=None)
    console.print(render_table(state.view(0), GAME.spec.layout, GAME.info))
    lines = console.export_text().splitlines()

    def line(start: str) -> str:
        return next(x.strip("│ ") for x in lines if x.strip("│ ").startswith(start))

    assert line("Q1").split() == ["Q1", *cards("9S 4H 4D 2C")]
    assert line("Q2").split()[:4] == ["Q2", *cards("KD 8S AH")]
    assert line("Q2").endswith("◀ target between 8♠ and A♥")
    assert line("Rude customer").endswith("10♣")
    assert line("3rd").split()[:2] == ["3rd", "8♣"] and line("3rd").endswith("ranks loses")


def test_terminal_result_reports_the_queues() -> None:
    from rich.console import Console

    from spyglass.cli.render import render_result

    state = run_down(GAME.new_state(seed=5), 0)
    console = Console(width=200, record=True, color_system=None)
    console.print(render_result(state.result.to_json()))
    text = console.export_text()
    assert "Won: through the whole deck with 52 customers in the queues" in text
    assert "queue lengths Q1:" in text and "fourth of rank None" in text


def test_bot_uses_only_the_deck_contents() -> None:
    state = midgame(then="10C")
    for _ in range(3):
        first = bot.choose(state.determinize(0, Rng(1)), Rng(7))
        second = bot.choose(state.determinize(0, Rng(2)), Rng(7))
        assert first == second
        state.apply(first)


def test_bot_answers_a_deadly_stay_with_a_kick() -> None:
    state = midgame(then="10C")
    state.apply("q2 8s ah")
    assert str(bot.choose(state, Rng(1))) == "kick"


def test_bot_clearly_beats_random_play() -> None:
    wins = {"bot": 0, "random": 0}
    for seed in range(40):
        for who in wins:
            state = GAME.new_state(seed=seed)
            rng = Rng(seed)
            while not state.is_over:
                if who == "bot":
                    state.apply(bot.choose(state.determinize(0, rng), rng))
                else:
                    state.apply(rng.choice(state.legal_actions()))
            wins[who] += state.result.won
    assert wins["random"] <= 2 and wins["bot"] >= 24
