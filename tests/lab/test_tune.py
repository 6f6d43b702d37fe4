"""The tuner: parameters and objectives read from text, trials that are exactly the games
``simulate`` plays, a reproducible and resumable search, rejections and early stops."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import pytest

from spyglass.engine import RulesError
from spyglass.lab import simulate
from spyglass.lab.tune import Objective, Param, parse_objective, parse_param, tune


def test_parameters_from_text() -> None:
    assert parse_param("agent.c=0.3:2") == Param("agent.c", "float", 0.3, 2.0)
    assert parse_param("seat1.iterations=50:400") == Param("seat1.iterations", "int", 50, 400)
    assert parse_param("agent.c=0.05:5:log") == Param("agent.c", "float", 0.05, 5.0, log=True)
    assert parse_param("option.jokers=0,1,2").choices == (0, 1, 2)
    for bad, why in (
        ("agent.c", "NAME=LOW:HIGH"),
        ("agent.c=2:1", "lower first"),
        ("agent.c=0:1:log", "positive lower end"),
        ("option.jokers=1", "two values or more"),
    ):
        with pytest.raises(RulesError, match=why):
            parse_param(bad)
    assert parse_objective("length=40") == Objective("length", 0, 40.0)
    with pytest.raises(RulesError, match="unknown objective"):
        parse_objective("fun")


def test_each_trial_plays_the_games_simulate_plays(tmp_path) -> None:
    result = tune(
        "dead-center", ["option.jokers=0,1,2"], "win-rate", 8, 4, agent="random",
        seed=5, startup=2, out=tmp_path,
    )  # fmt: skip
    assert len(result.trials) == 4
    for trial in result.trials:
        alone = simulate(
            "dead-center", "random", 8, seed=5, options={"jokers": trial.params["option.jokers"]}
        )
        assert trial.value == alone.wins / 8
    assert result.best.value == max(t.value for t in result.trials)
    saved = json.loads((tmp_path / "tune.json").read_text())
    assert saved["best"]["params"] == result.best.params and saved["trials"] == 4
    assert (tmp_path / "trials.csv").read_text().count("\n") == 5
    assert (tmp_path / "history.png").stat().st_size > 0


def test_agent_parameters_and_a_confirmation_on_fresh_deals() -> None:
    result = tune(
        "syndicate", ["agent.iterations=1:4"], "win-rate", 3, 2,
        agent="ismcts:rollout=random,cutoff=0", seed=1, confirm=3, startup=2,
    )  # fmt: skip
    for trial in result.trials:
        spec = f"ismcts:rollout=random,cutoff=0,iterations={trial.params['agent.iterations']}"
        assert trial.value == simulate("syndicate", spec, 3, seed=1).wins / 3
    assert result.confirm is not None and result.confirm.games == 3
    assert result.confirm.seed != 1  # other deals than the tuning ones
    assert result.summary()["confirm"]["value"] == result.confirm.wins / 3


def test_balance_between_seats_is_the_rms_gap_from_the_fair_share() -> None:
    result = tune(
        "espionage", ["option.game_length=short,long"], "balance", 6, 2, agent="random",
        players=3, seed=2, startup=2,
    )  # fmt: skip
    for trial in result.trials:
        length = trial.params["option.game_length"]
        table = simulate(
            "espionage", "random", 6, players=3, seed=2, options={"game_length": length}
        )
        shares = [table.seat_wins(s) / 6 for s in range(3)]
        rms = math.sqrt(sum((s - 1 / 3) ** 2 for s in shares) / 3)
        assert trial.value == pytest.approx(rms)
        assert trial.figures["largest_gap"] == pytest.approx(max(abs(s - 1 / 3) for s in shares))
    with pytest.raises(RulesError, match="multiplayer"):
        tune("syndicate", ["agent.c=0.1:1"], "balance", 2, 1, agent="ismcts")


def test_an_interrupted_study_resumes_to_the_uninterrupted_one(tmp_path) -> None:
    args = ("dead-center", ["option.jokers=0,1,2"], "win-rate", 6, 5)
    kwargs = {"agent": "heuristic", "seed": 9, "startup": 2}
    whole = tune(*args, **kwargs)
    seen = []

    def stop(outcome) -> None:
        seen.append(outcome)
        if len(seen) == 15:  # in the middle of the third trial
            raise KeyboardInterrupt

    part = tune(*args, out=tmp_path, progress=stop, **kwargs)
    assert part.interrupted and 0 < len(part.trials) < 5
    played = []
    rest = tune(*args, out=tmp_path, resume=True, progress=played.append, **kwargs)
    assert [(t.params, t.value) for t in rest.trials] == [(t.params, t.value) for t in whole.trials]
    # a trial repeats its games only when its values are new: of the 15 games played before
    # the cut, none is played again
    settings = {t.params["option.jokers"] for t in whole.trials}
    assert len(played) == 6 * len(settings) - 15


@dataclass(frozen=True, slots=True)
class Doubled:
    """A Setup's task: plays the game and reports it as twice as long (so we can see it ran)."""

    game: object

    def run(self):
        import dataclasses

        outcome = self.game.run()
        return dataclasses.replace(outcome, length=2 * outcome.length)


@dataclass(frozen=True, slots=True)
class LongGames:
    params: tuple = (Param("house.rule", "int", 0, 3),)

    def reject(self, values):
        return "odd rules are not allowed" if values["house.rule"] % 2 else None

    def task(self, values, game):
        return Doubled(game)


def test_a_setup_of_ones_own_rejects_and_wraps() -> None:
    result = tune(
        "syndicate", [], "length", 3, 3, agent="random", seed=4, setup=LongGames(), startup=3
    )
    played = [t for t in result.trials if "rejected" not in t.figures]
    rejected = [t for t in result.trials if "rejected" in t.figures]
    assert len(played) == 3 and all(t.params["house.rule"] % 2 == 0 for t in played)
    assert all(t.params["house.rule"] % 2 == 1 and t.value is None for t in rejected)
    plain = simulate("syndicate", "random", 3, seed=4).mean_length
    assert all(t.value == pytest.approx(2 * plain) for t in played)


def test_poor_trials_stop_at_the_first_rung() -> None:
    result = tune(
        "dead-center", ["option.jokers=0,1,2"], "win-rate", 12, 6, agent="heuristic",
        seed=3, startup=2, rungs=[4],
    )  # fmt: skip
    stopped = [t for t in result.trials if "pruned_at" in t.figures]
    assert all(t.figures["pruned_at"] == 4 and t.value is None for t in stopped)
    assert all(t.value is not None for t in result.trials if t not in stopped)
    assert result.summary()["pruned"] == len(stopped)
