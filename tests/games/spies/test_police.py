"""Police, rules 3.3 (re-arrangement), 3.4 (searches on your turn), 3.5 (capture) and 4.1
(searches of arriving spies), each on a hand-built position."""

from __future__ import annotations

import pytest

from spyglass.engine import IllegalAction, Rng
from spyglass.games.spies import flow

from .helpers import (
    discard_tile,
    finish_setup,
    moving_position,
    new,
    place_secrets,
    rig_die,
    strengths,
    texts,
)


def police_position(**kwargs):
    return moving_position(phase="rearrange", **kwargs)


# 3.0 The order of the turn -----------------------------------------------------------------


def test_a_turn_runs_police_then_searches_then_movement() -> None:
    state = finish_setup(new(players=5, seed=2))
    assert (state.phase, state.power) == ("tile", "Germany")
    discard_tile(state)
    assert (state.phase, state.power) == ("rearrange", "Germany")
    assert all(a.kind in ("relocate", "control", "done") for a in state.legal_actions())
    state.apply("done")
    assert state.phase in ("search", "move")
    while state.phase == "search":
        state.apply("done")
    assert state.phase == "move" and state.turn.action_points == 12
    state.apply("end")
    assert (state.phase, state.power) == ("tile", "Italy")


def test_a_power_without_police_on_the_map_goes_straight_on() -> None:
    state = moving_position({"Ge1": "Berlin"}, phase="move")
    state.apply("end")
    discard_tile(state)
    assert (state.power, state.phase) == ("Italy", "move")  # nothing to re-arrange or search


# 3.3 Re-arranging police -------------------------------------------------------------------


def test_police_go_to_police_symbols_and_the_capital_for_free() -> None:
    state = police_position(spies={}, police={"FrP1": (2, "Lille")}, power="France")
    moves = {a.target[1] for a in state.legal_actions() if a.kind == "relocate"}
    assert {"Paris", "Bordeaux", "Lyon", "Marseille", "Strasbourg"} <= moves
    assert {"Algiers", "Tunis", "Damascus"} <= moves  # overseas, no symbol needed
    assert not {"Le-Havre", "Brest", "Lille", "Berlin", "Geneva"} & moves
    state.apply("FrP1 Paris")
    assert state.board.police["FrP1"].city == "Paris" and state.turn.action_points == 12
    with pytest.raises(IllegalAction, match="each unit moves once"):
        state.apply("FrP1 Lyon")


def test_two_per_city_and_one_overseas() -> None:
    state = police_position(
        spies={},
        police={"FrP1": (2, "Paris"), "FrP2": (2, "Paris"), "FrP3": (1, "Lyon"),
                "FrP4": (1, "Algiers")},
        power="France",
    )  # fmt: skip
    state.apply("FrP4 Tunis")  # moving within overseas territory is fine
    assert "FrP3 Algiers" not in texts(state)  # one unit overseas at most
    # Paris may hold three for a moment, while a unit there has yet to move: a swap or a
    # rotation between full cities can be made one unit at a time.
    state.apply("FrP3 Paris")
    assert "done" not in texts(state)
    with pytest.raises(IllegalAction, match="limits"):
        state.apply("done")
    state.apply("FrP1 Lyon")
    assert "done" in texts(state)
    assert "FrP2 Lyon" in texts(state)  # Lyon has room for one more
    state.apply("FrP2 Lyon")
    # Now Paris holds one moved unit and Lyon two moved units: nobody may join Lyon.
    assert not any(m.endswith(" Lyon") for m in texts(state))
    state.apply("done")
    assert state.phase == "move" and state.turn.action_points == 12
    cities = {u.label: u.city for u in state.board.police.values()}
    assert cities == {"FrP1": "Lyon", "FrP2": "Lyon", "FrP3": "Paris", "FrP4": "Tunis"}


def test_a_swap_between_full_cities() -> None:
    state = police_position(
        spies={},
        police={"FrP1": (3, "Paris"), "FrP2": (2, "Paris"), "FrP3": (1, "Lyon"),
                "FrP4": (1, "Lyon")},
        power="France",
    )  # fmt: skip
    state.apply("FrP1 Lyon")
    state.apply("FrP3 Paris")
    state.apply("done")
    assert {u.label for u in state.board.police.values() if u.city == "Lyon"} == {"FrP1", "FrP4"}


def test_police_pass_secrets_between_them_but_a_secret_never_moves_city() -> None:
    state = police_position(
        spies={}, police={"FrP1": (2, "Lyon"), "FrP2": (1, "Lyon")}, power="France"
    )
    place_secrets(state, X1=("S30", "France", "Lyon", "FrP1"))
    assert "X1 to FrP2" in texts(state)
    state.apply("X1 to FrP2")
    assert state.board.secrets["X1"].holder == "FrP2"
    state.apply("FrP2 Paris")
    assert state.board.secrets["X1"].place == "Lyon" and state.board.secrets["X1"].holder is None
    assert "stays in Lyon, uncontrolled" in state.log[-1]
    # FrP1 had it from the start and has taken control of nothing this turn: it may take it
    # back (an original Secret in its starting city); then it may take nothing else this turn.
    state.apply("X1 to FrP1")
    assert state.board.secrets["X1"].holder == "FrP1" and "FrP1" in state.turn.took


