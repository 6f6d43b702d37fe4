"""The only exceptions the public API raises on bad input."""

from __future__ import annotations


class SpyglassError(Exception):
    """Base class of every error spyglass raises on purpose."""


class RulesError(SpyglassError, ValueError):
    """Bad set-up: unknown game or option, wrong player count, a malformed stacked deck, ..."""


class IllegalAction(SpyglassError, ValueError):
    """A move the rules forbid. The state it was tried on is left unchanged.

    ``rule`` says which rule forbids it, in a sentence a player can act on; ``action`` is the
    move as it was given (its notation).
    """

    def __init__(self, rule: str, action: str = "") -> None:
        self.rule = rule
        self.action = action
        message = f"{action!r} is not allowed: {rule}" if action else rule
        super().__init__(message)


class ReplayError(RulesError):
    """A record that does not replay. ``step`` is the 1-based action that failed (0: set-up)."""

    def __init__(self, message: str, step: int = 0) -> None:
        self.step = step
        where = "set-up" if step == 0 else f"step {step}"
        super().__init__(f"record fails at {where}: {message}")
