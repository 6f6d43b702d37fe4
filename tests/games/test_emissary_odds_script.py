"""benchmarks/emissary_odds.py: its hands are the sizes asked for, dealt from the debate cards,
and its figures come out for each size; sizes outside 1 to 16 are refused."""

from __future__ import annotations

import sys

import pytest
from benchmarks import emissary_odds

from spyglass.games.emissary.rules import DEBATE_CARDS


def test_each_hand_is_the_size_asked_for_and_the_pool_is_the_rest_of_the_deck() -> None:
    for hand, trump, pool, limit, hearts in emissary_odds.cases(6, 4, seed=1):
        assert len(hand) == 6 and list(hand) == sorted(hand)
        assert sorted(hand + pool) == sorted(DEBATE_CARDS)
        assert 0 <= trump < 4 and limit == 8 and hearts
    assert emissary_odds.cases(6, 4, seed=1) == emissary_odds.cases(6, 4, seed=1)
    assert emissary_odds.cases(6, 4, seed=1) != emissary_odds.cases(6, 4, seed=2)


def test_a_row_per_size(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["emissary_odds.py", "--sizes", "2,5", "--hands", "2"])
    emissary_odds.main()
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].split() == ["cards", "ms", "per", "table", "tables/s", "ms", "in", "a", "batch"]
    assert [row.split()[0] for row in rows[1:]] == ["2", "5"]
    assert all(float(row.split()[1]) >= 0 and float(row.split()[3]) >= 0 for row in rows[1:])


def test_a_batch_must_hold_a_hand(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["emissary_odds.py", "--batch", "0"])
    with pytest.raises(SystemExit) as raised:
        emissary_odds.main()
    assert raised.value.code == 2
    assert "--batch" in capsys.readouterr().err


@pytest.mark.parametrize("sizes", ["0-3", "17", "a-b", "3,x"])
def test_sizes_outside_one_to_sixteen_are_refused(
    sizes: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["emissary_odds.py", "--sizes", sizes])
    with pytest.raises(SystemExit) as raised:
        emissary_odds.main()
    assert raised.value.code == 2
    assert "--sizes" in capsys.readouterr().err
