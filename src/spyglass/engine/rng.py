"""Seeded randomness that every state owns and clones.

We use our own generator (SplitMix64) rather than :mod:`random` so that a seed means the same
shuffle on every machine and every Python version, and so that cloning a generator copies one
integer.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, MutableSequence, Sequence
from math import factorial
from typing import TypeVar

from .errors import RulesError

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def derive_seed(seed: int, label: str) -> int:
    """A 63-bit seed for the named stream ``label`` of ``seed``, stable across platforms."""
    digest = hashlib.blake2b(f"{seed}/{label}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def fresh_seed() -> int:
    """A new random seed, for callers that do not give one (it is recorded, so games replay)."""
    return secrets.randbits(63)


class Rng:
    """SplitMix64: small, fast, statistically sound for games, trivially cloned."""

    __slots__ = ("_state",)

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        self._state = seed & _MASK

    @classmethod
    def derived(cls, seed: int, label: str) -> Rng:
        return cls(derive_seed(seed, label))

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """The generator at exactly ``state`` (a value ``.state`` gave): it draws what the saved
        generator would have drawn next. (SplitMix64's seed is its state, so this is
        ``Rng(state)``; the name says that a saved generator is restored, not a new one seeded.)"""
        return cls(state)

    def next64(self) -> int:
        self._state = state = (self._state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (Lemire's multiply-shift with rejection: unbiased)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n > _MASK:
            return self._below_big(n)
        product = self.next64() * n
        if (product & _MASK) < n:
            threshold = ((1 << 64) - n) % n
            while (product & _MASK) < threshold:
                product = self.next64() * n
        return product >> 64

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Uniform in-place shuffle.

        One uniform draw of a permutation index in ``range(n!)`` (by rejection from 64-bit
        words, so exactly uniform), read digit by digit in the factorial number system as the
        Fisher–Yates swaps: a few generator steps instead of one per card.
        """
        n = len(items)
        if n < 2:
            return
        index = self._below_big(factorial(n))
        for i in range(n - 1, 0, -1):
            index, j = divmod(index, i + 1)
            items[i], items[j] = items[j], items[i]

    def _below_big(self, bound: int) -> int:
        """A uniform integer in ``range(bound)`` for bounds beyond 64 bits."""
        bits = bound.bit_length()
        words = (bits + 63) // 64
        excess = words * 64 - bits
        while True:
            value = 0
            for _ in range(words):
                value = (value << 64) | self.next64()
            value >>= excess
            if value < bound:
                return value

    def shuffled(self, items: Iterable[T]) -> list[T]:
        """The items in a new uniformly random order that depends only on which items they
        are, not on the order they came in (sorted first): what a determinization needs, so
        no trace of the true order survives."""
        order = sorted(items)  # type: ignore[type-var]  # T is unbounded; callers pass cards
        self.shuffle(order)
        return order

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def spawn(self) -> Rng:
        """An independent generator seeded from this one (advances this one once)."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        return Rng(self._state)

    @property
    def state(self) -> int:
        return self._state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other._state == self._state

    def __hash__(self) -> int:
        return hash(self._state)

    def __repr__(self) -> str:
        return f"Rng(state={self._state:#x})"


def as_rng(rng: Rng | int | None) -> Rng:
    """Accept an :class:`Rng`, an int seed, or ``None`` (a fresh random seed)."""
    if isinstance(rng, Rng):
        return rng
    if rng is None:
        return Rng(fresh_seed())
    if isinstance(rng, bool) or not isinstance(rng, int):
        raise RulesError(f"a random generator is an Rng or a whole-number seed, not {rng!r}")
    return Rng(rng)
