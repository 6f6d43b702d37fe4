"""A run stopped by SIGTERM ends its workers and keeps what finished, as Ctrl-C does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie waiting for its parent counts as gone
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


def test_sigterm_stops_the_pool_and_keeps_what_finished() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.lab.slow_task"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    workers = set()
    assert child.stdout is not None
    while len(workers) < 2:  # both workers have finished a task
        line = child.stdout.readline()
        assert line, "the run ended before both workers reported"
        workers.add(int(line.split()[1]))
    child.send_signal(signal.SIGTERM)
    rest = child.communicate(timeout=60)[0]
    assert child.returncode == 0
    last = rest.strip().splitlines()[-1]
    assert last.startswith("interrupted=True finished=")
    assert 2 <= int(last.split("finished=")[1]) < 400
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers), "workers left running"
