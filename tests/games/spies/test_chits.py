"""Action Chits: rules 3.8 (on your own turn), 4.2 (answers in others' turns and the Double
Cross chain), 5.1 (spy havens) and 5.2 (Cousins), each on a hand-built position."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spyglass.engine import IllegalAction, Rng

from .helpers import (
    discard_tile,
    give,
    moving_position,
    pass_turn,
    place_secrets,
    strengths,
    texts,
)


def german_turn(spies, police=None, **faces):
    state = moving_position(spies, police=police)
    strengths(state, **faces)
    return state


def chit_moves(state) -> set[str]:
    return {str(a) for a in state.legal_actions() if a.kind == "chit"}


def cousin(state, label: str) -> None:
    state.board.spies[label] = replace(state.board.spies[label], cousin=True)


# 3.8 Costs, the cup and what the others see ------------------------------------------------


def test_a_chit_costs_pounds_and_action_points_and_goes_back_to_the_cup() -> None:
    state = german_turn({"Ge1": "Brussels"})
    place_secrets(state, X1=("S20", None, "Brussels", None))
    assert chit_moves(state) == set()  # no chit in hand
    give(state, "Germany", "Discovery")
    money, cup = state.bank.money["Germany"], len(state.hands.cup)
    assert chit_moves(state) == {"Discovery Ge1 X1"}
    state.apply("discovery ge1 x1")  # read in any case
    assert state.bank.money["Germany"] == money - 2 and state.turn.action_points == 11
    assert state.hands.chits["Germany"] == [] and len(state.hands.cup) == cup + 1
    assert state.board.secrets["X1"].holder == "Ge1" and "Ge1" in state.turn.took
    assert "Germany plays Discovery" in state.view(1)["log"][-2]  # a played chit is public


def test_chits_in_hand_are_hidden_and_redealt_for_others() -> None:
    state = german_turn({"Ge1": "Brussels"})
    give(state, "Germany", "Sanction", "Cover")
    assert state.view(0)["table"]["powers"][0]["chits"] == ["Cover", "Sanction"]
    assert state.view(1)["table"]["powers"][0]["chits"] == 2
    hands = {tuple(state.determinize(1, Rng(k)).hands.chits["Germany"]) for k in range(10)}
    assert len(hands) > 1 and all(len(h) == 2 for h in hands)
    assert state.determinize(0, Rng(3)).hands.chits["Germany"] == ["Cover", "Sanction"]


def test_too_poor_or_too_few_points_means_no_play() -> None:
    state = german_turn({"Ge1": "Lille", "Fr1": "Lille"})
    give(state, "Germany", "Sanction")
    state.bank.money["Germany"] = 3
    state.forget_legal()
    assert chit_moves(state) == set()
    with pytest.raises(IllegalAction, match="costs £4 and 2 Action Points"):
        state.apply("Sanction Ge1 Fr1")
    state.bank.money["Germany"], state.turn.action_points = 4, 1
    state.forget_legal()
    assert chit_moves(state) == set()
    state.turn.action_points = 2
    state.forget_legal()
    assert chit_moves(state) == {"Sanction Ge1 Fr1"}


def test_answers_are_not_played_on_your_own_turn() -> None:
    state = german_turn({"Ge1": "Lille"})
    give(state, "Germany", "Papers", "Intercept", "Double-Cross")
    assert chit_moves(state) == set()
    with pytest.raises(IllegalAction, match="only in answer"):
        state.apply("Intercept Ge1")


def test_no_chit_while_the_moving_spy_is_at_sea() -> None:
    state = german_turn({"Ge1": "Hamburg", "Ge2": "Berlin"})
    give(state, "Germany", "Cover")
    state.apply("Ge1 embark North-Sea")
    assert chit_moves(state) == set()


# Discovery (3.7, 3.8) ----------------------------------------------------------------------


def test_discovery_against_an_enemy_holder_needs_greater_strength() -> None:
    state = german_turn({"Ge1": "Brussels", "Fr1": "Brussels"}, Ge1=2, Fr1=2)
    place_secrets(state, X1=("S20", None, "Brussels", "Fr1"))
    give(state, "Germany", "Discovery", "Discovery")
    state.apply("Discovery Ge1 X1")
    assert state.board.secrets["X1"].holder == "Fr1"  # as strong: the holder keeps it
    assert state.view(3)["table"]["spies"][0]["face"] == "2"  # both sides saw the counters
    assert state.view(1)["table"]["spies"][0]["face"] is None
    assert state.board.duels[-1] == ("discovery", "Ge1", "Fr1", "lost")
    strengths(state, Ge1=3)
    state.forget_legal()
    state.apply("Discovery Ge1 X1")
    assert state.board.secrets["X1"].holder == "Ge1" and state.held_by("Fr1") is None
    assert state.turn.action_points == 10 and "X1" in state.board.plain


def test_discovery_is_needed_for_foreign_secrets_but_not_own_originals_at_home() -> None:
    state = german_turn({"Ge1": "Berlin", "Ge2": "Lille"})
    place_secrets(state, X1=("S20", "Germany", "Berlin", None), X2=("S21", "France", "Lille", None))
    give(state, "Germany", "Discovery")
    assert chit_moves(state) == {"Discovery Ge2 X2"}
    assert "X1 to Ge1" in texts(state)


def test_a_discovery_springs_a_counterspy_which_an_escape_may_avoid() -> None:
    state = german_turn({"Ge1": "Lille"}, Ge1=2)
    place_secrets(state, X1=("S27", "France", "Lille", None))  # 3c3, a French original
    give(state, "Germany", "Discovery", "Escape")
    give(state, "France", "Double-Cross")
    state.apply("Discovery Ge1 X1")
    assert state.view(1)["table"]["secrets"][0]["face"] == "3c3"  # uncovered, face up
    assert state.current_player == 0  # Germany may answer the Counterspy
    assert texts(state) == {"Escape", "pass"}
    state.apply("Escape")
    assert state.turn.action_points == 12 - 1 - 2  # Discovery 1, Escape 2 in its own turn
    assert state.current_player == 3 and texts(state) == {"Double-Cross", "pass"}
    state.apply("Double-Cross")  # the captor reverses the Escape: the comparison happens
    spy = state.board.spies["Ge1"]
    assert (spy.status, spy.captor) == ("captured", "France")
    assert state.board.secrets["X1"].status == "removed"


def test_an_escaped_counterspy_still_leaves_play() -> None:
    state = german_turn({"Ge1": "Lille"}, Ge1=1)
    place_secrets(state, X1=("S27", "France", "Lille", None))
    give(state, "Germany", "Discovery", "Escape")
    state.apply("Discovery Ge1 X1")
    state.apply("Escape")  # France holds no chit: nobody may reverse it
    assert (
        state.board.spies["Ge1"].status == "active"
        and state.board.secrets["X1"].status == "removed"
    )
    assert not state.pending and state.contest is None


def test_cover_answers_a_discovery_of_the_secret_the_spy_holds() -> None:
    state = german_turn({"Ge1": "Brussels", "Fr1": "Brussels"}, Ge1=3, Fr1=1)
    place_secrets(state, X1=("S20", None, "Brussels", "Fr1"))
    give(state, "Germany", "Discovery", "Discovery")
    give(state, "France", "Cover")
    state.apply("Discovery Ge1 X1")
    assert state.current_player == 3 and texts(state) == {"Cover", "pass"}
    state.apply("Cover")
    assert state.board.secrets["X1"].holder == "Fr1" and state.board.covered == {"Fr1": "France"}
    assert state.bank.money["France"] == 25 - 2
    assert "Discovery Ge1 X1" not in chit_moves(state)  # under Cover until France's turn


# Double Cross (4.2) ------------------------------------------------------------------------


def test_a_double_cross_reverses_a_discovery_and_another_reverses_it_back() -> None:
    state = german_turn({"Ge1": "Brussels", "Fr1": "Brussels"}, Ge1=3, Fr1=1)
    place_secrets(state, X1=("S20", None, "Brussels", "Fr1"))
    give(state, "Germany", "Discovery", "Double-Cross")
    give(state, "France", "Double-Cross")
    state.apply("Discovery Ge1 X1")
    assert state.current_player == 3 and texts(state) == {"pass"}  # no Cover to play
    state.apply("pass")
    assert state.current_player == 3 and texts(state) == {"Double-Cross", "pass"}
    assert state.board.secrets["X1"].holder == "Fr1"  # nothing happens until the chain is over
    state.apply("Double-Cross")
    assert state.current_player == 0 and texts(state) == {"Double-Cross", "pass"}
    state.apply("Double-Cross")
    # France holds no more chits: it is not asked again; two crosses leave the Discovery.
    assert state.board.secrets["X1"].holder == "Ge1"
    assert state.bank.money["Germany"] == 30 - 2 - 3 and state.bank.money["France"] == 25 - 3
    assert state.turn.action_points == 11  # a Double Cross costs no Action Point


def test_one_double_cross_that_stands_reverses_the_discovery() -> None:
    state = german_turn({"Ge1": "Brussels", "Fr1": "Brussels"}, Ge1=3, Fr1=1)
    place_secrets(state, X1=("S20", None, "Brussels", "Fr1"))
    give(state, "Germany", "Discovery", "Double-Cross")
    give(state, "France", "Double-Cross")
    state.apply("Discovery Ge1 X1")
    state.apply("pass")  # no Cover
    state.apply("Double-Cross")
    state.apply("pass")  # Germany lets the reversal stand
    assert state.board.secrets["X1"].holder == "Fr1"
    assert (
        state.sees_secret(0, state.board.secrets["X1"]) is False
    )  # a reversed Discovery sees nothing


def test_only_the_two_powers_involved_may_double_cross() -> None:
    state = german_turn({"Ge1": "Lille", "Fr1": "Lille", "It1": "Lille"}, Ge1=2, Fr1=1)
    give(state, "Germany", "Sanction")
    give(state, "Italy", "Double-Cross")
    state.apply("Sanction Ge1 Fr1")
    assert not state.pending  # France holds nothing; Italy is no party to it
    assert state.board.spies["Fr1"].status == "sanctioned"


# Sanction (3.8, 5.2) -----------------------------------------------------------------------


def test_a_sanction_kills_a_spy_no_stronger_and_scores_a_marker() -> None:
    state = german_turn({"Ge1": "Lille", "Fr1": "Lille"}, Ge1=2, Fr1=2)
    place_secrets(state)  # no Secrets: only the marker scores
    state.year = 1934
    give(state, "Germany", "Sanction")
    state.apply("Sanction Ge1 Fr1")
    assert state.turn.action_points == 10 and state.bank.money["Germany"] == 30 - 4
    spy = state.board.spies["Fr1"]
    assert spy.status == "sanctioned" and state.board.markers == [("Germany", "Fr1", 2, 1934)]
    assert state.power_points("Germany") == 2 * 7
    assert state.view(1)["table"]["spies"][1]["face"] == "2"  # the Sanctioned box is face up
    assert "Fr1" not in {a.target[0] for a in state.legal_actions() if a.kind == "move"}


def test_a_weaker_assassin_fails() -> None:
    state = german_turn({"Ge1": "Lille", "Fr1": "Lille"}, Ge1=1, Fr1=2)
    give(state, "Germany", "Sanction")
    state.apply("Sanction Ge1 Fr1")
    assert state.board.spies["Fr1"].status == "active" and state.board.markers == []
    assert state.board.duels == [("sanction", "Ge1", "Fr1", "failed")]


def test_cover_and_double_cross_answer_a_sanction() -> None:
    state = german_turn({"Ge1": "Lille", "Fr1": "Lille"}, Ge1=3, Fr1=1)
    give(state, "Germany", "Sanction", "Sanction")
    give(state, "France", "Cover", "Double-Cross")
    state.apply("Sanction Ge1 Fr1")
    assert state.current_player == 3 and texts(state) == {"Cover", "pass"}
    state.apply("pass")
    assert state.current_player == 3 and texts(state) == {"Double-Cross", "pass"}
    state.apply("Double-Cross")
    state.apply("pass")  # Germany holds no Double Cross
    assert state.board.spies["Fr1"].status == "active" and state.board.markers == []
    state.apply("Sanction Ge1 Fr1")
    state.apply("Cover")
    assert state.board.spies["Fr1"].status == "active" and "Fr1" in state.board.covered
    assert "Fr1 takes cover until France's next turn" in state.view(1)["log"][-2]
    assert chit_moves(state) == set()  # a spy under Cover cannot be Sanctioned


def test_the_assassin_may_take_its_victims_secret_without_discovery() -> None:
    state = german_turn({"Ge1": "Brussels", "Fr1": "Brussels"}, Ge1=2, Fr1=1)
    place_secrets(state, X1=("S20", None, "Brussels", "Fr1"))
    give(state, "Germany", "Sanction")
    state.apply("Sanction Ge1 Fr1")
    assert state.current_player == 0 and texts(state) == {"X1 to Ge1", "pass"}
    assert state.board.secrets["X1"].holder is None
    state.apply("X1 to Ge1")
    assert state.board.secrets["X1"].holder == "Ge1" and state.bank.money["Germany"] == 30 - 4


# 5.1 Spy havens ----------------------------------------------------------------------------


def test_no_discovery_drop_or_sanction_in_a_spy_haven() -> None:
    state = german_turn({"Ge1": "Geneva", "Ge2": "Berlin", "Fr1": "Geneva"})
    place_secrets(state, X1=("S20", None, "Geneva", "Ge1"), X2=("S21", None, "Geneva", None))
    give(state, "Germany", "Discovery", "Drop", "Sanction", "Cover")
    assert chit_moves(state) == {"Cover Ge1", "Cover Ge2"}
    with pytest.raises(IllegalAction, match="spy haven"):
        state.apply("Sanction Ge1 Fr1")
    for label in ("Ge1", "Fr1"):  # the same in Lille
        state.board.spies[label] = replace(state.board.spies[label], place="Lille")
    for label in ("X1", "X2"):
        state.board.secrets[label] = replace(state.board.secrets[label], place="Lille")
    state.forget_legal()
    assert chit_moves(state) == {"Cover Ge1", "Cover Ge2", "Drop X1 Ge2", "Sanction Ge1 Fr1"}
    state.apply("Drop X1 Ge2")
    assert "Discovery Ge1 X2" in chit_moves(state)  # Ge1 holds nothing now


# 5.2 Cousins -------------------------------------------------------------------------------


def test_a_spy_that_sanctions_a_cousin_dies_instead_without_answer() -> None:
    state = german_turn({"Ge1": "Lille", "Fr1": "Lille"}, Ge1=3, Fr1=2)
    cousin(state, "Fr1")
    state.year = 1935
    give(state, "Germany", "Sanction", "Double-Cross")
    give(state, "France", "Double-Cross")
    state.apply("Sanction Ge1 Fr1")
    # France is asked for Cover (it could hold one, as far as the others know) but holds none.
    assert state.current_player == 3 and texts(state) == {"pass"}
    state.apply("pass")
    assert (
        state.board.spies["Ge1"].status == "sanctioned"
        and state.board.spies["Fr1"].status == "active"
    )
    assert state.board.markers == [("France", "Ge1", 3, 1935)] and not state.pending
    assert state.view(1)["table"]["spies"][1]["face"] == "cousin 2"  # shown to everyone


def test_only_a_cousin_kills_a_cousin_and_it_never_returns() -> None:
    state = german_turn({"Ge1": "Lille", "Fr1": "Lille"}, Ge1=2, Fr1=2)
    cousin(state, "Ge1")
    cousin(state, "Fr1")
    give(state, "Germany", "Sanction")
    state.apply("Sanction Ge1 Fr1")
    assert state.board.spies["Fr1"].status == "sanctioned"
    state.power_index = 3  # France's turn, with a Recruit
    give(state, "France", "Recruit")
    assert "Recruit Fr1" not in chit_moves(state)


def test_a_cousin_is_never_caught_by_a_discovered_counterspy() -> None:
    state = german_turn({"Ge1": "Lille"}, Ge1=1)
    cousin(state, "Ge1")
    place_secrets(state, X1=("S27", "France", "Lille", None))  # 3c3
    give(state, "Germany", "Discovery")
    state.apply("Discovery Ge1 X1")
    assert (
        state.board.spies["Ge1"].status == "active"
        and state.board.secrets["X1"].status == "removed"
    )
    assert state.board.duels[-1] == ("counterspy", "Ge1", "X1", "cousin")


# Escape and Recruit ------------------------------------------------------------------------


def test_an_escape_frees_a_captured_spy_to_the_capital_unless_double_crossed() -> None:
    state = german_turn({"Ge1": "Lille", "Ge2": "Lille"})
    for label in ("Ge1", "Ge2"):
        spy = state.board.spies[label]
        state.board.spies[label] = replace(spy, status="captured", captor="France", year=1933)
    give(state, "Germany", "Escape", "Escape")
    give(state, "France", "Double-Cross")
    before = state.power_points("France")
    state.apply("Escape Ge1")
    assert state.current_player == 3
    state.apply("Double-Cross")
    assert state.current_player == 0 and texts(state) == {"pass"}  # it holds no Double Cross
    state.apply("pass")
    assert state.board.spies["Ge1"].status == "captured"
    state.apply("Escape Ge2")  # France's hand is empty: not asked
    spy = state.board.spies["Ge2"]
    assert (spy.status, spy.place, spy.captor) == ("active", "Berlin", None)
    assert state.power_points("France") == before - 2 * 8
    assert state.turn.action_points == 12 - 4


def test_a_spy_in_the_neutral_box_may_escape_too() -> None:
    state = german_turn({"Ge1": "Brussels"})
    state.board.spies["Ge1"] = replace(state.board.spies["Ge1"], status="captured", year=1933)
    give(state, "Germany", "Escape")
    state.apply("Escape Ge1")
    assert (
        state.board.spies["Ge1"].status == "active" and state.board.spies["Ge1"].place == "Berlin"
    )


def test_a_recruit_brings_a_sanctioned_spy_back_and_the_marker_stays() -> None:
    state = german_turn({"Ge1": "Lille"})
    state.board.spies["Ge1"] = replace(state.board.spies["Ge1"], status="sanctioned", year=1933)
    state.board.markers = [("France", "Ge1", 2, 1933)]
    place_secrets(state)
    give(state, "Germany", "Recruit")
    state.apply("Recruit Ge1")
    spy = state.board.spies["Ge1"]
    assert (spy.status, spy.place) == ("active", "Berlin")
    assert state.turn.action_points == 10 and state.bank.money["Germany"] == 30 - 5
    assert state.power_points("France") == 2 * 8


# Cover -------------------------------------------------------------------------------------


def test_cover_shields_a_spy_from_searches_until_its_next_turn() -> None:
    state = german_turn({"Ge1": "Lille"}, police={"FrP1": (3, "Lille")}, Ge1=1)
    give(state, "Germany", "Cover")
    state.apply("Cover Ge1")
    assert state.turn.action_points == 11 and state.board.covered == {"Ge1": "Germany"}
    state.apply("end")
    pass_turn(state)  # Italy
    pass_turn(state)  # Russia
    assert state.power == "France"
    discard_tile(state)
    state.apply("done")
    assert state.phase == "move"  # nobody to search for
    state.apply("end")
    pass_turn(state)  # Britain
    assert state.power == "Germany" and state.board.covered == {}


# Answers to searches (3.4, 4.1, 4.2) -------------------------------------------------------


def test_papers_avoid_an_arrival_search_in_your_own_turn() -> None:
    state = german_turn({"Ge1": "Brussels"}, police={"FrP1": (3, "Lille")}, Ge1=1)
    give(state, "Germany", "Papers", "Escape")
    state.apply("Ge1 Lille")
    state.apply("search Ge1")  # France
    assert state.current_player == 0 and texts(state) == {"Papers", "Escape", "pass"}
    assert state.describe("Escape").startswith("Play Escape (£3 and 2 Action Points)")
    state.apply("Papers")
    assert state.board.spies["Ge1"].status == "active" and state.board.comparisons == []
    assert state.turn.action_points == 11 and state.bank.money["Germany"] == 30 - 1


def test_an_escape_in_anothers_turn_costs_only_money() -> None:
    state = moving_position(
        {"Ge1": "Lille"}, power="France", police={"FrP1": (3, "Lille")}, phase="rearrange"
    )
    give(state, "Germany", "Escape")
    state.apply("done")
    state.apply("search Ge1")
    assert state.current_player == 0
    state.apply("Escape")
    assert (
        state.bank.money["Germany"] == 30 - 3 and state.turn.action_points == 11
    )  # France's point
    assert state.board.spies["Ge1"].status == "active" and "Ge1" in state.turn.searched


def test_a_power_is_asked_whenever_it_might_answer_so_asking_reveals_nothing() -> None:
    state = moving_position(
        {"Ge1": "Lille", "Ge2": "Lille"}, power="France", police={"FrP1": (3, "Lille")},
        phase="rearrange",
    )  # fmt: skip
    strengths(state, Ge1=1, Ge2=1)
    give(state, "Germany", "Recruit")  # no use against a search
    state.apply("done")
    state.apply("search Ge1")
    assert state.current_player == 0 and texts(state) == {"pass"}
    state.apply("pass")
    assert state.board.spies["Ge1"].status == "captured"
    state.bank.money["Germany"] = 0  # now it could pay for nothing: not asked
    state.apply("search Ge2")
    assert state.board.spies["Ge2"].status == "captured"


# Drop and Intercept (4.2) ------------------------------------------------------------------


def test_a_drop_sends_a_secret_to_a_spy_anywhere_or_to_police_in_the_capital() -> None:
    state = german_turn({"Ge1": "Brussels", "Ge2": "Vienna"}, police={"GeP1": (2, "Berlin")})
    place_secrets(state, X1=("S20", None, "Brussels", "Ge1"))
    give(state, "Germany", "Drop", "Drop")
    assert chit_moves(state) == {"Drop X1 Ge2", "Drop X1 GeP1"}
    state.apply("Drop X1 Ge2")
    secret = state.board.secrets["X1"]
    assert (secret.place, secret.holder) == ("Vienna", "Ge2")
    assert state.turn.action_points == 11 and state.bank.money["Germany"] == 30 - 3
    state.apply("Drop X1 GeP1")
    assert (state.board.secrets["X1"].place, state.board.secrets["X1"].holder) == ("Berlin", "GeP1")


def test_a_settled_original_is_never_dropped() -> None:
    state = german_turn({"Ge1": "Munich", "Ge2": "Vienna"})
    place_secrets(state, X1=("S20", "Germany", "Munich", "Ge1"))
    give(state, "Germany", "Drop")
    assert chit_moves(state) == set()


def test_an_intercept_in_the_drops_city_takes_the_secret_asked_in_turn_order() -> None:
    state = german_turn(
        {"Ge1": "Brussels", "Ge2": "Vienna", "Fr1": "Brussels", "It1": "Brussels"},
        police={},
    )
    place_secrets(state, X1=("S20", None, "Brussels", "Ge1"))
    give(state, "Germany", "Drop")
    give(state, "Italy", "Cover")
    give(state, "France", "Intercept")
    state.apply("Drop X1 Ge2")
    assert state.current_player == 1 and texts(state) == {"pass"}  # Italy first
    state.apply("pass")
    assert state.current_player == 3 and texts(state) == {"Intercept Fr1", "pass"}
    state.apply("Intercept Fr1")
    secret = state.board.secrets["X1"]
    assert (secret.place, secret.holder) == ("Brussels", "Fr1")
    assert state.bank.money["France"] == 25 - 2 and not state.pending


# 7.0 A seat's two powers -------------------------------------------------------------------


def test_a_seats_two_powers_never_sanction_or_rob_each_other() -> None:
    state = german_turn({"Ge1": "Lille", "It1": "Lille"})
    state.players = 4  # seat 0 plays Germany and Italy
    place_secrets(state, X1=("S20", "Italy", "Lille", None))
    give(state, "Germany", "Sanction", "Discovery")
    assert chit_moves(state) == set()


# Hidden information around answers ---------------------------------------------------------


def test_the_deciding_seat_keeps_its_hand_and_choices_in_every_determinization() -> None:
    state = german_turn({"Ge1": "Lille", "Fr1": "Lille"}, Ge1=3, Fr1=1)
    give(state, "Germany", "Sanction")
    give(state, "France", "Cover", "Papers")
    state.apply("Sanction Ge1 Fr1")
    assert state.current_player == 3
    assert state.view(3)["table"]["contest"]["question"].startswith("France may answer")
    for k in range(5):
        guess = state.determinize(3, Rng(k))
        assert guess.hands.chits["France"] == ["Cover", "Papers"]
        assert [str(a) for a in guess.legal_actions()] == ["Cover", "pass"]
    hands = {tuple(state.determinize(0, Rng(k)).hands.chits["France"]) for k in range(10)}
    assert len(hands) > 1  # Germany does not know what France holds


def test_the_outcome_of_a_sanction_narrows_every_determinization() -> None:
    state = german_turn(
        {"Ge1": "Lille", "Ge2": "Berlin", "Fr1": "Lille", "Fr2": "Paris", "Fr3": "Lyon"},
        Ge1=1, Ge2=3, Fr1=3, Fr2=1,
    )  # fmt: skip
    cousin(state, "Fr3")  # strength 2
    give(state, "Germany", "Sanction")
    state.apply("Sanction Ge1 Fr1")
    assert state.board.duels == [("sanction", "Ge1", "Fr1", "failed")]
    others = set()
    for k in range(20):
        guess = state.determinize(1, Rng(k))  # Italy saw neither counter
        attacker, victim = guess.board.spies["Ge1"], guess.board.spies["Fr1"]
        assert not (victim.cousin and not attacker.cousin)  # else the assassin had died
        assert attacker.strength < victim.strength
        others.add(guess.board.spies["Fr2"].face)
    assert others == {"1", "cousin 2"}  # the pieces outside the comparison still vary
    assert state.determinize(3, Rng(1)).board.spies["Ge1"].strength == 1  # France saw it


def test_a_police_unit_may_intercept_but_not_one_holding_a_secret() -> None:
    state = german_turn(
        {"Ge1": "Lille", "Ge2": "Vienna"}, police={"FrP1": (1, "Lille"), "FrP2": (2, "Lille")}
    )
    place_secrets(state, X1=("S20", None, "Lille", "Ge1"), X2=("S21", "France", "Lille", "FrP2"))
    give(state, "Germany", "Drop")
    give(state, "France", "Intercept")
    state.apply("Drop X1 Ge2")
    assert state.current_player == 3 and texts(state) == {"Intercept FrP1", "pass"}
    state.apply("pass")
    secret = state.board.secrets["X1"]
    assert (secret.place, secret.holder) == ("Vienna", "Ge2")
