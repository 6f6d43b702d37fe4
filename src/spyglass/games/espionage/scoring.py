"""Walking back the dog: scoring a finished city, row by row in play order.

Scoring is sequential because some losses "cannot take the score below zero": a floored loss
takes at most what the player has at that moment of the walk (their running total, earlier
cities included). Every change is recorded with its turn and clause, so a city can be stepped
through and each player's breakdown shown.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from spyglass.components.cards import Card

from .meanings import Role, can_arrest, is_rejection, round_away, secret_value


@dataclass(frozen=True, slots=True)
class Play:
    """One card played in a city: in ``turn`` (1-based), ``giver`` played ``card`` on
    ``receiver``."""

    turn: int
    giver: int
    receiver: int
    card: Card


@dataclass(frozen=True, slots=True)
class Change:
    """One scoring event: ``points`` is what the clause changed (after any floor), ``asked``
    what it would have changed without the floor. Turn 0 is before the first row."""

    turn: int
    seat: int
    clause: str
    text: str
    points: int
    asked: int


#: Clause keys, in the order a breakdown lists them.
CLAUSES = (
    "civilian",
    "arrest bonus",
    "secrets seized",
    "arrest penalty",
    "rejected as agent",
    "secrets",
    "double agent's secrets",
    "rejections",
    "loose lips",
    "planted secrets",
    "arrested",
    "rejected as double agent",
)


class Walk:
    """Scores one city. ``unit`` is the points needed to end the game for this player count
    (before any long/short option): the fractions of the rules are fractions of it."""

    def __init__(self, roles: list[Role], plays: list[Play], scores: list[int], unit: int):
        self.roles = roles
        self.plays = plays
        self.score = list(scores)
        self.unit = unit
        self.changes: list[Change] = []
        self.arrest_index: dict[int, int] = {}  # target -> index of its first arrest
        self.agent_arrests: dict[tuple[int, int], int] = {}  # (agent, target) -> first turn
        self.rejections: set[tuple[int, int]] = set()
        first_turn: dict[int, int] = {}
        agents_in_first_turn: dict[int, set[int]] = defaultdict(set)
        for play in plays:
            if self._arrests(play):
                first = first_turn.setdefault(play.receiver, play.turn)
                if play.turn == first:
                    agents_in_first_turn[play.receiver].add(play.giver)
        self.first_turn = first_turn
        self.sharing = {target: len(agents) for target, agents in agents_in_first_turn.items()}

    def _arrests(self, play: Play) -> bool:
        return (
            play.giver != play.receiver
            and self.roles[play.giver] is Role.COUNTER_ESPIONAGE
            and can_arrest(play.card, self.roles[play.receiver])
        )

    def _arrested_before(self, seat: int, index: int) -> bool:
        return self.arrest_index.get(seat, len(self.plays)) < index

    def change(
        self, turn: int, seat: int, clause: str, text: str, amount: int, *, floor: bool = False
    ) -> None:
        applied = amount
        if floor and amount < 0:
            applied = max(amount, -max(self.score[seat], 0))
        self.score[seat] += applied
        self.changes.append(Change(turn, seat, clause, text, applied, amount))

    # ------------------------------------------------------------------ the walk

    def run(self) -> list[int]:
        for seat, role in enumerate(self.roles):
            if role is Role.CIVILIAN:
                self.change(0, seat, "civilian", "an innocent civilian's share", self.unit // 4)
        for index, play in enumerate(self.plays):
            if play.giver == play.receiver:
                continue  # a play on oneself scores nothing for anyone
            if self._arrests(play):
                self._arrest(index, play)
            elif is_rejection(play.card):
                self._rejection(index, play)
            elif secret_value(play.card):
                self._secret(index, play)
        return self.score

    def _arrest(self, index: int, play: Play) -> None:
        agent, target, turn = play.giver, play.receiver, play.turn
        role = self.roles[target]
        who = f"seat {target} ({role})"
        if turn == self.first_turn[target]:
            share = self.sharing[target]
            split = f", shared by {share} agents" if share > 1 else ""
            unit = self.unit
            bonus = {
                Role.SPY_MASTER: (unit / 5, "arrest bonus", False),
                Role.SPY: (unit / 10, "arrest bonus", False),
                Role.DOUBLE_AGENT: (-unit / 5, "arrest penalty", False),
                Role.CIVILIAN: (-unit / 10, "arrest penalty", True),
            }[role]
            amount, clause, floor = bonus
            self.change(
                turn,
                agent,
                clause,
                f"first arrest of {who}{split}",
                round_away(amount / share),
                floor=floor,
            )
        if target not in self.arrest_index:
            self.arrest_index[target] = index
            penalty = self.unit // 10 if role is Role.DOUBLE_AGENT else self.unit // 5
            self.change(
                turn,
                target,
                "arrested",
                f"arrested by seat {agent}",
                -penalty,
                floor=role is Role.DOUBLE_AGENT,
            )
        if (agent, target) in self.agent_arrests:
            return
        self.agent_arrests[(agent, target)] = turn
        # Secrets of the same turn that came before the arrest count too ("this turn").
        for earlier in self.plays[:index]:
            if earlier.turn == turn and earlier.giver != earlier.receiver:
                self._seize(agent, target, earlier)

    def _seize(self, agent: int, target: int, play: Play) -> None:
        """Secrets an agent earns for having arrested ``target``: those played on a spy
        master, or played by a spy."""
        value = secret_value(play.card)
        if not value:
            return
        role = self.roles[target]
        if role is Role.SPY_MASTER and play.receiver == target:
            text = f"{play.card} played on the spy master at seat {target}"
        elif role is Role.SPY and play.giver == target:
            text = f"{play.card} played by the spy at seat {target}"
        else:
            return
        self.change(play.turn, agent, "secrets seized", text, value)

    def _rejection(self, index: int, play: Play) -> None:
        rejecter, rejected, turn = play.giver, play.receiver, play.turn
        if (rejecter, rejected) in self.rejections:
            return  # a rejection scores once per pair and city
        self.rejections.add((rejecter, rejected))
        by, of = self.roles[rejecter], self.roles[rejected]
        unit = self.unit
        if (
            of is Role.COUNTER_ESPIONAGE
            and by in (Role.SPY, Role.SPY_MASTER)
            and not self._arrested_before(rejecter, index)
        ):
            self.change(
                turn,
                rejected,
                "rejected as agent",
                f"rejected by the {by} at seat {rejecter}",
                -(unit // 20),
                floor=True,
            )
        if by is Role.SPY_MASTER:
            if of is Role.DOUBLE_AGENT:
                self.change(
                    turn,
                    rejecter,
                    "rejections",
                    f"rejected the double agent at seat {rejected}",
                    unit // 10,
                )
            elif of in (Role.SPY, Role.SPY_MASTER):
                self.change(
                    turn,
                    rejecter,
                    "rejections",
                    f"rejected the {of} at seat {rejected}",
                    -(unit // 20),
                    floor=True,
                )
        if of is Role.DOUBLE_AGENT and by in (Role.SPY, Role.SPY_MASTER):
            loss = unit // 20 if by is Role.SPY else unit // 10
            self.change(
                turn,
                rejected,
                "rejected as double agent",
                f"rejected by the {by} at seat {rejecter}",
                -loss,
            )

    def _secret(self, index: int, play: Play) -> None:
        giver, receiver, turn, card = play.giver, play.receiver, play.turn, play.card
        value = secret_value(card)
        even = value % 2 == 0
        by, to = self.roles[giver], self.roles[receiver]
        giver_free = not self._arrested_before(giver, index)
        receiver_free = not self._arrested_before(receiver, index)
        # The receiver's clauses.
        if to is Role.SPY_MASTER and by is Role.SPY and receiver_free:
            self.change(turn, receiver, "secrets", f"{card} from the spy at seat {giver}", value)
        if by is Role.DOUBLE_AGENT and to in (Role.SPY_MASTER, Role.SPY):
            if to is Role.SPY_MASTER:
                amount = -3 * value if even else 2 * value
            else:
                amount = -value if even else value
            kind = "even, planted" if even else "odd"
            self.change(
                turn,
                receiver,
                "double agent's secrets",
                f"{card} ({kind}) from the double agent at seat {giver}",
                amount,
            )
        # The giver's clauses.
        if by is Role.SPY and receiver_free and giver_free:
            if to is Role.SPY:
                self.change(turn, giver, "secrets", f"{card} to the spy at seat {receiver}", value)
            elif to is Role.SPY_MASTER:
                self.change(
                    turn,
                    giver,
                    "secrets",
                    f"{card} to the spy master at seat {receiver}",
                    3 * value,
                )
        if by is Role.CIVILIAN and receiver_free and to in (Role.SPY, Role.SPY_MASTER):
            loss = value if to is Role.SPY else 2 * value
            self.change(turn, giver, "loose lips", f"{card} to the {to} at seat {receiver}", -loss)
        if by is Role.DOUBLE_AGENT and to in (Role.SPY, Role.SPY_MASTER):
            self._planted(play, giver_free=giver_free, receiver_free=receiver_free)
        # Agents who have arrested the receiver (a spy master) or the giver (a spy).
        for (agent, target), _ in list(self.agent_arrests.items()):
            if (target == receiver and to is Role.SPY_MASTER) or (
                target == giver and by is Role.SPY
            ):
                self._seize(agent, target, play)

    def _planted(self, play: Play, *, giver_free: bool, receiver_free: bool) -> None:
        """A double agent's gains and losses for the secrets it plays on spies and masters."""
        giver, receiver, card, turn = play.giver, play.receiver, play.card, play.turn
        value = secret_value(card)
        even = value % 2 == 0
        to = self.roles[receiver]
        if to is Role.SPY:
            if not receiver_free:
                return
            amount = 2 * value if even else -3 * value
        elif even:
            if not (giver_free and receiver_free):
                return
            amount = 5 * value
        else:
            if not receiver_free:
                return
            amount = -6 * value
        kind = "even" if even else "odd"
        self.change(
            turn,
            giver,
            "planted secrets",
            f"{card} ({kind}) to the {to} at seat {receiver}",
            amount,
        )


def breakdown(changes: list[Change], players: int) -> list[dict[str, int]]:
    """Each player's points per clause (only the clauses that scored)."""
    totals: list[dict[str, int]] = [{} for _ in range(players)]
    for change in changes:
        row = totals[change.seat]
        row[change.clause] = row.get(change.clause, 0) + change.points
    return [{k: row[k] for k in CLAUSES if k in row} for row in totals]
