"""The results of a run do not depend on the back-end, the number of jobs, or interruptions."""

import pytest

from spyglass.engine import RulesError
from spyglass.lab import simulate
from spyglass.lab.runner import batch_size, run_tasks
from spyglass.lab.simulate import GameTask, game_seed


def test_one_and_two_jobs_play_the_same_games() -> None:
    serial = simulate("syndicate", "random", 60, seed=11)
    pooled = simulate("syndicate", "random", 60, seed=11, jobs=2)
    assert pooled.outcomes == serial.outcomes
    assert [o.index for o in pooled.outcomes] == list(range(60))
    assert {o.seed for o in serial.outcomes} == {game_seed(11, i) for i in range(60)}


def test_ray_plays_the_same_games_as_the_process_pool(local_ray) -> None:
    process = simulate("tinker-tailor", ["heuristic", "random"], 12, seed=4, jobs=2)
    ray = simulate("tinker-tailor", ["heuristic", "random"], 12, seed=4, jobs=2, backend="ray")
    assert ray.outcomes == process.outcomes
    assert local_ray.is_initialized()  # a running instance is used, not shut down


def test_ctrl_c_in_a_pool_keeps_what_finished() -> None:
    tasks = [GameTask("syndicate", (), ("random",), 1, 3, i) for i in range(200)]
    seen = []

    def stop(position, outcome) -> None:
        seen.append(position)
        if len(seen) == 20:
            raise KeyboardInterrupt

    run = run_tasks(tasks, jobs=2, on_result=stop)
    assert run.interrupted
    finished = [r for r in run.results if r is not None]
    assert len(finished) == 20 and sorted(r.index for r in finished) == sorted(seen)
    assert all(r == t.run() for r, t in zip(run.results, tasks, strict=True) if r is not None)


def test_batches_stay_small() -> None:
    assert batch_size(10, 2) == 1 and batch_size(100_000, 2) == 32


def test_bad_back_end_or_jobs() -> None:
    with pytest.raises(RulesError, match="unknown back-end"):
        simulate("syndicate", "random", 2, backend="threads")
    with pytest.raises(RulesError, match="at least 1"):
        simulate("syndicate", "random", 2, jobs=0)


def test_a_fixed_batch_of_one_sends_each_task_alone() -> None:
    # Long tasks (strength.py's parts take minutes) travel one at a time, so each result
    # arrives, and is kept, as soon as it is done; the results are the same as in batches.
    tasks = [GameTask("syndicate", (), ("random",), 1, 5, i) for i in range(40)]
    arrivals = []
    single = run_tasks(tasks, jobs=2, batch=1, on_result=lambda p, r: arrivals.append(p))
    batched = run_tasks(tasks, jobs=2)
    assert single.results == batched.results and sorted(arrivals) == list(range(40))
    with pytest.raises(RulesError, match="at least one task"):
        run_tasks(tasks, batch=0)
