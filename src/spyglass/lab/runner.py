"""Run many independent tasks on a back-end: in this process, a process pool, or Ray.

A task is any picklable object with a ``run()`` method. Every task carries its own seed, so what
it returns does not depend on which worker runs it or when: the back-ends differ only in speed.
Tasks are sent in small batches (one message per batch, not per game) and the results come back
as batches finish; ``on_result`` sees each one in the main process. Ctrl-C (or a
``KeyboardInterrupt`` raised by ``on_result``) stops the run: the workers are stopped, and
the results that had arrived are kept. If the main process dies instead (``kill``, a batch
system's stop, a crash), a pool's workers die with it (on Linux), rather than play on unseen.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Protocol

from spyglass.engine import RulesError

from .cluster import prepare_connection, restore

BACKENDS = ("process", "ray")
#: At most this many tasks in one batch: small enough for a lively progress bar.
MAX_BATCH = 32
#: Aim for this many batches per worker, so that uneven tasks still balance.
BATCHES_PER_WORKER = 16


class Task(Protocol):
    def run(self) -> Any: ...


@dataclass(slots=True)
class RunOutcome:
    """The results by task position (None where a task did not finish) and whether the run was
    interrupted."""

    results: list[Any]
    interrupted: bool = False


def check_backend(backend: str, jobs: int) -> None:
    if backend not in BACKENDS:
        raise RulesError(f"unknown back-end {backend!r}; choose one of {', '.join(BACKENDS)}")
    if jobs < 1:
        raise RulesError("--jobs must be at least 1")


def batch_size(tasks: int, jobs: int) -> int:
    return max(1, min(MAX_BATCH, tasks // (jobs * BATCHES_PER_WORKER)))


def run_batch(batch: Sequence[tuple[int, Task]]) -> list[tuple[int, Any]]:
    """Run one batch of (position, task) pairs; a worker's whole job."""
    return [(position, task.run()) for position, task in batch]


def run_tasks(
    tasks: Sequence[Task],
    *,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    on_result: Callable[[int, Any], None] | None = None,
    batch: int | None = None,
) -> RunOutcome:
    """Run ``tasks`` and return their results in task order.

    ``backend="process"`` uses a standard-library process pool of ``jobs`` workers (with one job,
    the tasks run in this process); ``backend="ray"`` sends them to the Ray cluster at
    ``address``, or to the one already initialised in this process, or to a local one of
    ``jobs`` CPUs started (and stopped) for this run. ``batch`` fixes how many tasks travel
    together (default: a size that balances many small tasks; 1 suits tasks of minutes each).
    """
    check_backend(backend, jobs)
    outcome = RunOutcome(results=[None] * len(tasks))

    def record(position: int, result: Any) -> None:
        outcome.results[position] = result
        if on_result is not None:
            on_result(position, result)

    numbered = list(enumerate(tasks))
    if batch is not None and batch < 1:
        raise RulesError("a batch holds at least one task")
    size = batch or batch_size(len(numbered), jobs)
    batches = [numbered[i : i + size] for i in range(0, len(numbered), size)]
    try:
        if not batches:
            pass
        elif backend == "ray":
            _run_on_ray(batches, jobs, address, record)
        elif jobs == 1:
            for group in batches:
                for position, result in run_batch(group):
                    record(position, result)
        else:
            _run_on_pool(batches, jobs, record)
    except KeyboardInterrupt:
        outcome.interrupted = True
    return outcome


#: prctl's option that asks the kernel to send a signal when the parent process dies (Linux).
PR_SET_PDEATHSIG = 1


def _start_worker(parent: int) -> None:
    """A pool worker's first act. Ctrl-C reaches every process of the terminal's group: the
    main process alone handles it (it stops the pool), so a worker never dies half-way through
    a result. And the worker asks to be ended when the main process dies, whatever kills it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # a mask inherited from the parent must not block it
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    _end_with_parent(parent)


def _end_with_parent(parent: int) -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        arguments = (PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)  # unsigned longs, as read
        libc.prctl(*(ctypes.c_ulong(a) for a in arguments))
    except (OSError, AttributeError):  # no C library to ask: the worker may outlive its parent
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os.kill(os.getpid(), signal.SIGTERM)


def _run_on_pool(
    batches: list[list[tuple[int, Task]]], jobs: int, record: Callable[[int, Any], None]
) -> None:
    # "spawn" starts clean interpreters: forking a process that runs a progress-bar thread
    # (rich) or holds Ray's threads can deadlock. (A script that calls this must guard its
    # entry point with ``if __name__ == "__main__":``, as for any spawning pool; a worker
    # that cannot start breaks the pool with an error instead of hanging.)
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        min(jobs, len(batches)),
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )
    try:
        pending = {pool.submit(run_batch, batch) for batch in batches}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for position, result in future.result():
                    record(position, result)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the games still being played, rather than wait for them to finish."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _run_on_ray(
    batches: list[list[tuple[int, Task]]],
    jobs: int,
    address: str | None,
    record: Callable[[int, Any], None],
) -> None:
    try:
        import ray  # noqa: PLC0415 - an optional dependency, only for this back-end
    except ImportError:
        raise RulesError("the ray back-end needs Ray: pip install 'spyglass[ray]'") from None
    started = False
    connection = None
    if not ray.is_initialized():
        if address:
            connection = prepare_connection(address)  # a wrong address fails here, at once
            try:
                ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                restore(connection)
                first = (str(error).strip().splitlines() or [type(error).__name__])[0]
                raise RulesError(f"could not join the Ray cluster at {address}: {first}") from None
        else:
            ray.init(
                num_cpus=jobs,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=False,
            )
        started = True
    remote = ray.remote(num_cpus=1)(run_batch)
    pending = [remote.remote(batch) for batch in batches]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    results = ray.get(ref)
                except ray.exceptions.RayError as error:
                    if "No module named 'spyglass" in str(error):
                        raise RulesError(
                            "the Ray cluster's workers cannot import spyglass: install it on "
                            "every node (the same version as here)"
                        ) from None
                    raise
                for position, result in results:
                    record(position, result)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
            restore(connection)
