"""Spy movement, rules 3.1, 3.6 and 3.61, on hand-built positions."""

from __future__ import annotations

import pytest

from spyglass.engine import IllegalAction

from .helpers import moving_position, rig_die, texts


def test_rail_and_air_moves_cost_one_action_point_and_one_space() -> None:
    state = moving_position({"Ge1": "Berlin"})
    moves = texts(state)
    assert {"Ge1 Dresden", "Ge1 Warsaw", "Ge1 Vienna", "Ge1 Konigsberg"} <= moves
    assert "Ge1 Paris" not in moves  # no line joins Berlin and Paris
    state.apply("Ge1 Dresden")
    assert state.board.spies["Ge1"].place == "Dresden"
    assert (state.turn.action_points, state.turn.spaces, state.turn.moving) == (11, 1, "Ge1")
    assert state.log[-1] == "Germany moves Ge1 by rail from Dresden to Prague".replace(
        "from Dresden to Prague", "from Berlin to Dresden"
    )
    state.apply("Ge1 Prague")
    state.apply("Ge1 Paris")  # CIDNA: Prague-Paris by air
    assert state.log[-1] == "Germany moves Ge1 by air from Prague to Paris"
    assert state.turn.action_points == 9


def test_five_spaces_per_spy() -> None:
    state = moving_position({"Ge1": "Berlin", "Ge2": "Hamburg"})
    for city in ("Leipzig", "Nuremberg", "Munich", "Vienna", "Budapest"):
        state.apply(f"Ge1 {city}")
    assert not any(t.startswith("Ge1") for t in texts(state))
    assert "Ge2 Kiel" in texts(state) and state.turn.action_points == 7
    with pytest.raises(IllegalAction, match="one spy at a time"):
        state.apply("Ge1 Belgrade")


def test_one_spy_at_a_time() -> None:
    state = moving_position({"Ge1": "Berlin", "Ge2": "Hamburg"})
    state.apply("Ge1 Dresden")
    state.apply("Ge2 Kiel")  # Ge1's movement is over
    assert not any(t.startswith("Ge1") for t in texts(state))
    with pytest.raises(IllegalAction, match="already moved this turn"):
        state.apply("Ge1 Prague")
    state.apply("end")
    state.power_index = 0  # Germany again (a hand-built position): every spy may move anew
    state.phase = "move"
    state.forget_legal()
    assert "Ge1 Prague" in texts(state)


def test_twelve_action_points_a_turn() -> None:
    state = moving_position({"Ge1": "Berlin", "Ge2": "Hamburg", "Ge3": "Munich"})
    for city in ("Leipzig", "Nuremberg", "Munich", "Vienna", "Budapest"):
        state.apply(f"Ge1 {city}")
    for city in ("Amsterdam", "Antwerp", "Brussels", "Lille", "Paris"):
        state.apply(f"Ge2 {city}")
    state.apply("Ge3 Nuremberg")
    state.apply("Ge3 Frankfurt")
    assert state.turn.action_points == 0
    # Nothing that costs a point is left; taking control of a Secret is free (rule 3.7).
    assert {t for t in texts(state) if " to " not in t} == {"end"}
    with pytest.raises(IllegalAction, match="no Action Points"):
        state.apply("Ge3 Cologne")


def test_only_the_current_powers_spies_move() -> None:
    state = moving_position({"Ge1": "Berlin", "It1": "Rome"})
    assert not any(t.startswith("It1") for t in texts(state))
    with pytest.raises(IllegalAction, match="not a spy of Germany"):
        state.apply("It1 Naples")


def test_putting_to_sea_rolls_the_average_die() -> None:
    state = moving_position({"Ge1": "Kiel", "Ge2": "Berlin"})
    assert "Ge1 embark Baltic" in texts(state)
    rig_die(state, 2)
    state.apply("Ge1 embark Baltic")
    assert state.board.spies["Ge1"].place == "Baltic"
    assert (state.turn.voyage.limit, state.turn.voyage.used, state.turn.action_points) == (2, 1, 11)
    assert "the voyage may last 2 spaces" in state.log[-1]
    # A roll of 2: only a landing in the same zone (the landing is the second space).
    moves = texts(state)
    assert {f"Ge1 land {p}" for p in ("Kiel", "Stettin", "Copenhagen", "Stockholm")} <= moves
    assert not any("sail" in m for m in moves)
    assert "Ge1 reroll" in moves
    assert "end" not in moves and not any(m.startswith("Ge2") for m in moves)
    state.apply("Ge1 land Copenhagen")
    assert state.board.spies["Ge1"].place == "Copenhagen" and state.turn.voyage is None
    assert (state.turn.spaces, state.turn.action_points) == (2, 10)


