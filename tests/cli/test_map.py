"""The map region at the terminal: places with pieces by group, empty ones counted, and the
``map PLACE`` command (pieces and routes of one place); from a hand-made map and from Spies!."""

from __future__ import annotations

import copy
import random
import re

import pytest
from rich.console import Console

from spyglass.cli.maps import UnknownPlace, find_place, render_map, render_place
from spyglass.cli.play import PlaySession
from spyglass.cli.render import render_table
from spyglass.engine import Game, GameInfo
from spyglass.games.spies import SPEC as SPIES

INFO = GameInfo(id="demo", title="Demo", summary="", rulebook="")

#: Two countries and a sea; pieces in Freedonia and at sea, none in Sylvania.
PLACES = [
    # id, label, x, y, style, group
    ("fre", "Fredville", 10, 10, "capital", "Freedonia"),
    ("port", "Port Ösel", 20, 30, "town", "Freedonia"),
    ("hill", "Hilltop", 30, 10, "town", "Freedonia"),
    ("syl", "Sylvan", 60, 10, "capital", "Sylvania"),
    ("wood", "Woodhaven", 70, 20, "town", "Sylvania"),
    ("bay", "Grey Bay", 40, 50, "sea", "Seas"),
]
MAP = {
    "places": [
        dict(zip(("id", "label", "x", "y", "style", "group"), place, strict=True))
        for place in PLACES
    ],
    "routes": [
        {"from": "fre", "to": "hill", "label": "", "style": "rail"},
        {"from": "port", "to": "fre", "label": "2", "style": "rail"},
        {"from": "fre", "to": "syl", "label": "", "style": "air"},
        {"from": "port", "to": "bay", "label": "", "style": "port"},
        {"from": "hill", "to": "syl", "label": "", "style": "rail"},
    ],
    "pieces": [
        {"place": "fre", "owner": 0, "label": "A1:3", "colour": "#aa2222"},
        {"place": "fre", "owner": 1, "label": "B2", "colour": "#2222aa"},
        {"place": "bay", "owner": None, "label": "ship", "colour": "not-a-colour"},
        {"place": "syl", "owner": 1, "label": "B1"},
    ],
    "width": 100,
    "height": 60,
}


def text_of(renderable, width: int = 100) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(renderable)
    return console.export_text()


def rows(text: str) -> dict[str, str]:
    """The lines of a map listing by their first word (a group's name)."""
    found = {}
    for line in text.splitlines():
        head, _, rest = line.strip(" │").partition("  ")
        if rest:
            found[head.strip()] = rest.strip()
    return found


def test_places_with_pieces_are_listed_by_group_and_the_rest_counted() -> None:
    text = text_of(render_map("Atlas", MAP))
    assert "Atlas  6 places · 4 pieces" in text
    lines = rows(text)
    # Freedonia: Fredville (a capital among towns, so its style is named) with its two pieces
    assert lines["Freedonia"] == "Fredville capital: ●A1:3 ●B2 · +2 empty"
    assert lines["Sylvania"] == "Sylvan capital: ●B1 · +1 empty"
    assert lines["Seas"] == "Grey Bay: ●ship"
    assert "Hilltop" not in text and "Woodhaven" not in text  # empty places are only counted


def test_groups_without_pieces_share_one_line_and_without_groups_styles_group() -> None:
    quiet = {**MAP, "pieces": [MAP["pieces"][0]]}
    lines = rows(text_of(render_map("Atlas", quiet)))
    assert lines["no pieces"] == "Sylvania 2 · Seas 1"
    plain = {**MAP, "places": [{k: v for k, v in p.items() if k != "group"} for p in MAP["places"]]}
    lines = rows(text_of(render_map("Atlas", plain)))
    assert lines["capital"] == "Fredville: ●A1:3 ●B2 · Sylvan: ●B1"
    assert lines["sea"] == "Grey Bay: ●ship"
    assert lines["no pieces"] == "town 3"


def test_a_piece_at_a_place_the_map_does_not_list_still_shows() -> None:
    stray = {**MAP, "pieces": [{"place": "moon", "owner": 0, "label": "Z9"}]}
    assert rows(text_of(render_map("Atlas", stray)))["moon"] == "●Z9"


def test_a_place_with_its_pieces_and_routes_both_ways() -> None:
    text = text_of(render_place(MAP, "fredville"))
    assert text.splitlines()[0].strip() == "Fredville Freedonia · capital"
    assert "pieces  ●A1:3 (seat 0) · ●B2 (seat 1)" in text
    lines = rows(text)
    # the route from Port Ösel to Fredville counts from Fredville too, with its label
    assert lines["rail (2)"] == "Hilltop, Port Ösel (2)"
    assert lines["air (1)"] == "Sylvan [●B1]"
    assert "port" not in lines
    sea = rows(text_of(render_place(MAP, "Grey-Bay")))
    assert sea["port (1)"] == "Port Ösel"


