"""Espionage: the deal, the turn, answering police, rejections, the end of a city and of the game,
and what each seat sees. Scoring clauses are in test_espionage_scoring.py."""

import json
from functools import cache

import pytest

import spyglass
from spyglass.components import parse_card, parse_cards, standard_deck
from spyglass.engine import IllegalAction, Rng, RulesError
from spyglass.games.espionage.meanings import THRESHOLDS, Role
from spyglass.games.espionage.rules import EspionageState
from spyglass.games.espionage.scoring import Play

GAME = spyglass.load("espionage")


@cache
def seed_with_first(players: int, first: int) -> int:
    """A seed whose random first player is ``first``."""
    for seed in range(500):
        if GAME.new_state(players=players, seed=seed).first == first:
            return seed
    raise AssertionError("no seed found")


def city(
    roles: str,
    hands: list[str],
    draw: str = "",
    players: int = 4,
    first: int = 0,
    game: spyglass.Game = GAME,
) -> EspionageState:
    """A stacked first city: ``roles`` from the first player leftwards, then each hand (five
    cards, dealt one at a time around the table), then the draw pile (top first), then the rest
    of the deck."""
    n = players
    role_cards = parse_cards(roles)
    hand_cards = [parse_cards(h) for h in hands]
    order = list(role_cards)
    for k in range(5):
        order += [hand_cards[j][k] for j in range(n)]
    order += parse_cards(draw)
    contents = standard_deck(decks=1 if n <= 4 else 2)
    order += [c for c in contents if c not in order]
    state = game.new_state(players=n, seed=seed_with_first(n, first), deck=order)
    assert isinstance(state, EspionageState)
    return state


# Four players, seat 0 first: 0 spy (7♥), 1 spy master (Q♦), 2 agent (4♠), 3 civilian (5♣).
ROLES = "7H QD 4S 5C"
HANDS = ["9H 3D AS 6C 8D", "2H 4C 10H JD KH", "KS 10S 3S 9S 2C", "5H 6H 7D 8C 3C"]


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def test_one_deck_for_four_two_for_five() -> None:
    assert len(GAME.new_state(players=4, seed=1).cards()) == 52
    big = GAME.new_state(players=5, seed=1)
    assert len(big.cards()) == 104 and len(set(big.cards())) == 104
    assert any(str(c).endswith("#2") for c in big.cards())
    with pytest.raises(RulesError, match="3–7 players"):
        GAME.new_state(players=2)


def test_deal_roles_then_five_cards_from_the_first_player() -> None:
    state = city(ROLES, HANDS, first=0)
    assert [state.role(s) for s in range(4)] == [
        Role.SPY,
        Role.SPY_MASTER,
        Role.COUNTER_ESPIONAGE,
        Role.CIVILIAN,
    ]
    assert sorted(names(state.hands[0])) == sorted(["9♥", "3♦", "A♠", "6♣", "8♦"])
    assert len(state.draw) == 52 - 4 - 20 and state.current_player == 0


def test_the_deal_starts_with_the_first_player() -> None:
    state = city("7H QD 4S 5C", HANDS, first=2)
    # The first role card goes to seat 2, then 3, 0, 1.
    assert names(state.role_cards) == ["4♠", "5♣", "7♥", "Q♦"]
    assert sorted(names(state.hands[2])) == sorted(["9♥", "3♦", "A♠", "6♣", "8♦"])
    assert state.current_player == 2


def test_first_player_is_random_and_recorded() -> None:
    firsts = {GAME.new_state(players=5, seed=s).first for s in range(60)}
    assert firsts == set(range(5))


def test_a_card_goes_on_another_player_then_the_giver_draws() -> None:
    state = city(ROLES, HANDS, draw="KC")
    targets = {a.target for a in state.legal_actions()}
    assert targets == {1, 2, 3}  # never oneself
    state.apply("9H on 1")
    assert "K♣" in names(state.hands[0]) and len(state.hands[0]) == 5
    assert state.plays == [Play(1, 0, 1, parse_card("9H"))]
    assert state.current_player == 1


def test_police_must_be_answered_next_turn_with_the_highest_secret() -> None:
    state = city(ROLES, HANDS, draw="2D 3H 4H 5D")
    state.apply("9H on 1")
    state.apply("2H on 0")
    state.apply("KS on 3")  # police from the agent on the civilian
    state.apply("3C on 1")  # the civilian then draws the 5♦
    state.apply("3D on 2")
    state.apply("4C on 2")
    state.apply("3S on 0")
    assert state.current_player == 3 and state.obligations == {3: [2]}
    legal = [str(a) for a in state.legal_actions()]
    assert legal == ["7♦ on 2"]  # hand 5♥ 6♥ 7♦ 8♣ 5♦: the highest secret is the 7♦
    with pytest.raises(IllegalAction, match="you must play on seat 2"):
        state.apply("5H on 1")
    with pytest.raises(IllegalAction, match="highest red card"):
        state.apply("5H on 2")
    state.apply("7D on 2")


