"""Syndicate: the rulebook's examples with stacked decks, and one test per rule."""

import pytest

import spyglass
from spyglass.components import parse_cards, standard_deck
from spyglass.engine import IllegalAction, Rng
from spyglass.games.syndicate.rules import SyndicateState, fitting_digits, value

GAME = spyglass.load("syndicate")
NUMBER_CARDS = [c for c in standard_deck() if c.rank <= 10]


def deal(r5: str, r4: str = "", r3: str = "", r2: str = "", r1: str = "", left: str = ""):
    """A stacked deal: the named cards head each column, the rest fill in a fixed order."""
    named = parse_cards(" ".join([r5, r4, r3, r2, r1, left]))
    assert len(set(named)) == len(named)
    fill = iter(c for c in NUMBER_CARDS if c not in named)
    deck = []
    for text, size in ((r5, 9), (r4, 7), (r3, 5), (r2, 3), (r1, 1), (left, 15)):
        column = parse_cards(text)
        deck += column + [next(fill) for _ in range(size - len(column))]
    state = GAME.new_state(seed=0, deck=deck)
    assert isinstance(state, SyndicateState)
    return state


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def test_deal_columns_and_choosing_three_first_members() -> None:
    state = deal(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S",
        "AH 2H 3H 4H 5H 6H 7H",
        "AD 2D 3D 4D 5D",
        "6D 7D 8D",
        "9D",
        "10S 10H 10D 10C AC 2C 3C 4C 5C 6C 7C 8C 9C 8H 9H",
    )
    assert names(state.candidates[5]) == ["A♠", "2♠", "3♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠"]
    assert names(state.candidates[1]) == ["9♦"]
    assert len(state.leftover) == 15
    assert [str(a) for a in state.legal_actions()][:2] == ["pick 10♠", "pick 10♥"]
    assert all(a.kind == "pick" for a in state.legal_actions())
    state.apply("pick 10S")
    state.apply("10h")  # the bare card works while choosing
    assert len(state.legal_actions()) == 13
    state.apply("pick AC")
    assert names(state.members[5]) == ["10♠", "10♥", "A♣"]
    assert len(state.removed) == 12 and state.leftover == []
    assert all(a.kind == "promote" for a in state.legal_actions())


def test_rulebook_setup_example_offers_exactly_the_nine_and_the_ten() -> None:
    # Members 6♣ 5♠ 4♠. Promoting 6♣ leaves 5 and 4: 5+4 = 9, 5×4 = 20 -> 0.
    state = deal("9H 10S 2D 3D 7D 8D 2H 3H 7H", left="6C 5S 4S")
    for card in ("6C", "5S", "4S"):
        state.apply(f"pick {card}")
    six = parse_cards("6C")[0]
    replacements = {str(a.cards[1]) for a in state.legal_actions() if a.cards[0] == six}
    assert replacements == {"9♥", "10♠"}
    state.apply("6C m 9H")
    assert names(state.members[5]) == ["9♥", "5♠", "4♠"] and names(state.members[4]) == ["6♣"]


def test_digits_ace_is_one_and_ten_is_zero() -> None:
    ace, ten, nine = parse_cards("AS 10S 9S")
    assert (value(ace), value(ten), value(nine)) == (1, 0, 9)
    assert fitting_digits(ace, ten) == {1, 0}  # 1+0 = 1, 1×0 = 0
    assert fitting_digits(nine, nine) == {8, 1}  # 18 -> 8, 81 -> 1
    state = deal("AH 10H 5D 6D 7D 8D 2H 3H 4H", left="AS 10S 9S")
    for card in ("AS", "10S", "9S"):
        state.apply(f"pick {card}")
    nine_moves = {str(a.cards[1]) for a in state.legal_actions() if a.cards[0] == nine}
    assert nine_moves == {"A♥", "10♥"}


