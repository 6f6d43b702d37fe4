"""Rule 3.2 (event tiles), 2.9's early end and the tile points of 6.0, on hand-built positions."""

from __future__ import annotations

import pytest

from spyglass.engine import IllegalAction, Rng
from spyglass.games.spies import flow
from spyglass.games.spies.events import fits
from spyglass.games.spies.geography import POWERS
from spyglass.games.spies.rules import SpiesState

from .helpers import finish_setup, moving_position, new, pass_turn, place_secrets, texts


def tile_position(
    spies: dict[str, str],
    tiles: list[str],
    power: str = "Germany",
    year: int = 1933,
    police: dict[str, tuple[int, str]] | None = None,
) -> SpiesState:
    """``power``'s turn in ``year`` at the tile step, holding ``tiles`` (the other powers hold
    their usual tiles)."""
    state = moving_position(spies, power, year, police, phase="move")
    state.hands.tiles[power] = list(tiles)
    flow.enter(state, flow.begin_tile)
    state.forget_legal()
    return state


def hand_sizes(state: SpiesState) -> dict[str, int]:
    return {p: len(state.hands.chits[p]) for p in POWERS}


# 3.21 Playing or discarding ---------------------------------------------------------------


def test_a_tile_of_the_year_is_played_for_one_point_or_discarded_for_nothing() -> None:
    state = tile_position({}, ["Ge3", "Ge4", "Ge6"], year=1934)
    assert state.phase == "tile"
    assert texts(state) == {"play Ge3", "discard Ge3", "play Ge4", "discard Ge4"}
    state.apply("discard Ge3")
    assert state.turn.action_points == 12 and state.hands.discarded["Germany"] == [("Ge3", 1934)]
    assert state.hands.played == [] and state.hands.tiles["Germany"] == ["Ge4", "Ge6"]
    assert state.phase == "move"  # no police, no searches

    state = tile_position({}, ["Ge3", "Ge4", "Ge6"], year=1934)
    state.apply("PLAY ge4")  # read in any case
    assert state.turn.action_points == 11 and state.hands.played == [("Germany", "Ge4", 1934)]
    assert state.hands.discarded["Germany"] == []


def test_tile_moves_are_described_with_awards_and_effect() -> None:
    state = tile_position({}, ["Ge7"], year=1937)
    assert state.describe("play Ge7") == (
        "Play Ge 7, 'Anschluss': 3c Vienna, 2c Rome Budapest, 1£ Prague Munich; then Austria "
        "becomes home territory (1 Action Point)."
    )
    assert state.describe("discard Ge7") == "Discard Ge 7, 'Anschluss', face down (free)."


def test_a_tile_out_of_its_years_is_refused_and_told_why() -> None:
    state = tile_position({}, ["Ge3", "Ge6"], year=1934)
    with pytest.raises(IllegalAction, match="only in its years"):
        state.apply("play Ge6")
    with pytest.raises(IllegalAction, match="first plays or discards an Event Tile"):
        state.apply("end")


def test_an_any_year_tile_may_be_played_or_discarded_in_every_year() -> None:
    for year in (1933, 1936, 1939):
        state = tile_position({}, ["Ru7"], power="Russia", year=year)
        assert texts(state) == {"play Ru7", "discard Ru7"}
        assert fits(state.edition.tile("Ru7"), year)


def test_a_power_with_no_usable_tile_goes_straight_on() -> None:
    state = tile_position({}, ["Ge6", "Ge7"], year=1933)
    assert state.phase == "move" and state.turn.action_points == 12
    assert any("no Event Tile it may play" in line for line in state.log)


# 3.21 Awards ------------------------------------------------------------------------------


def test_awards_go_to_spies_outside_their_own_territory_once_a_city() -> None:
    # Czech Crisis!: 3c Berlin Prague; 2c Paris Moscow Bucharest Warsaw; 2£ Budapest Vienna
    # Bratislava.
    spies = {"Ge1": "Berlin", "It1": "Prague", "Br1": "Budapest", "Br2": "Budapest",
             "Fr1": "Paris", "Ru1": "Rome"}  # fmt: skip
    state = tile_position(spies, ["R8"], year=1937)
    before, money = hand_sizes(state), dict(state.bank.money)
    state.apply("play R8")
    after = hand_sizes(state)
    assert after["Germany"] == before["Germany"]  # Berlin is home
    assert after["Italy"] == before["Italy"] + 3
    assert after["France"] == before["France"]  # Paris is home
    assert after["Russia"] == before["Russia"]  # Rome is not named
    assert state.bank.money["Britain"] == money["Britain"] + 2  # two spies, one award
    assert state.phase == "move" and not state.turn.awarding