# 3.4 Searches on your turn -----------------------------------------------------------------


def search_position(**faces: int):
    state = moving_position(
        {"Fr1": "Lyon", "Ge1": "Lille", "Ge2": "Lille", "It1": "Lyon"},
        power="France",
        police={"FrP1": (1, "Lille"), "FrP2": (2, "Lille"), "FrP3": (2, "Lyon")},
        phase="rearrange",
    )
    strengths(state, **faces)
    state.apply("done")
    return state


def test_searching_costs_one_action_point_per_city_not_per_spy() -> None:
    state = search_position(Ge1=3, Ge2=1, It1=3)
    assert state.phase == "search"
    assert texts(state) == {"search Ge1", "search Ge2", "search It1", "done"}  # not Fr1
    state.apply("search Ge1")
    assert state.turn.action_points == 11
    state.apply("search Ge2")
    assert state.turn.action_points == 11  # the same city: no further point
    state.apply("search It1")
    assert state.turn.action_points == 10
    assert texts(state) == {"done"}  # each spy once a turn


def test_police_capture_only_when_strictly_stronger_both_units_combined() -> None:
    state = search_position(Ge1=3, Ge2=4 - 1, It1=2)  # Lille police 1+2 = 3
    state.apply("search Ge1")
    assert state.board.spies["Ge1"].status == "active"
    assert "strength 3 against the spy's 3: no effect" in state.log[-1]
    state.apply("search It1")  # Lyon: 2 against 2
    assert state.board.spies["It1"].status == "active"
    state = search_position(Ge1=2, Ge2=1, It1=1)
    state.apply("search Ge2")
    assert state.board.spies["Ge2"].status == "captured"


def test_a_search_may_be_left_out() -> None:
    state = search_position(Ge1=1, Ge2=1, It1=1)
    state.apply("done")
    assert state.phase == "move" and state.turn.action_points == 12
    assert all(s.status == "active" for s in state.board.spies.values())


def test_no_new_city_without_an_action_point() -> None:
    state = search_position(Ge1=3, Ge2=3, It1=3)
    state.turn.action_points = 0
    flow.enter(state, flow.begin_searches)
    assert state.phase == "move"  # nothing to search for without a point
    state = search_position(Ge1=3, Ge2=3, It1=3)
    state.apply("search Ge1")
    state.turn.action_points = 0
    state.forget_legal()
    assert texts(state) == {"search Ge2", "done"}  # Lille is paid for already


def test_a_comparison_shows_the_counters_to_both_sides_only() -> None:
    state = search_position(Ge1=3, Ge2=1, It1=1)  # seats: Ge 0, It 1, Ru 2, Fr 3, Br 4
    state.apply("search Ge1")
    german = state.view(0)["table"]
    french = state.view(3)["table"]
    italian = state.view(1)["table"]
    lille = {u["label"]: u["strength"] for u in german["police"]}
    assert lille["FrP1"] == 1 and lille["FrP2"] == 2 and lille["FrP3"] is None
    assert next(s for s in french["spies"] if s["label"] == "Ge1")["face"] == "3"
    assert next(s for s in french["spies"] if s["label"] == "Ge2")["face"] is None
    assert next(s for s in italian["spies"] if s["label"] == "Ge1")["face"] is None
    assert all(u["strength"] is None for u in italian["police"])
    assert italian["searches"] == [{"police": ["FrP1", "FrP2"], "spy": "Ge1", "captured": False}]
    assert "strength" not in state.view(1)["log"][-1]  # the others see the outcome only
    for k in range(5):  # what was shown stays as it was in every determinization
        guess = state.determinize(0, Rng(k))
        assert (guess.board.police["FrP1"].strength, guess.board.police["FrP2"].strength) == (1, 2)
        guess = state.determinize(3, Rng(k))
        assert guess.board.spies["Ge1"].strength == 3


def test_determinizations_keep_the_public_outcome_of_searches() -> None:
    state = search_position(Ge1=3, Ge2=1, It1=1)
    state.apply("search Ge1")  # 1+2 against 3: no effect, seen by everyone
    state.apply("search Ge2")  # 1+2 against 1: captured
    for k in range(20):
        guess = state.determinize(1, Rng(k))  # Italy saw neither face
        force = guess.board.police["FrP1"].strength + guess.board.police["FrP2"].strength
        assert force <= guess.board.spies["Ge1"].strength
    assert state.view(1)["table"]["spies"][2]["face"] == "1"  # a captured spy lies face up


# 3.5 Capture -------------------------------------------------------------------------------


