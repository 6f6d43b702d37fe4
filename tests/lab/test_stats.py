import math

import pytest

from spyglass.lab.stats import distribution, quantile, stdev
from spyglass.lab.summary import rate


def test_distribution_of_known_values() -> None:
    d = distribution([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert d["count"] == 10 and d["mean"] == 5.5 and d["min"] == 1 and d["max"] == 10
    assert d["q50"] == 5.5 and d["q25"] == pytest.approx(3.25) and d["q95"] == pytest.approx(9.55)
    assert d["stdev"] == pytest.approx(math.sqrt(110 / 12))


def test_distribution_of_nothing_is_all_none() -> None:
    d = distribution([])
    assert d["count"] == 0 and d["mean"] is None and d["q50"] is None and d["max"] is None
    assert stdev([3.0]) is None


def test_rate_carries_the_wilson_interval() -> None:
    r = rate(5, 10)
    assert r["rate"] == 0.5 and r["low"] == pytest.approx(0.2366, abs=1e-4)
    assert r["high"] == pytest.approx(0.7634, abs=1e-4)
    assert rate(0, 0)["rate"] is None


def test_quantile_matches_linear_interpolation() -> None:
    values = [7, 1, 3]
    assert quantile(values, 0) == 1 and quantile(values, 1) == 7
    assert quantile(values, 0.25) == 2


def test_wilson_bounds_are_exact_at_the_ends() -> None:
    from spyglass.lab import wilson_interval

    assert wilson_interval(0, 300)[0] == 0.0 and wilson_interval(300, 300)[1] == 1.0


def test_mcnemar_weighs_only_the_deals_one_player_alone_won() -> None:
    from spyglass.lab import mcnemar

    assert mcnemar(0, 0) == 1.0  # nothing tells the two apart
    assert mcnemar(0, 5) == mcnemar(5, 0) == 2 / 32  # five tosses all one way
    assert mcnemar(1, 9) == pytest.approx(2 * (1 + 10) / 1024)
    assert mcnemar(7, 7) == 1.0
    # 53 deals against 31: significant at 5%; 66 against 50: not
    assert mcnemar(53, 31) < 0.05 < mcnemar(66, 50)
    with pytest.raises(ValueError, match="negative"):
        mcnemar(-1, 3)
