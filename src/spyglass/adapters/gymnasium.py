"""Every solo spyglass game as a Gymnasium environment: ``gymnasium.make("spyglass/<id>-v0")``.

Actions are ``Discrete(num_actions)`` indices (``GameEncoding``); ``info["action_mask"]`` marks
the legal ones (all zero when the deal decided the game before any move: then any action ends
the episode with the result). An illegal index leaves the table as it was and ends the episode with
``illegal_reward`` (default -1) and ``info["illegal_action"] = True``. The reward comes at the
end: 1
for a win and 0 for a loss, or with ``reward="score"`` the rulebook's score (negated where a
lower score is better; 0 where the rulebook gives none). ``render_mode="ansi"`` returns the
table as text.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import spyglass
from spyglass.engine import RulesError, State

from .encoding import encoding_for
from .text import view_text

REWARDS = ("win", "score")


class SpyglassEnv(gymnasium.Env):
    """One solo game; keyword options go to ``spyglass.load``."""

    # Gymnasium's own convention; the frame rate is only read by recorders of ansi frames.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        reward: str = "win",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        self.game = spyglass.load(game_id, **options)
        if not self.game.info.solo:
            raise RulesError(
                f"{self.game.info.title} is for {self.game.info.players_text()} players: use"
                " spyglass.adapters.pettingzoo for it"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        self.render_mode = render_mode
        self.reward_mode = reward
        self.illegal_reward = float(illegal_reward)
        self._finished = False  # the episode's end has been reported by step()
        self.encoding = encoding_for(self.game, 1)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = spaces.Box(
            -np.inf, np.inf, (self.encoding.observation_size,), np.float32
        )
        self.state: State | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        # The deal comes from Gymnasium's seeded generator, so reset(seed=s) repeats a deal.
        deal = int(self.np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_state(players=1, seed=deal)
        self._finished = False
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._require_state()
        if self._finished:
            raise RulesError("the episode is over: call reset()")
        if state.is_over:
            # The deal decided the game before any move (a hand with no sandwich, say): the
            # mask is empty and any action ends the episode with the result.
            self._finished = True
            return self._observe(), self._reward(), True, False, self._info()
        move = self.encoding.legal_indices(state).get(int(action))
        if move is None:
            self._finished = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        state.apply(move)
        self._finished = state.is_over
        reward = self._reward() if state.is_over else 0.0
        return self._observe(), reward, state.is_over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return view_text(self.game, self._require_state().view(0))

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        state = self._require_state()
        return self.encoding.mask(self.encoding.legal_indices(state))

    def _require_state(self) -> State:
        if self.state is None:
            raise RulesError("call reset() before using the environment")
        return self.state

    def _observe(self) -> np.ndarray:
        return self.encoding.observe(self._require_state().view(0))

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if state.is_over and state.result is not None:
            info["won"] = state.result.won
            info["score"] = state.result.score
        return info

    def _reward(self) -> float:
        result = self._require_state().result
        assert result is not None
        if self.reward_mode == "win":
            return 1.0 if result.won else 0.0
        if result.score is None:
            return 0.0
        return result.score if self.game.info.score_order == "higher" else -result.score


def env_id(game_id: str) -> str:
    return f"spyglass/{game_id}-v0"


def register_all() -> list[str]:
    """Register every solo game with Gymnasium (done on import); returns the ids."""
    ids = []
    for info in spyglass.games():
        if not info.solo:
            continue
        name = env_id(info.id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point=SpyglassEnv,
                kwargs={"game_id": info.id},
                max_episode_steps=None,
                disable_env_checker=False,
            )
        ids.append(name)
    return ids


register_all()