def test_a_capture_goes_on_the_record_with_three_pounds_and_a_chit() -> None:
    state = search_position(Ge1=1, Ge2=1, It1=1)
    state.year = 1935
    money, held = state.bank.money["France"], len(state.hands.chits["France"])
    cup = len(state.hands.cup)
    state.apply("search Ge1")
    spy = state.board.spies["Ge1"]
    assert (spy.status, spy.captor, spy.year) == ("captured", "France", 1935)
    assert state.bank.money["France"] == money + 3
    assert len(state.hands.chits["France"]) == held + 1 and len(state.hands.cup) == cup - 1
    assert isinstance(state.view(3)["table"]["powers"][3]["chits"], list)
    assert state.view(0)["table"]["powers"][3]["chits"] == held + 1  # hidden: a count
    assert state.power_points("France") >= 1 * state.edition.record[1935]
    assert "Ge1" not in {a.target[0] for a in state.legal_actions() if a.kind == "move"}


def test_a_captured_spy_leaves_its_secret_in_the_city() -> None:
    state = search_position(Ge1=1, Ge2=3, It1=3)
    place_secrets(state, X1=("S20", "France", "Lille", "Ge1"))
    state.apply("search Ge1")
    secret = state.board.secrets["X1"]
    assert secret.holder is None and secret.place == "Lille"


def test_more_than_ten_chits_returns_the_surplus_by_choice() -> None:
    state = search_position(Ge1=1, Ge2=3, It1=3)
    while len(state.hands.chits["France"]) < 10:  # from the cup, so that no chit is made up
        state.hands.chits["France"].append(state.hands.cup.pop())
    state.hands.chits["France"].sort()
    state.apply("search Ge1")
    assert len(state.hands.chits["France"]) == 11
    assert state.current_player == 3
    hand = state.hands.chits["France"]
    assert texts(state) == {f"return {c}" for c in hand}
    assert "held" not in state.view(0)["log"][-1]
    state.apply(f"return {hand[0]}")
    assert len(state.hands.chits["France"]) == 10 and state.phase == "search"


# 4.1 Searches of arriving spies ------------------------------------------------------------


def arrival_position():
    state = moving_position(
        {"Ge1": "Brussels", "Ge2": "Paris"},
        police={"FrP1": (2, "Lille"), "FrP2": (1, "Paris")},
    )
    strengths(state, Ge1=1, Ge2=1)
    return state


def test_an_arriving_spy_may_be_searched_by_the_other_seat_at_no_cost() -> None:
    state = arrival_position()
    state.apply("Ge1 Lille")
    assert state.current_player == 3  # France decides now, in Germany's turn
    assert texts(state) == {"search Ge1", "pass"}
    state.apply("search Ge1")  # 2 against 1
    assert state.board.spies["Ge1"].captor == "France"
    assert state.current_player == 0 and state.turn.action_points == 11
    assert "Ge1" in state.turn.moved  # its movement is over


def test_each_city_entered_brings_a_search_and_a_pass_lets_it_go() -> None:
    state = arrival_position()
    state.apply("Ge1 Lille")
    state.apply("pass")
    assert state.current_player == 0
    state.apply("Ge1 Paris")
    assert texts(state) == {"search Ge1", "pass"}
    state.apply("search Ge1")  # 1 against 1: no effect
    assert state.board.spies["Ge1"].status == "active"
    state.apply("Ge1 Lille")  # back again: another search
    assert state.current_player == 3


def test_a_spy_that_has_not_moved_is_not_searched_in_another_turn() -> None:
    state = arrival_position()
    state.apply("Ge1 Antwerp")
    assert state.current_player == 0  # no French police there; Ge2 in Paris is left alone
    assert not state.pending


def test_a_seats_two_powers_never_search_each_other() -> None:
    state = moving_position({"It1": "Venice"}, power="Italy", police={"GeP1": (3, "Munich")})
    state.players = 4  # seat 0 plays Germany and Italy
    state.apply("It1 Munich")
    assert not state.pending and state.current_player == 0


def test_landing_at_a_port_brings_a_search() -> None:
    state = moving_position({"Ge1": "Kiel"}, police={"BrP1": (2, "London")})
    rig_die(state, 3)
    state.apply("Ge1 embark Baltic")
    state.apply("Ge1 sail North-Sea")
    assert not state.pending  # at sea: no police
    state.apply("Ge1 land London")
    assert state.current_player == 4 and texts(state) == {"search Ge1", "pass"}


def test_with_two_players_russia_searches_for_whoever_does_not_play_it_that_year() -> None:
    state = moving_position({"Ge1": "Warsaw"}, police={"RuP1": (3, "Minsk")}, year=1934)
    state.players = 2
    state.apply("Ge1 Minsk")
    assert state.current_player == 1  # Russia is seat 1's in 1934
    state.apply("search Ge1")
    assert state.board.spies["Ge1"].captor == "Russia"
    state = moving_position({"Ge1": "Warsaw"}, police={"RuP1": (3, "Minsk")}, year=1935)
    state.players = 2
    state.apply("Ge1 Minsk")
    assert not state.pending  # in 1935 seat 0 plays Russia and Germany alike
