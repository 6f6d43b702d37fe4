"""The seat the lab hands an agent: ``state.seat(p)``, built only as far as the agent reads it.

``State.seat`` builds the seat's view and a full determinization (its sample) for every move,
whether the agent reads them or not. Most agents do not: the random agent reads the legal
actions only, the heuristic agent one determinization of its own (and none on a forced move).
Over a whole simulation those unread views and samples were most of the time (80% of a Tinker
Tailor run's profile, 44% of a Spies! game's). A :class:`LabSeat` answers exactly what
``state.seat(p)`` would answer, but builds each part when it is first read:

- ``legal_actions`` and ``player``, ``players``, ``game``: known at once (cheap);
- ``view``: ``state.view(p)`` on first use;
- ``determinize(rng)``: ``state.determinize(p, rng)``. ``Seat.determinize`` resamples the
  seat's sample instead; the two are the same state for the same generator, because a
  determinization depends only on what the seat knows (DESIGN.md section 3; the conformance
  suite checks it at every state of its playouts), and the sample knows what the seat knows.
  So an agent plays the very same moves with either seat;
- ``parse`` and ``describe``: on the sample, built with ``Rng(0)`` as ``state.seat`` builds it.

Hidden information: the true state is held in a private slot only while the agent chooses, to
build those parts, and :meth:`close` drops it as soon as the move is made. An agent that keeps
its seat past ``choose`` (to reuse a tree, say) gets what ``state.seat(p)`` would have given:
the caller sees that the seat is still referenced and has it build its view and sample then,
from the position it was made for. Everything the seat hands out is what ``state.seat(p)``
hands out, and nothing reachable from it after the move is the true state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spyglass.engine import Action, Seat
from spyglass.engine.rng import Rng

if TYPE_CHECKING:
    from spyglass.engine import State


class LabSeat(Seat):
    __slots__ = ("_made_sample", "_made_view", "_players", "_state")

    def __init__(self, state: State, player: int, legal_actions: list[Action]) -> None:
        # Seat.__init__ takes a built view and sample: those are exactly what is deferred.
        self.player = player
        self.legal_actions = legal_actions
        self.game = state.game
        self._players = state.players
        self._state: State | None = state
        self._made_view: dict[str, Any] | None = None
        self._made_sample: State | None = None

    def _live(self) -> State:
        state = self._state
        if state is None:
            raise RuntimeError(
                "this seat's move has been played: an agent reads its seat within choose()"
            )
        return state

    @property
    def view(self) -> dict[str, Any]:  # type: ignore[override]  # Seat's slot, built on first use
        if self._made_view is None:
            self._made_view = self._live().view(self.player)
        return self._made_view

    @property
    def _sample(self) -> State:  # type: ignore[override]  # Seat's slot, built on first use
        if self._made_sample is None:
            self._made_sample = self._live().determinize(self.player, Rng(0))
        return self._made_sample

    @property
    def players(self) -> int:
        return self._players

    def determinize(self, rng: Rng | int | None = None, *, log: bool = True) -> State:
        if self._made_sample is not None:  # the state may be gone; the sample knows the same
            return self._made_sample.determinize(self.player, rng, log=log)
        return self._live().determinize(self.player, rng, log=log)

    def close(self, kept: bool = False) -> None:
        """The move is made: let go of the true state. ``kept``: the agent still holds the
        seat, so build now what it may read later (the position is about to change)."""
        if kept and self._state is not None:
            _ = self.view, self._sample
        self._state = None
