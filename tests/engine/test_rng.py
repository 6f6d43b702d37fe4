"""The seeded generator: fixed outputs (so a seed means the same game everywhere), uniformity."""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from spyglass.engine import Rng, derive_seed


def test_splitmix64_reference_outputs() -> None:
    # SplitMix64's published first outputs for seed 0: a different machine or Python version
    # must produce exactly these, or recorded games would not replay.
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_derived_seeds_are_fixed_and_distinct() -> None:
    assert derive_seed(7, "deck/deck") == derive_seed(7, "deck/deck")
    assert derive_seed(7, "deck/deck") != derive_seed(7, "play")
    assert derive_seed(7, "play") != derive_seed(8, "play")
    assert 0 <= derive_seed(123, "x") < 2**63


def test_clone_continues_identically() -> None:
    rng = Rng(42)
    rng.next64()
    twin = rng.clone()
    assert [rng.below(1000) for _ in range(20)] == [twin.below(1000) for _ in range(20)]


def test_from_state_restores_a_saved_generator() -> None:
    rng = Rng(2026)
    for _ in range(5):
        rng.next64()
    saved = rng.state
    expected = [rng.below(52) for _ in range(30)]
    restored = Rng.from_state(saved)
    assert restored.state == saved
    assert [restored.below(52) for _ in range(30)] == expected
    # a generator seeded with the same number is a different generator only if seeding mixed
    # the seed; SplitMix64's does not, so the two agree: from_state names the intent
    assert Rng.from_state(saved) == Rng(saved)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=10**30))
def test_below_stays_in_range(seed: int, bound: int) -> None:
    rng = Rng(seed)
    assert all(0 <= rng.below(bound) < bound for _ in range(5))


@given(st.integers(min_value=0, max_value=2**63), st.lists(st.integers(), max_size=60))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)


def test_shuffle_is_uniform_over_small_permutations() -> None:
    rng = Rng(2024)
    counts: Counter[tuple[int, ...]] = Counter()
    trials = 48_000
    for _ in range(trials):
        items = [0, 1, 2, 3]
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    expected = trials / 24
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 49.7  # 99.9th percentile of chi-square with 23 degrees of freedom


def test_below_is_uniform() -> None:
    rng = Rng(5)
    counts = Counter(rng.below(6) for _ in range(60_000))
    chi2 = sum((n - 10_000) ** 2 / 10_000 for n in counts.values())
    assert len(counts) == 6 and chi2 < 20.5  # 99.9th percentile, 5 degrees of freedom


def test_random_floats_and_choice() -> None:
    rng = Rng(9)
    values = [rng.random() for _ in range(1000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert 0.4 < sum(values) / len(values) < 0.6
    assert rng.choice("abc") in "abc"


def test_shuffled_depends_only_on_the_contents() -> None:
    from spyglass.engine.rng import Rng

    items = [5, 3, 9, 1, 7, 2]
    first = Rng(42).shuffled(items)
    again = Rng(42).shuffled(list(reversed(items)))
    assert first == again and sorted(first) == sorted(items)
    assert items == [5, 3, 9, 1, 7, 2]  # the input is left alone
    assert Rng(43).shuffled(items) != first