def test_a_power_over_ten_chits_returns_them_before_the_next_award_in_turn_order() -> None:
    # Both Italy and France have a spy in Berlin: Italy draws first (turn order), goes over
    # ten and returns three before France draws.
    state = tile_position({"It1": "Berlin", "Fr1": "Berlin"}, ["R8"], year=1937)
    state.hands.chits["Italy"] = sorted(state.hands.cup[:10])
    del state.hands.cup[:10]
    france = len(state.hands.chits["France"])
    state.apply("play R8")
    assert len(state.hands.chits["Italy"]) == 13 and len(state.hands.chits["France"]) == france
    assert state.turn.awarding[0] == ("France", "c", 3, "Berlin")
    assert state.current_player == state.controller("Italy")
    assert {a.kind for a in state.legal_actions()} == {"return"}
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert len(state.hands.chits["Italy"]) == 10 and len(state.hands.chits["France"]) == france + 3
    assert state.phase == "move" and state.current_player == state.controller("Germany")


# 3.22 Special effects ----------------------------------------------------------------------


def test_annexation_after_the_awards() -> None:
    state = tile_position({"Ge1": "Vienna"}, ["Ge7"], year=1937)
    assert state.territory("Vienna") is None
    chits = len(state.hands.chits["Germany"])
    state.apply("play Ge7")
    assert len(state.hands.chits["Germany"]) == chits + 3  # Austria was still abroad
    assert state.annexed == {"Austria": "Germany"}
    assert state.territory("Vienna") == "Germany" and "Vienna" in state.home_cities("Germany")


def test_the_polish_crisis_in_1938_ends_the_game_with_1938() -> None:
    state = tile_position({}, ["Ge6"], year=1938)
    card = next(c for c in state.edition.secrets if not c.counterspy)
    place_secrets(state, X1=(card.id, "Germany", "Berlin", None))
    state.apply("play Ge6")
    assert state.last_year == 1938
    state.apply("end")
    for _ in POWERS[1:]:
        pass_turn(state)
    assert state.is_over and state.year == 1938
    # Scored at 1938's multiple, with 2 points for the tile.
    multiple = state.edition.record[1938]
    sheet = state.result.detail[0]["Germany"]
    assert sheet["points"] == card.value * multiple + 2
    assert sheet["secrets_at_home"] == card.value * multiple and sheet["own_tiles_played"] == 2
    assert sheet["home_multiple"] == f"1938 ×{multiple}"


def test_the_polish_crisis_in_1939_changes_nothing() -> None:
    state = tile_position({}, ["Ge6"], year=1939)
    state.apply("play Ge6")
    assert state.last_year == 1939


def test_the_pact_is_recorded() -> None:
    state = tile_position({}, ["Ru2"], power="Russia", year=1939)
    state.apply("play Ru2")
    assert state.pact and state.view(None)["table"]["pact"]


def test_russias_own_tiles_score_two_points_each() -> None:
    # Rule 6.0: 2 points for every tile of the power's own colour played. Russia's tokens
    # ("Ru2") begin with the random tiles' "R", and were once counted as random (no points).
    state = tile_position({}, ["Ru2"], power="Russia", year=1939)
    state.apply("play Ru2")
    russia = POWERS.index("Russia")
    # the record everyone sees counts them as the game goes
    assert state.view(0)["table"]["record"]["cells"][russia][-1] == "2 on record"
    state.apply("end")
    for _ in POWERS[POWERS.index("Russia") + 1 :]:
        pass_turn(state)
    assert state.is_over
    sheet = state.result.detail[russia]["Russia"]
    assert sheet["own_tiles_played"] == 2


def test_a_tile_is_random_exactly_when_it_has_no_power() -> None:
    state = new()
    for tile in state.edition.tiles:
        token = tile.id.replace(" ", "")
        assert state.is_random_tile(token) == (tile.power is None), token
    assert sum(state.is_random_tile(t.id.replace(" ", "")) for t in state.edition.tiles) == 15


def test_free_searches_for_the_turn() -> None:
    state = tile_position(
        {"Fr1": "Berlin", "Br1": "Munich"},
        ["Ge2"],
        police={"GeP1": (1, "Berlin"), "GeP2": (1, "Munich")},
    )
    state.apply("play Ge2")
    assert state.turn.free_searches and state.turn.action_points == 11
    state.apply("done")
    assert "search Fr1" in texts(state)
    state.apply("search Fr1")
    while state.pending:  # the tile's awards gave chits: France may answer the search
        state.apply("pass")
    state.apply("search Br1")
    while state.pending:
        state.apply("pass")
    assert state.turn.action_points == 11  # two cities searched for nothing
    pass_turn(state)
    assert not state.turn.free_searches  # the next power pays again


def test_the_code_and_cypher_school_draws_two_chits() -> None:
    state = tile_position({}, ["Br7"], power="Britain", year=1935)
    chits = len(state.hands.chits["Britain"])
    state.apply("play Br7")
    assert len(state.hands.chits["Britain"]) == chits + 2


# 6.0 Points for tiles ----------------------------------------------------------------------


