"""A table as the server holds it: the true state, the seats, the live connections, and what
each seat is shown (its view and its own legal moves; a spectator the public view).

The one authority that changes tables is :class:`~spyglass.web.manager.TableManager`. Nothing
about a table ever leaves the server while the game is on but what :meth:`LiveTable.summary` and the
seat's view hold: not the seed, not the initial decks, not the moves as typed (a face-down card
played is a notation too). A stored history that does not replay opens read-only
(:func:`restore`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import spyglass
from spyglass.engine import Action, ReplayError, State

from .clocks import Clock, standing
from .names import named
from .ratings import ranks
from .store import (
    BROKEN,
    OVER,
    PLAYING,
    WAITING_BOT,
    WAITING_HUMAN,
    WAITING_PLAYERS,
    SeatRow,
    TableRow,
)

log = logging.getLogger("spyglass.web")

HUMAN = "human"
BOT = "bot"
QUEUE_LIMIT = 64  # undelivered messages per connection before it is dropped as too slow


class TableError(Exception):
    """A request the server refuses. ``status`` is the HTTP status; ``rule`` the rule of the
    game that forbids a move, when that is why."""

    def __init__(
        self, status: int, message: str, rule: str | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule
        self.retry_after = retry_after

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        return body


@dataclass(slots=True)
class SeatSpec:
    """What a creator asks for one seat. A person's seat is the creator's own (``invite``
    false: the creator gets its token, as at a hot-seat table) or is for someone invited
    (``invite`` true: the creator gets a link that is claimed once). ``invite`` None: the
    first person's seat is the creator's, the other people's are invited."""

    kind: str = HUMAN
    agent: str | None = None
    budget: int | None = None
    name: str | None = None
    invite: bool | None = None
    # an empty seat of a public table, that anyone may join from the lobby (web/lobby.py)
    open: bool = False


@dataclass(frozen=True, slots=True)
class Close:
    """Put in a connection's queue to close it with ``code`` (after ``message``, if any)."""

    code: int
    message: dict[str, Any] | None = None


Outgoing = dict[str, Any] | str | Close | None


@dataclass(eq=False, slots=True)
class Subscriber:
    """One live connection: the seat it speaks for (None: a spectator), the hash of the token
    it proved that seat with, its client's address, and its outbox (dicts, or text already
    serialised; a :class:`Close` or None closes it)."""

    seat: int | None
    token_hash: str | None = None
    client: str = ""
    queue: asyncio.Queue[Outgoing] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))


@dataclass(slots=True)
class Created:
    """A new table and the secrets for its creator, shown once: the tokens of the creator's
    own seats, the invites of the others, and the host key that re-invites seats."""

    table: LiveTable
    tokens: dict[int, str]
    invites: dict[int, str]
    host_key: str


@dataclass(eq=False, slots=True)
class LiveTable:
    """A table as the process that is its authority holds it in memory: its stored row, the
    live game state, the locks that order its moves and messages, who listens, and what is
    computed once per state for every connection (not to be confused with a game's own
    table, e.g. Tinker Tailor's ``table.Table`` state class)."""

    row: TableRow
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Messages have a lock of their own: talking never waits for a move to be saved.
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    # Who is connected through the other server processes: process -> (seats, until when).
    remote: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)
    previous: State | None = None  # the state before the last move (a retried move's check)
    pins: int = 0  # requests using this object right now: it stays in memory meanwhile
    used: float = field(default_factory=time.monotonic)  # last pinned
    broken: str | None = None  # why the stored history does not replay (read-only)
    # Hints per (step, seat): asked once per position however many requests ask.
    # (None: the table moved on before the hint came.)
    hints: dict[tuple[int, int], asyncio.Future[dict[str, Any] | None]] = field(
        default_factory=dict
    )
    # The legal moves of the current state as the browser gets them (with their sentences),
    # and each seat's state message as text: computed once per state and presence, however
    # many connections and requests ask for them.
    _legal: tuple[State, list[dict[str, Any]]] | None = None
    texts: dict[int | None, str] = field(default_factory=dict)
    texts_of: tuple[int, frozenset[int], float] | None = None  # version, presence, clock
    version: int = 0  # bumped by every change to what a seat is shown
    clock: Clock | None = None  # the table's clocks, if it has them (web/clocks.py)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def over(self) -> bool:
        # a game can also end before its rules say so: a seat lost on time (web/clocks.py)
        return self.state.is_over or self.row.status == OVER

    @property
    def started(self) -> bool:
        """False while an open table waits for people to join (web/lobby.py): no moves."""
        return self.row.waiting != WAITING_PLAYERS

    @property
    def read_only(self) -> bool:
        return self.broken is not None

    def legal_json(self) -> list[dict[str, Any]]:
        if self._legal is None or self._legal[0] is not self.state:
            state = self.state
            self._legal = (state, [describe_action(state, a) for a in state.legal_actions()])
        return self._legal[1]

    def seat_row(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and self.row.seats[seat].kind == BOT

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.row.seats if s.kind == HUMAN]

    def local_seats(self) -> frozenset[int]:
        """The seats connected to this server process."""
        return frozenset(s.seat for s in self.subscribers if s.seat is not None)

    def connected(self) -> frozenset[int]:
        """The seats connected to any server process (other processes' reports expire)."""
        seats = self.local_seats()
        now = time.monotonic()
        for others, until in self.remote.values():
            if until > now:
                seats |= others
        return seats

    def status(self) -> str:
        if self.broken is not None:
            return BROKEN
        return OVER if self.over else PLAYING

    def waiting(self) -> str | None:
        state = self.state
        if not self.started:
            return WAITING_PLAYERS
        if self.over:
            return None
        return WAITING_BOT if self.is_bot(state.current_player) else WAITING_HUMAN

    def summary(self) -> dict[str, Any]:
        """What anyone may know about the table (no seed, no decks, no moves)."""
        info = self.state.game.info
        connected = self.connected()
        data = {
            "id": self.id,
            "game": info.id,
            "title": info.title,
            "options": dict(self.state.game.options),
            "players": self.state.players,
            "status": self.status(),
            "step": self.state.step,
            "current_player": self.state.current_player,
            "private": self.row.private,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "agent": s.agent,
                    "budget": s.budget,
                    "connected": s.seat in connected,
                    "claimed": s.kind == BOT or s.claimed,
                    "account": s.account,
                    "open": s.kind == HUMAN and s.token_hash is None and s.invite_hash is None,
                }
                for s in self.row.seats
            ],
            "created": self.row.created,
            "started": self.started,
        }
        if self.broken is not None:
            data["problem"] = self.broken
        if self.clock is not None:
            data["clock"] = self.clock.to_json(time.time())
        data.update(after_game(self))
        return data

    def touched(self) -> None:
        """Something every seat is shown changed (a seat claimed, say)."""
        self.version += 1

    def changed(self) -> None:
        """The state changed: forget what was computed for the old one (a pending hint stays:
        it answers for its own step)."""
        self.version += 1
        step = self.state.step
        for key in [k for k in self.hints if k[0] != step and self.hints[k].done()]:
            del self.hints[key]


