"""What the deciding seat knows of hidden faces: strength distributions, and what
face-down spies, police and Secrets could be."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules import SpiesState

Dist = dict[int, float]  # strength -> probability


def greater(a: Dist, b: Dist) -> float:
    """P(A > B) for independent A and B."""
    return sum(pa * pb for x, pa in a.items() for y, pb in b.items() if x > y)


def at_least(a: Dist, b: Dist) -> float:
    return sum(pa * pb for x, pa in a.items() for y, pb in b.items() if x >= y)


def mean(d: Dist) -> float:
    return sum(x * p for x, p in d.items())


def spread(values: Iterable[int]) -> Dist:
    counts = Counter(values)
    total = sum(counts.values())
    return {v: n / total for v, n in counts.items()} if total else {0: 1.0}


def total(parts: list[Dist]) -> Dist:
    """The distribution of a sum of independent parts."""
    result: Dist = {0: 1.0}
    for part in parts:
        nxt: Dist = {}
        for x, px in result.items():
            for y, py in part.items():
                nxt[x + y] = nxt.get(x + y, 0.0) + px * py
        result = nxt
    return result


class Knowledge:
    """What the seat ``seat`` knows of the table, and its best guesses at the rest."""

    def __init__(self, state: SpiesState, seat: int) -> None:
        self.state, self.seat = state, seat
        self._spy_pools: dict[str, tuple[Dist, float]] = {}
        self._police_pools: dict[str, Dist] = {}
        self._cards: list | None = None
        self._faces: dict[str, tuple[int, bool] | None] = {}
        self._units: dict[str, Dist] = {}
        self._outlooks: dict[tuple[str, int, bool], tuple[float, float, float]] = {}
        self._unseen: dict[tuple[bool, int, bool], tuple[float, float, float]] = {}

    def spy_face(self, label: str) -> tuple[int, bool] | None:
        if label not in self._faces:
            spy = self.state.board.spies[label]
            seen = self.state.sees_piece(self.seat, label, spy.power)
            self._faces[label] = (spy.strength, spy.cousin) if seen else None
        return self._faces[label]

    def _spy_pool(self, power: str) -> tuple[Dist, float]:
        """Strengths of ``power``'s spies this seat has not seen, and the chance that an
        unseen one is its Cousin."""
        if power not in self._spy_pools:
            info = self.state.edition.power(power)
            pool = Counter([(s, False) for s in info.spies] + [(info.cousin, True)])
            for spy in self.state.board.spies.values():
                if spy.power == power:
                    face = self.spy_face(spy.label)
                    if face is not None and pool[face] > 0:
                        pool[face] -= 1
            faces = list(pool.elements())
            cousin = sum(1 for _, c in faces if c) / len(faces) if faces else 0.0
            self._spy_pools[power] = (spread(s for s, _ in faces), cousin)
        return self._spy_pools[power]

    def spy_strength(self, label: str) -> Dist:
        face = self.spy_face(label)
        if face is not None:
            return {face[0]: 1.0}
        return self._spy_pool(self.state.board.spies[label].power)[0]

    def cousin_chance(self, label: str) -> float:
        face = self.spy_face(label)
        if face is not None:
            return float(face[1])
        return self._spy_pool(self.state.board.spies[label].power)[1]

    def unit_strength(self, label: str) -> Dist:
        if label not in self._units:
            self._units[label] = self._unit_strength(label)
        return self._units[label]

    def _unit_strength(self, label: str) -> Dist:
        unit = self.state.board.police[label]
        if self.state.sees_piece(self.seat, label, unit.power):
            return {unit.strength: 1.0}
        if unit.power not in self._police_pools:
            pool = Counter(self.state.edition.power(unit.power).police)
            for other in self.state.board.police.values():
                if other.power == unit.power and self.state.sees_piece(
                    self.seat, other.label, other.power
                ):
                    pool[other.strength] -= 1
            self._police_pools[unit.power] = spread(pool.elements())
        return self._police_pools[unit.power]

    def force(self, units: list[str]) -> Dist:
        return total([self.unit_strength(u) for u in units])

    def card(self, label: str) -> str | None:
        secret = self.state.board.secrets[label]
        return secret.card if self.state.sees_secret(self.seat, secret) else None

    def unseen_cards(self) -> list:
        """The Secret cards this seat has not seen anywhere."""
        if self._cards is None:
            state = self.state
            seen = Counter(self.card(label) for label in state.board.secrets)
            for power, hand in state.hand_secrets.items():
                if state.sees_hand(self.seat, power):
                    seen.update(hand)
            cards = []
            for card in state.edition.secrets:
                if seen[card.id] > 0:
                    seen[card.id] -= 1
                else:
                    cards.append(card)
            self._cards = cards
        return self._cards

    def outlook(self, label: str, strength: int, cousin: bool) -> tuple[float, float, float]:
        """For a spy of ``strength`` taking Secret ``label``: the expected value of the card if
        it is no Counterspy (0 for a Counterspy, which leaves play), the chance that it is one
        that captures the spy, and its expected value as it lies (for defence)."""
        key = (label, strength, cousin)
        if key not in self._outlooks:
            self._outlooks[key] = self._outlook(label, strength, cousin)
        return self._outlooks[key]

    def _outlook(self, label: str, strength: int, cousin: bool) -> tuple[float, float, float]:
        card = self.card(label)
        edition = self.state.edition
        if card is not None:
            info = edition.secret(card)
            trap = float(bool(info.counterspy) and info.counterspy > strength and not cousin)
            return (0.0 if info.counterspy else float(info.value)), trap, float(info.value)
        return self._unseen_outlook(label in self.state.board.plain, strength, cousin)

    def _unseen_outlook(
        self, plain: bool, strength: int, cousin: bool
    ) -> tuple[float, float, float]:
        key = (plain, 0 if plain else strength, cousin or plain)
        if key not in self._unseen:
            cards = self.unseen_cards()
            if plain:
                cards = [c for c in cards if not c.counterspy] or cards
            if not cards:
                return 2.0, 0.0, 2.0
            n = len(cards)
            gain = sum(c.value for c in cards if not c.counterspy) / n
            trap = 0.0 if cousin else sum(1 for c in cards if c.counterspy > strength) / n
            self._unseen[key] = (gain, trap, sum(c.value for c in cards) / n)
        return self._unseen[key]