def test_each_own_tile_played_scores_two_points_random_ones_nothing() -> None:
    state = tile_position({}, ["Ge4"], year=1934)
    base = state.power_points("Germany")
    state.apply("play Ge4")
    assert state.power_points("Germany") == base + 2
    state.hands.played.append(("Germany", "R2", 1934))
    assert state.power_points("Germany") == base + 2


# Hidden discards ---------------------------------------------------------------------------


def test_discards_are_hidden_and_redealt_among_tiles_of_their_year() -> None:
    state = tile_position({}, ["Ge2", "Ge3", "Ge4", "Ge5", "R11", "R3"], year=1934)
    state.apply("discard Ge3")
    mine = state.view(0)["table"]["powers"][0]["tiles"]
    assert mine == {"hand": ["Ge2", "Ge4", "Ge5", "R11", "R3"], "discarded": ["Ge3"]}
    for seat in (1, None):
        theirs = state.view(seat)["table"]["powers"][0]["tiles"]
        assert (theirs["hand"], theirs["discarded"]) == (5, 1)
        assert "Ge3" in theirs["own_unplayed"]
    assert "discards Ge3" in str(state.view(0)) and "discards Ge3" not in str(state.view(1))
    assert "discards an Event Tile face down" in str(state.view(1))
    seen = set()
    for k in range(12):
        guess = state.determinize(1, Rng(k))
        [(tile, year)] = guess.hands.discarded["Germany"]
        assert year == 1934 and fits(state.edition.tile(tile), 1934)
        held = set(guess.hands.tiles["Germany"]) | {tile}
        assert {"Ge2", "Ge3", "Ge4", "Ge5"} <= held and len(held) == 6
        seen.add(tile)
    assert len(seen) > 1
    assert state.determinize(0, Rng(1)).hands.discarded["Germany"] == [("Ge3", 1934)]


def test_russias_own_tiles_stay_russias_in_every_determinization() -> None:
    # Russia's own tiles are public (the manifest): a determinization may redeal the random
    # tiles it holds, never give "Ru" tiles to another power or a random one in their place.
    own = [f"Ru{n}" for n in range(1, 8)]
    state = tile_position({}, [*own, "R3", "R5", "R11"], power="Russia", year=1933)
    state.apply("discard Ru1")
    for k in range(12):
        guess = state.determinize(0, Rng(k))
        held = {p: guess.hands.tiles[p] + [t for t, _ in guess.hands.discarded[p]] for p in POWERS}
        assert sorted(t for t in held["Russia"] if t.startswith("Ru")) == own
        assert sum(guess.is_random_tile(t) for t in held["Russia"]) == 3
        for power in POWERS:
            if power != "Russia":
                assert not [t for t in held[power] if t.startswith("Ru")], (k, power)


def test_the_power_at_the_tile_step_keeps_a_usable_tile_in_every_determinization() -> None:
    state = tile_position({}, ["R13", "R1"], year=1939)  # only the Any Year tile is usable
    for k in range(20):
        guess = state.determinize(1, Rng(k))
        assert guess.phase == "tile" and guess.legal_actions()
        assert all(a.kind in ("play", "discard") for a in guess.legal_actions())


def test_an_annexed_country_is_home_for_later_awards() -> None:
    state = tile_position({"Ge1": "Prague", "It1": "Prague"}, ["R8"], year=1938)
    state.annexed["Czechoslovakia"] = "Germany"  # Ge 1 played earlier
    german, italian = len(state.hands.chits["Germany"]), len(state.hands.chits["Italy"])
    state.apply("play R8")
    assert len(state.hands.chits["Germany"]) == german  # Prague is German now
    assert len(state.hands.chits["Italy"]) == italian + 3


def test_overseas_home_territory_earns_nothing() -> None:
    # The Arab Revolt in Palestine: 2c Jerusalem Haifa; 1c Damascus Cairo Baghdad.
    state = tile_position(
        {"Br1": "Cairo", "Fr1": "Cairo", "Fr2": "Damascus"}, ["Br4"], "Britain", 1936
    )
    britain, france = len(state.hands.chits["Britain"]), len(state.hands.chits["France"])
    state.apply("play Br4")
    assert len(state.hands.chits["Britain"]) == britain  # Egypt counts as British (edition)
    assert len(state.hands.chits["France"]) == france + 1  # Cairo, not French Damascus


def test_two_players_russias_discards_go_with_its_hand() -> None:
    state = finish_setup(new(players=2, seed=6))
    for _ in range(5):
        pass_turn(state)  # each power discards a tile of 1933
    assert state.year == 1934 and state.controller("Russia") == 1
    [(tile, year)] = state.hands.discarded["Russia"]
    assert year == 1933
    assert state.view(1)["table"]["powers"][2]["tiles"]["discarded"] == [tile]
    assert state.view(0)["table"]["powers"][2]["tiles"]["discarded"] == 1
    assert state.determinize(1, Rng(2)).hands.discarded["Russia"] == [(tile, 1933)]
