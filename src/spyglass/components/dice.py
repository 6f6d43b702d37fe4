"""Dice with any faces: the standard die and special ones such as the average die.

An "average die" (faces 2, 3, 3, 4, 4, 5) was common in wargames: the same mean as a standard
die with a narrower spread. A :class:`Die` rolls with the state's seeded generator, so a roll is
part of a replayable game, and answers the odds questions a bot or a UI asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from spyglass.engine.rng import Rng


@dataclass(frozen=True, slots=True)
class Die:
    """A fair die whose faces are the given numbers (repeats allowed, each equally likely)."""

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError("a die needs at least one face")

    def roll(self, rng: Rng) -> int:
        return self.faces[rng.below(len(self.faces))]

    @property
    def values(self) -> tuple[int, ...]:
        """The distinct results, lowest first."""
        return tuple(sorted(set(self.faces)))

    def chance(self, value: int) -> Fraction:
        """The probability of rolling exactly ``value``."""
        return Fraction(self.faces.count(value), len(self.faces))

    def at_least(self, value: int) -> Fraction:
        """The probability of rolling ``value`` or more."""
        return Fraction(sum(1 for f in self.faces if f >= value), len(self.faces))

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(self.faces), len(self.faces))

    def __str__(self) -> str:
        return "d(" + ",".join(str(f) for f in self.faces) + ")"


STANDARD_DIE = Die((1, 2, 3, 4, 5, 6))
AVERAGE_DIE = Die((2, 3, 3, 4, 4, 5))
