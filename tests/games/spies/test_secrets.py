"""Secrets, rules 3.5 (Counterspies), 3.7 (control, transfer, carrying, cashing) and 5.2 (the
Cousin and Counterspies), each on a hand-built position."""

from __future__ import annotations

import pytest

from spyglass.engine import IllegalAction, Rng
from spyglass.games.spies.control import counterspy

from .helpers import moving_position, place_secrets, strengths, texts


def german_turn(spies, police=None, phase="move"):
    return moving_position(spies, police=police, phase=phase)


# Three states; original and foreign Secrets ------------------------------------------------


def test_an_own_original_at_home_is_taken_by_simply_standing_on_it() -> None:
    state = german_turn({"Ge1": "Berlin"})
    place_secrets(state, X1=("S20", "Germany", "Berlin", None))
    assert "X1 to Ge1" in texts(state)
    state.apply("X1 to Ge1")
    assert state.board.secrets["X1"].holder == "Ge1" and state.turn.action_points == 12  # free
    view = state.view(1)["table"]["secrets"][0]
    assert view["holder"] == "Ge1" and view["origin"] == "Germany" and view["face"] is None


def test_a_foreign_or_neutral_secret_needs_a_discovery_chit() -> None:
    state = german_turn({"Ge1": "Lille", "Ge2": "Brussels"})
    place_secrets(state, X1=("S20", "France", "Lille", None), X2=("S21", None, "Brussels", None))
    assert not any(" to " in m for m in texts(state))
    with pytest.raises(IllegalAction, match="Discovery"):
        state.apply("X1 to Ge1")


def test_an_enemy_controlled_secret_is_not_taken_even_at_home() -> None:
    state = german_turn({"Ge1": "Berlin", "Fr1": "Berlin"})
    place_secrets(state, X1=("S20", "Germany", "Berlin", "Fr1"))
    with pytest.raises(IllegalAction, match="enemy-controlled"):
        state.apply("X1 to Ge1")
    assert state.power_points("Germany") == 0  # enemy-controlled: it would not score


def test_one_secret_per_piece() -> None:
    state = german_turn({"Ge1": "Berlin"})
    place_secrets(
        state, X1=("S20", "Germany", "Berlin", "Ge1"), X2=("S21", "Germany", "Berlin", None)
    )
    assert "X2 to Ge1" not in texts(state)


# Carrying and transfers --------------------------------------------------------------------


def test_a_settled_original_is_guarded_not_carried() -> None:
    state = german_turn({"Ge1": "Berlin"})
    place_secrets(state, X1=("S20", "Germany", "Berlin", "Ge1"))
    state.apply("Ge1 Dresden")
    secret = state.board.secrets["X1"]
    assert (secret.place, secret.holder) == ("Berlin", None)


def test_a_spy_carries_a_foreign_secret_and_hands_it_on() -> None:
    state = german_turn({"Ge1": "Lille", "Ge2": "Brussels", "Ge3": "Antwerp"})
    place_secrets(state, X1=("S20", "France", "Lille", "Ge1"))
    state.apply("Ge1 Brussels")
    assert state.board.secrets["X1"].place == "Brussels"
    state.apply("X1 to Ge2")  # moving Ge1 into Ge2's city, then Ge2 on top of the Secret
    assert state.board.secrets["X1"].holder == "Ge2"
    state.apply("Ge2 Cologne")  # Ge1's movement is over; Ge2 moves on with the Secret
    assert state.board.secrets["X1"].place == "Cologne" and "Ge1" in state.turn.moved
    state.apply("Ge3 Brussels")
    assert "X1 to Ge3" not in texts(state)  # the Secret is in Cologne


def test_a_spy_that_has_moved_may_take_a_secret_but_not_move_it() -> None:
    state = german_turn({"Ge1": "Lille", "Ge2": "Antwerp"})
    place_secrets(state, X1=("S20", "France", "Lille", "Ge1"))
    state.apply("Ge2 Brussels")
    state.apply("Ge1 Brussels")
    state.apply("X1 to Ge2")
    assert not any(m.startswith("Ge2 ") for m in texts(state))


