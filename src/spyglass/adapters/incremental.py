"""Observations kept between steps and rewritten only where the state changed.

Between two steps of a game most of a seat's observation stays as it was: a card moved from
the deck to a pile changes two zones out of twenty. An :class:`Incremental` observer is made of
*parts*; each reads from the state the plain values its entries depend on and writes those
entries from the values alone. Per table and seat it keeps the last vector and the values each
part read; at the next observation a part whose values are unchanged (``==``) costs one read
and one comparison, and only the others are rewritten.

Nothing relies on knowing which action was applied, on the table being the same object, or on
the observations coming in any order: every part compares what it reads now with what it wrote
from, so the vector is exact after a clone, a determinization, another table in between or a
seat observed for the first time in a hundred steps. What a part reads must not change behind
its back: a tuple, a number, a string, a frozen dataclass, never a list or dict the game
mutates in place (a cached list would compare equal to itself after the change).

Each part owns *spans* of the vector (whole features, or ranges of entries); spans never
overlap and together cover every entry after the header, so that rewriting a part means
zeroing its spans and writing its entries. A writer returns its entries: a list of indices set
to 1, or a dict of index to value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import is_not, ne
from typing import Any, Generic, TypeVar

import numpy as np

Entries = list[int] | dict[int, float]
Reader = Callable[[Any, int], Any]
Memo = TypeVar("Memo")

_UNSEEN = object()  # a value no read returns: the part has never been written
_NONE: dict[int, float] = {}  # the entries of a part never written (never changed)
#: Tables kept at once per observer (searches clone tables by the thousand: then it restarts).
TABLES = 256


class ObservationError(ValueError):
    """A part wrote outside its spans, or its spans overlap another's (a declaration bug)."""


@dataclass(frozen=True, slots=True)
class Part:
    """Entries that depend on ``read(state, seat)``: ``write(value)`` gives them."""

    read: Reader
    write: Callable[[Any], Entries]
    spans: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Items:
    """A list of items: ``read(state, seat)`` gives them as a tuple, ``write(item)`` an item's
    entries counted from the item's base (``bases[i]`` for item ``i``: its first entry in a
    list feature, or 0 where the item names its own entries). Only the items that changed are
    rewritten; items beyond the bases are not encoded (``strict`` refuses them). ``spans``:
    the entries the items may write, together."""

    read: Reader
    write: Callable[[Any], Entries]
    bases: tuple[int, ...]
    spans: tuple[tuple[int, int], ...]

    @property
    def capacity(self) -> int:
        return len(self.bases)


@dataclass(frozen=True, slots=True)
class Lists:
    """Lists of items read together (what each shows depends on the same reads):
    ``read(state, seat)`` gives a tuple with one tuple of items per list, and each list is
    written as its :class:`Items` in ``lists`` would be (their own reads are not called). A
    list handed back as the very object of the last observation is passed over at the cost
    of one identity test; only the others are compared item by item."""

    read: Reader
    lists: tuple[Items, ...]

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        return tuple(span for items in self.lists for span in items.spans)


@dataclass(frozen=True, slots=True)
class Group:
    """Parts read together: ``read(state, seat)`` gives a tuple with the value of each part
    of ``parts`` (what the part's own read gives), and each part whose value changed is
    written as it would be alone; the parts' own reads are not called. For many small parts
    of a table, one read costs less than a call per part."""

    read: Reader
    parts: tuple[Part, ...]

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        return tuple(span for part in self.parts for span in part.spans)


