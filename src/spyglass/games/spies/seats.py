"""Which seat plays which power: rule 7.0 (fewer than five players) and options 8.3-8.5.

Five players take one power each. The default for fewer (7.0): with four, one player has
Germany and Italy; with three, a second player also has Britain and France; with two, Russia
passes between the two players year by year (our ruling: the German-Italian player has it in
the odd years, 1933 first, the British-French player in the even years).

Options change the allocation:

- ``allocation="alternative"``: 8.3 with four players (France and Russia together; Germany,
  Italy, Britain alone), 8.4 with three (Germany and Italy; France and Russia; Britain).
- ``russia_bidding``: 8.5 with two players (Germany-Italy, France-Britain) or four (Germany,
  Italy, France, Britain one each): Russia goes to the highest bidder each year (``bidding``).

Seats are numbered in the turn order of their first power.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from spyglass.engine import RulesError

from .geography import POWERS

RUSSIA = "Russia"
FIXED, ALTERNATE, BID = "fixed", "alternate", "bid"

_STANDARD: dict[int, dict[str, int]] = {
    5: {"Germany": 0, "Italy": 1, "Russia": 2, "France": 3, "Britain": 4},
    4: {"Germany": 0, "Italy": 0, "Russia": 1, "France": 2, "Britain": 3},
    3: {"Germany": 0, "Italy": 0, "Russia": 1, "France": 2, "Britain": 2},
    2: {"Germany": 0, "Italy": 0, "France": 1, "Britain": 1},
}
_ALTERNATIVE: dict[int, dict[str, int]] = {
    4: {"Germany": 0, "Italy": 1, "Russia": 2, "France": 2, "Britain": 3},  # 8.3
    3: {"Germany": 0, "Italy": 0, "Russia": 1, "France": 1, "Britain": 2},  # 8.4
}
_BIDDING: dict[int, dict[str, int]] = {
    2: {"Germany": 0, "Italy": 0, "France": 1, "Britain": 1},
    4: {"Germany": 0, "Italy": 1, "France": 2, "Britain": 3},
}


@dataclass(frozen=True, slots=True)
class Seating:
    """The seats of a table: ``fixed`` powers never change hands; Russia is fixed, alternates
    by year (two players, 7.0) or is bid for (8.5)."""

    players: int
    fixed: Mapping[str, int]
    russia: str

    def controller(self, power: str, year: int, russia_seat: int | None) -> int:
        seat = self.fixed.get(power)
        if seat is not None:
            return seat
        if self.russia == ALTERNATE:
            return 0 if year % 2 == 1 else 1
        return 0 if russia_seat is None else russia_seat  # before the first bid: nobody acts

    def bidders(self) -> list[str]:
        """One power per seat (its first in turn order): the seat's voice in the bidding."""
        first: dict[int, str] = {}
        for power in POWERS:
            seat = self.fixed.get(power)
            if seat is not None and power != RUSSIA:
                first.setdefault(seat, power)
        return [first[s] for s in sorted(first)]

    def scoring(self, power: str) -> bool:
        """Russia scores nothing when it changes hands (7.0 with two players, and 8.5)."""
        return not (power == RUSSIA and self.russia != FIXED)


def seating(options: Mapping[str, Any], players: int) -> Seating:
    """The allocation for ``players`` under ``options``; RulesError for a combination the
    rules do not allow."""
    return _seating(tuple(sorted(options.items())), players)


@cache
def _seating(items: tuple[tuple[str, Any], ...], players: int) -> Seating:
    options = dict(items)
    allocation = options.get("allocation", "standard")
    bidding = options.get("russia_bidding", False)
    alliances = options.get("historical_alliances", False)
    if alliances and options.get("two_power_score", "best") != "best":
        raise RulesError("rule 8.2 (two_power_score) is not used with 8.1 (historical_alliances)")
    if bidding:
        if players not in _BIDDING:
            raise RulesError("russia_bidding (rule 8.5) is for two or four players")
        if allocation != "standard":
            raise RulesError("russia_bidding (rule 8.5) sets its own allocation of the powers")
        return Seating(players, _BIDDING[players], BID)
    if allocation == "alternative":
        if players not in _ALTERNATIVE:
            raise RulesError("allocation=alternative is for four (8.3) or three (8.4) players")
        if players == 3 and alliances:
            raise RulesError("rule 8.4 is not used with 8.1 (historical_alliances)")
        return Seating(players, _ALTERNATIVE[players], FIXED)
    fixed = _STANDARD[players]
    return Seating(players, fixed, FIXED if RUSSIA in fixed else ALTERNATE)
