"""The outcome of a finished game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended.

    ``scores``: one float per seat. In multiplayer games these are the game's points; in solo
    games 1.0 for a win and 0.0 for a loss (the rulebook's own score is ``score``).
    ``winners``: the winning seats (empty when a solo game is lost; several on a tie).
    ``won`` and ``score`` (solo games): the outcome and the score as the rulebook defines it,
    ``None`` where the rulebook defines no score for that outcome.
    ``detail``: one dict per seat with the scoring categories a person would want to see.
    ``summary``: one sentence for people.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    won: bool | None = None
    score: float | None = None
    detail: tuple[dict[str, Any], ...] = ()
    summary: str = ""

    @classmethod
    def solo(cls, won: bool, score: float | None, detail: dict[str, Any], summary: str) -> Result:
        return cls(
            scores=(1.0 if won else 0.0,),
            winners=(0,) if won else (),
            won=won,
            score=None if score is None else float(score),
            detail=(detail,),
            summary=summary,
        )

    @property
    def rewards(self) -> tuple[float, ...]:
        """Utilities in [0, 1] for agents: the winners share 1 equally, the others get 0."""
        n = len(self.scores)
        if not self.winners:
            return (0.0,) * n
        share = 1.0 / len(self.winners)
        return tuple(share if p in self.winners else 0.0 for p in range(n))

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "won": self.won,
            "score": self.score,
            "detail": [dict(d) for d in self.detail],
            "summary": self.summary,
        }
