"""Check agent specs (``ismcts:iterations=200,c=0.5``) before a single game is played.

``agents.load_spec`` reads every parameter value as a number when it can and as text
otherwise, and hands it to the agent's constructor; a constructor that converts its
parameters itself (``float(c)``) then fails with a bare ``ValueError``, and one that does not
fails later, in the middle of a game, or after hours of them. The lab checks each parameter
against the type the constructor declares, so that ``--agent ismcts:c=abc`` is one line, at
once: ``agent 'ismcts:c=abc': c is a number, not 'abc'``.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Iterable
from typing import Any

from spyglass import agents
from spyglass.engine import Game, RulesError


def _kinds(annotation: Any) -> set[type]:
    """The plain types an annotation allows (``int | None`` -> {int, NoneType})."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return set()
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        found: set[type] = set()
        for arg in typing.get_args(annotation):
            found |= _kinds(arg)
        return found
    return {annotation} if isinstance(annotation, type) else set()


def _fits(value: Any, kinds: set[type]) -> bool:
    if not kinds:
        return True  # nothing declared: the agent checks it, if at all
    if isinstance(value, bool):
        return bool in kinds
    if isinstance(value, int) and (int in kinds or float in kinds):
        return True
    if isinstance(value, float):
        return float in kinds or (int in kinds and value.is_integer())
    return isinstance(value, str) and str in kinds


def _describe(kinds: set[type]) -> str:
    named = kinds - {type(None)}
    if named <= {int, float} and named:
        return "a whole number" if named == {int} else "a number"
    return " or ".join(sorted(k.__name__ for k in named)) or "something else"


def check_agent(spec: str) -> None:
    """Raise a one-line RulesError if ``spec`` names no agent or a parameter it cannot take."""
    name, params = agents.parse_spec(spec)
    cls = agents.AGENTS.get(name)
    if cls is None:
        raise RulesError(f"unknown agent {name!r}; known agents: {', '.join(agents.AGENTS)}")
    try:
        hints = typing.get_type_hints(cls.__init__)
    except Exception:  # an annotation we cannot resolve: check nothing
        hints = {}
    accepted = inspect.signature(cls.__init__).parameters
    # an agent taking ``**names`` (the tuned agent's weights) checks those names itself
    any_name = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values())
    for key, value in params.items():
        named = key in accepted and accepted[key].kind is not inspect.Parameter.VAR_KEYWORD
        if key in ("self", "seed") or not (named or any_name):
            known = [p for p in accepted if p not in ("self", "seed")]
            listed = ", ".join(known) or "none"
            raise RulesError(f"agent {spec!r}: no parameter {key!r} (its parameters: {listed})")
        kinds = _kinds(hints.get(key, inspect.Parameter.empty))
        if not _fits(value, kinds):
            raise RulesError(f"agent {spec!r}: {key} is {_describe(kinds)}, not {value!r}")
    try:
        agents.load_spec(spec)
    except (ValueError, TypeError) as error:  # a check of the agent's own, worded by Python
        raise RulesError(f"agent {spec!r}: {error}") from None


def check_agents(specs: Iterable[str], game: Game | None = None) -> None:
    """:func:`check_agent` for each spec, and, with ``game``, that each agent plays it."""
    for spec in dict.fromkeys(specs):
        check_agent(spec)
        if game is not None:
            agents.check_plays(agents.parse_spec(spec)[0], game)
