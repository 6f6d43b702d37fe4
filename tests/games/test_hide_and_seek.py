"""Hide and Seek: the rulebook's example with stacked decks, one test per rule, and the
uniformity of the playground deal and of its determinizations."""

import math
from collections import Counter
from itertools import permutations, product

import pytest

import spyglass
from spyglass.components import Card, parse_card, parse_cards, stacked, standard_deck
from spyglass.engine import Action, IllegalAction, Rng, RulesError
from spyglass.games.hide_and_seek import arrangements, bot
from spyglass.games.hide_and_seek.playground import CELL_BY_LABEL, SPACES, SPACES_OF_CELL
from spyglass.games.hide_and_seek.rules import HideAndSeekState

GAME = spyglass.load("hide-and-seek")
NUMBER_CARDS = [c for c in standard_deck() if c.rank <= 10]
FACE_CARDS = [c for c in standard_deck() if c.rank > 10]
SUITS = "SHCD"

# A valid playground, column by column, top to bottom:
#   B: J♥ Q♦ K♠   C: J♠ Q♥ K♣   D: Q♣ K♥ J♦   E: K♦ J♣ Q♠
PLAYGROUND = "JH QD KS  JS QH KC  QC KH JD  KD JC QS"
LABELS = ["B2", "B3", "B4", "C2", "C3", "C4", "D2", "D3", "D4", "E2", "E3", "E4"]


def deal(deck: str = "", playground: str = PLAYGROUND) -> HideAndSeekState:
    """A game with this playground and the deck starting with ``deck`` (top card first)."""
    state = GAME.new_state(
        seed=1, deck={"playground": playground, "deck": stacked(deck, NUMBER_CARDS)}
    )
    assert isinstance(state, HideAndSeekState)
    return state


def card(text: str) -> Card:
    return parse_card(text)


def at(state: HideAndSeekState, label: str) -> str | None:
    """What the player sees at a space of the playground frame."""
    frame = state.view(0)["table"]["playground"]["cells"]
    row, col = int(label[1:]) - 1, ord(label[0]) - ord("A")
    cell = frame[row][col]
    return cell[0] if isinstance(cell, list) else cell


def play(state: HideAndSeekState, *moves: str) -> None:
    for move in moves:
        state.apply(move)


def texts(actions) -> list[str]:
    return [str(a) for a in actions]


# --------------------------------------------------------------------------- set-up


def test_set_up_twelve_hidden_playmates_fourteen_empty_spaces_and_the_top_card() -> None:
    state = deal("7S 3H")
    table = state.view(0)["table"]
    frame = table["playground"]["cells"]
    assert [frame[r][c] for r in (1, 2, 3) for c in (1, 2, 3, 4)] == [[None]] * 12
    assert [frame[0][c] for c in (0, 5)] == ["", ""]  # corners: no space
    assert sum(cell is None for row in frame for cell in row) == 14  # empty guess spaces
    assert table["deck"] == {"size": 40, "top": "7♠"}  # only the top card shows
    assert table["score_pile"] == [] and table["discard"] == []
    assert table["status"] == {"score": 0, "needed": 20, "face_down": 12}
    assert len(state.legal_actions()) == 14 + 12  # a place per space, a reveal per playmate


def test_the_playground_deck_lists_columns_top_to_bottom() -> None:
    state = deal()
    assert [str(state.cells[CELL_BY_LABEL[label]]) for label in LABELS] == [
        str(c) for c in parse_cards(PLAYGROUND)
    ]
    play(state, "reveal B4", "reveal C2", "reveal E3")
    assert (at(state, "B4"), at(state, "C2"), at(state, "E3")) == ("K♠", "J♠", "J♣")


def test_fourteen_guess_spaces_at_the_ends_of_rows_and_columns() -> None:
    labels = sorted(s.label for s in SPACES)
    assert labels == sorted(
        ["B1", "C1", "D1", "E1", "B5", "C5", "D5", "E5", "A2", "A3", "A4", "F2", "F3", "F4"]
    )
    # Each playmate is reached by four spaces: both ends of its column and of its row.
    b3 = {SPACES[i].label for i in SPACES_OF_CELL[CELL_BY_LABEL["B3"]]}
    assert b3 == {"B1", "B5", "A3", "F3"}
    e2 = {SPACES[i].label for i in SPACES_OF_CELL[CELL_BY_LABEL["E2"]]}
    assert e2 == {"E1", "E5", "A2", "F2"}


