"""Bitmasks as sets of small indices: the cells of a grid, the cards of a hand in a solver."""

from __future__ import annotations


def set_bits(mask: int) -> list[int]:
    """The indices set in ``mask``, lowest first (``0b10110`` -> ``[1, 2, 4]``)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
