"""When the main process of a run dies, however it is killed, its pool's workers die with it
instead of playing on unseen (Linux)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's"
)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")  # a zombie waiting for its parent counts as gone
    try:
        return "zombie" not in status.read_text()
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["term", "kill"])
def test_the_workers_die_with_the_main_process(stop: signal.Signals) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src")])}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.lab.slow_task"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    workers: set[int] = set()
    try:
        assert child.stdout is not None
        while len(workers) < 2:  # both workers are up and have finished a task
            line = child.stdout.readline()
            assert line, "the run ended before both workers reported"
            workers.add(int(line.split()[1]))
        assert all(alive(pid) for pid in workers)
        child.send_signal(stop)
        child.wait(timeout=30)
        assert child.returncode == -stop
        deadline = time.monotonic() + 20
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers), "workers left running"
    finally:
        child.kill()
        for pid in workers:  # never leave a worker behind, even when the test fails
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
