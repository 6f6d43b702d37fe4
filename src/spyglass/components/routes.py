"""Route graphs: places joined by routes of several kinds (rail, air, sea lanes, roads).

A board game's map is often a graph whose edges come in kinds that the rules treat differently
(a spy may go by rail or by air; a ship only by sea). :class:`RouteGraph` holds such a graph,
undirected, and answers the questions rules ask of it: who is next to a place (by which kinds of
route), how many steps away every place is, and whether everything is connected. It knows
nothing of any game's rules.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping


class RouteGraph:
    """An undirected graph of places with kinded routes. Build it once; it does not change."""

    __slots__ = ("_kinds", "_links", "_near", "_places")

    def __init__(self, places: Iterable[str], routes: Iterable[tuple[str, str, str]]) -> None:
        """``places`` are the node ids; ``routes`` are (place, place, kind) triples. A pair may
        be joined by several kinds; joining a place to itself or naming an unknown place is a
        ValueError (a game's loader checks its data first and names the entry)."""
        self._places: tuple[str, ...] = tuple(dict.fromkeys(places))
        links: dict[str, dict[str, set[str]]] = {p: {} for p in self._places}
        kinds: set[str] = set()
        for a, b, kind in routes:
            for end in (a, b):
                if end not in links:
                    raise ValueError(f"route {a}-{b} ({kind}) names an unknown place {end!r}")
            if a == b:
                raise ValueError(f"route {a}-{b} ({kind}) joins a place to itself")
            links[a].setdefault(b, set()).add(kind)
            links[b].setdefault(a, set()).add(kind)
            kinds.add(kind)
        self._links: dict[str, dict[str, frozenset[str]]] = {
            p: {q: frozenset(k) for q, k in sorted(near.items())} for p, near in links.items()
        }
        self._kinds = frozenset(kinds)
        # Neighbours by kinds, memoised: rules ask the same questions every move.
        self._near: dict[tuple[str, frozenset[str] | None], tuple[str, ...]] = {}

    @property
    def places(self) -> tuple[str, ...]:
        return self._places

    @property
    def kinds(self) -> frozenset[str]:
        return self._kinds

    def __contains__(self, place: object) -> bool:
        return place in self._links

    def routes(self, place: str) -> Mapping[str, frozenset[str]]:
        """Each neighbour of ``place`` with the kinds of route that join them."""
        return self._links[place]

    def neighbours(self, place: str, kinds: Collection[str] | None = None) -> tuple[str, ...]:
        """The places one step from ``place`` by a route of one of ``kinds`` (all if None),
        in a stable (sorted) order."""
        key = (place, None if kinds is None else frozenset(kinds))
        found = self._near.get(key)
        if found is None:
            near = self._links[place]
            if kinds is None:
                found = tuple(near)
            else:
                found = tuple(q for q, k in near.items() if not k.isdisjoint(kinds))
            self._near[key] = found
        return found

    def joined(self, a: str, b: str, kinds: Collection[str] | None = None) -> bool:
        k = self._links[a].get(b)
        return k is not None and (kinds is None or not k.isdisjoint(kinds))

    def distances(
        self, start: str, kinds: Collection[str] | None = None, limit: int | None = None
    ) -> dict[str, int]:
        """Steps from ``start`` to every place reachable by routes of ``kinds`` (breadth first),
        stopping at ``limit`` steps if one is given."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            steps = seen[here]
            if limit is not None and steps >= limit:
                continue
            for there in self.neighbours(here, kinds):
                if there not in seen:
                    seen[there] = steps + 1
                    queue.append(there)
        return seen

    def components(self, kinds: Collection[str] | None = None) -> list[list[str]]:
        """The connected groups of places (each sorted; groups in order of their first place)."""
        left = dict.fromkeys(self._places)
        groups = []
        while left:
            first = next(iter(left))
            group = sorted(self.distances(first, kinds))
            for place in group:
                left.pop(place, None)
            groups.append(group)
        return groups

    def is_connected(self, kinds: Collection[str] | None = None) -> bool:
        return len(self.components(kinds)) <= 1
