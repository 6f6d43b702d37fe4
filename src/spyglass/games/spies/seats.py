"""Which seat plays which power (rule 7.0: fewer than five players).

Five players take one power each. With four, one player has Germany and Italy; with three, a
second player also has Britain and France; with two, Russia passes between the two players
year by year. Our ruling: the German-Italian player has Russia in the odd years (1933, 1935,
1937, 1939), the British-French player in the even years.
"""

from __future__ import annotations

from .geography import POWERS

_FIXED: dict[int, dict[str, int]] = {
    5: {"Germany": 0, "Italy": 1, "Russia": 2, "France": 3, "Britain": 4},
    4: {"Germany": 0, "Italy": 0, "Russia": 1, "France": 2, "Britain": 3},
    3: {"Germany": 0, "Italy": 0, "Russia": 1, "France": 2, "Britain": 2},
    2: {"Germany": 0, "Italy": 0, "France": 1, "Britain": 1},
}


def controller(power: str, year: int, players: int) -> int:
    """The seat that plays ``power`` in ``year``."""
    fixed = _FIXED[players]
    if power in fixed:
        return fixed[power]
    return 0 if year % 2 == 1 else 1  # two players: Russia alternates


def powers_of(seat: int, year: int, players: int) -> list[str]:
    """The powers ``seat`` plays in ``year``, in turn order."""
    return [p for p in POWERS if controller(p, year, players) == seat]


def ever_played(power: str, year: int, players: int) -> set[int]:
    """The seats that have played ``power`` in any year up to ``year``."""
    return {controller(power, y, players) for y in range(1933, year + 1)}
