"""Hidden information: the views hide face-down pieces and hands; determinizations keep what a
seat has seen. The conformance suite checks Spies! like every game; here its checks also run along
random playouts chosen to meet the police, the event tiles, the chits and the duels."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

import spyglass
from spyglass.engine import Rng
from spyglass.games.spies.rules import SpiesState
from spyglass.games.spies.views import tile_text
from tests.conformance.checks import Coverage, check_state

from .helpers import GAME, finish_setup, give, moving_position, new, pass_turn, place_secrets


def playout(players: int, seed: int, every: int, coverage: Coverage) -> SpiesState:
    state = new(players=players, seed=seed)
    rng = Rng(seed)
    cards = Counter(state.cards())
    steps = 0
    while True:
        if steps % every == 0 or state.is_over:
            check_state(state, rng, cards, coverage)
        if state.is_over:
            return state
        state.apply(rng.choice(state.legal_actions()))
        steps += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_generic_checks_on_random_playouts(players: int) -> None:
    coverage = Coverage()
    seed = {2: 102, 3: 103, 4: 104, 5: 106}[players]
    state = playout(players, seed=seed, every=10, coverage=coverage)
    assert state.step <= GAME.max_actions(players)
    # The playout met the police: searches, and captures onto a record.
    assert state.board.comparisons and any(s.captor for s in state.board.spies.values())
    # ... and the event tiles: plays (with their awards) and face-down discards.
    assert state.hands.played and any(state.hands.discarded.values())
    # ... and Action Chits: played on a turn, and as answers in another power's.
    played = [a for a in state.history if a.kind == "chit"]
    assert len({a.target[0] for a in played}) >= 4
    assert state.board.duels  # Sanctions, Discoveries against a holder, Counterspies
    assert coverage.states >= 15
    assert coverage.hidden_seen == {*range(players), None}  # every seat has something hidden


@pytest.mark.parametrize(("players", "steps"), [(2, 150), (5, 400), (3, None)])
def test_record_replays(players: int, steps: int | None) -> None:
    state = new(players=players, seed=9)
    rng = Rng(3)
    while not state.is_over and (steps is None or state.step < steps):
        state.apply(rng.choice(state.legal_actions()))
    record = state.record()
    again = GAME.new_state(players=players, seed=record["seed"], deck=record["decks"])
    for text in record["actions"]:
        again.apply(text)
    assert again.digest() == record["digest"] == state.digest()


def test_faces_are_hidden_from_other_powers() -> None:
    state = finish_setup(new(players=5, seed=4))
    german = [s for s in state.view(0)["table"]["spies"] if s["power"] == "Germany"]
    assert all(s["face"] is not None for s in german)
    for seat in (1, None):
        table = state.view(seat)["table"]
        assert all(s["face"] is None for s in table["spies"] if s["power"] == "Germany")
        assert all(u["strength"] is None for u in table["police"] if u["power"] == "Germany")
        assert table["powers"][0]["chits"] == 3  # a count, not the chits
        tiles = table["powers"][0]["tiles"]
        assert (tiles["hand"], tiles["discarded"]) == (10, 0)  # counts, not the tiles
        assert tiles["own_unplayed"][0] == "Ge1"  # the manifest is public
    assert all(s["face"] is None for s in state.view(None)["table"]["secrets"])


def test_determinization_keeps_what_the_seat_knows() -> None:
    state = finish_setup(new(players=5, seed=4))
    mine = {k: v for k, v in state.board.spies.items() if v.power == "Germany"}
    seen = set()
    for k in range(8):
        guess = state.determinize(0, Rng(k))
        assert {k: v for k, v in guess.board.spies.items() if v.power == "Germany"} == mine
        assert guess.hands.chits["Germany"] == state.hands.chits["Germany"]
        assert guess.hands.tiles["Germany"] == state.hands.tiles["Germany"]
        italian = tuple(
            guess.board.spies[s].strength for s in sorted(guess.board.spies) if s.startswith("It")
        )
        seen.add(italian)
        # The Italians' faces are redealt among their own pieces only.
        assert sorted(italian) == sorted(
            state.board.spies[s].strength for s in state.board.spies if s.startswith("It")
        )
    assert len(seen) > 1


def test_two_players_russia_changes_hands_but_not_what_was_seen() -> None:
    state = finish_setup(new(players=2, seed=6))
    russian = {k: v for k, v in state.board.spies.items() if v.power == "Russia"}
    for _ in range(5):
        pass_turn(state)
    assert state.year == 1934 and state.controller("Russia") == 1
    for seat in (0, 1):  # seat 0 played Russia in 1933; seat 1 plays it now
        faces = [s["face"] for s in state.view(seat)["table"]["spies"] if s["power"] == "Russia"]
        assert None not in faces
        guess = state.determinize(seat, Rng(1))
        assert {k: v for k, v in guess.board.spies.items() if v.power == "Russia"} == russian
    # The hand goes with the power: only the seat playing Russia now sees its chits.
    assert isinstance(state.view(1)["table"]["powers"][2]["chits"], list)
    assert state.view(0)["table"]["powers"][2]["chits"] == len(state.hands.chits["Russia"]) == 4


def test_map_region_is_drawn_from_coordinates() -> None:
    state = finish_setup(new(players=3, seed=2))
    drawn = state.view(0)["table"]["map"]
    places = {p["id"]: p for p in drawn["places"]}
    assert len(places) == len(state.edition.map.cities) + len(state.edition.map.zones)
    assert (
        places["Lisbon"]["x"] < places["Paris"]["x"] < places["Berlin"]["x"] < places["Moscow"]["x"]
    )
    assert (
        places["Stockholm"]["y"]
        < places["Berlin"]["y"]
        < places["Rome"]["y"]
        < places["Cairo"]["y"]
    )
    assert all(
        0 <= p["x"] <= drawn["width"] and 0 <= p["y"] <= drawn["height"] for p in places.values()
    )
    styles = {r["style"] for r in drawn["routes"]}
    assert styles == {"rail", "air", "port", "lane"}
    spies = [p for p in drawn["pieces"] if p["label"].startswith("Ru")]
    assert spies and all(":" not in p["label"] for p in spies)  # seat 0 plays Germany and Italy
    assert any(":" in p["label"] for p in drawn["pieces"] if p["label"].startswith("Ge"))


def test_powers_are_rows_for_people_and_hidden_chits_lie_face_down() -> None:
    state = finish_setup(new(players=3, seed=2))
    rows = state.view(2)["table"]["powers_summary"]
    # the seat in the note: a number in a title would make the row a target of a bid
    assert [r["title"] for r in rows] == ["Germany", "Italy", "Russia", "France", "Britain"]
    assert [r["note"].rsplit(" · ", 1)[1] for r in rows] == [
        "seat 0", "seat 0", "seat 1", "seat 2", "seat 2",
    ]  # fmt: skip
    assert rows[0]["cards"] == [None] * len(state.hands.chits["Germany"])  # a count, face down
    assert rows[3]["cards"] == state.hands.chits["France"]  # its own chits by name
    assert rows[0]["note"] == "£30 · 10 tiles, 0 discarded · seat 0"
    assert rows[3]["note"].startswith("£25 · tiles Fr1")
    assert all(isinstance(r["note"], str) for r in rows)


def test_map_labels_are_short_and_the_map_cannot_be_changed_through_a_view() -> None:
    state = finish_setup(new(players=5, seed=4))
    cousin = next(s for s in state.board.spies.values() if s.power == "Germany" and s.cousin)
    labels = [p["label"] for p in state.view(0)["table"]["map"]["pieces"]]
    assert f"{cousin.label}:c{cousin.strength}" in labels
    view = state.view(0)
    view["table"]["map"]["places"][0]["label"] = "Atlantis"
    view["table"]["map"]["routes"].clear()
    again = state.view(0)["table"]["map"]
    assert again["places"][0]["label"] != "Atlantis" and again["routes"]


# The panels beside the map ---------------------------------------------------------------------


def test_the_action_point_track_counts_the_points_spent_and_left() -> None:
    state = finish_setup(new(players=5, seed=4))
    track = state.view(None)["table"]["action_track"]
    assert track == {
        "spaces": 12, "used": 0, "caption": "1933, Germany: 12 of 12 left", "owner": "Germany",
    }  # fmt: skip
    state = moving_position({"Ge1": "Berlin"})
    state.apply("Ge1 Dresden")
    track = state.view(3)["table"]["action_track"]  # the same for every seat
    assert (track["used"], track["caption"]) == (1, "1933, Germany: 11 of 12 left")
    setup = new(players=5, seed=4).view(0)["table"]["action_track"]
    assert setup["used"] == 0 and setup["caption"].startswith("Set-up")


def test_the_bank_shows_money_unless_it_is_secret() -> None:
    state = finish_setup(new(players=5, seed=4))
    assert state.view(2)["table"]["bank"] == {
        "Germany": "£30", "Italy": "£20", "Russia": "£25", "France": "£25", "Britain": "£30",
    }  # fmt: skip
    hidden = spyglass.load("spies", secret_money=True).new_state(players=5, seed=4)
    bank = finish_setup(hidden).view(2)["table"]["bank"]
    assert bank["Russia"] == "£25" and bank["Germany"] == bank["Britain"] == "secret"


def test_the_record_holds_captures_cashed_secrets_and_markers_under_their_years() -> None:
    state = moving_position({"Ge1": "Berlin", "Fr1": "Paris"})
    place_secrets(state, X1=("S20", "France", "Paris", None), G1=("S12", "Germany", "Berlin", None))
    state.board.spies["Fr1"] = replace(
        state.board.spies["Fr1"], status="captured", captor="Germany", year=1933
    )
    state.publish(["Fr1"])  # a captured spy lies face up on the record
    state.board.secrets["X1"] = replace(
        state.board.secrets["X1"], status="cashed", record="Germany", taken=1934, holder=None
    )
    state.publish(["X1"])  # a cashed Secret lies face up
    state.board.markers.append(("Germany", "It2", 3, 1935))
    for seat in (0, 3, None):
        grid = state.view(seat)["table"]["record"]
        assert grid["col_labels"][:3] == ["1933 ×8", "1934 ×7", "1935 ×6"]
        assert grid["col_labels"][-1] == "points" and grid["row_labels"][0] == "Germany"
        germany = grid["cells"][0]
        assert germany[0] == "spy Fr1 (2)"
        assert germany[1] == f"X1 ({state.edition.secret('S20').face})"
        assert germany[2] == "† It2 (3)"
        assert grid["cells"][3][:7] == [None] * 7
    face = state.edition.secret("S20").face
    on_record = 2 * 8 + _points(face, 7) + 3 * 6
    # The original Secret at home scores at the final year's multiple (1939: x2), not at this
    # year's (rule 6.0 places it in the last column when the game ends).
    home = _points(state.edition.secret("S12").face, 2)
    assert state.view(3)["table"]["record"]["cells"][0][-1] == f"{on_record} on record"
    assert state.view(0)["table"]["record"]["cells"][0][-1] == (
        f"{on_record + home} now ({on_record} on record + {home} at home, ×2)"
    )
    assert on_record + home == state.power_points("Germany")  # the score as the rules count it


def test_the_score_sheet_itemises_rule_6_0() -> None:
    state = moving_position({"Ge1": "Berlin", "Fr1": "Paris"})
    place_secrets(state, X1=("S20", "France", "Paris", None), G1=("S12", "Germany", "Berlin", None))
    state.board.spies["Fr1"] = replace(
        state.board.spies["Fr1"], status="captured", captor="Germany", year=1933
    )
    state.board.secrets["X1"] = replace(
        state.board.secrets["X1"], status="cashed", record="Germany", taken=1934, holder=None
    )
    state.board.markers.append(("Germany", "It2", 3, 1935))
    state.hands.played.append(("Germany", "Ge3", 1934))
    state.hands.played.append(("Germany", "R1", 1933))  # a random tile scores nothing
    sheet = state.score_sheet("Germany")
    cashed = _points(state.edition.secret("S20").face, 7)
    home = _points(state.edition.secret("S12").face, 2)
    assert sheet == {
        "points": home + cashed + 2 * 8 + 3 * 6 + 2,
        "secrets_at_home": home,
        "home_multiple": "1939 ×2",
        "secrets_cashed": cashed,
        "spies_captured": 2 * 8,
        "sanctioned_markers": 3 * 6,
        "own_tiles_played": 2,
    }
    state.phase = "over"
    assert state.result.detail[0] == {"Germany": sheet}


def test_the_event_tile_manifest_is_public_and_complete() -> None:
    state = moving_position({"Ge1": "Berlin"})
    state.hands.played.append(("Italy", "It2", 1935))
    manifests = [state.view(seat)["table"]["manifest"] for seat in (None, 0, 4)]
    assert manifests[0] == manifests[1] == manifests[2] and len(manifests[0]) == 50
    czech = next(row for row in manifests[0] if row["cards"] == ["R8"])
    assert czech == {
        "title": "43. random",
        "cards": ["R8"],
        "note": "Czech Crisis! · 1937–1939 · 3c Berlin Prague; 2c Paris Moscow Bucharest"
        " Warsaw; 2£ Budapest Vienna Bratislava",
    }
    stresa = next(row for row in manifests[0] if row["cards"] == ["It2"])
    assert stresa["note"].endswith(" · played by Italy in 1935")
    region = next(r for r in state.game.spec.layout if r.key == "manifest")
    assert (region.kind, region.command) == ("rows", "tiles")


def _points(face: str, multiple: int) -> int:
    value, _, counterspy = face.partition("c")
    return int(value) * (multiple // 2 if counterspy else multiple)


def test_played_tiles_are_listed_with_year_power_and_effect_and_the_hand_is_private() -> None:
    state = finish_setup(new(players=5, seed=4))
    hand = state.view(0)["table"]["tiles_in_hand"]
    assert set(hand) == set(state.hands.tiles["Germany"])
    assert state.view(1)["table"]["tiles_in_hand"].keys() == set(state.hands.tiles["Italy"])
    assert state.view(None)["table"]["tiles_in_hand"] == {}
    playable = [a for a in state.legal_actions() if a.kind == "play"]
    tile = state.edition.tile(playable[0].target)
    assert hand[playable[0].target].startswith(tile.title)
    state.apply(playable[0])
    rows = state.view(None)["table"]["events"]
    assert rows[0]["title"] == "1933 · Germany" and rows[0]["cards"] == [playable[0].target]
    assert rows[0]["note"].startswith(tile.title)
    assert "*Austria becomes home territory" in tile_text_of(state, "Ge7")


def tile_text_of(state, token: str) -> str:
    return tile_text(state, token)


def test_a_search_of_the_seats_spy_is_a_banner_with_its_choices() -> None:
    state = moving_position({"Ge1": "Berlin", "Fr1": "Berlin"},
                            police={"GeP1": (3, "Berlin")}, phase="search")  # fmt: skip
    give(state, "France", "Papers")
    state.apply("search Fr1")
    assert state.current_player == 3
    mine = state.view(3)["table"]["prompt"]
    assert mine["style"] == "yours" and mine["kind"] == "react"
    assert mine["title"] == (
        "You are asked (France): Germany's police search for France's spy Fr1 in Berlin."
    )
    assert [c.split(":")[0] for c in mine["choices"]] == [str(a) for a in state.legal_actions()]
    theirs = state.view(0)["table"]["prompt"]
    assert theirs["style"] == "waiting" and theirs["choices"] == []
    assert theirs["title"] == "Germany's police search for France's spy Fr1 in Berlin."
    assert theirs["lines"][-1] == "Waiting for seat 3 (France) to answer."
    assert state.view(None)["table"]["prompt"] == theirs
    state.apply("pass")
    assert state.view(3)["table"]["prompt"] is None


def test_an_offer_is_a_panel_for_its_two_seats_and_a_banner_for_the_answer() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "France", "Papers")
    state.apply("approach France")
    panel = state.view(0)["table"]["offer_panel"]
    assert panel == [
        {"title": "Germany gives (being built)", "items": []},
        {"title": "Germany asks of France", "items": []},
    ]
    assert state.view(3)["table"]["offer_panel"] is None  # not sent yet
    state.apply("offer £5")
    state.apply("ask Papers")
    assert [c["items"] for c in state.view(0)["table"]["offer_panel"]] == [["£5"], ["Papers"]]
    state.apply("send")
    panel = state.view(3)["table"]["offer_panel"]
    assert panel[0]["title"] == "Germany gives (offered)" and panel[1]["items"] == ["Papers"]
    assert state.view(1)["table"]["offer_panel"] is None  # a third seat sees no offer
    prompt = state.view(3)["table"]["prompt"]
    assert prompt["title"] == "You are asked (France): Germany makes France an offer."
    assert "Germany gives: £5." in prompt["lines"] and "Germany asks: Papers." in prompt["lines"]
    assert {c.split(":")[0] for c in prompt["choices"]} == {"accept", "refuse"}
    other = state.view(1)["table"]["prompt"]
    assert not any("£5" in line for line in other["lines"])  # hidden from a third seat


def test_a_spy_arriving_among_police_asks_their_power() -> None:
    state = moving_position({"Ge1": "Strasbourg"}, police={"FrP1": (2, "Paris")})
    state.apply("Ge1 Paris")
    assert state.current_player == 3  # France decides, in Germany's turn
    prompt = state.view(3)["table"]["prompt"]
    assert prompt["kind"] == "arrival"
    assert prompt["title"] == (
        "You are asked (France): Germany's spy Ge1 arrives in Paris, where France has police."
    )
