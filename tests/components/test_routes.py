from __future__ import annotations

import pytest

from spyglass.components.routes import RouteGraph


def graph() -> RouteGraph:
    return RouteGraph(
        ["A", "B", "C", "D", "E"],
        [
            ("A", "B", "rail"),
            ("B", "C", "rail"),
            ("A", "C", "air"),
            ("C", "D", "sea"),
            ("A", "B", "air"),
        ],
    )


def test_neighbours_by_kind() -> None:
    g = graph()
    assert g.neighbours("A") == ("B", "C")
    assert g.neighbours("A", ["rail"]) == ("B",)
    assert g.neighbours("A", ["air"]) == ("B", "C")
    assert g.neighbours("A", ("air",)) is g.neighbours("A", ["air"])  # memoised
    assert g.routes("A")["B"] == frozenset({"rail", "air"})
    assert g.joined("C", "D", ["sea"]) and not g.joined("C", "D", ["rail"])
    assert g.kinds == {"rail", "air", "sea"}


def test_distances_and_limit() -> None:
    g = graph()
    assert g.distances("A") == {"A": 0, "B": 1, "C": 1, "D": 2}
    assert g.distances("A", ["rail"]) == {"A": 0, "B": 1, "C": 2}
    assert g.distances("A", limit=1) == {"A": 0, "B": 1, "C": 1}


def test_components() -> None:
    g = graph()
    assert g.components() == [["A", "B", "C", "D"], ["E"]]
    assert not g.is_connected()
    assert g.components(["rail"]) == [["A", "B", "C"], ["D"], ["E"]]
    assert RouteGraph(["A", "B"], [("A", "B", "rail")]).is_connected()


def test_bad_routes() -> None:
    with pytest.raises(ValueError, match="unknown place 'Z'"):
        RouteGraph(["A"], [("A", "Z", "rail")])
    with pytest.raises(ValueError, match="joins a place to itself"):
        RouteGraph(["A"], [("A", "A", "rail")])
