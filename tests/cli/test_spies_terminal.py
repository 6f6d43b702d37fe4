"""Spies! at the terminal: the tile manifest on demand, the long placement menu by country and
city, questions whose only answer is to pass, and the itemised end screen."""

from __future__ import annotations

import random

from rich.console import Console

import spyglass
from spyglass.cli.menu import LONG_MENU, MoveMenu, map_places
from spyglass.cli.play import PlaySession
from spyglass.cli.render import render_result, render_table


def session(state, answers: list[str], seats: dict[int, str] | None = None) -> str:
    console = Console(record=True, width=160, color_system=None)
    feed = iter(answers)
    console.input = lambda *a, **k: next(feed)  # type: ignore[method-assign]
    seats = seats or dict.fromkeys(range(state.players), "human")
    PlaySession(console, state, seats).run()
    return console.export_text()


def spy_placement(players: int = 2, seed: int = 1):
    state = spyglass.load("spies").new_state(players=players, seed=seed)
    while state.phase in ("secrets", "police"):
        state.apply(state.legal_actions()[0])
    assert state.phase == "spies" and state.power == "Germany"
    return state


def test_the_manifest_is_drawn_on_demand_not_with_every_table() -> None:
    state = spy_placement()
    console = Console(record=True, width=160, color_system=None)
    console.print(render_table(state.view(0), state.game.spec.layout, state.game.info))
    drawn = console.export_text()
    assert "Event Tile manifest" not in drawn and "43. random" not in drawn
    text = session(state, ["", "help", "tiles", "quit"])
    assert "tiles         Event Tile manifest (every tile)" in text
    manifest = text.split("Event Tile manifest (every tile)")[-1]
    assert "43. random" in manifest and "Czech Crisis! · 1937–1939 · 3c Berlin Prague" in manifest
    assert "1. Germany" in manifest and "50. random" in manifest


def test_the_placement_menu_goes_by_country_then_city() -> None:
    state = spy_placement()
    moves = state.legal_actions()
    assert len(moves) > LONG_MENU
    places = map_places(state.view(0)["table"], ["map"])
    menu = MoveMenu.build(moves, places)
    assert menu is not None and "France" in menu.groups and "Paris" in menu.groups["France"]
    assert sum(len(c) for g in menu.groups.values() for c in g.values()) == len(moves)
    paris = [str(moves[i]) for i in menu.groups["France"]["Paris"]]
    france = sum(len(c) for c in menu.groups["France"].values())  # 2 spies, the Cousin: 3 a city
    assert france == 3 * len(menu.groups["France"]) and "spy 2 Paris" in paris
    step = state.step
    text = session(state, ["", "France", "1", "2", "quit"])
    assert f"{len(moves)} moves: choose a country by its number or name, or type a move" in text
    assert f"France ({france} moves): choose a place, 'back', or type a move" in text
    assert "Paris: choose a move, 'back', or type a move" in text
    assert state.step == step + 1 and str(state.history[-1]) == paris[1]
    assert state.view(0)["log"][-1].endswith("in Paris")


def test_the_placement_menu_by_name_back_and_typed_moves() -> None:
    state = spy_placement()
    places = map_places(state.view(0)["table"], ["map"])
    menu = MoveMenu.build(state.legal_actions(), places)
    assert menu is not None
    germany = sum(len(c) for c in menu.groups["Germany"].values())
    text = session(state, ["", "Berlin", "back", "back", "99", "spy 2 Rome", "quit"])
    assert "Berlin: choose a move" in text and f"Germany ({germany} moves)" in text
    assert "There is no 99 here: choose 1–" in text
    assert str(state.history[-1]) == "spy 2 Rome"


def test_a_question_whose_only_answer_is_pass_is_answered_at_once() -> None:
    state = spyglass.load("spies").new_state(players=2, seed=1)
    rng = random.Random(1)
    while not (len(state.legal_actions()) == 1 and str(state.legal_actions()[0]) == "pass"):
        state.apply(rng.choice(state.legal_actions()))
    asked = state.current_player
    step = state.step
    seats = {asked: "human", 1 - asked: "random"}
    text = session(state, ["quit"] * 5, seats)
    assert "nothing to decide here (Let the Escape stand as it is now.)" in text
    assert str(state.history[step]) == "pass"


def test_the_end_screen_itemises_each_powers_score() -> None:
    result = {
        "summary": "seat 0 wins with 53 points",
        "detail": [
            {
                "Germany": {"points": 53, "secrets_at_home": 24, "home_multiple": "1939 ×2"},
                "Italy": {"points": 20, "secrets_at_home": 20, "home_multiple": "1939 ×2"},
            },
            {"France": {"points": 12, "secrets_at_home": 12, "home_multiple": "1939 ×2"}},
        ],
    }
    console = Console(record=True, width=160, color_system=None)
    console.print(render_result(result))
    text = console.export_text()
    assert "seat 0: Germany: points 53, secrets at home 24, home multiple 1939 ×2" in text
    assert "seat 0: Italy: points 20" in text and "seat 1: France: points 12" in text