def test_only_a_rank_of_exactly_three_members_promotes() -> None:
    state = deal("9H 10S 2D 3D 7D 8D 2H 3H 7H", "AH 2C", left="6C 5S 4S")
    for card in ("6C", "5S", "4S"):
        state.apply(f"pick {card}")
    state.apply("6C m 9H")  # rank 4 now has one member
    ranks = {state._rank_of_member(a.cards[0]) for a in state.legal_actions()}
    assert ranks == {5}
    with pytest.raises(IllegalAction, match="rank 4 has 1 members"):
        state.apply("6C m AH")


def test_destination_member_or_candidate() -> None:
    state = deal("9H 10S 2D 3D 7D 8D 2H 3H 7H", left="6C 5S 4S")
    for card in ("6C", "5S", "4S"):
        state.apply(f"pick {card}")
    to_candidate = state.clone()
    to_candidate.apply("6C c 9H")
    assert names(to_candidate.candidates[4])[-1] == "6♣" and to_candidate.members[4] == []
    state.apply("6C m 9H")
    assert names(state.members[4]) == ["6♣"]


def full_rank_four() -> SyndicateState:
    """Rank 4 holds three members and rank 5 can promote a fourth."""
    state = deal("6H 9H 4C 2C 5S 7H 8H 7C 8C", left="5D 3S 3C")
    for move in ("pick 5D", "pick 3S", "pick 3C", "5D m 6H", "3S m 9H", "3C m 4C"):
        state.apply(move)
    return state


def test_a_fourth_member_means_a_sacrifice_of_any_of_the_four() -> None:
    state = full_rank_four()
    assert names(state.members[4]) == ["5♦", "3♠", "3♣"]
    # Members 6♥ 9♥ 4♣; promoting 4♣ leaves 6 and 9: 15 -> 5 or 54 -> 4 (5♠ fits).
    options = sorted(str(a) for a in state.legal_actions() if str(a).startswith("4♣"))
    assert options == [
        "4♣ c 5♠",
        "4♣ m 5♠ sac 3♠",
        "4♣ m 5♠ sac 3♣",
        "4♣ m 5♠ sac 4♣",
        "4♣ m 5♠ sac 5♦",
    ]
    with pytest.raises(IllegalAction, match="name one to sacrifice"):
        state.apply("4C m 5S")
    newcomer = state.clone()
    newcomer.apply("4C m 5S sac 4C")
    assert names(newcomer.members[4]) == ["5♦", "3♠", "3♣"]
    assert names(newcomer.sacrificed) == ["4♣"]
    state.apply("4C m 5S sac 3S")
    assert names(state.members[4]) == ["5♦", "3♣", "4♣"] and names(state.sacrificed) == ["3♠"]


def test_stuck_without_a_fitting_replacement_loses() -> None:
    # Three fives: 5+5 = 10 -> 0 and 5×5 = 25 -> 5; no candidate ends in 0 or 5.
    state = deal("AS 2S 3S 4S 6S 7S 8S 9S AH", left="5S 5H 5D")
    state.apply("pick 5S")
    state.apply("pick 5H")
    assert not state.is_over
    state.apply("pick 5D")
    assert state.is_over and state.legal_actions() == []
    result = state.result
    assert result.won is False and result.score is None
    assert result.summary == "Lost: stuck with members up to rank 5 (0 sacrificed)"
    assert state.log[-1] == "no promotion has a fitting replacement: stuck, the game is lost"


# The rulebook's endgame, reached from a stacked deal by twenty legal moves. Its copy of the
# illustration scrambles some suits; the ranks and the arithmetic of every step are the book's.
ENDGAME_DEAL = {
    "r5": "6H 9H 4C",
    "r4": "6S 9S 4S 5C 4D",
    "r3": "9C 9D 7C 3H 7S",
    "r2": "5H 4H",
    "r1": "8S",
    "left": "5D 3S 3C",
}
TO_THE_ENDGAME = [
    "pick 5D",
    "pick 3S",
    "pick 3C",
    "5D m 6H",
    "3S m 9H",
    "3C m 4C",  # rank 5 fills rank 4
    "5D m 6S",
    "3S m 9S",
    "3C m 4S",  # rank 4 fills rank 3
    "5D m 9C",
    "9C m 9D",
    "3S m 7C",  # rank 3 fills rank 2
    "3S m 5H",
    "5D m 4H",  # rank 2 sends 3♠ and 5♦ to rank 1
    "3C m 3H sac 4H",  # rank 3 sends 3♣ up; rank 2 sacrifices 4♥
]


