"""The Ray cluster path, for real: a head started with ``ray start`` on loopback, and
``spyglass sim --backend ray --address`` against it.

The head runs as a user's would since Ray 2.5x: a token sits in ``~/.ray/auth_token`` (any
local ``ray.init()`` writes one), so ``ray start`` turns token authentication on, while a driver
given an explicit address does not; spyglass must find the token and connect. Its games must be
the process pool's, byte for byte. A wrong address, and a cluster whose token we lack, must
fail at once with one line and exit code 2. With CI set nothing here may be skipped.

The head lives in a home, a temporary folder and ports of its own, so it meets no other Ray on
the machine, and it is stopped by its process group (never ``ray stop``, which would end every
Ray of the user's). Nothing here can hang CI: the head has ``START_SECONDS`` to answer, its
stop ``STOP_SECONDS`` before its whole group is killed, every ``spyglass sim`` a subprocess
timeout, and each test a pytest-timeout limit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: How long ``ray start`` has to bring up a head that answers, and how long the head has to
#: stop on SIGTERM before its process group is killed (seconds).
START_SECONDS = 120
STOP_SECONDS = 15
#: Each ``spyglass sim`` here (seconds): a run against the cluster takes about a minute on a
#: loaded machine, an error a few seconds.
SIM_SECONDS = 240
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def _ray_executable() -> str | None:
    beside = Path(sys.executable).with_name("ray")
    if beside.exists():
        return str(beside)
    return shutil.which("ray")


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the Ray cluster test may not be skipped)")
    pytest.skip(reason)


def _free_ports(count: int) -> list[int]:
    sockets, ports = [], []
    for _ in range(count):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
        ports.append(s.getsockname()[1])
    for s in sockets:
        s.close()
    return ports


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("RAY_") or key == "RAY_USE_TLS"
    }
    env.update(
        HOME=str(home),
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")]),
        RAY_USAGE_STATS_ENABLED="0",
        COLUMNS="1000",  # an error is one line: let no terminal width fold it
        **extra,
    )
    return env


def _sim(
    env: dict[str, str], *args: str, timeout: float = SIM_SECONDS
) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "spyglass", "sim", "syndicate", "--agent", "random"]
    return subprocess.run(
        [*command, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _head_report(head: subprocess.Popen, temp: Path) -> str:
    """What the head says about itself, for a failure's message: whether it still runs, the
    end of its log and the exits Ray recorded (a head starved on a loaded machine may die)."""
    state = "running" if head.poll() is None else f"ended with {head.returncode}"
    parts = [f"the head is {state}", (temp / "head.log").read_text(errors="replace")[-1500:]]
    parts += [
        path.read_text(errors="replace")[-1500:]
        for path in temp.glob("session_*/logs/ray_process_exit.log")
    ]
    return "\n".join(parts)


@pytest.fixture(scope="module")
def ray_head():
    try:
        import grpc  # noqa: F401
        import ray  # noqa: F401
    except ImportError as error:
        _missing(f"Ray or grpcio is not installed ({error}): pip install 'spyglass[ray]'")
    executable = _ray_executable()
    if executable is None:
        _missing("the `ray` command is not on the path")
    home = Path(tempfile.mkdtemp(prefix="sg-ray-home-"))
    token = uuid.uuid4().hex
    (home / ".ray").mkdir()
    (home / ".ray" / "auth_token").write_text(token)
    # Ray's socket paths must stay short: a temporary folder of its own, near the root.
    temp = Path(tempfile.mkdtemp(prefix="sgray", dir="/tmp"))
    gcs, agent, agent_grpc, metrics, runtime_env, client = _free_ports(6)
    command = [
        executable, "start", "--head", "--block", "--node-ip-address=127.0.0.1",
        f"--port={gcs}", "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
        f"--temp-dir={temp}", f"--dashboard-agent-listen-port={agent}",
        f"--dashboard-agent-grpc-port={agent_grpc}", f"--metrics-export-port={metrics}",
        f"--runtime-env-agent-port={runtime_env}", f"--ray-client-server-port={client}",
    ]  # fmt: skip
    log = (temp / "head.log").open("w")
    head = subprocess.Popen(
        command, env=_env(home), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    address = f"127.0.0.1:{gcs}"
    try:
        from spyglass.lab.cluster import _probe

        deadline = time.monotonic() + START_SECONDS
        while True:
            if head.poll() is not None:
                pytest.fail(f"`ray start` ended: {(temp / 'head.log').read_text()[-2000:]}")
            if _probe(address, token)[0] == "ok":
                break
            if time.monotonic() > deadline:
                pytest.fail(f"no Ray head on {address}: {(temp / 'head.log').read_text()[-2000:]}")
            time.sleep(1)
        # the head really asks for the token, as in the report (ray start found ~/.ray's)
        assert _probe(address, None)[0] == "unauthenticated"
        yield address, home, lambda: _head_report(head, temp)
    finally:
        try:
            os.killpg(head.pid, signal.SIGTERM)
            head.wait(timeout=STOP_SECONDS)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)  # anything of the head's still there
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=STOP_SECONDS)
        log.close()
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(temp, ignore_errors=True)


def test_a_sim_on_a_ray_start_head_is_the_process_pool_byte_for_byte(ray_head, tmp_path) -> None:
    address, home, report = ray_head
    env = _env(home)  # the token is in ~/.ray/auth_token, and RAY_AUTH_MODE is not set
    on_ray = _sim(
        env, "--games", "40", "--seed", "3", "--backend", "ray", "--address", address,
        "--out", str(tmp_path / "ray"),
    )  # fmt: skip
    assert on_ray.returncode == 0, f"{on_ray.stderr[-3000:]}\n{report()}"
    assert "InvalidAuthToken" not in on_ray.stderr
    pool = _sim(env, "--games", "40", "--seed", "3", "--jobs", "2", "--out", str(tmp_path / "pool"))
    assert pool.returncode == 0, pool.stderr[-3000:]
    for name in ("games.jsonl", "summary.json", "games.csv", "seats.csv", "run.json"):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "pool" / name).read_bytes()


def test_a_cluster_whose_token_we_lack_is_one_line_at_once(ray_head, tmp_path) -> None:
    address, _, report = ray_head
    stranger = tmp_path / "home"
    stranger.mkdir()
    started = time.monotonic()
    result = _sim(_env(stranger), "--games", "2", "--backend", "ray", "--address", address)
    assert result.returncode == 2
    assert time.monotonic() - started < 60
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "token authentication" in lines[0], f"{lines}\n{report()}"
    assert "RAY_AUTH_TOKEN" in lines[0]
    wrong = _sim(
        _env(stranger, RAY_AUTH_TOKEN="not-the-token"), "--games", "2", "--backend", "ray",
        "--address", address,
    )  # fmt: skip
    assert wrong.returncode == 2 and "refused the token from $RAY_AUTH_TOKEN" in wrong.stderr


def test_a_wrong_address_is_one_line_at_once(tmp_path) -> None:
    try:
        import grpc  # noqa: F401
        import ray  # noqa: F401
    except ImportError as error:
        _missing(f"Ray or grpcio is not installed ({error})")
    (port,) = _free_ports(1)
    started = time.monotonic()
    result = _sim(
        _env(tmp_path), "--games", "2", "--backend", "ray", "--address", f"127.0.0.1:{port}"
    )
    assert result.returncode == 2
    assert time.monotonic() - started < 60
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and f"no Ray cluster answers at 127.0.0.1:{port}" in lines[0]
    bad = _sim(_env(tmp_path), "--games", "2", "--backend", "ray", "--address", "localhost")
    assert bad.returncode == 2 and "is not HOST:PORT" in bad.stderr
