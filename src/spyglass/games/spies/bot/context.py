"""What the bot's decisions share: the worth of points, pounds, chits and Action Points, and
the context of one decision (the state as the deciding seat may read it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from spyglass.engine import Action

from .. import chits, control
from ..pieces import ACTIVE

if TYPE_CHECKING:
    from ..rules import SpiesState
from .knowledge import Knowledge, greater
from .routes import distances

#: The bot's valuation constants, by name (a tuned policy plays the bot with others of its own:
#: ``agents.policies.spies``): the points an Action Chit (``chit``), a £ (``pound``), an active
#: spy for the rest of the game (``spy``) and an Action Point (``action_point``) are worth to the
#: bot, roughly; what a sea space counts for in a route, a land space counting 1 (``sea``: a
#: little more, the die may cut the voyage short); the £ kept back for a Discovery when other
#: chits are considered (``reserve``); the points a trade must net the bot beyond its costs
#: (``margin``: it trades on clear gains).
WEIGHTS: dict[str, float] = {
    "chit": 2.0,
    "pound": 0.25,
    "spy": 5.0,
    "action_point": 0.6,
    "sea": 1.25,
    "reserve": 2.0,
    "margin": 0.3,
}


REFUSALS = ("refuse", "decline", "reject", "pass", "no", "done")


#: How much the bot wants to keep each chit (the least wanted is returned over ten).
KEEP = {
    "Discovery": 10.0,
    "Papers": 6.0,
    "Escape": 6.0,
    "Cover": 5.0,
    "Drop": 4.0,
    "Double-Cross": 4.0,
    "Sanction": 3.5,
    "Intercept": 2.5,
    "Recruit": 1.5,
}


class Context:
    """One decision: the state, the deciding seat and power, and what the seat knows."""

    def __init__(
        self, state: SpiesState, power: str, weights: Mapping[str, float] = WEIGHTS
    ) -> None:
        self.state = state
        self.chit_points = weights["chit"]
        self.pound_points = weights["pound"]
        self.spy_points = weights["spy"]
        self.ap_points = weights["action_point"]
        self.sea_cost = weights["sea"]
        self.reserve = weights["reserve"]
        self.margin = weights["margin"]
        self.power = power
        self.seat = state.controller(power)
        self.know = Knowledge(state, self.seat)
        self.edition = state.edition
        self.map = state.edition.map
        self.dist = distances(state.edition)
        self.year = min(state.year, max(state.edition.record))
        self.mult = state.edition.record[self.year]
        self.final = state.edition.record[min(state.last_year, max(state.edition.record))]
        self.capital = self.map.capital(power)
        self._danger: dict[tuple[str, int], float] = {}
        self._policed: dict[str, dict[str, list[str]]] = {}  # city -> enemy power -> units
        for unit in state.board.police.values():
            if self.enemy(unit.power):
                self._policed.setdefault(unit.city, {}).setdefault(unit.power, []).append(
                    unit.label
                )
        self._discoveries: dict[tuple[int, bool, str, int], float] = {}
        self._worth: dict[str, float] = {}
        self._rivals: dict[tuple[str, str], float] = {}
        self._chit_values: dict[tuple[str, str, int], float] = {}

    def enemy(self, power: str | None) -> bool:
        return power is not None and self.state.controller(power) != self.seat

    def cash_worth(self) -> float:
        """What cashing a foreign Secret brings besides its points: the £20 and the chit."""
        return control.CASH_MONEY * self.pound_points + self.chit_points

    def turns_left(self) -> int:
        """This power's turns after the current year's."""
        return max(0, self.state.last_year - self.state.year)

    def hand(self) -> list[str]:
        return self.state.hands.chits[self.power]

    def can_pay(self, chit: str, reserve: float = 0) -> bool:
        return (
            chit in self.hand()
            and chits.affordable(self.state, self.power, chit)
            and (self.state.bank.money[self.power] - self.edition.chit(chit).money >= reserve)
        )

    def held(self, piece: str) -> str | None:
        return self.state.held_by(piece)

    def secret_worth(self, label: str) -> float:
        """What the Secret ``label`` is worth to this power if it keeps or cashes it."""
        secret = self.state.board.secrets[label]
        _, _, value = self.know.outlook(label, 0, True)
        if secret.origin == self.power:
            return value * self.final
        year = secret.taken if secret.taken is not None else self.year
        return value * self.edition.record[min(year, max(self.edition.record))]

    def spy_worth(self, label: str) -> float:
        if label not in self._worth:
            spy = self.state.board.spies[label]
            worth = spy.strength * self.mult + self.spy_points
            held = self.held(label)
            self._worth[label] = worth + (self.secret_worth(held) if held else 0.0)
        return self._worth[label]

    def danger(self, city: str, label: str) -> float:
        """Expected points lost if spy ``label`` stands in ``city`` when the enemy police there
        search it (0 at sea, under Cover, or with no enemy police there)."""
        groups = self._policed.get(city)
        if groups is None or label in self.state.board.covered:
            return 0.0
        spy = self.state.board.spies[label]
        key = (city, spy.strength)
        if key not in self._danger:
            mine = {spy.strength: 1.0}
            risk = sum(greater(self.know.force(units), mine) for units in groups.values())
            self._danger[key] = min(risk, 1.0)
        return self._danger[key] * self.spy_worth(label)

    def own_spies(self, status: str = ACTIVE) -> list:
        return [s for s in self.state.board.spies.values()
                if s.power == self.power and s.status == status]  # fmt: skip


def pick(actions: list[Action], wanted: tuple[str, object]) -> Action:
    kind, target = wanted
    for act in actions:
        if act.kind == kind and act.target == target:
            return act
    return actions[0]
