"""The game log: human-readable events, each visible to everyone or only to some seats."""

from __future__ import annotations

from typing import NamedTuple


class LogEntry(NamedTuple):
    """One event. ``seats`` is None for a public event, else the seats that see ``text``;
    the other seats see ``others`` (e.g. "Ann drew a card"), or nothing when it is None.

    A NamedTuple rather than a frozen dataclass: games log on every move, and tuples are the
    cheapest immutable records to create."""

    text: str
    seats: frozenset[int] | None = None
    others: str | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    def seen_by(self, seat: int | None) -> str | None:
        """The text this seat reads, or None when the event is invisible to it."""
        return self.text if self.visible_to(seat) else self.others

    def redacted_for(self, seat: int | None) -> LogEntry | None:
        """The entry as it may stand in a determinization for ``seat``."""
        if self.visible_to(seat):
            return self
        if self.others is None:
            return None
        return LogEntry(self.others)