@pytest.mark.parametrize(
    ("playground", "problem"),
    [
        ("JH QH KS  JS QD KC  QC KH JD  KD JC QS", "two cards of one suit"),  # column B: J♥ Q♥
        ("JH QD KS  JS QH KC  QC KH JD  KD QS JC", None),  # a valid reordering of column E
        ("JH JD KS  QS QH KC  QC KH JS  KD JC QD", "two cards of one rank"),  # column B: J♥ J♦
    ],
)
def test_a_stacked_playground_must_be_valid(playground: str, problem: str | None) -> None:
    if problem is None:
        assert deal(playground=playground).cells[-1] == card("JC")
        return
    with pytest.raises(RulesError, match=problem) as error:
        deal(playground=playground)
    assert "column B" in str(error.value)


def test_a_stacked_playground_holds_exactly_the_face_cards() -> None:
    with pytest.raises(RulesError, match="not in this deck 7♠"):
        deal(playground="7S QD KS  JS QH KC  QC KH JD  KD JC QS")
    with pytest.raises(RulesError, match="duplicate"):
        deal(playground="JH QD KS  JS QH KC  QC KH JD  KD JC JC")


def test_random_playgrounds_are_always_valid() -> None:
    for seed in range(300):
        cells = GAME.new_state(seed=seed).cells
        for column in range(4):
            three = cells[3 * column : 3 * column + 3]
            assert sorted(c.rank for c in three) == [11, 12, 13]
            assert len({c.suit for c in three}) == 3


# --------------------------------------------------------------------------- uniformity


def chi_square_p(observed: list[int], expected: list[float]) -> float:
    """Upper tail of the chi-square statistic (Wilson–Hilferty approximation)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    k = len(observed) - 1
    z = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def suit_patterns() -> list[tuple[tuple[tuple[str, int], ...], ...]]:
    """Every way to give each column a Jack, a Queen and a King of three different suits
    (ignoring their order in the column), by brute force from the rule and independently of
    the game's code: a tuple of four columns of (suit, rank) cards."""
    contents = [tuple(zip(suits, (11, 12, 13), strict=True)) for suits in permutations(SUITS, 3)]
    found = []

    def extend(chosen: tuple, used: frozenset) -> None:
        if len(chosen) == 4:
            found.append(chosen)
            return
        for column in contents:
            if used.isdisjoint(column):
                extend((*chosen, column), used | frozenset(column))

    extend((), frozenset())
    return found


PATTERNS = suit_patterns()


def consistent_playgrounds(shown: dict[int, tuple[str, int]]):
    """Every valid playground (cells column by column, top to bottom) agreeing with ``shown``."""
    for pattern in PATTERNS:
        orders = [
            [
                order
                for order in permutations(column)
                if all(shown.get(3 * c + row, card) == card for row, card in enumerate(order))
            ]
            for c, column in enumerate(pattern)
        ]
        for chosen in product(*orders):
            yield tuple(card for order in chosen for card in order)


def test_there_are_746496_valid_playgrounds() -> None:
    assert len(PATTERNS) == 576
    assert len(PATTERNS) * 6**4 == 746_496 == arrangements.ARRANGEMENTS


def lacking_suits(columns) -> tuple[str, ...]:
    return tuple(next(s for s in SUITS if s not in {card[0] for card in col}) for col in columns)


def test_the_random_playground_is_uniform_over_valid_arrangements() -> None:
    # Four statistics with exact distributions over all valid playgrounds: which suits sit in
    # which column with which rank (576 patterns, each 1/576), the suit each column lacks, how
    # many suits the top row shows, and the ranks of B2 and C2. A column puts each of its
    # cards on top in 2 of its 6 orders, so a choice of top row weighs 2**4.
    exact = [Counter(), Counter(), Counter(), Counter()]
    for pattern in PATTERNS:
        exact[0][pattern] += 6**4
        exact[1][lacking_suits(pattern)] += 6**4
        for tops in product(*pattern):
            exact[2][len({t[0] for t in tops})] += 2**4
            exact[3][tops[0][1], tops[1][1]] += 2**4
    total = sum(exact[0].values())
    assert total == 746_496 and len(exact[1]) == 24
    draws = 6000
    seen = [Counter(), Counter(), Counter(), Counter()]
    for i in range(draws):
        order = HideAndSeekState.shuffle_deck("playground", FACE_CARDS, Rng(i), {}, 1)
        cells = [(c.suit, c.rank) for c in order]
        columns = [cells[3 * c : 3 * c + 3] for c in range(4)]
        seen[0][tuple(tuple(sorted(col, key=lambda x: x[1])) for col in columns)] += 1
        seen[1][lacking_suits(columns)] += 1
        seen[2][len({col[0][0] for col in columns})] += 1
        seen[3][cells[0][1], cells[3][1]] += 1
    for observed, truth in zip(seen, exact, strict=True):
        assert set(observed) <= set(truth)
        keys = sorted(truth)
        p = chi_square_p([observed[k] for k in keys], [truth[k] * draws / total for k in keys])
        assert p > 1e-3, (observed, truth)