class Incremental:
    """An observer made of parts (see the module's text), callable as an encoding's observer:
    ``observer(state, seat, out)`` writes the seat's observation into ``out`` (header left as
    it is), ``observe(state, seat)`` returns a fresh vector. The parts write every entry from
    ``header`` on; ``put_header(state, seat, out)``, if given, writes the entries before it
    (else they stay zero): the header changes at every step (the progress), so it is written
    straight rather than read and compared as a part."""

    __slots__ = (
        "_cache",
        "_indices",
        "_last",
        "_parts",
        "_reads",
        "_zeros",
        "header",
        "name",
        "put_header",
        "size",
        "strict",
    )

    def __init__(
        self,
        name: str,
        size: int,
        header: int,
        parts: Sequence[Part | Items | Group | Lists],
        strict: bool = False,
        *,
        put_header: Callable[[Any, int, Any], None] | None = None,
    ) -> None:
        self.name, self.size, self.header, self.strict = name, size, header, strict
        self.put_header = put_header
        self._parts = tuple(parts)
        self._reads = tuple(part.read for part in self._parts)
        self._indices = range(len(self._parts))
        self._zeros = np.zeros(size, np.float32)
        owner = np.full(size, -1, np.intp)
        for k, part in enumerate(self._parts):
            for start, stop in part.spans:
                if not header <= start <= stop <= size:
                    raise ObservationError(f"{name}: part {k} spans {start}..{stop}, outside")
                taken = owner[start:stop]
                if (taken >= 0).any():
                    other = int(taken[taken >= 0][0])
                    raise ObservationError(f"{name}: parts {other} and {k} share entries")
                taken[:] = k
        missing = np.flatnonzero(owner[header:] < 0)
        if len(missing):
            raise ObservationError(
                f"{name}: no part writes observation entry {int(missing[0]) + header}"
            )
        # Per (table, seat): [values read by each part, the vector they give]; and per seat
        # the latest of any table, where a table seen for the first time starts from.
        self._cache: dict[tuple[int, int], list[Any]] = {}
        self._last: dict[int, list[Any]] = {}

    @property
    def parts(self) -> tuple[Part | Items | Group | Lists, ...]:
        return self._parts

    def __call__(self, state: Any, seat: int, out: np.ndarray) -> None:
        vector = self._update(state, seat)
        out[self.header :] = vector[self.header :]  # the header stays the caller's

    def observe(self, state: Any, seat: int) -> np.ndarray:
        return self._update(state, seat).copy()

    def _update(self, state: Any, seat: int) -> np.ndarray:
        key = (id(state), seat)
        entry = self._cache.get(key)
        if entry is None:
            last = self._last.get(seat)
            if last is None:
                vector = self._zeros.copy()
                unseen = [_UNSEEN] * len(self._parts)
                # numpy declares ndarray.__buffer__ for Python 3.12+ only: on 3.11 its stubs
                # do not show the buffer protocol every ndarray has.
                view = memoryview(vector)  # type: ignore[arg-type]
                entry = [unseen, vector, [_NONE] * len(self._parts), view]
            else:  # the lists are replaced, never changed in place: they may be shared
                vector = last[1].copy()
                entry = [last[0], vector, last[2], memoryview(vector)]
            if len(self._cache) >= TABLES:
                self._cache.clear()
            self._cache[key] = entry
        self._last[seat] = entry
        values, vector, written, out = entry
        now = [read(state, seat) for read in self._reads]
        # The parts whose values changed, found in C (each value compared by identity first;
        # no comparison of the whole lists before: some part changes at nearly every step).
        changed = list(compress(self._indices, map(ne, now, values)))
        if changed:
            written = list(written)
            parts = self._parts
            for k in changed:
                part = parts[k]
                if isinstance(part, Part):
                    written[k] = self._write(out, written[k], part.write(now[k]), 0, part)
                elif isinstance(part, Items):
                    written[k] = self._items(part, out, values[k], now[k], written[k])
                elif isinstance(part, Group):
                    written[k] = self._group(part, out, values[k], now[k], written[k])
                else:
                    written[k] = self._lists(part, out, values[k], now[k], written[k])
            entry[0], entry[2] = now, written
        if self.put_header is not None:
            self.put_header(state, seat, out)
        return vector

    def _group(
        self,
        part: Group,
        out: memoryview,
        before: Any,
        now: tuple[Any, ...],
        written: tuple[Any, ...] | dict[int, float],
    ) -> tuple[Any, ...]:
        """Rewrite the parts of a group whose values changed (found in C); returns the
        entries of each part."""
        parts = part.parts
        if isinstance(written, dict):  # _NONE: the group was never written
            written, before = (_NONE,) * len(parts), (_UNSEEN,) * len(parts)
        entries = list(written)
        for j in compress(range(len(parts)), map(ne, now, before)):
            member = parts[j]
            entries[j] = self._write(out, written[j], member.write(now[j]), 0, member)
        return tuple(entries)

    def _lists(
        self,
        part: Lists,
        out: memoryview,
        before: Any,
        now: tuple[tuple[Any, ...], ...],
        written: tuple[Any, ...] | dict[int, float],
    ) -> tuple[Any, ...]:
        """Rewrite the lists that are other objects than last time, each as its Items;
        returns the entries of each list's items."""
        if isinstance(written, dict):  # _NONE: the part was never written
            written, before = (_NONE,) * len(part.lists), (_UNSEEN,) * len(part.lists)
        entries = list(written)
        for j, items in enumerate(part.lists):
            if now[j] is not before[j]:
                entries[j] = self._items(items, out, before[j], now[j], written[j])
        return tuple(entries)

    def _items(
        self,
        part: Items,
        out: memoryview,
        before: Any,
        now: tuple[Any, ...],
        written: tuple[Entries, ...] | dict[int, float],
    ) -> tuple[Entries, ...]:
        """Rewrite the items that changed; returns the entries of each item now."""
        bases = part.bases
        if len(now) > len(bases):
            if self.strict:
                raise ObservationError(
                    f"{self.name}: {len(now)} items, more than the capacity {part.capacity}"
                )
            now = now[: len(bases)]
        if isinstance(written, dict):  # _NONE: the part was never written
            written, before = (), ()
        count, had = len(now), len(written)  # written: the old items within the capacity
        entries = list(written)
        write, put = part.write, self._write
        # The items that changed: those that are other objects, found in C (a reader that
        # hands back the objects it made while nothing changed makes this the whole test),
        # then compared by value; then those that came or went.
        for i in compress(range(min(count, had)), map(is_not, now, before)):
            if now[i] != before[i]:
                entries[i] = put(out, written[i], write(now[i]), bases[i], part)
        for i in range(had, count):
            entries.append(put(out, _NONE, write(now[i]), bases[i], part))
        for i in range(count, had):
            put(out, written[i], _NONE, bases[i], part)
        del entries[count:]
        return tuple(entries)

    def _write(
        self,
        out: memoryview,
        was: Entries,
        now: Entries,
        base: int,
        part: Part | Items | Group | Lists,
    ) -> Entries:
        """Turn the entries ``was`` (from ``base``) into ``now``: those of ``was`` are zeroed,
        then those of ``now`` stored (a store through the memoryview costs less than looking
        up whether the entry changed). Entries are indices set to 1 or a dict of index to
        value (either kind is iterated as its indices to zero them): returns ``now``."""
        if self.strict:
            self._check(now, base, part)
        # typeshed types a memoryview's items as int; this one is of float32 ("f").
        for i in was:
            out[base + i] = 0.0  # type: ignore[call-overload]
        if not isinstance(now, dict):  # indices set to 1 (a defaultdict is a dict)
            for i in now:
                out[base + i] = 1.0  # type: ignore[call-overload]
            return now
        try:
            for i, value in now.items():
                out[base + i] = value  # type: ignore[call-overload]
        except TypeError:  # a value that is no Python float (an int, a numpy scalar)
            for i, value in now.items():
                out[base + i] = float(value)  # type: ignore[call-overload]
        return now

    def _check(self, entries: Entries, base: int, part: Part | Items | Group | Lists) -> None:
        spans = part.spans
        for i in entries:
            if not any(start <= base + i < stop for start, stop in spans):
                raise ObservationError(
                    f"{self.name}: a part wrote entry {base + i}, outside its spans {spans}"
                )


