import pytest

from spyglass.components.grid import (
    bounding_box,
    cells,
    grid_view,
    inside,
    label,
    neighbours,
    parse_label,
    span,
)
from spyglass.engine import RulesError


def test_neighbours_and_frames() -> None:
    assert sorted(neighbours((1, 1))) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert inside((2, 2), 3, 3) and not inside((3, 0), 3, 3) and not inside((0, -1), 3, 3)
    assert cells(2, 2) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_bounding_box_and_span_of_a_growing_grid() -> None:
    placed = [(0, 0), (-1, 0), (0, 2)]
    assert bounding_box(placed) == (-1, 0, 0, 2)
    assert bounding_box(p for p in placed) == (-1, 0, 0, 2)
    assert span(placed) == (2, 3)
    with pytest.raises(ValueError):
        bounding_box([])


def test_labels_round_trip() -> None:
    assert label((0, 0)) == "A1" and label((2, 1)) == "B3"
    assert parse_label("b3") == (2, 1) and parse_label(" E2 ") == (1, 4)
    assert label((4, 3), origin=(2, 1)) == "C3"
    assert parse_label("C3", origin=(2, 1)) == (4, 3)
    for bad in ("3B", "B0", "", "BB3", "B100"):
        with pytest.raises(RulesError, match="cannot read"):
            parse_label(bad)


def test_grid_view_frames_contents() -> None:
    view = grid_view(
        {(0, 0): ["A♠"], (1, 1): ["2♥", "3♥"]}, top=0, left=0, rows=2, cols=3, show=list
    )
    assert view == {
        "cells": [[["A♠"], None, None], [None, ["2♥", "3♥"], None]],
        "col_labels": ["A", "B", "C"],
        "row_labels": ["1", "2"],
    }
