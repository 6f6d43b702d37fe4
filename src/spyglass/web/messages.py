"""The message channel of a table: what a message may hold, who may read it, how fast.

People at a table talk (Spies! is a game of haggling in secret): a message goes to everyone at
the table, or is whispered to one seat (how often a seat may talk is counted in
:mod:`.limits`). A whisper is hidden information like a hand: it reaches
its sender's and its recipient's connections and no other, and the history a seat is sent when
it connects holds only what that seat may read (:func:`visible`). Spectators read the public
messages. Bots neither send nor receive: they have no connection to talk through, and a
whisper to a bot's seat is refused.

The text is kept exactly as sent (less surrounding white space) and never escaped here: the
page shows it as text, never as HTML.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from .store import MessageRow, SeatRow

MAX_TEXT = 500  # characters of one message

#: Characters a message may hold besides printable text: new lines and tabs (a message from
#: another client may hold several lines; the page keeps them).
ALLOWED_CONTROLS = frozenset("\n\t")


class MessageRefused(ValueError):
    """A message the channel does not take: ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


def clean_text(text: object) -> str:
    """The message's text without surrounding white space, or :class:`MessageRefused`."""
    if not isinstance(text, str):
        raise MessageRefused(422, "a message carries its words in 'text'")
    text = text.strip()
    if not text:
        raise MessageRefused(422, "a message cannot be empty")
    if len(text) > MAX_TEXT:
        raise MessageRefused(
            422, f"a message is at most {MAX_TEXT} characters; this one has {len(text)}"
        )
    for char in text:
        if char not in ALLOWED_CONTROLS and unicodedata.category(char) in ("Cc", "Cs"):
            # control characters (NUL cannot even be stored by PostgreSQL) and lone halves of
            # surrogate pairs, which are not text in any encoding
            raise MessageRefused(
                422, f"a message cannot hold the control character U+{ord(char):04X}"
            )
    return text


def check_recipient(to: object, seats: Sequence[SeatRow], sender: int) -> int | None:
    """The seat a message is whispered to (None: everyone), or :class:`MessageRefused`."""
    if to is None:
        return None
    last = len(seats) - 1
    if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to <= last:
        raise MessageRefused(
            422, f"'to' is a seat from 0 to {last}, or null for everyone at the table"
        )
    if to == sender:
        raise MessageRefused(422, "a whisper goes to another seat, not your own")
    if seats[to].kind != "human":
        raise MessageRefused(422, f"seat {to} is a bot: bots do not read messages")
    return to


def visible(message: MessageRow, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may read ``message``."""
    return message.to is None or (seat is not None and seat in (message.seat, message.to))


def message_json(message: MessageRow) -> dict[str, Any]:
    """A message as connections receive it (its number at the table stays on the server: the
    gaps in it would count the whispers a seat was not part of)."""
    return {"from": message.seat, "to": message.to, "text": message.text, "at": message.at}


def history(messages: Iterable[MessageRow], seat: int | None) -> list[dict[str, Any]]:
    """Every message ``seat`` may read, oldest first."""
    return [message_json(m) for m in messages if visible(m, seat)]