def test_spies_and_police_pass_secrets_while_moving_police_among_themselves_when_arranging():
    state = german_turn({"Ge1": "Cologne", "Ge2": "Berlin"}, police={"GeP1": (2, "Berlin"),
                        "GeP2": (1, "Berlin")})  # fmt: skip
    place_secrets(state, X1=("S20", "France", "Lille", None))
    state.board.secrets["X1"] = state.board.secrets["X1"].__class__(
        "X1", "S20", "France", "Lille", "Cologne", "Ge1", taken=1933
    )
    state.apply("Ge1 Berlin")
    assert {"X1 to GeP1", "X1 to GeP2", "X1 to Ge2"} <= texts(state)
    state.apply("X1 to GeP1")
    assert "X1 to GeP2" not in texts(state)  # police to police only when re-arranging
    state.apply("X1 to Ge2")  # police to spy while moving
    assert state.board.secrets["X1"].holder == "Ge2"


def test_a_recaptured_original_goes_to_police_only_in_its_starting_city() -> None:
    state = german_turn({"Ge1": "Dresden"}, police={"GeP1": (2, "Leipzig"), "GeP2": (2, "Berlin")})
    place_secrets(state, X1=("S20", "Germany", "Berlin", None))
    cls = type(state.board.secrets["X1"])
    state.board.secrets["X1"] = cls("X1", "S20", "Germany", "Berlin", "Dresden", None, loose=True)
    state.apply("X1 to Ge1")  # loose in home territory, nobody's: no Discovery needed
    state.apply("Ge1 Leipzig")
    assert state.board.secrets["X1"].place == "Leipzig"  # a loose original is carried
    assert "X1 to GeP1" not in texts(state)
    state.apply("Ge1 Berlin")
    state.apply("X1 to GeP2")
    secret = state.board.secrets["X1"]
    assert (secret.place, secret.holder, secret.loose) == ("Berlin", "GeP2", False)
    assert "X1 cash" not in texts(state)  # never an original


# Cashing -----------------------------------------------------------------------------------


def test_a_foreign_secret_is_cashed_in_the_capital_under_the_year_it_was_taken() -> None:
    state = german_turn({"Ge1": "Cologne"})
    state.year = 1934
    place_secrets(state, X1=("S29", "France", "Cologne", None))  # value 4
    state.set_holder("X1", "Ge1")  # as if discovered in 1934
    assert state.board.secrets["X1"].taken == 1934
    assert "X1 cash" not in texts(state)  # not in the capital
    state.year = 1936
    state.apply("Ge1 Berlin")
    money, held = state.bank.money["Germany"], len(state.hands.chits["Germany"])
    state.apply("X1 cash")
    secret = state.board.secrets["X1"]
    assert (secret.status, secret.record, secret.taken, secret.holder) == (
        "cashed", "Germany", 1934, None)  # fmt: skip
    assert (
        state.bank.money["Germany"] == money + 20 and len(state.hands.chits["Germany"]) == held + 1
    )
    assert state.power_points("Germany") == 4 * state.edition.record[1934]
    assert all(v["table"]["secrets"][0]["face"] == "4" for v in map(state.view, (1, None)))


def test_the_year_taken_is_the_year_it_left_its_owner() -> None:
    state = german_turn({"Ge1": "Lille", "Ge2": "Lille"})
    place_secrets(state, X1=("S29", "France", "Lille", None), X2=("S30", None, "Lille", None))
    state.year = 1935
    state.set_holder("X1", "Ge1")
    state.set_holder("X2", "Ge2")
    state.year = 1937
    state.set_holder("X1", "Ge2")  # passing between German pieces is not a new theft
    assert (state.board.secrets["X1"].taken, state.board.secrets["X2"].taken) == (1935, 1935)


# Who looks at a Secret ---------------------------------------------------------------------


