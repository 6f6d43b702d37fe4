"""Reading records back: replay with errors that name the failing step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import IllegalAction, ReplayError, RulesError
from .state import RECORD_FORMAT, RECORD_VERSION

if TYPE_CHECKING:
    from .registry import Registry
    from .state import State

_FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "options": dict,
    "players": int,
    "seed": int,
    "decks": dict,
    "actions": list,
}


def replay(record: Any, registry: Registry, upto: int | None = None) -> State:
    """Rebuild the recorded state (or the state after ``upto`` actions)."""
    if not isinstance(record, dict):
        raise ReplayError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise ReplayError(f"not a spyglass record (format {record.get('format')!r})")
    version = record.get("version", RECORD_VERSION)  # records from before versions were 1
    if isinstance(version, bool) or not isinstance(version, int):
        raise ReplayError(f"the record's version must be a whole number, not {version!r}")
    if version > RECORD_VERSION:
        raise ReplayError(
            f"the record is version {version}, made by a newer spyglass; this one reads"
            f" versions up to {RECORD_VERSION}: update spyglass to replay it"
        )
    if version < 1:
        raise ReplayError(f"the record's version {version} is unknown (versions start at 1)")
    for key, kind in _FIELDS.items():
        if key not in record:
            raise ReplayError(f"the record has no {key!r}")
        value = record[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ReplayError(f"the record's {key!r} has the wrong type ({type(value).__name__})")
    actions = record["actions"]
    try:
        game = registry.load(record["game"], **record["options"])
        state = game.new_state(players=record["players"], seed=record["seed"], deck=record["decks"])
    except RulesError as error:
        raise ReplayError(str(error)) from None
    stop = len(actions) if upto is None else max(0, min(upto, len(actions)))
    for step, text in enumerate(actions[:stop], start=1):
        if not isinstance(text, str):
            raise ReplayError(f"action {text!r} is not notation text", step)
        try:
            state.apply(text)
        except IllegalAction as error:
            raise ReplayError(str(error), step) from None
    digest = record.get("digest")
    if upto is None and digest is not None and digest != state.digest():
        raise ReplayError(
            "the replayed game does not reach the recorded position (its digest differs):"
            " the record has been altered",
            len(actions),
        )
    return state


def read_record(path: str | Path) -> dict[str, Any]:
    """Load a record file, with errors that say what is wrong with it."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise RulesError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise RulesError(f"{path} is a directory, not a record file") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path} is not a text file") from None
    except OSError as error:
        raise RulesError(f"cannot read {path}: {error.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RulesError(
            f"{path} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    if not isinstance(data, dict):
        raise RulesError(f"{path} holds JSON but not a spyglass record")
    return data


def write_record(state: State, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(json.dumps(state.record(), indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path