def final_result(state: State, out: Sequence[int], over: bool) -> dict[str, Any] | None:
    """A finished table's result, as it is shown, stored (for *Your games*) and rated: the
    game's own when it was played to its end, with the seats that lost on time (``out``)
    ranked last and the winners taken among the seats still in (clocks.standing); a game that
    time ended early has no scores (all 0) and the winner the one seat left in, if any. None
    while the table goes on."""
    if not over:
        return None
    result = state.result if state.is_over else None
    if result is not None:
        data = result.to_json()
    else:
        data = {"scores": [0.0] * state.players, "winners": [], "won": None, "score": None}
        data.update(detail=[], summary="")
    data["out"] = sorted(out)
    if out:
        scores = tuple(data["scores"]) if result is not None else None
        standing_now = standing(state.players, tuple(out), scores)
        assert standing_now is not None
        data["winners"] = standing_now["winners"]
        if state.players == 1:
            data["won"] = False
        timed = ", ".join(f"seat {seat}" for seat in sorted(out))
        ran_out = f"{timed} ran out of time"
        data["summary"] = f"{ran_out}. {data['summary']}" if data["summary"] else f"{ran_out}."
    return data


def table_result(table: LiveTable) -> dict[str, Any] | None:
    """:func:`final_result` of a live table."""
    out = table.clock.out if table.clock is not None else ()
    return final_result(table.state, out, table.over)


def after_game(table: LiveTable) -> dict[str, Any]:
    """What the summary adds once the game is over: the result by name (each seat's place,
    score and name, the sentence with names for seats, the seats that lost on time), the
    rating changes once rated, and the rematch once someone asked for one (accounts, clocks,
    ratings, rematch: docs/web.md)."""
    data: dict[str, Any] = {"rematch": table.row.rematch}
    result = table_result(table)
    if result is None:
        return data
    names = [s.name for s in table.row.seats]
    out = result["out"]
    places = ranks(result["scores"], result["winners"], out)
    rated = {c["seat"]: c for c in (table.row.rated or {}).get("seats", [])}
    data["result"] = {
        "summary": named(result["summary"], names),
        "seats": [
            {
                "seat": seat,
                "name": names[seat],
                "rank": places[seat],
                "score": result["scores"][seat],
                "winner": seat in result["winners"],
                "out_of_time": seat in out,
                "rating": rated.get(seat),
            }
            for seat in range(len(names))
        ],
        "by": "time" if out else "game",
        "out": out,
        "winners": result["winners"],
        "won": result["won"],
        "rated": table.row.rated is not None,
    }
    return data


def describe_action(state: State, action: Action) -> dict[str, Any]:
    """An action for the browser: its fields, the cards' labels as views print them (so
    clicks on a card find the moves that involve it), and its sentence."""
    data = action.to_json()
    data["labels"] = [str(getattr(c, "label", c)) for c in action.cards]
    data["text"] = state.describe(action)
    return data


def restore(row: TableRow) -> LiveTable:
    """The live table of a stored row. A history that does not replay opens read-only at its
    last good step, saying why."""
    record = row.record()
    try:
        return LiveTable(row=row, state=spyglass.replay(record))
    except ReplayError as error:
        if error.step < 1:
            raise  # not even set up: nothing to show
        good = error.step - 1
        state = spyglass.replay(record, upto=good)
        problem = (
            f"this table's stored history is damaged at move {error.step} ({error}); it is shown"
            f" as it was after move {good} and can no longer be played"
        )
        log.error("table %s opens read-only: %s", row.id, problem)
        table = LiveTable(row=row, state=state, broken=problem)
        del row.actions[good:]
        return table
