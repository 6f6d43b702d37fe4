"""Joining a running Ray cluster: check the address, and match its token authentication.

``ray.init(address=...)`` on a wrong address retries for minutes with raw log lines; and since
Ray 2.5x a head started with ``ray start`` turns on token authentication whenever a token is
at hand (``~/.ray/auth_token``, which any local ``ray.init()`` writes), while a driver given an
explicit address never does: it is refused (``InvalidAuthToken``) for about 20 s, then fails.
Sending a token to a cluster without authentication fails as well, after a minute.

So before connecting, :func:`prepare_connection` asks the cluster's head (its GCS) for its
cluster id with one gRPC call and a short deadline, first without a token:

- no answer: a one-line error naming the address and the reason, within seconds;
- answered: the cluster has no authentication, and the driver is set to send no token;
- refused for want of a token: the driver looks for one where Ray does (``RAY_AUTH_TOKEN``,
  the file named by ``RAY_AUTH_TOKEN_PATH``, then ``~/.ray/auth_token``), asks again with it,
  and turns token authentication on (``RAY_AUTH_MODE=token``) if it is accepted; with no token
  or a wrong one, a one-line error says where to put the right one.

The setting is made for this process only and undone by :func:`restore` after the run. The
probe needs grpcio (part of ``spyglass[ray]``); without it, or for ``ray://`` (Ray Client)
and ``auto`` addresses, Ray is left to connect as it would.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from spyglass.engine import RulesError

#: How long the head has to answer the probe (seconds).
PROBE_SECONDS = 5.0
AUTH_MODE = "RAY_AUTH_MODE"
TOKEN = "RAY_AUTH_TOKEN"
TOKEN_PATH = "RAY_AUTH_TOKEN_PATH"
_METHOD = "/ray.rpc.NodeInfoGcsService/GetClusterId"
_ADDRESS = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$")


@dataclass(frozen=True, slots=True)
class Connection:
    """How to reach the cluster: whether it wants a token, and the setting to undo later."""

    address: str
    token: bool
    previous_mode: str | None


def find_token() -> tuple[str | None, str]:
    """The token Ray would send, and where it was found (for messages)."""
    value = os.environ.get(TOKEN, "").strip()
    if value:
        return value, f"${TOKEN}"
    path_text = os.environ.get(TOKEN_PATH, "").strip()
    paths = [(Path(path_text).expanduser(), f"${TOKEN_PATH} ({path_text})")] if path_text else []
    paths.append((Path.home() / ".ray" / "auth_token", "~/.ray/auth_token"))
    for path, where in paths:
        try:
            text = path.read_text().strip()
        except OSError:
            continue
        if text:
            return text, where
    return None, "nowhere"


def _probe(address: str, token: str | None) -> tuple[str, str]:
    """('ok' | 'unauthenticated' | 'unreachable' | 'other', detail) for one call to the head."""
    import grpc  # noqa: PLC0415 - only to join a cluster

    channel = grpc.insecure_channel(address)
    try:
        call = channel.unary_unary(
            _METHOD, request_serializer=lambda _: b"", response_deserializer=lambda raw: raw
        )
        metadata = [("authorization", f"Bearer {token}")] if token else None
        call(None, timeout=PROBE_SECONDS, metadata=metadata)
        return "ok", ""
    except grpc.RpcError as error:
        code = error.code()
        detail = (error.details() or str(code)).splitlines()[0]
        if code == grpc.StatusCode.UNAUTHENTICATED:
            return "unauthenticated", detail
        if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            return "unreachable", detail
        return "other", detail
    finally:
        channel.close()


def check_cluster(address: str) -> bool | None:
    """Check that ``address`` is a Ray head this process can join: True if it asks for a
    token (and the one found is accepted), False if it asks for none; a one-line RulesError
    otherwise. None: not checked (see the module)."""
    if (
        address == "auto"
        or address.startswith("ray://")
        or os.environ.get("RAY_USE_TLS")
        in (
            "1",
            "true",
        )
    ):
        return None
    if not _ADDRESS.match(address):
        raise RulesError(f"--address {address!r} is not HOST:PORT (e.g. 10.0.0.5:6379)")
    try:
        import grpc  # noqa: F401, PLC0415 - only to probe
    except ImportError:
        return None
    status, detail = _probe(address, None)
    if status == "unreachable":
        raise RulesError(
            f"no Ray cluster answers at {address} ({detail}); start one with "
            "`ray start --head` or check the address"
        )
    if status == "other":
        raise RulesError(f"{address} does not answer as a Ray cluster's head would ({detail})")
    if status == "ok":
        return False
    value, where = find_token()
    if value is None:
        raise RulesError(
            f"the Ray cluster at {address} uses token authentication and no token was "
            f"found: set {TOKEN}, or {TOKEN_PATH} to a file holding it, or copy it to "
            "~/.ray/auth_token (`ray get-auth-token` prints it on the head)"
        )
    status, detail = _probe(address, value)
    if status != "ok":
        raise RulesError(f"the Ray cluster at {address} refused the token from {where} ({detail})")
    return True


def prepare_connection(address: str) -> Connection | None:
    """Check ``address`` (:func:`check_cluster`) and set this process's token authentication
    to what the cluster asks. None: left to Ray (see the module)."""
    token = check_cluster(address)
    if token is None:
        return None
    previous = os.environ.get(AUTH_MODE)
    _set_mode("token" if token else "disabled")
    return Connection(address, token, previous)


def restore(connection: Connection | None) -> None:
    """Undo :func:`prepare_connection`'s setting (after ``ray.shutdown()``)."""
    if connection is None:
        return
    if connection.previous_mode is None:
        os.environ.pop(AUTH_MODE, None)
    else:
        os.environ[AUTH_MODE] = connection.previous_mode
    _refresh()


def _set_mode(mode: str) -> None:
    os.environ[AUTH_MODE] = mode
    _refresh()


def _refresh() -> None:
    # Ray reads RAY_AUTH_MODE into a cached config; this is how Ray itself refreshes it when
    # it turns authentication on for a process (authentication_token_setup._enable_token_auth).
    try:
        # Private names of Ray's extension, absent from its type stubs and from some releases.
        from ray._raylet import (  # type: ignore[attr-defined]  # noqa: PLC0415
            AuthenticationTokenLoader,
            Config,
        )

        Config.initialize("")
        AuthenticationTokenLoader.instance().reset_cache()
    except (ImportError, AttributeError):  # another Ray: it reads the variable at init
        pass