def test_the_uniformity_check_catches_a_biased_deal() -> None:
    # The same check refuses a deal that always stacks each column Jack, Queen, King.
    draws = 600
    seen = Counter()
    for i in range(draws):
        order = HideAndSeekState.shuffle_deck("playground", FACE_CARDS, Rng(i), {}, 1)
        columns = [sorted(order[3 * c : 3 * c + 3], key=lambda c: c.rank) for c in range(4)]
        seen[columns[0][0].rank, columns[1][0].rank] += 1
    keys = [(a, b) for a in (11, 12, 13) for b in (11, 12, 13)]
    assert chi_square_p([seen[k] for k in keys], [draws / 9] * 9) < 1e-6


def test_determinizations_are_uniform_among_consistent_playgrounds() -> None:
    state = deal()
    play(state, "reveal B2", "reveal D3", "reveal E4")  # J♥, K♥, Q♠
    shown = {0: ("H", 11), 7: ("H", 13), 11: ("S", 12)}
    consistent = list(consistent_playgrounds(shown))
    exact = Counter((p[CELL_BY_LABEL["B3"]], p[CELL_BY_LABEL["C2"]]) for p in consistent)
    draws = 4000
    observed = Counter()
    for i in range(draws):
        cells = state.determinize(0, Rng(i)).cells
        assert all(cells[k] == state.cells[k] for k in shown)
        observed[(cells[1].suit, cells[1].rank), (cells[3].suit, cells[3].rank)] += 1
    assert set(observed) <= set(exact)
    keys = sorted(exact)
    p = chi_square_p(
        [observed[k] for k in keys], [exact[k] * draws / len(consistent) for k in keys]
    )
    assert p > 1e-3


# --------------------------------------------------------------------------- the example


def test_rulebook_example_the_seven_of_spades_goes_where_a_spade_must_hide() -> None:
    # Reconstruction of the missing picture: J♥ and Q♦ are face up in column B, and K♣ in
    # column C. Column B's King cannot be a heart or a diamond (column B has them) nor a club
    # (the King of clubs hides in column C): it is the King of spades, so 7♠ at either end of
    # column B (the marked space, B5) or of row 4 is sure to score.
    state = deal("7S")
    play(state, "reveal B2", "reveal B3", "reveal C4")
    assert (at(state, "B2"), at(state, "B3"), at(state, "C4")) == ("J♥", "Q♦", "K♣")
    for i in range(200):
        assert state.determinize(0, Rng(i)).cells[CELL_BY_LABEL["B4"]] == card("KS")
    odds = arrangements.suit_odds(state.seen_cells())
    assert odds[CELL_BY_LABEL["B4"]] == (1.0, 0.0, 0.0, 0.0)  # spades, in SUITS order
    assert str(bot.choose(state.determinize(0, Rng(0)), Rng(0))) in {
        "place B1",
        "place B5",
        "place A4",
        "place F4",
    }
    play(state, "place B5", "reveal B4")
    assert state.view(0)["table"]["score_pile"] == ["7♠"]
    assert at(state, "B5") is None


# --------------------------------------------------------------------------- the actions


def test_placing_puts_the_top_card_on_an_empty_space_and_shows_the_next() -> None:
    state = deal("7S 3H 9D")
    state.apply("place B1")
    assert at(state, "B1") == "7♠" and state.top == card("3H") and len(state.deck) == 39
    assert "place B1" not in texts(state.legal_actions())  # one card per space
    with pytest.raises(IllegalAction, match=r"B1 already holds a guess \(7♠\)"):
        state.apply("place B1")
    state.apply("A3")  # a bare empty guess space means placing there
    assert at(state, "A3") == "3♥" and state.top == card("9D")