def test_a_controller_looks_and_remembers() -> None:
    state = german_turn({"Ge1": "Lille"}, police={"FrP1": (3, "Lille")})
    place_secrets(state, X1=("S29", "France", "Lille", None), X2=("S01", "Britain", "London", None))
    assert state.view(3)["table"]["secrets"][0]["face"] == "4"  # France's own
    assert state.view(0)["table"]["secrets"][0]["face"] is None
    state.set_holder("X1", "Ge1")
    assert state.view(0)["table"]["secrets"][0]["face"] == "4"
    state.set_holder("X1", None)
    assert state.view(0)["table"]["secrets"][0]["face"] == "4"  # it was seen: remembered
    assert state.view(1)["table"]["secrets"][0]["face"] is None
    for k in range(5):
        assert state.determinize(0, Rng(k)).board.secrets["X1"].card == "S29"
    assert len({state.determinize(1, Rng(k)).board.secrets["X1"].card for k in range(8)}) > 1


# 3.5 and 5.2 Counterspies ------------------------------------------------------------------


def test_a_stronger_counterspy_captures_for_the_power_controlling_it() -> None:
    state = german_turn({"Ge1": "Lille"}, police={"FrP1": (3, "Lille")})
    strengths(state, Ge1=2)
    place_secrets(state, X1=("S27", "France", "Lille", "FrP1"))  # 3c3
    money = state.bank.money["France"]
    assert counterspy(state, "Ge1", "X1")
    spy = state.board.spies["Ge1"]
    assert (spy.status, spy.captor) == ("captured", "France")
    assert state.bank.money["France"] == money + 3
    assert state.board.secrets["X1"].status == "removed"
    assert state.view(1)["table"]["secrets"][0]["face"] == "3c3"  # out of play, face up


def test_an_equal_spy_is_not_captured_but_the_counterspy_goes() -> None:
    state = german_turn({"Ge1": "Lille"})
    strengths(state, Ge1=3)
    place_secrets(state, X1=("S27", "France", "Lille", None))
    assert not counterspy(state, "Ge1", "X1")
    assert (
        state.board.spies["Ge1"].status == "active"
        and state.board.secrets["X1"].status == "removed"
    )


def test_in_a_neutral_country_the_spy_goes_to_the_box_and_nobody_gains() -> None:
    state = german_turn({"Ge1": "Brussels"})
    strengths(state, Ge1=1)
    place_secrets(state, X1=("S08", None, "Brussels", None))  # 1c3
    money = dict(state.bank.money)
    assert counterspy(state, "Ge1", "X1")
    spy = state.board.spies["Ge1"]
    assert (spy.status, spy.captor) == ("captured", None)
    assert state.bank.money == money
    assert state.view(3)["table"]["spies"][0]["face"] is None  # the box is not a record


def test_a_cousin_is_never_caught_by_a_counterspy() -> None:
    state = german_turn({"Ge1": "Brussels"})
    state.board.spies["Ge1"] = type(state.board.spies["Ge1"])("Ge1", "Germany", 1, True, "Brussels")
    place_secrets(state, X1=("S08", None, "Brussels", None))
    assert not counterspy(state, "Ge1", "X1")
    assert (
        state.board.spies["Ge1"].status == "active"
        and state.board.secrets["X1"].status == "removed"
    )


def test_an_ordinary_secret_is_no_counterspy() -> None:
    state = german_turn({"Ge1": "Brussels"})
    place_secrets(state, X1=("S20", None, "Brussels", None))
    assert not counterspy(state, "Ge1", "X1") and state.board.secrets["X1"].status == "in play"


# 6.0 (the parts this slice plays) ----------------------------------------------------------


def test_captured_spies_score_their_strength_at_the_multiple_of_their_year() -> None:
    state = moving_position(
        {"Ge1": "Lille", "Ge2": "Lille"}, power="France", police={"FrP1": (3, "Lille")},
        phase="rearrange",
    )  # fmt: skip
    strengths(state, Ge1=2, Ge2=1)
    place_secrets(state)
    state.year = 1937
    state.apply("done")
    state.apply("search Ge1")
    state.apply("search Ge2")
    assert state.power_points("France") == (2 + 1) * state.edition.record[1937]
