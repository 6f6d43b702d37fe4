"""The generic table renderer draws every region kind from plain view data."""

from rich.console import Console

from spyglass.cli.render import render_table
from spyglass.engine import GameInfo, Region

INFO = GameInfo(id="demo", title="Demo", summary="", rulebook="")


def draw(layout, table) -> str:
    console = Console(record=True, width=120)
    view = {"table": table, "step": 3, "over": False, "current_player": 0}
    console.print(render_table(view, layout, INFO))
    return console.export_text()


def test_every_region_kind() -> None:
    layout = (
        Region("cards", "hand", "Hand"),
        Region("cards", "loop", "Loop"),
        Region("count", "deck", "Deck"),
        Region("pile", "discard", "Discard", show="top"),
        Region("text", "notes", "Notes"),
        Region("grid", "board", "Board"),
        Region("rows", "queues", "Queues"),
        Region("columns", "ranks", "Ranks", parts=("members",)),
        Region("cards", "empty", "Never shown", hide_empty=True),
    )
    text = draw(
        layout,
        {
            "hand": ["A♠", "10♥"],
            "loop": ["7♣", None, "JK"],
            "deck": 12,
            "discard": ["2♦", "K♣"],
            "notes": {"kept": 2},
            "board": {
                "cells": [[["3♠", "4♥"], None], ["guess", {"cards": [None], "note": "R2"}]],
                "col_labels": ["A", "B"],
                "row_labels": ["1", "2"],
            },
            "queues": [{"title": "Q1", "cards": ["9♠", "4♥"], "note": "3 places"}, ["2♣"]],
            "ranks": [{"title": "R5", "members": ["6♣"]}],
            "empty": [],
        },
    )
    for fragment in (
        "A♠ 10♥",
        "7♣ ▒▒ JK",
        "12 cards",
        "2 cards, top K♣",
        "kept 2",
        "3♠ 4♥",
        "guess",
        "▒▒ R2",
        "Q1",
        "9♠ 4♥",
        "3 places",
        "R5",
        "6♣",
        "step 3",
    ):
        assert fragment in text, fragment
    assert "Never shown" not in text


def test_plain_list_grid() -> None:
    text = draw((Region("grid", "g"),), {"g": [[["A♥"], None]]})
    assert "A♥" in text and "·" in text


def test_result_details_may_hold_lists_of_numbers() -> None:
    from spyglass.cli.render import render_result

    console = Console(record=True, width=120)
    console.print(
        render_result({"summary": "Won", "detail": [{"queues": [12, 3], "cards": ["A♠"]}]})
    )
    text = console.export_text()
    assert "queues 12 3" in text and "cards A♠" in text


def test_a_pile_seen_from_above_and_styled_cells() -> None:
    text = draw(
        (Region("pile", "deck", "Deck"), Region("grid", "g")),
        {"deck": {"size": 12, "top": "7♠"}, "g": [[{"cards": ["K♠"], "style": "revealed"}]]},
    )
    assert "12 cards, top 7♠" in text and "K♠" in text
    text = draw((Region("pile", "deck", "Deck"),), {"deck": {"size": 3, "top": None}})
    assert "3 cards, top face down" in text


def test_decktet_cards_are_drawn_with_their_suit_symbols() -> None:
    from spyglass.cli.render import card_markup

    assert card_markup("Merchant 9 ❦⌘") == "[bold]Merchant 9 [green]❦[/][magenta]⌘[/][/]"
    text = draw((Region("cards", "row", "Row"),), {"row": ["Merchant 9 ❦⌘", "Excuse"]})
    assert "Merchant 9 ❦⌘" in text and "Excuse" in text
