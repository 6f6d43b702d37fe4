"""What the registry tells about a game before it is loaded."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .options import OptionSpec


@dataclass(frozen=True, slots=True)
class Ratings:
    """The rulebook's own 1–3 ratings, where it prints them (Isaludo does)."""

    complexity: int
    weight: int
    footprint: int
    strategy: int
    tactics: int
    luck: int


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Identity and metadata of a game.

    ``players`` is the inclusive range of seats; ``score_order`` says whether a higher or a
    lower solo ``score`` is better; ``edition`` labels data we had to reconstruct;
    ``hidden_information`` is False only when every seat sees the whole state;
    ``unavailable`` says why a registered game cannot be loaded (a broken data file), None
    when it can.
    """

    id: str
    title: str
    summary: str
    rulebook: str
    players: tuple[int, int] = (1, 1)
    options: tuple[OptionSpec, ...] = ()
    score_order: str = "higher"
    edition: str | None = None
    hidden_information: bool = True
    ratings: Ratings | None = None
    unavailable: str | None = None

    @classmethod
    def broken(cls, game_id: str, reason: str) -> GameInfo:
        """What the catalogue says of a game whose module would not load."""
        return cls(
            id=game_id,
            title=game_id,
            summary=f"unavailable: {reason}",
            rulebook="",
            players=(0, 0),
            unavailable=reason,
        )

    @property
    def solo(self) -> bool:
        return self.players == (1, 1)

    def option(self, name: str) -> OptionSpec | None:
        return next((o for o in self.options if o.name == name), None)

    def players_text(self) -> str:
        low, high = self.players
        return str(low) if low == high else f"{low}–{high}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "rulebook": self.rulebook,
            "players": list(self.players),
            "options": [asdict(o) for o in self.options],
            "score_order": self.score_order,
            "edition": self.edition,
            "hidden_information": self.hidden_information,
            "ratings": None if self.ratings is None else asdict(self.ratings),
            "unavailable": self.unavailable,
        }
