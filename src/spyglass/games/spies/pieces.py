"""The pieces on the map: spies, police units and Secrets.

Each piece has a public label, given when it is placed ("Ge3" is the third German spy placed,
"GeP2" the second German police unit, "X12" the twelfth Secret placed), so that everyone can
follow a face-down counter around the map without knowing what is on its face. What is on the
face (a spy's strength and whether it is the Cousin, a unit's strength, which Secret card) is
hidden from those who may not look (rules 2.4, 2.5, 2.8).
"""

from __future__ import annotations

from dataclasses import dataclass

CAPTURED, SANCTIONED, ACTIVE = "captured", "sanctioned", "active"
IN_PLAY, CASHED, REMOVED = "in play", "cashed", "removed"  # a Secret's standing


@dataclass(frozen=True, slots=True)
class Spy:
    label: str
    power: str
    strength: int
    cousin: bool
    place: str  # a city, or a sea zone while it is on a voyage
    status: str = ACTIVE
    captor: str | None = None  # captured: the power whose record holds it (None: the
    # neutral-country box, rule 3.5)
    year: int | None = None  # the year it was captured

    @property
    def face(self) -> str:
        return spy_face(self.strength, self.cousin)

    def with_face(self, strength: int, cousin: bool) -> Spy:
        """This spy with another face (``dataclasses.replace`` is ten times slower, and the
        sampler redeals faces hundreds of thousands of times in a long run)."""
        return Spy(self.label, self.power, strength, cousin, self.place, self.status,
                   self.captor, self.year)  # fmt: skip


@dataclass(frozen=True, slots=True)
class PoliceUnit:
    label: str
    power: str
    strength: int
    city: str

    def with_strength(self, strength: int) -> PoliceUnit:
        return PoliceUnit(self.label, self.power, strength, self.city)


@dataclass(frozen=True, slots=True)
class Secret:
    label: str
    card: str  # the Secret card's id in the edition (hidden)
    origin: str | None  # the power whose original Secret it is; None for the neutral ones
    home: str  # the city it was placed in at set-up
    place: str  # where it is now
    holder: str | None = None  # the label of the spy or police unit on top of it
    status: str = IN_PLAY
    taken: int | None = None  # the year it was last taken from its owner (rule 3.7)
    loose: bool = False  # an original Secret moved away and not yet settled back home
    record: str | None = None  # cashed: the power whose record holds it


def spy_face(strength: int, cousin: bool) -> str:
    """What is on a spy's face: "3", or "cousin 2" for the Cousin of strength 2."""
    return f"cousin {strength}" if cousin else str(strength)
