"""One finished game, as the lab keeps it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished game: enough to recount every statistic, and to replay it (the seed)."""

    index: int
    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    won: bool | None
    score: float | None
    length: int

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "won": self.won,
            "score": self.score,
            "length": self.length,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOutcome:
        return cls(
            index=int(data["index"]),
            seed=int(data["seed"]),
            scores=tuple(float(s) for s in data["scores"]),
            winners=tuple(int(w) for w in data["winners"]),
            won=None if data["won"] is None else bool(data["won"]),
            score=None if data["score"] is None else float(data["score"]),
            length=int(data["length"]),
        )
