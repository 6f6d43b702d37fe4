"""Small, exact statistics helpers (no third-party dependency needed for these)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError("successes must lie between 0 and trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # at 0 or all successes the bound is exactly 0 or 1: do not leave rounding dust there
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def mcnemar(only_first: int, only_second: int) -> float:
    """The exact two-sided McNemar test of two players on the same deals: the p-value of the
    deals only the first won (``only_first``) against those only the second won, if each of
    these discordant deals were a fair coin's toss. Deals both won or both lost say nothing
    of which plays better, so they do not enter."""
    if only_first < 0 or only_second < 0:
        raise ValueError("the counts of deals cannot be negative")
    n = only_first + only_second
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_first, only_second) + 1))
    return min(1.0, 2 * tail / 2**n)


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def quantile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolation quantile (the same rule as numpy's default)."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


#: The quantiles a distribution reports.
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def stdev(values: Sequence[float]) -> float | None:
    """The sample standard deviation (n - 1), None below two values."""
    if len(values) < 2:
        return None
    centre = sum(values) / len(values)
    return math.sqrt(sum((v - centre) ** 2 for v in values) / (len(values) - 1))


def distribution(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, mean, standard deviation, minimum, the QUANTILES (as "q05", "q25", ...) and
    maximum of ``values``; every figure None when there are none."""
    summary: dict[str, float | int | None] = {
        "count": len(values),
        "mean": mean(values),
        "stdev": stdev(values),
        "min": min(values) if values else None,
    }
    for q in QUANTILES:
        summary[f"q{round(q * 100):02d}"] = quantile(values, q)
    summary["max"] = max(values) if values else None
    return summary
