"""Bitmasks as sets of indices."""

from hypothesis import given
from hypothesis import strategies as st

from spyglass.components.bits import set_bits


def test_set_bits_lists_the_indices_lowest_first() -> None:
    assert set_bits(0) == []
    assert set_bits(0b10110) == [1, 2, 4]
    assert set_bits(1 << 52 | 1) == [0, 52]


@given(st.sets(st.integers(min_value=0, max_value=200)))
def test_set_bits_inverts_building_a_mask(indices: set[int]) -> None:
    mask = sum(1 << i for i in indices)
    assert set_bits(mask) == sorted(indices)
