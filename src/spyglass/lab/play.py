"""One game with agents in the seats, and what it measures on the way.

This is the lab's inner loop, so it does per move only what the outcome needs: the legal
actions (which the agent needs anyway), a :class:`~spyglass.lab.seats.LabSeat` that builds
views and samples only if the agent reads them, two clock reads around a real decision, and a
few counters. ``benchmarks/lab_overhead.py`` holds it to within 1.3 times a plain loop over the
public API, game for game.
"""

from __future__ import annotations

import functools
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import spyglass
from spyglass import agents
from spyglass.engine import Game, derive_seed

from .outcome import GameOutcome
from .seats import LabSeat

#: References to a seat in :func:`play_game` after the agent's choice: the loop's own name
#: and ``sys.getrefcount``'s argument. More means the agent kept the seat. (A seat nobody
#: kept is freed when the loop moves on, and with it its hold on the state.)
_OUR_REFERENCES = 2


def play_game(
    game: Game, agent_names: Sequence[str], players: int, seed: int, index: int = 0
) -> GameOutcome:
    """One game from ``seed``; each seat's agent gets its own seed derived from it."""
    state = game.new_state(players=players, seed=seed)
    seated = []
    for seat_number, spec in enumerate(agent_names):
        name, params = _parsed(spec)  # read once per run, not once per game
        seated.append(agents.load(name, seed=derive_seed(seed, f"agent/{seat_number}"), **params))
    seconds = [0.0] * players
    decided = [0] * players  # decisions (moves with a choice) per seat
    turns: list[int] = []  # who moved, move by move
    sizes: list[int] = []  # how many legal actions each move had
    # bound once: this loop runs for every move of every game
    clock, references, made = time.perf_counter, sys.getrefcount, LabSeat
    turn, size = turns.append, sizes.append
    while not state.is_over:
        player = state.current_player
        assert player is not None
        legal = state.legal_actions()
        count = len(legal)
        turn(player)
        size(count)
        seat = made(state, player, legal)
        if count > 1:
            decided[player] += 1
            start = clock()
            action = seated[player].choose(seat)
            seconds[player] += clock() - start
        else:
            action = seated[player].choose(seat)
        if references(seat) > _OUR_REFERENCES:
            seat.close(kept=True)  # the agent keeps it: it must not watch the game move on
        state.apply(action)
    moves = Counter(turns)
    result = state.result
    assert result is not None
    return GameOutcome(
        index=index,
        seed=seed,
        scores=result.scores,
        winners=result.winners,
        won=result.won,
        score=result.score,
        length=state.step,
        order=tuple(dict.fromkeys(turns)),
        moves=tuple(moves[p] for p in range(players)),
        decisions=tuple(decided),
        branching=tuple(sorted(Counter(sizes).items())),
        seconds=tuple(seconds),
    )


@functools.lru_cache(maxsize=64)
def _parsed(spec: str) -> tuple[str, dict[str, Any]]:
    return agents.parse_spec(spec)


@functools.lru_cache(maxsize=32)
def load_game(game_id: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return spyglass.load(game_id, **dict(options))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with master seed ``seed``."""
    return derive_seed(seed, f"game/{index}")


@dataclass(frozen=True, slots=True)
class GameTask:
    """Game ``index`` of a table: picklable, so any worker of any back-end can play it."""

    game: str
    options: tuple[tuple[str, Any], ...]
    agents: tuple[str, ...]
    players: int
    seed: int  # the table's master seed: the game's own seed is derived from it and the index
    index: int

    def run(self) -> GameOutcome:
        game = load_game(self.game, self.options)
        return play_game(
            game, self.agents, self.players, game_seed(self.seed, self.index), self.index
        )
