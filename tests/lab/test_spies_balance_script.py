"""benchmarks/spies_balance.py: a trial's values become a pieces.toml the edition's own loader
accepts (or a reason to reject them), and a game on them plays on exactly that edition."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from benchmarks import spies_balance as balance

import spyglass
from spyglass.games.spies import rules
from spyglass.lab.play import GameTask


def values(**changes: int) -> dict[str, int]:
    chosen = balance.current_values(balance.LEVERS)
    chosen.update(changes)
    return chosen


def test_the_shipped_values_round_trip() -> None:
    for levers in [balance.LEVERS, balance.DEFAULT_LEVERS, ("secrets", "spies")]:
        shipped = balance.current_values(levers)
        assert balance.pieces_text(shipped) == balance._read("pieces.toml")
        assert balance.EditionSetup(balance.space(levers)).reject(shipped) is None
        assert {p.name for p in balance.space(levers)} == set(shipped)
        assert balance.levers_of(shipped) == levers
    for levers, guess in balance.GUESSES.items():
        assert balance.levers_of(guess) == levers
        assert balance.EditionSetup(balance.space(levers)).reject(guess) is None


def test_an_unknown_lever_is_refused() -> None:
    with pytest.raises(spyglass.RulesError, match="no such lever: tiles"):
        balance.space(("spies", "tiles"))


def test_values_outside_what_the_rulebook_leaves_are_rejected() -> None:
    setup = balance.EditionSetup(balance.space(balance.LEVERS))
    too_many = values(**{"secrets.Germany": 9, "secrets.Russia": 9, "secrets.France": 9})
    assert "Britain would draw -1 Secrets" in setup.reject(too_many)  # 32 - (9 + 6 + 9 + 9)
    text = balance.pieces_text(values(**{"spies.Italy": 6, "secrets.Italy": 8}))
    line = next(row for row in text.splitlines() if 'name = "Italy"' in row)
    assert "spies = [2, 2, 2]" in line and "secrets = 8" in line
    britain = next(row for row in text.splitlines() if 'name = "Britain"' in row)
    assert "secrets = 4" in britain  # 32 - (7 + 8 + 7 + 6)
    # police strengths move a point at a time as the spies' do; the number of units stays
    text = balance.pieces_text(values(**{"police.Britain": 6, "police.Germany": 13}))
    britain = next(row for row in text.splitlines() if 'name = "Britain"' in row)
    germany = next(row for row in text.splitlines() if 'name = "Germany"' in row)
    assert "police = [2, 2, 1, 1]" in britain and "police = [3, 3, 3, 2, 2]" in germany
    assert "spies = [3, 3, 2, 1]" in britain  # untouched
    assert balance.adjust([3, 3, 2, 1], 8) == [3, 2, 2, 1]
    assert balance.adjust([3, 3, 2, 1], 10) == [3, 3, 2, 2]
    assert balance.adjust([2, 2, 1], 4) == [2, 1, 1] and balance.adjust([2, 2, 1], 9) == [3, 3, 3]
    # the edition's ruling: Germany's and Britain's spies the strongest, Italy's the weakest
    assert "outdo Germany's or Britain's" in setup.reject(
        values(**{"spies.Russia": 9, "spies.Britain": 8})
    )
    assert "Italy's spies" in setup.reject(values(**{"spies.Italy": 7, "spies.France": 6}))


@dataclass(frozen=True, slots=True)
class Probe:
    """Stands for a game: sets one up and reports the Secrets each power drew."""

    def run(self) -> dict[str, int]:
        state = spyglass.load("spies").new_state(players=5, seed=1)
        return {power: len(cards) for power, cards in state.hand_secrets.items()}


def test_a_game_plays_on_the_trial_s_edition_and_the_edition_is_put_back() -> None:
    before = rules.EDITION
    text = balance.pieces_text(values(**{"secrets.Italy": 8, "secrets.Germany": 5}))
    drawn = balance.EditionTask(text, Probe()).run()
    assert drawn["Italy"] == 8 and drawn["Germany"] == 5 and drawn["Russia"] == 7
    assert rules.EDITION is before
    task = GameTask("spies", (), ("heuristic", "random"), 2, 3, 0)
    same = balance.EditionTask(balance.pieces_text(balance.current_values()), task).run()
    assert same == task.run()
