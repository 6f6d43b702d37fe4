"""benchmarks/spies_balance.py: a trial's values become a pieces.toml the edition's own loader
accepts (or a reason to reject them), and a game on them plays on exactly that edition."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

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
        # the studies' guesses by hand were made under the ruling's first form (spies only,
        # ties allowed); each still makes an edition the loader accepts
        balance._edition(balance.pieces_text(guess))


def test_an_unknown_lever_is_refused() -> None:
    with pytest.raises(spyglass.RulesError, match="no such lever: tiles"):
        balance.space(("spies", "tiles"))


def test_values_outside_what_the_rulebook_leaves_are_rejected() -> None:
    setup = balance.EditionSetup(balance.space(balance.LEVERS))
    too_many = values(**{"secrets.Germany": 9, "secrets.Russia": 9, "secrets.France": 9})
    assert "Britain would draw -3 Secrets" in setup.reject(too_many)  # 32 - (9 + 8 + 9 + 9)
    text = balance.pieces_text(values(**{"spies.Italy": 6, "secrets.Italy": 8}))
    line = next(row for row in text.splitlines() if 'name = "Italy"' in row)
    assert "spies = [2, 2, 2]" in line and "secrets = 8" in line
    britain = next(row for row in text.splitlines() if 'name = "Britain"' in row)
    assert "secrets = 5" in britain  # 32 - (6 + 8 + 7 + 6)
    # police strengths move a point at a time as the spies' do; the number of units stays
    text = balance.pieces_text(values(**{"police.Britain": 6, "police.Germany": 13}))
    britain = next(row for row in text.splitlines() if 'name = "Britain"' in row)
    germany = next(row for row in text.splitlines() if 'name = "Germany"' in row)
    assert "police = [2, 2, 1, 1]" in britain and "police = [3, 3, 3, 2, 2]" in germany
    assert "spies = [2, 2, 2, 1]" in britain  # untouched
    assert balance.adjust([3, 3, 2, 1], 8) == [3, 2, 2, 1]
    assert balance.adjust([3, 3, 2, 1], 10) == [3, 3, 2, 2]
    assert balance.adjust([2, 2, 1], 4) == [2, 1, 1] and balance.adjust([2, 2, 1], 9) == [3, 3, 3]
    # the edition's ruling: Germany's and Britain's spies the strongest, Italy's the weakest
    assert "equal or outdo Germany's or Britain's (spies:" in setup.reject(
        values(**{"spies.Russia": 9, "spies.Britain": 8})
    )
    assert "Italy's service" in setup.reject(values(**{"spies.Italy": 6, "spies.France": 6}))
    # ... on all the pieces too (spies, Cousin and police), and strictly: Russia's police one
    # point up ties Britain (6 + 2 + 9 = 7 + 2 + 8), as the edition before balancing did
    tie = setup.reject(values(**{"police.Russia": 9}))
    assert "equal or outdo Germany's or Britain's (spies, Cousin and police:" in tie
    before = {"spies.Germany": 9, "spies.Britain": 9, "spies.Russia": 7, "police.Russia": 10}
    assert "(spies, Cousin and police:" in setup.reject(values(**before))  # 19 = 19
    assert setup.reject(values(**{"police.Russia": 7})) is None


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


def test_money_chits_and_the_number_of_spies_are_levers_too() -> None:
    setup = balance.EditionSetup(balance.space(balance.LEVERS))

    def line(text: str, power: str) -> str:
        return next(row for row in text.splitlines() if f'name = "{power}"' in row)

    text = balance.pieces_text({"abroad.Italy": 4, "chits.Italy": 4, "money.Italy": 31})
    italy = line(text, "Italy")
    assert "spies = [2, 2, 1, 1]" in italy and "foreign_spies = 4" in italy
    assert "chits = 4" in italy and "money = 31" in italy
    assert line(text, "France") == line(balance._read("pieces.toml"), "France")
    # a spy taken is the weakest; a total set beside the count is spread over the new count
    germany = line(balance.pieces_text({"abroad.Germany": 3}), "Germany")
    assert "spies = [2, 2, 2]" in germany and "foreign_spies = 3" in germany
    both = line(balance.pieces_text({"abroad.Italy": 4, "spies.Italy": 5}), "Italy")
    assert "spies = [2, 1, 1, 1]" in both
    # the loader takes the new line: Italy really has four spies, and may start four abroad
    edition = balance._edition(text)
    italian = next(p for p in edition.powers if p.name == "Italy")
    assert (italian.spies, italian.foreign_spies, italian.chits) == ((2, 2, 1, 1), 4, 4)
    assert setup.reject({"abroad.Italy": 4, "spies.Italy": 5}) is None
    # the ruling is judged on the strengths that result, whichever lever changed them
    assert "Italy's service" in setup.reject({"abroad.Italy": 4})  # 2 2 1 1 = 6, France's 6
    assert "outdo Germany's or Britain's" in setup.reject({"abroad.Germany": 3})  # 6, Russia's 6


def test_a_focused_study_searches_named_levers_over_fixed_values(tmp_path: Path) -> None:
    params = balance.chosen_params(["spies.Britain=7:8", "police.Germany=9:9,abroad.Italy=3:4"])
    assert [(p.name, p.low, p.high) for p in params] == [
        ("spies.Britain", 7, 8), ("police.Germany", 9, 9), ("abroad.Italy", 3, 4),
    ]  # fmt: skip
    for bad, message in [
        ("spies.Britain=7:10", "must lie within 6:9"),
        ("spies.Britain=8", "expected LOW:HIGH"),
        ("spies.Britan=7:9", "one of the levers"),
    ]:
        with pytest.raises(spyglass.RulesError, match=message):
            balance.chosen_params([bad])
    fixed = balance.whole_values(["chits.Italy=4", "money.Italy=30"], "--fixed")
    setup = balance.EditionSetup(params, fixed)
    task = setup.task({"spies.Britain": 7, "police.Germany": 9, "abroad.Italy": 4}, Probe())
    italy = next(row for row in task.pieces.splitlines() if 'name = "Italy"' in row)
    assert "chits = 4" in italy and "money = 30" in italy and "foreign_spies = 4" in italy
    # confirm reads a trial's values with the study's fixed ones under them
    (tmp_path / "tune.json").write_text(
        '{"best": {"params": {"spies.Britain": 7}}, "history": [{"number": 3, "params": '
        '{"spies.Britain": 8, "chits.Italy": 3}}]}'
    )
    (tmp_path / balance.FIXED_FILE).write_text('{"chits.Italy": 4}')
    assert balance.trial_values(tmp_path, None) == {"chits.Italy": 4, "spies.Britain": 7}
    assert balance.trial_values(tmp_path, 3) == {"chits.Italy": 3, "spies.Britain": 8}


def test_confirm_takes_a_study_or_values_not_both() -> None:
    for source, given in [(None, []), (Path("runs/x"), ["spies.Britain=8"])]:
        with pytest.raises(spyglass.RulesError, match="either --from"):
            balance.confirm(argparse.Namespace(source=source, values=given, trial=None))
