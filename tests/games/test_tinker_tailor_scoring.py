"""Tinker Tailor: end scoring (set charts capped at 8, collections of all five kinds, money at
half rounded up), the tie-breaks and the score breakdown."""

import pytest

from spyglass.engine import Rng
from spyglass.games.tinker_tailor import scoring
from spyglass.games.tinker_tailor.cards import HAND_SIZE, parse_card
from tests.games.tinker_tailor_tables import GAME


def hand_of(text: str) -> list[int]:
    """A hand from 'bread*3 gems 5' (a count after '*')."""
    counts = [0] * HAND_SIZE
    for token in text.split():
        name, _, times = token.partition("*")
        counts[parse_card(name)] += int(times or 1)
    return counts


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("bread*3", 3),  # the rulebook's examples
        ("bread*8", 18),
        ("bread*10", 18),
        ("gems*8", 90),
        ("gems*12", 90),
        ("fish", 1),
        ("cloth*4", 10),
        ("wine*7", 33),
        ("", 0),
    ],
)
def test_set_charts_stop_at_eight(text: str, points: int) -> None:
    assert scoring.total(hand_of(text)) == points


def test_each_collection_of_all_five_kinds_scores_ten_and_cards_count_twice() -> None:
    one = hand_of("bread fish cloth wine gems")
    assert scoring.collections(one) == 1
    assert scoring.total(one) == 1 + 1 + 2 + 2 + 3 + 10
    two = hand_of("bread*3 fish*2 cloth*2 wine*2 gems*2")
    assert scoring.collections(two) == 2
    assert scoring.total(two) == 3 + 3 + 4 + 5 + 7 + 20
    assert scoring.collections(hand_of("bread*5 fish*5 cloth*5 wine*5")) == 0


def test_money_scores_half_its_total_face_value_rounded_up() -> None:
    assert scoring.money_points(hand_of("1")) == 1
    assert scoring.money_points(hand_of("1 1 1")) == 2
    assert scoring.money_points(hand_of("5 4")) == 5
    assert scoring.money_points(hand_of("5 3 2")) == 5
    assert scoring.total(hand_of("bread*3 3")) == 3 + 2


def test_ties_go_to_most_gems_then_wine_cloth_fish_bread() -> None:
    # Equal points each time; the first hand wins on the first kind in which they differ.
    cases = [
        (hand_of("gems fish*2"), hand_of("wine cloth 1 1 1"), (0,)),
        (hand_of("wine bread*2"), hand_of("cloth*2"), (0,)),
        (hand_of("cloth fish"), hand_of("fish*2"), (0,)),
        (hand_of("fish 1"), hand_of("bread*2"), (0,)),
        (hand_of("bread*2 1"), hand_of("bread*2 1"), (0, 1)),
    ]
    for first, second, winners in cases:
        assert scoring.total(first) == scoring.total(second), (first, second)
        assert scoring.winners([first, second]) == winners
        assert scoring.winners([second, first]) == tuple(sorted(1 - w for w in winners))


def test_the_most_points_wins_before_any_tie_break() -> None:
    rich, gems = hand_of("bread*8"), hand_of("gems*3")
    assert scoring.winners([gems, rich]) == (1,)


def test_the_breakdown_names_each_category() -> None:
    detail = scoring.breakdown(hand_of("bread*3 gems*2 fish cloth wine 5 2"))
    assert detail == {
        "total": 3 + 7 + 1 + 2 + 2 + 10 + 4,
        "sets": "bread ×3: 3, fish ×1: 1, cloth ×1: 2, wine ×1: 2, gems ×2: 7",
        "set_points": 15,
        "collections": 1,
        "collection_points": 10,
        "money": 7,
        "money_cards": 2,
        "money_points": 4,
        "tie_break": "2 gems 1 wine 1 cloth 1 fish 3 bread",
    }


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_result_scores_every_hand_and_names_the_winners(players: int) -> None:
    state = GAME.new_state(players=players, seed=13)
    rng = Rng(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    result = state.result
    assert result is not None
    assert result.scores == tuple(float(scoring.total(h)) for h in state.hands)
    assert result.winners == scoring.winners(state.hands)
    assert f"{int(max(result.scores))} points" in result.summary
    assert state.current_player is None and state.legal_actions() == []