def test_a_reveal_scores_the_matching_guesses_of_its_row_and_column_only() -> None:
    # C3 is Q♥: its spaces are C1, C5 (column C) and A3, F3 (row 3).
    state = deal("2H 3H 4S 5H 6H")
    play(state, "place C1", "place A3", "place C5", "place B1", "place D5")
    state.apply("reveal C3")
    assert state.view(0)["table"]["score_pile"] == ["2♥", "3♥"]
    assert at(state, "C1") is None and at(state, "A3") is None  # scored spaces are free
    assert at(state, "C5") == "4♠"  # another suit stays
    assert (at(state, "B1"), at(state, "D5")) == ("5♥", "6♥")  # other lines: not scored
    assert "revealed Q♥ at C3: scored 2♥ (C1), 3♥ (A3)" in state.log


def test_a_reveal_scores_at_most_four_one_per_space() -> None:
    state = deal("2D 3D 4D 5D 6D")
    play(state, "place B1", "place B5", "place A3", "place F3", "reveal B3")
    assert state.score == 4 and state.top == card("6D")


def test_a_row_guess_scores_at_whichever_playmate_of_its_row_matches() -> None:
    state = deal("9C")
    state.apply("place F2")  # row 2: J♥ J♠ Q♣ K♦
    play(state, "reveal B2", "reveal C2")
    assert state.score == 0 and at(state, "F2") == "9♣"
    state.apply("reveal D2")
    assert state.score == 1 and at(state, "F2") is None


def test_a_guess_placed_after_a_reveal_never_scores_for_that_playmate() -> None:
    state = deal("5H")
    state.apply("reveal C3")  # Q♥, the only heart of column C
    state.apply("place C1")
    play(state, "reveal C2", "reveal C4")  # J♠, K♣
    assert state.score == 0 and at(state, "C1") == "5♥"  # column C is done: a dead guess


def test_withdrawing_needs_the_top_card_of_the_guess_suit_and_discards_both() -> None:
    state = deal("9H 5S 2H")
    play(state, "place A2", "place B1")
    assert state.top == card("2H")
    assert [str(a) for a in state.legal_actions() if a.kind == "withdraw"] == ["withdraw A2"]
    with pytest.raises(IllegalAction, match="withdrawing 5♠ costs a spade"):
        state.apply("withdraw B1")
    state.apply("withdraw A2")
    assert at(state, "A2") is None and at(state, "B1") == "5♠"
    assert state.view(0)["table"]["discard"] == ["2♥", "9♥"]
    assert state.score == 0 and len(state.deck) == 37
    assert "withdrew 9♥ from A2 with 2♥ from the deck (both discarded)" in state.log[-1]


def test_a_withdrawn_space_takes_a_new_guess() -> None:
    state = deal("9H 2H 4C")
    play(state, "place A2", "withdraw A2", "place A2")
    assert at(state, "A2") == "4♣"


def test_with_the_deck_empty_only_reveals_remain() -> None:
    state = deal()  # the deck in suit order: every card can be placed or pay a withdrawal
    while state.deck:
        moves = state.legal_actions()
        state.apply(next((a for a in moves if a.kind == "withdraw"), moves[0]))
    assert state.step <= 40
    assert texts(state.legal_actions()) == [
        f"reveal {x}" for x in sorted(LABELS, key=lambda x: x[1])
    ]
    with pytest.raises(IllegalAction, match="the deck is empty"):
        state.apply(Action("place", (), "B1"))
    with pytest.raises(IllegalAction, match="the deck is empty"):
        state.apply(Action("withdraw", (), "B1"))


def test_the_last_reveal_ends_the_game_and_can_wait() -> None:
    state = deal("AH 2H")
    for label in LABELS[:-1]:
        state.apply(f"reveal {label}")
    assert not state.is_over
    state.apply("place E1")  # still allowed: the player decides when to reveal the last one
    assert "reveal E4" in texts(state.legal_actions())
    state.apply("reveal E4")
    assert state.is_over and state.legal_actions() == [] and state.current_player is None
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply("place B1")


# --------------------------------------------------------------------------- score and end

