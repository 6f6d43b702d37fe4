"""Time budgets of the agents that take one (``milliseconds``): measured on a clock of the
caller's choice.

``cpu`` (the default) counts the process's CPU time, so that a search sharing its core with
others still gets its allowance and a strength run plays alike on a quiet or a busy machine.
``wall`` counts real time: what a server promises its players (a bot's move within the cap,
web/bots.py). On a busy machine a CPU budget can last many times its length in real time (a
bot worker runs at a lower priority than the server), so a server asks for ``wall``."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from spyglass.engine import RulesError

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.monotonic}


def check_clock(clock: str, agent: str) -> str:
    """``clock`` if it names one, else RulesError naming the choices."""
    if clock not in CLOCKS:
        raise RulesError(f"{agent}'s clock is one of {', '.join(CLOCKS)}, not {clock!r}")
    return clock


def check_milliseconds(milliseconds: float | None, agent: str) -> float | None:
    """A time budget as a number of milliseconds (None: no time limit), else RulesError if it
    is not positive."""
    if milliseconds is None:
        return None
    if float(milliseconds) <= 0:
        raise RulesError(f"{agent} needs a positive time budget")
    return float(milliseconds)


@dataclass(frozen=True, slots=True)
class Deadline:
    """When a decision's time budget runs out, on its clock (none: never)."""

    read: Callable[[], float]
    at: float | None

    @classmethod
    def after(cls, milliseconds: float | None, clock: str = "cpu") -> Deadline:
        read = CLOCKS[clock]
        return cls(read, None if milliseconds is None else read() + milliseconds / 1000.0)

    def passed(self) -> bool:
        return self.at is not None and self.read() >= self.at
