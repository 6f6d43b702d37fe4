"""The map as the bot reads it: distances, how exposed each city is, and route costs."""

from __future__ import annotations

import heapq
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..edition import Edition


@cache
def distances(edition: Edition) -> dict[str, dict[str, int]]:
    """Spaces between every two places (cities and sea zones) by any route."""
    graph = edition.map.graph
    return {place: graph.distances(place) for place in graph.places}


@cache
def exposure(edition: Edition) -> dict[str, int]:
    """Each city's distance to the nearest place outside its own country's power's territory
    (a neutral or another power's city): how exposed it is to foreign spies."""
    game_map = edition.map
    dist = distances(edition)
    found = {}
    for city in game_map.cities:
        owner = game_map.home_power(city)
        found[city] = min(
            (d for other, d in dist[city].items()
             if other in game_map.cities and game_map.home_power(other) != owner),
            default=99,
        )  # fmt: skip
    return found


def route_costs(edition: Edition, target: str, weight: Callable[[str], float]) -> dict[str, float]:
    """The cost from every place to ``target``: the sum of ``weight`` over the places entered
    (a Dijkstra search outward from the target)."""
    graph = edition.map.graph
    cost = {target: 0.0}
    heap = [(0.0, target)]
    while heap:
        here_cost, here = heapq.heappop(heap)
        if here_cost > cost[here]:
            continue
        step = here_cost + weight(here)
        for there in graph.neighbours(here):
            if step < cost.get(there, float("inf")):
                cost[there] = step
                heapq.heappush(heap, (step, there))
    return cost