class Kept(Generic[Memo]):
    """An observer that keeps each table's vector between observations and brings it up to
    date itself, for a game whose parts would cost more to read than to rewrite (Boba Tea:
    queues that change in their middle, a deck that loses a card at every draw).

    ``update(state, seat, memo, out)`` compares the state with what the vector was written
    from, which it keeps in ``memo`` (``fresh()`` for a table and seat seen the first time,
    with a zero vector), and rewrites what differs into ``out``, a float32 memoryview of the
    kept vector; ``header(state, seat, out)`` then writes the header. As with parts, an update
    compares values and never trusts the table's identity (a table seen for the first time may
    carry the id of one gone), so the vector is exact after a clone, another table in between
    or anything done to the table behind the observer's back. The observation is a copy."""

    __slots__ = ("_cache", "_fresh", "_header", "_update", "name", "size")

    def __init__(
        self,
        name: str,
        size: int,
        fresh: Callable[[], Memo],
        update: Callable[[Any, int, Memo, Any], None],
        header: Callable[[Any, int, Any], None],
    ) -> None:
        self.name, self.size = name, size
        self._fresh, self._update, self._header = fresh, update, header
        # Per (table, seat): (the memo, the vector, a memoryview of it).
        self._cache: dict[tuple[int, int], tuple[Memo, np.ndarray, memoryview]] = {}

    def __call__(self, state: Any, seat: int, out: Any) -> None:
        out[:] = self.observe(state, seat)

    def observe(self, state: Any, seat: int) -> np.ndarray:
        key = (id(state), seat)
        entry = self._cache.get(key)
        if entry is None:
            vector = np.zeros(self.size, np.float32)
            # numpy declares ndarray.__buffer__ for Python 3.12+ only (as in Incremental)
            entry = (self._fresh(), vector, memoryview(vector))  # type: ignore[arg-type]
            if len(self._cache) >= TABLES:
                self._cache.clear()
            self._cache[key] = entry
        memo, vector, out = entry
        self._update(state, seat, memo, out)
        self._header(state, seat, out)
        return vector.copy()


def remembered(write: Callable[[Any], Entries], size: int = 4096) -> Callable[[Any], Entries]:
    """``write`` with its entries kept by value: for a writer that builds a piece of a table
    and runs the encoder's generic writers over it (parsing texts, walking paths), and whose
    values come back (the same offer, the same purse). The entries handed out are shared, so
    the observer never changes them in place; unhashable values are written afresh."""
    kept: dict[Any, Entries] = {}

    def write_kept(value: Any) -> Entries:
        try:
            found = kept.get(value)
        except TypeError:
            return write(value)
        if found is None:
            found = write(value)
            if len(kept) >= size:
                kept.clear()
            kept[value] = found
        return found

    return write_kept