# Twenty cards that score four at a time: hearts for J♥ (B2), diamonds for Q♦ (B3), spades for
# K♠ (B4) and J♠ (C2), hearts for Q♥ (C3).
TWENTY = "AH 2H 3H 4H AD 2D 3D 4D AS 2S 3S 4S 5S 6S 7S 8S 5H 6H 7H 8H"
PLAN = [
    ("B1 B5 A2 F2", "B2"),
    ("B1 B5 A3 F3", "B3"),
    ("B1 B5 A4 F4", "B4"),
    ("C1 C5 A2 F2", "C2"),
    ("C1 C5 A3 F3", "C3"),
]


def play_plan(last_space: str) -> HideAndSeekState:
    state = deal(TWENTY)
    for step, (spaces, playmate) in enumerate(PLAN):
        targets = spaces.split()
        if step == len(PLAN) - 1:
            targets[-1] = last_space
        for space in targets:
            state.apply(f"place {space}")
        before = state.score
        state.apply(f"reveal {playmate}")
        assert state.score - before == sum(t != "E1" for t in targets)
    for label in LABELS:
        if not state.is_revealed(CELL_BY_LABEL[label]):
            state.apply(f"reveal {label}")
    return state


def test_a_score_of_twenty_wins() -> None:
    state = play_plan("F3")
    result = state.result
    assert state.is_over and result.won and result.score == 20.0 and result.winners == (0,)
    assert result.detail[0] == {
        "score": 20,
        "needed": 20,
        "guesses_left": 0,
        "discarded": 0,
        "left_in_deck": 20,
    }
    assert result.summary.startswith("Won: 20 cards in the score pile")
    assert "the last playmate is found: 20 cards in the score pile, won" in state.log[-1]


def test_a_score_of_nineteen_loses() -> None:
    state = play_plan("E1")  # column E hides no heart: 8♥ never scores
    result = state.result
    assert state.is_over and not result.won and result.score == 19.0 and result.winners == ()
    assert result.detail[0]["guesses_left"] == 1
    assert result.summary == "Lost: 19 cards in the score pile, 20 needed"


# --------------------------------------------------------------------------- hidden information


def test_only_the_top_card_of_the_deck_shows() -> None:
    first = deal("7S 3H 9D")
    second = deal("7S 9D 3H")
    assert first.view(0) == second.view(0) and first.view(None) == second.view(None)
    assert first.snapshot() != second.snapshot()


def test_the_view_never_shows_a_face_down_playmate() -> None:
    first = deal(playground="JH QD KS  JS QH KC  QC KH JD  KD JC QS")
    second = deal(playground="JH KS QD  JS QH KC  QC KH JD  KD JC QS")  # B3 and B4 swapped
    assert first.view(0) == second.view(0)
    first.apply("reveal B3")
    second.apply("reveal B3")
    assert first.view(0) != second.view(0)
    assert at(first, "B3") == "Q♦" and at(second, "B3") == "K♠"


def test_a_determinization_keeps_what_is_seen_and_reshuffles_the_rest() -> None:
    state = deal("7S 3H")
    play(state, "place B1", "reveal C3")
    orders, playgrounds = set(), set()
    for i in range(30):
        sample = state.determinize(0, Rng(i))
        assert sample.view(0) == state.view(0)
        assert sample.top == card("3H") and sorted(sample.deck) == sorted(state.deck)
        assert sample.cells[CELL_BY_LABEL["C3"]] == card("QH")
        orders.add(tuple(sample.deck))
        playgrounds.add(sample.cells)
    assert len(orders) == 30 and len(playgrounds) > 20


def test_the_bot_reads_only_what_the_player_sees() -> None:
    state = GAME.new_state(seed=5)
    rng = Rng(9)
    while not state.is_over:
        a = state.determinize(0, Rng(1))
        b = state.determinize(0, Rng(2))
        move = bot.choose(a, Rng(state.step))
        assert move == bot.choose(b, Rng(state.step))
        state.apply(move if rng.random() < 0.7 else rng.choice(state.legal_actions()))