def test_without_secrets_the_answer_is_any_card_on_the_sender() -> None:
    hands = ["9H 3D AS 6C 8D", "2H 4C 10H JD KH", "KS 10S 3S 9S 2C", "AC 4C 7C 8C 3C"]
    hands[1] = "2H 4D 10H JD KH"
    state = city(ROLES, hands, draw="9C 10C JC QC")
    for move in ["9H on 1", "2H on 0", "KS on 3", "3C on 1", "3D on 2", "4D on 2", "3S on 0"]:
        state.apply(move)
    legal = sorted(str(a) for a in state.legal_actions())
    assert all(m.endswith("on 2") for m in legal) and len(legal) == 5


def test_several_senders_let_the_receiver_choose() -> None:
    # Seats 1 and 2 both send police to seat 3 in turn 1.
    hands = ["9H 3D AS 6C 8D", "JS 4C 10H JD KH", "KS 10S 3S 9S 2C", "5H 6H 7D 8C 3C"]
    state = city("7H QD 4S 5C", hands, draw="2D 3H 4H 5D")
    for move in ["9H on 1", "JS on 3", "KS on 3", "3C on 1", "3D on 2", "4C on 2", "3S on 0"]:
        state.apply(move)
    assert sorted(str(a) for a in state.legal_actions()) == ["7♦ on 1", "7♦ on 2"]


def test_police_from_anyone_obliges_but_arrests_nobody() -> None:
    hands = ["9H 3D AS 6C 8D", "JS 4C 10H JD KH", "KS 10S 3S 9S 2C", "5H 6H 7D 8C 3C"]
    state = city(ROLES, hands, draw="2D 3H 4H 5D")
    state.apply("9H on 1")
    state.apply("JS on 0")  # the spy master's police on the spy
    for move in ["3S on 1", "3C on 1"]:
        state.apply(move)
    assert state.obligations == {0: [1]}
    assert {a.target for a in state.legal_actions()} == {1}


def test_a_rejection_bars_secrets_to_the_rejecter() -> None:
    state = city(ROLES, HANDS, draw="2D 3H 4H 5D")
    state.apply("AS on 1")  # the spy rejects the spy master
    # The spy master may no longer play secrets (10♥, J♦, K♥) on the spy, but may play
    # rejections and black cards on it, and secrets on anyone else.
    on_spy = {str(a) for a in state.legal_actions() if a.target == 0}
    assert on_spy == {"2♥ on 0", "4♣ on 0"}
    assert "K♥ on 2" in {str(a) for a in state.legal_actions()}
    with pytest.raises(IllegalAction, match="seat 0 rejected you"):
        state.apply("KH on 0")


def test_the_answer_overrides_a_rejection_by_the_sender() -> None:
    # The agent (seat 2) first rejects the civilian (seat 3), then sends it police: the civilian
    # may not play secrets on seat 2, yet must answer it with its highest secret.
    hands = ["9H 3D AS 6C 8D", "2H 4C 10H JD KH", "2S 10S 3S 9S KS", "5H 6H 7D 8C 3C"]
    state = city(ROLES, hands, draw="2D 3H 4H 5D 4D 2C")
    for move in ["9H on 1", "2H on 0", "2S on 3", "3C on 1"]:
        state.apply(move)
    assert (2, 3) in state.rejected
    for move in ["6C on 1", "4C on 0", "KS on 3", "5H on 1"]:  # seat 1 rejected seat 0
        state.apply(move)
    for move in ["3D on 2", "10H on 2", "3S on 0"]:
        state.apply(move)
    assert [str(a) for a in state.legal_actions()] == ["7♦ on 2"]


def test_rejected_by_everyone_with_only_secrets_plays_on_oneself() -> None:
    hands = ["AH 3D AS 6C 8D", "2H 4C 10H JD KH", "KS 10S 3S 9S 2C", "5H 6H 7D 8H 9D"]
    state = city(ROLES, hands)
    for move in ["AH on 3", "2H on 3", "2C on 3"]:
        state.apply(move)
    # Seat 3 holds only secrets and has been rejected by all three others.
    assert sorted(str(a) for a in state.legal_actions()) == [
        "5♥ on 3",
        "6♥ on 3",
        "7♦ on 3",
        "8♥ on 3",
        "9♦ on 3",
    ]
    state.apply("9D on 3")
    assert state.plays[-1] == Play(1, 3, 3, parse_card("9D"))
    assert "seat 3 plays a card on themselves" in state.view(0)["log"]


