"""A task for the runner's signal tests: it sleeps, then names the process that ran it.
Run as a script, it runs many of them on a pool and prints each worker's process id as a
result arrives."""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import dataclass

from spyglass.lab.runner import run_tasks


@dataclass(frozen=True)
class SlowTask:
    seconds: float

    def run(self) -> int:
        time.sleep(self.seconds)
        return os.getpid()


def main() -> None:
    # a test runner may block SIGTERM in its threads, and a child inherits that mask
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

    def arrived(position: int, pid: int) -> None:
        print(f"worker {pid}", flush=True)

    run_tasks([SlowTask(0.2) for _ in range(600)], jobs=2, batch=1, on_result=arrived)


if __name__ == "__main__":
    sys.exit(main())