def test_the_bot_scores_far_more_than_random_play() -> None:
    bot_scores, random_scores = [], []
    for seed in range(40):
        for scores, use_bot in ((bot_scores, True), (random_scores, False)):
            state = GAME.new_state(seed=seed)
            rng = Rng(seed)
            while not state.is_over:
                legal = state.legal_actions()
                state.apply(bot.choose(state, rng) if use_bot else rng.choice(legal))
            scores.append(state.score)
    assert sum(bot_scores) / 40 > 2 * sum(random_scores) / 40 + 5


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("place B1", "place B1"),
        ("b1", "place B1"),
        ("P b1", "place B1"),
        ("guess 7s b1", "place B1"),
        ("PLACE 7♠ B1", "place B1"),
        ("c3", "reveal C3"),
        ("flip c3", "reveal C3"),
        ("r C3", "reveal C3"),
        ("place b01", "place B1"),
    ],
)
def test_typed_moves(typed: str, meant: str) -> None:
    state = deal("7S")
    assert str(state.parse(typed)) == meant


def test_typed_withdrawals() -> None:
    state = deal("9H 2H")
    state.apply("place A2")
    for typed in ("withdraw A2", "w a2", "a2", "withdraw 9h a2", "withdraw 2♥ 9♥ A2"):
        assert str(state.parse(typed)) == "withdraw A2"


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("place B2", "B2 is a playmate, not a guess space"),
        ("place A1", "A1 is a corner of the playground"),
        ("place Z9", "there is no space Z9"),
        ("place 8S B1", r"only the deck's top card \(7♠\) can be placed, not 8♠"),
        ("reveal B1", "B1 is a guess space: only playmates"),
        ("withdraw A2", "there is no guess at A2 to withdraw"),
        ("jump B1", "this is not a move in this position"),
    ],
)
def test_illegal_moves_say_why(move: str, rule: str) -> None:
    state = deal("7S")
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=rule):
        state.apply(move)
    assert state.snapshot() == before


def test_revealing_twice_is_refused() -> None:
    state = deal()
    state.apply("reveal D3")
    with pytest.raises(IllegalAction, match=r"the playmate at D3 \(K♥\) is already face up"):
        state.apply("reveal D3")


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Action("sandwich", (), None), "a move is 'place SPACE'"),
        (Action("place", (), None), "None is not a space"),
        (Action("place", (), 3), "3 is not a space"),
        (Action("place", (), ("B", 1)), "is not a space"),
        (Action("place", (), "Q7"), "there is no space Q7"),
        (Action("place", (), "b1"), "written as a capital letter and a number, like B1"),
        (Action("place", (), "B1"), "a guess is exactly one card, the deck's top card 7♠"),
        (Action("place", (Card(52),), "B1"), "only the deck's top card"),
        (Action("place", (card("7S"), card("8S")), "B1"), "a guess is exactly one card"),
        (Action("place", (card("KS"),), "B1"), "not K♠"),
        (Action("reveal", (card("7S"),), "C3"), "a reveal names only the playmate's space"),
        (Action("reveal", (), "A3"), "A3 is a guess space"),
        (Action("withdraw", (card("7S"), card("9S")), "A2"), "there is no guess at A2"),
        (Action("withdraw", (), "C3"), "C3 is a playmate, not a guess space"),
        (Action("place", "7S", "B1"), "an action's cards are a tuple of cards"),
    ],
)
def test_malformed_actions_raise_illegal_action_only(action: Action, rule: str) -> None:
    state = deal("7S")
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=rule):
        state.apply(action)
    with pytest.raises(IllegalAction):
        state.describe(action)
    assert state.snapshot() == before


def test_a_withdrawal_names_its_two_cards() -> None:
    state = deal("9H 2H")
    state.apply("place A2")
    wrong = Action("withdraw", (card("2H"), card("3H")), "A2")
    with pytest.raises(IllegalAction, match="discards the deck's top card 2♥ with the guess 9♥"):
        state.apply(wrong)
    assert state.parse("withdraw A2") == Action("withdraw", (card("2H"), card("9H")), "A2")


def test_descriptions() -> None:
    state = deal("7S 9S")
    assert state.describe("place B5") == (
        "Place 7♠ from the deck as a guess at B5, the bottom end of column B; it scores when a"
        " spade in column B is revealed."
    )
    state.apply("place B5")
    assert state.describe("reveal B3") == (
        "Turn over the playmate at B3; the guesses of its suit among 7♠ at B5 score."
    )
    assert state.describe("reveal C3") == (
        "Turn over the playmate at C3; no guess waits in column C and row 3."
    )
    assert state.describe("withdraw B5") == (
        "Withdraw the guess 7♠ from B5, paying with 9♠ from the deck; both are discarded and"
        " B5 is free again."
    )