def test_the_city_ends_after_the_turn_in_which_the_pile_runs_out() -> None:
    # Three players: 52 - 3 roles - 15 cards in hand leaves 34 to draw. Eleven full turns draw
    # 33; in turn 12 the first player draws the last card and the other two play without one.
    state = GAME.new_state(players=3, seed=seed_with_first(3, 0))
    rng = Rng(0)
    hands_in_last_turn = []
    while state.city == 1:
        if state.turn == 12:
            hands_in_last_turn.append(len(state.hands[state.current_player]))
        state.apply(rng.choice(state.legal_actions()))
    plays = state.reports[0].plays
    assert len(plays) == 36 and max(p.turn for p in plays) == 12
    assert [p.turn for p in plays].count(12) == 3
    assert hands_in_last_turn == [5, 5, 5]  # every player starts the last turn with five
    assert state.log.count("the draw pile is empty: this is the city's last turn") == 1


def test_walking_the_dog_scores_and_starts_the_next_city() -> None:
    state = GAME.new_state(players=4, seed=3)
    rng = Rng(1)
    while state.city == 1:
        state.apply(rng.choice(state.legal_actions()))
    report = state.reports[0]
    assert state.scores == list(report.after)
    assert state.city == 2 and state.turn == 1 and len(state.plays) == 0
    assert all(len(h) == 5 for h in state.hands)
    view = state.view(1)["table"]
    assert view["last_city"]["city"] == 1 and len(view["last_city"]["roles"]) == 4
    assert view["walk"]["steps"][0]["title"] == "City 1: the roles"
    # The next first player leads on points.
    assert state.scores[state.first] == max(state.scores)


@pytest.mark.parametrize(
    ("scores", "last_first", "expected"),
    [
        ([10, 30, 30, 5], 0, 1),
        ([10, 30, 30, 5], 1, 2),
        ([30, 30, 30, 30], 3, 0),
        ([30, 30, 30, 30], 2, 3),
        ([30, 0, 0, 30], 0, 3),
        ([30, 0, 0, 0], 0, 0),
    ],
)
def test_first_player_tie_rule(scores: list[int], last_first: int, expected: int) -> None:
    state = GAME.new_state(players=4, seed=1)
    state.scores, state.first = scores, last_first
    assert state._next_first() == expected


def test_thresholds_and_options() -> None:
    assert THRESHOLDS == {3: 240, 4: 160, 5: 300, 6: 240, 7: 180}
    for n, points in THRESHOLDS.items():
        assert GAME.new_state(players=n, seed=1).threshold == points
    long = spyglass.load("espionage", game_length="long").new_state(players=4, seed=1)
    short = spyglass.load("espionage", game_length="short").new_state(players=4, seed=1)
    assert long.threshold == 320 and short.threshold == 80
    assert long.unit == short.unit == 160  # bonuses and penalties keep the table's points


