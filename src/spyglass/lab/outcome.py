"""One finished game, as the lab keeps it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished game: enough to recount every statistic, and to replay it (the seed).

    Besides the result, what the game was like to play (TAG's game metrics): ``order``, the
    seats in the order of their first move (the turn positions); per seat, ``moves`` (actions
    taken) and ``decisions`` (those with more than one legal action: the rest were forced);
    ``branching``, how many moves offered how many legal actions, as sorted (count of legal
    actions, moves) pairs. All of it follows from the seed and the agents, like the result.

    ``seconds`` (per seat, the time its agent spent choosing at its decisions) is the one
    figure that depends on the machine: it is left out of comparisons and of ``to_json``, and
    saved apart (``times_json``), so that a run's game files are the same byte for byte
    however and wherever it was played.
    """

    index: int
    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    won: bool | None
    score: float | None
    length: int
    order: tuple[int, ...] = ()
    moves: tuple[int, ...] = ()
    decisions: tuple[int, ...] = ()
    branching: tuple[tuple[int, int], ...] = ()
    seconds: tuple[float, ...] = field(default=(), compare=False)

    @property
    def measured(self) -> bool:
        """Whether the game metrics were recorded (runs saved by older versions lack them)."""
        return bool(self.moves)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "won": self.won,
            "score": self.score,
            "length": self.length,
            "order": list(self.order),
            "moves": list(self.moves),
            "decisions": list(self.decisions),
            "branching": [list(pair) for pair in self.branching],
        }

    def times_json(self) -> dict[str, Any]:
        return {"index": self.index, "seconds": list(self.seconds)}

    @classmethod
    def from_json(cls, data: dict[str, Any], seconds: tuple[float, ...] = ()) -> GameOutcome:
        return cls(
            index=int(data["index"]),
            seed=int(data["seed"]),
            scores=tuple(float(s) for s in data["scores"]),
            winners=tuple(int(w) for w in data["winners"]),
            won=None if data["won"] is None else bool(data["won"]),
            score=None if data["score"] is None else float(data["score"]),
            length=int(data["length"]),
            order=tuple(int(s) for s in data.get("order", ())),
            moves=tuple(int(m) for m in data.get("moves", ())),
            decisions=tuple(int(d) for d in data.get("decisions", ())),
            branching=tuple((int(k), int(n)) for k, n in data.get("branching", ())),
            seconds=seconds,
        )
