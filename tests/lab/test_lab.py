import pytest

from spyglass.lab import quantile, simulate, wilson_interval


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_quantiles() -> None:
    assert quantile([1, 2, 3, 4], 0.5) == 2.5
    assert quantile([5], 0.9) == 5 and quantile([], 0.5) is None


def test_simulation_is_reproducible_and_counts() -> None:
    first = simulate("sandwich-guy", "heuristic", 40, seed=3)
    second = simulate("sandwich-guy", "heuristic", 40, seed=3)
    assert first.outcomes == second.outcomes
    assert first.games == 40 and 0 < first.wins < 40
    assert first.win_rate == first.wins / 40
    low, high = first.win_interval()
    assert low < first.win_rate < high
    assert all(o.score is not None for o in first.outcomes if o.won)
    assert simulate("sandwich-guy", "heuristic", 40, seed=4).outcomes != first.outcomes


def test_ctrl_c_keeps_the_finished_games() -> None:
    def stop_after_five(outcome) -> None:
        if outcome.index == 4:
            raise KeyboardInterrupt

    result = simulate("syndicate", "random", 100, seed=1, progress=stop_after_five)
    assert result.interrupted and result.games == 5