def test_the_game_ends_after_the_first_city_someone_passes_the_threshold() -> None:
    game = spyglass.load("espionage", game_length="short")
    state = game.new_state(players=3, seed=5)
    rng = Rng(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    reports = state.reports
    assert max(reports[-1].after) > state.threshold or state.city == 25
    assert all(max(r.after) <= state.threshold for r in reports[:-1])
    result = state.result
    assert set(result.winners) == {s for s in range(3) if state.scores[s] == max(state.scores)}
    assert result.scores == tuple(float(s) for s in state.scores)


def test_equal_points_tie() -> None:
    state = GAME.new_state(players=3, seed=5)
    state.scores = [50, 50, 10]
    state.over = True
    assert state.result.winners == (0, 1) and "tie" in state.result.summary


def test_city_limit_ends_the_game() -> None:
    game = spyglass.load("espionage", city_limit=1)
    state = game.new_state(players=4, seed=2)
    rng = Rng(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert state.city == 1 and len(state.reports) == 1
    assert state.result.detail[0]["ended_by"] == "city limit"
    assert state.result.summary.endswith(
        "after 1 city (ended by the city limit of 1: nobody passed the 160 points needed)"
    )
    assert state.log[-1] == "the city limit (1 city) ends the game before anyone passed 160 points"


@pytest.mark.parametrize(("length", "cap"), [("short", 2), ("normal", 3), ("long", 6)])
def test_the_city_limit_scales_with_the_game_length(length: str, cap: int) -> None:
    game = spyglass.load("espionage", city_limit=3, game_length=length)
    per_city = spyglass.load("espionage", city_limit=1).max_actions(4)
    assert game.max_actions(4) == per_city * cap
    state = game.new_state(players=4, seed=2)
    assert state.view(0)["table"]["city_limit"] == cap
    rng = Rng(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    ended = "points" if max(state.scores) > state.threshold else "city limit"
    assert state.result.detail[0]["ended_by"] == ended
    assert state.city == cap or ended == "points"


def test_the_table_shows_the_city_and_what_ends_the_game() -> None:
    state = spyglass.load("espionage", game_length="long").new_state(players=3, seed=7015)
    goal = "the game ends after the city in which someone passes 480 points (long game)"
    assert state.view(None)["table"]["goal"] == f"city 1 · {goal}, or after city 100"
    assert any(region.key == "goal" for region in GAME.spec.layout)


def test_views_show_own_role_and_hand_and_hide_the_rest() -> None:
    state = city(ROLES, HANDS, draw="2D 3H 4H 5D")
    state.apply("9H on 1")
    state.apply("10H on 3")
    seat0, seat1, seat3, public = (state.view(s) for s in (0, 1, 3, None))
    assert seat0["table"]["role"] == "spy (7♥)" and seat1["table"]["role"] == "spy master (Q♦)"
    assert public["table"]["role"] is None and public["table"]["hand"] == []
    assert seat0["table"]["plays"][0] == [1, 0, 1, "9♥"]
    assert seat3["table"]["plays"][0] == [1, 0, 1, None]  # seen face down
    assert seat3["table"]["plays"][1] == [1, 1, 3, "10♥"]
    for other in (seat0, public):
        blob = json.dumps(other)
        assert "Q♦" not in blob and "10♥" not in blob  # seat 1's role, seat 1 -> 3's card
    assert seat0["table"]["mats"]["cells"][0][1] == "0:9♥"
    assert seat3["table"]["mats"]["cells"][0][1] == "0:▒▒"


def test_police_face_up_option() -> None:
    game = spyglass.load("espionage", police_face_up=True)
    state = city(ROLES, HANDS, draw="2D 3H 4H 5D", game=game)
    for move in ["9H on 1", "2H on 0", "KS on 3", "3C on 1"]:
        state.apply(move)
    public = state.view(None)["table"]["plays"]
    assert public == [[1, 0, 1, None], [1, 1, 0, None], [1, 2, 3, "K♠"], [1, 3, 1, None]]
    assert "seat 2 plays K♠ on seat 3" in state.view(0)["log"]
    for seed in range(30):
        # Seat 0 did not see the 3♣ go from seat 3 to seat 1, but knows it was not police.
        hidden = state.determinize(0, Rng(seed)).plays[3].card
        assert not (hidden.is_black and hidden.rank >= 10)


def test_determinization_keeps_what_the_seat_knows() -> None:
    state = city(ROLES, HANDS, draw="2D 3H 4H 5D")
    for move in ["9H on 1", "2H on 0", "KS on 3", "3C on 1"]:
        state.apply(move)
    for seed in range(5):
        guess = state.determinize(0, Rng(seed))
        assert guess.view(0) == state.view(0)
        assert guess.role_cards[0] == state.role_cards[0] and guess.hands[0] == state.hands[0]
        assert guess.plays[0].card == parse_card("9H") and guess.plays[1].card == parse_card("2H")
    roles = {tuple(state.determinize(0, Rng(s)).role_cards[1:]) for s in range(10)}
    assert len(roles) > 1


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("9H on 0", "you may play on yourself only"),
        ("KC on 1", "K♣ is not in your hand"),
        ("9H on 7", "there is no seat 7"),
        ("9H", "'7H on 2'"),
    ],
)
def test_illegal_moves_say_why(move: str, rule: str) -> None:
    state = city(ROLES, HANDS)
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)


def test_notation_variants() -> None:
    state = city(ROLES, HANDS)
    assert state.parse("9h on 1") == state.parse("9♥ on 1") == state.parse("9H 1")
    assert state.parse("9h>1") == state.parse("9H to 1")
    assert state.describe("9H on 1") == "Play 9♥ (a secret worth 9) face down on seat 1."
    assert state.describe("AS on 1") == "Play A♠ (a rejection) face down on seat 1."


def test_played_at_the_terminal_with_bots_and_the_walk() -> None:
    from typer.testing import CliRunner

    from spyglass.cli.main import app

    moves = "\n".join(["1"] * 40 + [""] * 20 + ["quit"]) + "\n"
    result = CliRunner().invoke(
        app,
        [
            "play",
            "espionage",
            "--players",
            "3",
            "--seed",
            "4",
            "-o",
            "city_limit=1",
            "--seat",
            "1=heuristic",
            "--seat",
            "2=random",
        ],
        input=moves,
        env={"COLUMNS": "160"},
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "seat 1 (heuristic) · seat 1 plays" in out and "seat 2 (random) · seat 2 plays" in out
    assert "Walking back the dog: city 1" in out and "1 of " in out
    assert "Game over" in out and "after 1 city (ended by the city limit" in out