def test_places_are_found_by_id_label_accents_or_a_unique_prefix() -> None:
    assert find_place(MAP, "port")["id"] == "port"
    assert find_place(MAP, "PORT OSEL")["id"] == "port"
    assert find_place(MAP, "wood")["id"] == "wood"
    with pytest.raises(
        UnknownPlace, match=r"^No place 'Fredvile' on the map; did you mean Fredville\?"
    ):
        find_place(MAP, "Fredvile")
    with pytest.raises(UnknownPlace, match=r"did you mean (Sylvan, Sylvania|Sylvan)"):
        find_place(MAP, "Sylvanx")
    with pytest.raises(UnknownPlace, match=r"^No place 'Atlantis' on the map$"):
        find_place(MAP, "Atlantis")


# ---------------------------------------------------------------------- Spies!


def spies_state(players: int = 2, seed: int = 3, moves: int = 120):
    state = Game(SPIES).new_state(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def draw(view) -> str:
    return text_of(render_table(view, SPIES.layout, SPIES.info), width=100)


def test_spies_map_shows_each_seat_only_the_faces_its_view_holds() -> None:
    state = spies_state()
    pieces = {seat: state.view(seat)["table"]["map"]["pieces"] for seat in (0, 1, None)}
    texts = {seat: draw(state.view(seat)) for seat in (0, 1, None)}
    assert all(len(line) <= 100 for text in texts.values() for line in text.splitlines())
    hidden = 0
    for seat, text in texts.items():
        flat = " ".join(text.split())
        for piece in pieces[seat]:
            assert f"●{piece['label']}" in flat
        for other in (0, 1, None):
            for mine, theirs in zip(pieces[seat], pieces[other], strict=True):
                if mine["label"] != theirs["label"] and ":" in theirs["label"]:
                    # a face the other seat sees and this one does not
                    hidden += 1
                    assert not re.search(rf"●{re.escape(theirs['label'])}(?![\w:])", flat)
    assert hidden > 20


def test_spies_places_group_by_country_and_by_style_without_a_group_field() -> None:
    state = spies_state()
    view = copy.deepcopy(state.view(0))  # the view shares its places with the game's map
    game_map = state.edition.map
    # the view sends a group per place: the country, "Sea zones" at sea
    for place in view["table"]["map"]["places"]:
        city = game_map.cities.get(place["id"])
        assert place["group"] == (city.country.replace("-", " ") if city else "Sea zones")
    text = draw(view)
    lines = rows(text)
    held = {p["place"] for p in view["table"]["map"]["pieces"]}
    assert "Germany" in lines and "Soviet Union" in lines
    for city in game_map.cities.values():
        if city.id in held:
            group = city.country.replace("-", " ")
            assert group in text
    # Rome is the capital among Italy's home cities: named so in Italy's line
    assert "Rome" in held
    assert re.search(r"Italy .*Rome capital: ●", " ".join(text.split()))
    # a map without groups is grouped by the places' styles
    for place in view["table"]["map"]["places"]:
        del place["group"]
    by_style = rows(draw(view))
    assert {"capital", "home", "neutral", "secret"} <= set(by_style)
    assert "haven" in by_style or "haven" in by_style["no pieces"]  # held or counted empty


def session(state, answers: list[str], width: int = 200) -> str:
    console = Console(record=True, width=width, color_system=None)
    feed = iter(["", *answers])  # Enter at the pass screen before the first human's turn
    console.input = lambda *a, **k: next(feed)  # type: ignore[method-assign]
    PlaySession(console, state, dict.fromkeys(range(state.players), "human")).run()
    return console.export_text()


def test_the_map_command_lists_a_places_routes_from_the_seats_view() -> None:
    state = spies_state()
    seat = state.current_player
    step = state.step
    text = session(state, ["help", "map paris", "routes Pariss", "map", "quit"])
    assert state.step == step  # looking moved nothing
    assert "map PLACE" in text.split("Commands", 1)[1]
    view = state.view(seat)["table"]["map"]
    labels = {p["id"]: p["label"] for p in view["places"]}
    here = text.split("leave the game", 1)[1]  # after the help
    for style in ("rail", "air"):
        ends = sorted(
            labels[r["to"] if r["from"] == "Paris" else r["from"]]
            for r in view["routes"]
            if "Paris" in (r["from"], r["to"]) and r["style"] == style
        )
        line = next(line for line in here.splitlines() if line.strip().startswith(f"{style} ("))
        assert line.strip().startswith(f"{style} ({len(ends)})")
        shown = re.sub(r" \[[^\]]*\]", "", line.split(")", 1)[1]).strip()
        assert sorted(shown.split(", ")) == ends
    assert "No place 'Pariss' on the map; did you mean Paris" in text
    index = " ".join(text.split("every place", 1)[1].split())  # a long row wraps
    assert all(label in index for label in labels.values())


def test_the_map_command_in_a_game_without_a_map() -> None:
    from tests.fixtures.high_card import REGISTRY

    state = REGISTRY.load("high-card").new_state(players=2, seed=5)
    assert "This game has no map." in session(state, ["map Paris", "quit"])
