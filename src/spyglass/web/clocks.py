"""Clocks: how much time each person's seat has left, whose clock runs, and what running out
of time does to a table. Pure arithmetic on server time (seconds since 1970); the database
rows are :mod:`.clockstore`'s, the time-outs are applied by :mod:`.timeouts`.

Two kinds of clock, chosen when a table is made:

- **real-time** (``realtime``): each person's seat has ``seconds`` for the whole game, and
  gains ``increment`` seconds with each move it makes (a Fischer clock);
- **turn-based** (``turn``): each move must be made within ``seconds`` of the moment the seat
  became the one to move (hours or days, for games played over a week).

Only the seat to move has its clock running, and only a person's seat: bots have no clock.
Every committed move charges the mover the time since its clock started and starts the next
person's clock, in the same write as the move (so the figures in the database are always the
ones of the stored position). A clock is a *move* clock: in games where one turn is several
actions (Spies!'s action points) or where a seat answers out of turn, each action the rules ask
of a seat counts as a move.

When a seat's time runs out, the table's choice applies (``on_timeout``):

- ``bot``: the table's default bot takes the seat for the rest of the game; the game and its
  result are otherwise unchanged;
- ``lose``: the seat is *out*. A solo game ends at once, lost. In a multiplayer game the seat
  is ranked below every other seat whatever its score; if a single seat is left in, the game
  ends at once and that seat wins; otherwise none of our games lets a player simply leave (their
  cards, roles and pieces take part in the others' play), so the default bot plays the seat to
  the end, still ranked last.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

REALTIME = "realtime"
TURN = "turn"
KINDS = (REALTIME, TURN)
ON_BOT = "bot"
ON_LOSE = "lose"
ON_TIMEOUT = (ON_BOT, ON_LOSE)

MIN_SECONDS = 1.0
MAX_SECONDS = 30 * 86400.0  # a month per move (turn-based) or per game (real-time)
MAX_INCREMENT = 3600.0
#: The agent that takes a seat whose time ran out: the game's own bot, which plays at once.
DEFAULT_BOT = "heuristic"


class ClockError(ValueError):
    """Clock settings refused, with the reason (a 422)."""


class TimeUp(Exception):
    """The seat asked to move has no time left: its time-out is due."""


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A table's clock, as chosen at creation."""

    kind: str
    seconds: float
    increment: float = 0.0
    on_timeout: str = ON_BOT

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ClockError(f"a clock is 'realtime' or 'turn', not {self.kind!r}")
        if not MIN_SECONDS <= self.seconds <= MAX_SECONDS or not math.isfinite(self.seconds):
            raise ClockError(
                f"a clock's seconds are from {MIN_SECONDS:g} to {MAX_SECONDS:g} (30 days)"
            )
        if not 0 <= self.increment <= MAX_INCREMENT or not math.isfinite(self.increment):
            raise ClockError(f"a clock's increment is from 0 to {MAX_INCREMENT:g} seconds")
        if self.kind == TURN and self.increment:
            raise ClockError("a turn-based clock takes no increment (each move has its own time)")
        if self.on_timeout not in ON_TIMEOUT:
            raise ClockError(f"on_timeout is 'bot' or 'lose', not {self.on_timeout!r}")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seconds": self.seconds,
            "increment": self.increment,
            "on_timeout": self.on_timeout,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClockSpec:
        return cls(data["kind"], data["seconds"], data.get("increment", 0.0), data["on_timeout"])

    @property
    def full_ms(self) -> float:
        return self.seconds * 1000.0


@dataclass(frozen=True, slots=True)
class Timeout:
    """A seat ran out of time at ``step``: what the table did (``then``: ``bot``, the default
    bot took the seat; ``out``, the seat is out and a bot plays it on; ``lost``, the game ended
    on it)."""

    seat: int
    step: int
    at: float
    then: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "step": self.step,
            "at": self.at,
            "then": self.then,
            "name": self.name,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Timeout:
        return cls(data["seat"], data["step"], data["at"], data["then"], data["name"])


