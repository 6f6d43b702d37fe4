from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from spyglass.components.dice import AVERAGE_DIE, STANDARD_DIE, Die
from spyglass.engine import Rng


def test_average_die_faces_and_odds() -> None:
    assert AVERAGE_DIE.faces == (2, 3, 3, 4, 4, 5)
    assert AVERAGE_DIE.values == (2, 3, 4, 5)
    assert AVERAGE_DIE.mean == STANDARD_DIE.mean == Fraction(7, 2)
    assert AVERAGE_DIE.chance(3) == Fraction(1, 3)
    assert AVERAGE_DIE.at_least(4) == Fraction(1, 2)
    assert str(AVERAGE_DIE) == "d(2,3,3,4,4,5)"


def test_rolls_are_seeded_and_fair() -> None:
    rolls = [AVERAGE_DIE.roll(Rng(5)) for _ in range(3)]
    assert len(set(rolls)) == 1  # the same seed, the same roll
    rng = Rng(11)
    counts = Counter(AVERAGE_DIE.roll(rng) for _ in range(6000))
    assert set(counts) == {2, 3, 4, 5}
    assert 850 < counts[2] < 1150 and 1800 < counts[3] < 2200


def test_a_die_needs_faces() -> None:
    with pytest.raises(ValueError):
        Die(())