def test_sailing_between_zones_within_the_roll() -> None:
    state = moving_position({"Ge1": "Kiel"})
    rig_die(state, 3)
    state.apply("Ge1 embark Baltic")
    assert {"Ge1 sail North-Sea", "Ge1 sail Gulf-of-Finland"} <= texts(state)
    state.apply("Ge1 sail North-Sea")
    moves = texts(state)
    # put to sea 1 + sail 1 + land 1 = 3: no further sailing, no re-roll once under way.
    assert moves == {f"Ge1 land {p}" for p in state.edition.map.zones["North-Sea"].ports}
    state.apply("Ge1 land London")
    assert state.board.spies["Ge1"].place == "London" and state.turn.action_points == 9


def test_a_reroll_costs_an_action_point_and_a_space() -> None:
    state = moving_position({"Ge1": "Kiel"})
    rig_die(state, 2, 5)
    state.apply("Ge1 embark Baltic")
    state.apply("Ge1 reroll")
    assert (state.turn.voyage.limit, state.turn.voyage.used) == (5, 1)
    assert (state.turn.spaces, state.turn.action_points) == (2, 10)
    state.apply("Ge1 sail North-Sea")
    assert "Ge1 reroll" not in texts(state)
    state.apply("Ge1 sail Channel")  # spaces 4 of 5: only a landing is left
    assert texts(state) == {f"Ge1 land {p}" for p in state.edition.map.zones["Channel"].ports}
    state.apply("Ge1 land Le-Havre")
    assert state.turn.spaces == 0 and "Ge1" in state.turn.moved  # five spaces: its move is over
    assert state.turn.action_points == 7


def test_a_spy_never_ends_at_sea() -> None:
    state = moving_position({"Ge1": "Berlin"})
    state.apply("Ge1 Hamburg")
    state.apply("Ge1 Kiel")
    state.apply("Ge1 Hamburg")
    state.apply("Ge1 Kiel")  # four spaces used: no room to put to sea and land
    assert "Ge1 embark Baltic" not in texts(state)
    with pytest.raises(IllegalAction, match="could not land in time"):
        state.apply("Ge1 embark Baltic")
    state = moving_position({"Ge1": "Kiel"})
    state.turn.action_points = 1
    assert "Ge1 embark Baltic" not in texts(state)
    state = moving_position({"Ge1": "Kiel", "Ge2": "Berlin"})
    rig_die(state, 4)
    state.apply("Ge1 embark Baltic")
    with pytest.raises(IllegalAction, match="at sea"):
        state.apply("end")
    with pytest.raises(IllegalAction, match="finish moving Ge1 first"):
        state.apply("Ge2 Leipzig")


def test_sailing_stops_where_the_spaces_run_out() -> None:
    state = moving_position({"Ge1": "Berlin"})
    state.apply("Ge1 Hamburg")
    state.apply("Ge1 Kiel")
    rig_die(state, 5)
    state.apply("Ge1 embark Baltic")  # spaces 3: a sail and a landing would make 5
    assert "Ge1 sail North-Sea" in texts(state)
    assert "Ge1 reroll" in texts(state)
    state.apply("Ge1 sail North-Sea")
    assert all("land" in m for m in texts(state))


def test_two_voyages_in_one_turn() -> None:
    state = moving_position({"Ge1": "Kiel"})
    rig_die(state, 2, 2)
    state.apply("Ge1 embark Baltic")
    state.apply("Ge1 land Copenhagen")
    state.apply("Ge1 Hamburg")  # by rail
    assert "Ge1 embark North-Sea" in texts(state)
    state.apply("Ge1 embark North-Sea")
    state.apply("Ge1 land Amsterdam")
    assert state.board.spies["Ge1"].place == "Amsterdam" and state.turn.action_points == 7


def test_ports_and_straits() -> None:
    state = moving_position({"Ge1": "Istanbul", "Ge2": "Rome", "Ge3": "London"})
    moves = texts(state)
    assert {"Ge1 embark Aegean", "Ge1 embark Black-Sea"} <= moves
    assert not any(m.startswith("Ge2 embark") for m in moves)  # Rome is not a port
    assert "Ge3 embark North-Sea" in moves  # London is


def test_places_typed_by_name_and_described() -> None:
    state = moving_position({"Ge1": "Berlin"})
    assert str(state.parse("Ge1 Königsberg")) == "Ge1 Konigsberg"
    assert str(state.parse("ge1 konigsberg")) == "Ge1 Konigsberg"
    assert state.describe("Ge1 Vienna") == "Move Ge1 by air from Berlin to Vienna (1 Action Point)."
    state = moving_position({"Ge1": "Kiel"})
    assert "average die" in state.describe("Ge1 embark Baltic")
