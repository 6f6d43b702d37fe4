"""Statistics helpers: intervals, quantiles, and the tests the lab's reports run.

The intervals and quantiles are written out here (small and exact); the tests whose null
distributions are tabled in scipy (binomial, chi-square, t, Wilcoxon) call scipy, imported
only when a test runs, so that the workers that only play games never load it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

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


def rate(successes: int, trials: int) -> dict[str, Any]:
    """A proportion with its Wilson 95% interval, JSON-ready."""
    low, high = wilson_interval(successes, trials)
    return {
        "successes": successes,
        "trials": trials,
        "rate": successes / trials if trials else None,
        "low": low,
        "high": high,
    }


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


def histogram_quantile(counts: Sequence[tuple[float, int]], q: float) -> float | None:
    """:func:`quantile` of the values a histogram holds, sorted (value, how many) pairs, without
    writing every value out (a Spies! run's branching factors are millions of moves)."""
    total = sum(n for _, n in counts)
    if not total:
        return None
    position = (total - 1) * q
    low = math.floor(position)
    high = min(low + 1, total - 1)

    def value_at(rank: int) -> float:
        seen = 0
        for value, n in counts:
            seen += n
            if rank < seen:
                return value
        return counts[-1][0]

    a, b = value_at(low), value_at(high)
    return a + (b - a) * (position - low)


def histogram_distribution(counts: Sequence[tuple[float, int]]) -> dict[str, float | int | None]:
    """:func:`distribution` of a histogram of sorted (value, how many) pairs."""
    total = sum(n for _, n in counts)
    summary: dict[str, float | int | None] = {"count": total, "mean": None, "stdev": None}
    if total:
        centre = sum(v * n for v, n in counts) / total
        summary["mean"] = centre
        if total > 1:
            spread = sum(n * (v - centre) ** 2 for v, n in counts) / (total - 1)
            summary["stdev"] = math.sqrt(spread)
    summary["min"] = counts[0][0] if total else None
    for q in QUANTILES:
        summary[f"q{round(q * 100):02d}"] = histogram_quantile(counts, q)
    summary["max"] = counts[-1][0] if total else None
    return summary


def binomial_test(successes: int, trials: int, p: float) -> float:
    """The exact two-sided binomial test: the p-value of ``successes`` in ``trials`` if each
    succeeds with probability ``p`` (outcomes no likelier than the one seen, summed)."""
    from scipy.stats import binomtest  # noqa: PLC0415 - scipy is imported only when testing

    if trials == 0:
        return 1.0
    return float(binomtest(successes, trials, p).pvalue)


def chi_square_uniform(counts: Sequence[float]) -> tuple[float, float]:
    """Pearson's chi-square statistic of ``counts`` against equal shares, and its p-value."""
    from scipy.stats import chisquare  # noqa: PLC0415

    total = sum(counts)
    if total == 0 or len(counts) < 2:
        return 0.0, 1.0
    statistic, pvalue = chisquare(list(counts))
    return float(statistic), float(pvalue)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: the p-values that control the chance of any false finding
    across the whole family (reject where the adjusted value is below the level)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def paired_proportions(both: int, first: int, second: int, neither: int) -> dict[str, Any]:
    """Two players' win rates on the same deals: ``first`` deals only the first won,
    ``second`` only the second, ``both`` and ``neither``. The difference of the two rates with
    Newcombe's score interval for paired proportions (his method 10: the Wilson intervals of
    each rate combined with the correlation of the pairs) and the exact McNemar test."""
    n = both + first + second + neither
    if n == 0:
        return {"games": 0, "difference": None, "low": None, "high": None, "p": 1.0}
    p1, p2 = (both + first) / n, (both + second) / n
    l1, u1 = wilson_interval(both + first, n)
    l2, u2 = wilson_interval(both + second, n)
    margins = (both + first) * (second + neither) * (both + second) * (first + neither)
    # The correlation of the pairs, with Newcombe's correction when it is positive (without
    # it, deals that all agree would give an interval of width zero).
    agree: float = both * neither - first * second
    if agree > 0:
        agree = max(agree - n / 2, 0.0)
    phi = agree / math.sqrt(margins) if margins else 0.0
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    difference = p1 - p2
    return {
        "games": n,
        "first_rate": p1,
        "second_rate": p2,
        "only_first": first,
        "only_second": second,
        "difference": difference,
        "low": max(-1.0, difference - below),
        "high": min(1.0, difference + above),
        "p": mcnemar(first, second),
        "test": "exact McNemar",
    }


def paired_means(differences: Sequence[float]) -> dict[str, Any]:
    """The mean of paired differences (e.g. one seat's score under two settings, deal by deal)
    with its t interval, the paired t-test, and Wilcoxon's signed-rank test beside it (which
    assumes nothing of the scores' shape)."""
    from scipy.stats import t as student  # noqa: PLC0415
    from scipy.stats import ttest_1samp, wilcoxon  # noqa: PLC0415

    n = len(differences)
    centre = mean(differences)
    result: dict[str, Any] = {
        "games": n,
        "difference": centre,
        "low": None,
        "high": None,
        "p": 1.0,
        "wilcoxon_p": 1.0,
        "test": "paired t",
    }
    if n < 2 or centre is None:
        return result
    spread = stdev(differences) or 0.0
    if spread == 0.0:  # every pair differs by the same amount: no doubt, or no difference
        result.update(low=centre, high=centre, p=1.0 if centre == 0 else 0.0)
        result["wilcoxon_p"] = result["p"]
        return result
    half = float(student.ppf(0.975, n - 1)) * spread / math.sqrt(n)
    result.update(low=centre - half, high=centre + half)
    result["p"] = float(ttest_1samp(list(differences), 0.0).pvalue)
    if any(d != 0 for d in differences):
        result["wilcoxon_p"] = float(wilcoxon(list(differences)).pvalue)
    return result