def test_rulebook_endgame_move_for_move() -> None:
    state = deal(**ENDGAME_DEAL)
    for move in TO_THE_ENDGAME:
        state.apply(move)
    assert names(state.members[4]) == ["6♠", "9♠", "4♠"]
    assert names(state.members[3]) == ["9♦", "7♣", "3♥"]
    assert names(state.members[2]) == ["9♣", "5♥", "3♣"]
    assert names(state.members[1]) == ["3♠", "5♦"] and names(state.candidates[1]) == ["8♠"]

    # 1. 4♠ from rank 4 to rank 3 candidate; 5♣ replaces it (9 + 6 = 15).
    assert state.describe("4S c 5C").endswith("5♣ replaces it (6+9=15).")
    state.apply("4S c 5C")
    # 2. 5♣ to rank 3 member, sacrificing 7♣; 4♦ replaces it (9 × 6 = 54).
    state.apply("5C m 4D sac 7C")
    assert names(state.sacrificed)[-1] == "7♣"
    # 3. 5♣ from rank 3 to rank 2 candidate; 7♠ replaces it (9 × 3 = 27).
    state.apply("5C c 7S")
    # 4. 3♣ from rank 2 to rank 1 member; 5♣ replaces it (9 × 5 = 45).
    state.apply("3C m 5C")
    assert names(state.members[1]) == ["3♠", "5♦", "3♣"]
    # 5. 3♣ out of rank 1; 8♠ replaces it (5 + 3 = 8): the game is won.
    assert not state.is_over
    state.apply("3C out 8S")
    result = state.result
    assert state.is_over and result.won and result.score == 2  # 4♥ earlier, 7♣ here
    assert result.detail[0]["promoted_out"] == "3♣"
    assert names(state.members[1]) == ["3♠", "5♦", "8♠"]


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("4S c 7H", "must end in 5 (6+9) or 4 (6×9)"),  # 7♥ is a spare rank-4 candidate
        ("4S c 2C", "2♣ is not a candidate of rank 4"),
        ("4S x 5C", "the destination is m"),
        ("4S m 5C", "name one to sacrifice"),
        ("AC c 5C", "A♣ is not a member of any rank"),
        ("3S out 8S", "rank 1 has 2 members; only a rank of exactly three promotes"),
        ("pick 2C", "the first members are already chosen"),
    ],
)
def test_illegal_promotions_say_why(move: str, rule: str) -> None:
    state = deal(**ENDGAME_DEAL)
    for step in TO_THE_ENDGAME:
        state.apply(step)
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)


def test_rank_one_promotes_only_out() -> None:
    state = deal(**ENDGAME_DEAL)
    for step in [*TO_THE_ENDGAME, "4S c 5C", "5C m 4D sac 7C", "5C c 7S", "3C m 5C"]:
        state.apply(step)
    assert {a.target for a in state.legal_actions() if a.cards[0] in state.members[1]} == {"out"}
    with pytest.raises(IllegalAction, match="can only be promoted out"):
        state.apply("3C m 8S")
    with pytest.raises(IllegalAction, match="7♥ is not a candidate of rank 1"):
        state.apply("3C out 7H")


def test_everything_is_visible() -> None:
    state = deal(**ENDGAME_DEAL)
    view = state.view(0)["table"]
    assert view["leftover"][:3] == ["5♦", "3♠", "3♣"]
    assert [r["title"] for r in view["ranks"]] == ["R5", "R4", "R3", "R2", "R1"]
    assert state.determinize(0, Rng(4)).snapshot()["table"] == state.snapshot()["table"]
