"""The sentences games write: a number with its word in the right number."""

from spyglass.engine import plural


def test_plural() -> None:
    assert plural(1, "card") == "1 card"
    assert plural(0, "card") == "0 cards"
    assert plural(2, "city", "cities") == "2 cities"
    assert plural(1, "city", "cities") == "1 city"
