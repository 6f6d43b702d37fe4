"""Every multiplayer spyglass game as a PettingZoo AEC environment.

``env(game_id, players=n, **options)`` (or ``raw_env``) gives agents ``"seat_0"`` ... ; each
observation is ``{"observation": float32 vector of view(seat), "action_mask": int8 mask}``
(the mask is all zero when it is not that seat's turn). Rewards come at the end: each seat's
share of the win (``Result.rewards``), or with ``reward="score"`` the game's points.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import spyglass
from spyglass.engine import RulesError, State

from .encoding import encoding_for
from .text import view_text

REWARDS = ("win", "score")


class SpyglassAEC(AECEnv):
    """One multiplayer game at a fixed player count."""

    metadata = {"render_modes": ["ansi"], "name": "spyglass_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        reward: str = "win",
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = spyglass.load(game_id, **options)
        if self.game.info.solo:
            raise RulesError(
                f"{self.game.info.title} is a solo game: use spyglass.adapters.gymnasium for it"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        self.players = self.game.check_players(players)
        self.render_mode = render_mode
        self.reward_mode = reward
        self.encoding = encoding_for(self.game, self.players)
        self.metadata = {**self.metadata, "name": f"spyglass_{game_id}_v0"}
        self.possible_agents = [f"seat_{p}" for p in range(self.players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        n = self.encoding.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        -np.inf, np.inf, (self.encoding.observation_size,), np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state: State | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal = int(self._rng.integers(0, 2**63 - 1))
        self.state = self.game.new_state(players=self.players, seed=deal)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent(self.state.current_player)
        if self.state.is_over:
            self._finish()

    def _finish(self) -> None:
        """Pay every seat and end the game for all of them."""
        result = self._require_state().result
        assert result is not None
        values = result.rewards if self.reward_mode == "win" else result.scores
        for a in self.agents:
            self.rewards[a] = float(values[self._seat[a]])
            self.terminations[a] = True
        self._accumulate_rewards()
        # Every seat is told once that the game ended; the first of them moves next.
        self.agent_selection = self.agents[0]

    def _agent(self, seat: int | None) -> str:
        return self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._require_state()
        seat = self._seat[agent]
        if state.current_player == seat:
            mask = self.encoding.mask(self.encoding.legal_indices(state))
        else:
            mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        return {"observation": self.encoding.observe(state.view(seat)), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        move = self.encoding.legal_indices(state).get(int(action))
        if move is None:
            raise RulesError(
                f"action {action} is not legal for {agent} here: use the observation's action_mask"
            )
        self._cumulative_rewards[agent] = 0.0
        state.apply(move)
        if state.is_over:
            self._finish()
        else:
            self.agent_selection = self._agent(state.current_player)
            self.rewards = dict.fromkeys(self.agents, 0.0)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return view_text(self.game, self._require_state().view(None))

    def close(self) -> None:
        pass

    def _require_state(self) -> State:
        if self.state is None:
            raise RulesError("call reset() before using the environment")
        return self.state


def raw_env(game_id: str, **kwargs: Any) -> SpyglassAEC:
    return SpyglassAEC(game_id, **kwargs)


def env(game_id: str, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks wrapped around it."""
    wrapped: AECEnv = SpyglassAEC(game_id, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def multiplayer_games() -> list[str]:
    return [info.id for info in spyglass.games() if not info.solo]