@dataclass(frozen=True, slots=True)
class Clock:
    """A table's clocks at one moment: ``remaining`` milliseconds per seat as of ``since``
    (None: a bot's seat), the seat whose clock runs (None: a bot or nobody is to move, or the
    game has not started or is over), and ``seq``, bumped by every write (the compare-and-set
    that keeps a move and a time-out from both taking effect)."""

    spec: ClockSpec
    remaining: tuple[float | None, ...]
    running: int | None = None
    since: float | None = None
    seq: int = 0
    out: tuple[int, ...] = ()
    timeouts: tuple[Timeout, ...] = field(default=())

    @classmethod
    def new(cls, spec: ClockSpec, people: list[bool]) -> Clock:
        """Full time for each person's seat (``people``: per seat, whether a person plays it)."""
        return cls(spec, tuple(spec.full_ms if person else None for person in people))

    @property
    def deadline(self) -> float | None:
        """When the running clock reaches zero (server time), or None."""
        if self.running is None or self.since is None:
            return None
        left = self.remaining[self.running]
        return None if left is None else self.since + left / 1000.0

    def left(self, seat: int, now: float) -> float | None:
        """Milliseconds ``seat`` has at ``now`` (never below zero); None for a bot's seat."""
        left = self.remaining[seat]
        if left is None:
            return None
        if seat == self.running and self.since is not None:
            left -= (now - self.since) * 1000.0
        return max(0.0, left)

    def expired(self, now: float) -> bool:
        deadline = self.deadline
        return deadline is not None and now >= deadline

    def run(self, seat: int | None, now: float) -> Clock:
        """Start ``seat``'s clock at ``now`` (None, or a bot's seat: no clock runs). A
        turn-based clock gives the seat its full time for this move."""
        if seat is None or self.remaining[seat] is None:
            return replace(self, running=None, since=None, seq=self.seq + 1)
        remaining = self.remaining
        if self.spec.kind == TURN:
            remaining = _set(remaining, seat, self.spec.full_ms)
        return replace(self, remaining=remaining, running=seat, since=now, seq=self.seq + 1)

    def bots(self, seats: list[int]) -> Clock:
        """The clocks once ``seats`` are bots' (an open table started with bots in its empty
        seats): they have none."""
        remaining = self.remaining
        for seat in seats:
            remaining = _set(remaining, seat, None)
        return replace(self, remaining=remaining)

    def stop(self) -> Clock:
        """No clock runs (the game is over, or cannot go on)."""
        return self.run(None, 0.0)

    def moved(self, mover: int, next_seat: int | None, now: float) -> Clock:
        """The clocks after ``mover``'s move committed at ``now``, ``next_seat`` to move next
        (None: the game is over). :class:`TimeUp` if the mover had no time left."""
        remaining = self.remaining
        if mover == self.running:
            left = self.left(mover, now)
            if left is None or left <= 0.0:
                raise TimeUp(mover)
            if self.spec.kind == REALTIME:
                left += self.spec.increment * 1000.0
            else:  # turn-based: the seat's next move will have its full time
                left = self.spec.full_ms
            remaining = _set(remaining, mover, left)
        return replace(self, remaining=remaining).run(next_seat, now)

    def undone(self, seat: int, now: float) -> Clock:
        """The clocks after ``seat`` took back its last move at ``now`` (solo games). Undo
        gives back no time: a turn-based move keeps its deadline, and a real-time clock keeps
        running and loses the increment the undone move earned, as if that move had never been
        made. :class:`TimeUp` if that leaves no time (the undo is refused)."""
        if self.running != seat or self.spec.kind == TURN:
            return replace(self, seq=self.seq + 1)
        left = self.left(seat, now)
        assert left is not None
        left -= self.spec.increment * 1000.0
        if left <= 0.0:
            raise TimeUp(seat)
        remaining = _set(self.remaining, seat, left)
        return replace(self, remaining=remaining, since=now, seq=self.seq + 1)

    def timed_out(self, timeout: Timeout, bot_takes_seat: bool) -> Clock:
        """The clocks once ``timeout.seat`` ran out: its clock is gone (a bot plays it from now
        on, or the game is over), it is out if it lost, and nothing runs until the next move."""
        seat = timeout.seat
        out = (*self.out, seat) if timeout.then != ON_BOT else self.out
        remaining = _set(self.remaining, seat, None) if bot_takes_seat else self.remaining
        if not bot_takes_seat:
            remaining = _set(remaining, seat, 0.0)
        return replace(
            self,
            remaining=remaining,
            running=None,
            since=None,
            seq=self.seq + 1,
            out=out,
            timeouts=(*self.timeouts, timeout),
        )

    def to_json(self, now: float) -> dict[str, Any]:
        """What every seat is shown: the settings, each seat's milliseconds left at
        ``server_time`` (the running one counts down from there), whose clock runs, when it
        runs out, and the time-outs so far."""
        deadline = self.deadline
        return {
            **self.spec.to_json(),
            "remaining_ms": [
                None if (left := self.left(seat, now)) is None else round(left)
                for seat in range(len(self.remaining))
            ],
            "running": self.running,
            "deadline": deadline,
            "server_time": now,
            "out": list(self.out),
            "timeouts": [t.to_json() for t in self.timeouts],
        }


def _set(values: tuple[float | None, ...], index: int, value: float | None) -> tuple:
    return (*values[:index], value, *values[index + 1 :])


def timeout_outcome(players: int, out: tuple[int, ...], seat: int, on_timeout: str) -> str:
    """What a time-out of ``seat`` does (``out``: the seats already out): ``bot`` (the default
    bot takes the seat), ``out`` (the seat is out and the bot plays it on) or ``lost`` (the
    game ends here: a solo game, or a single seat left in)."""
    if on_timeout == ON_BOT:
        return "bot"
    if players == 1:
        return "lost"
    left_in = [s for s in range(players) if s != seat and s not in out]
    return "lost" if len(left_in) <= 1 else "out"


def standing(
    players: int, out: tuple[int, ...], scores: tuple[float, ...] | None
) -> dict[str, Any] | None:
    """The table's result when seats lost on time (None when none did): the winners among the
    seats still in, and the seats that are out, ranked last. ``scores``: the game's final scores
    if it was played to its end (higher is better in every multiplayer game), else None."""
    if not out:
        return None
    if players == 1:
        return {"by": "time", "out": list(out), "winners": [], "won": False}
    left_in = [s for s in range(players) if s not in out]
    if scores is None or len(left_in) <= 1:
        winners = left_in if len(left_in) == 1 else []
    else:
        best = max(scores[s] for s in left_in)
        winners = [s for s in left_in if scores[s] == best]
    return {"by": "time", "out": list(out), "winners": winners}
