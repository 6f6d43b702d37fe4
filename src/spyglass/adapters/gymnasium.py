"""Every solo spyglass game as a Gymnasium environment: ``gymnasium.make("spyglass/<id>-v0")``.

Actions are ``Discrete(num_actions)`` indices (``GameEncoding``); ``info["action_mask"]`` marks
the legal ones (all zero when the deal decided the game before any move: then any action ends
the episode with the result) and ``info["legal_actions"]`` lists them, ascending, so that a
client need not scan the mask. An illegal index leaves the table as it was and ends the
episode with ``illegal_reward`` (default -1) and ``info["illegal_action"] = True``. The reward
comes at the end (``rewards``): with ``reward="win"`` 1 for a win and 0 for a loss; with
``reward="score"`` 1 to 2 for a win and -1 to 0 for a loss, the better the rulebook's score the
higher. Observations lie within the space's declared bounds. ``render_mode="ansi"`` returns
the table as text, ``"human"`` writes it to standard output.

``gymnasium.make_vec("spyglass/<id>-v0", num_envs=n, vectorization_mode="sync" | "async")``
runs several tables at once; each keeps its own deals.
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import spyglass
from spyglass.engine import Action, RulesError, State

from .rewards import check_reward, rewards
from .tensors import encoding_for
from .text import view_text

RENDER_MODES = ("ansi", "human")


class SpyglassEnv(gymnasium.Env):
    """One solo game; keyword options go to ``spyglass.load``."""

    # Gymnasium's own convention; the frame rate is only read by recorders of ansi frames.
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

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
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.reward_mode = check_reward(reward)
        self.illegal_reward = float(illegal_reward)
        self._finished = False  # the episode's end has been reported by step()
        self.encoding = encoding_for(self.game, 1)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = spaces.Box(
            self.encoding.low, self.encoding.high, (self.encoding.observation_size,), np.float32
        )
        self.state: State | None = None
        self._legal: dict[int, Action] = {}  # the current state's legal actions by index

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        # The deal comes from Gymnasium's seeded generator, so reset(seed=s) repeats a deal.
        deal = int(self.np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_state(players=1, seed=deal)
        self._legal = self.encoding.legal_map(self.state)
        self._finished = False
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or self._finished:
            self._require_state()
            raise RulesError("the episode is over: call reset()")
        if not self._legal and state.is_over:
            # The deal decided the game before any move (a hand with no sandwich, say): the
            # mask is empty and any action ends the episode with the result. (A table with
            # legal actions is not over: the property is asked only when there are none.)
            return self._end(state)
        move = self._legal.get(int(action))
        if move is None:
            self._finished = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        state.apply_legal(move)  # taken from this state's own legal actions
        if self.render_mode == "human":
            self.render()
        if state.is_over:
            self._legal = {}
            return self._end(state)
        legal = self._legal = self.encoding.legal_map(state)
        encoding = self.encoding
        # _observe() and _info() inlined: this is every step of every client.
        indices = tuple(sorted(legal))
        info = {"action_mask": encoding.mask(indices), "legal_actions": indices}
        return encoding.observe_state(state, 0), 0.0, False, False, info

    def _end(self, state: State) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The step that reports the end: the result is worked out once (in some games it
        searches the table: Skyway's longest runs), for the reward and the info alike."""
        self._finished = True
        result = state.result
        assert result is not None
        reward = rewards(self.game, self.encoding.scoring, result, self.reward_mode)[0]
        info: dict[str, Any] = {
            "action_mask": self.encoding.mask(()),
            "legal_actions": (),
            "won": result.won,
            "score": result.score,
        }
        return self.encoding.observe_state(state, 0), reward, True, False, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = view_text(self.game, self._require_state().view(0))
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        self._require_state()
        return self.encoding.mask(self._legal)

    def _require_state(self) -> State:
        if self.state is None:
            raise RulesError("call reset() before using the environment")
        return self.state

    def _observe(self) -> np.ndarray:
        return self.encoding.observe_state(self._require_state(), 0)

    def _info(self) -> dict[str, Any]:
        state = self._require_state()
        legal = self._legal
        info: dict[str, Any] = {
            "action_mask": self.encoding.mask(legal),
            # The same as a list: a client need not scan the mask (191,920 entries in the
            # Syndicate) to find the few legal actions.
            "legal_actions": tuple(sorted(legal)),
        }
        result = state.result  # worked out once: None until the game is over
        if result is not None:
            info["won"] = result.won
            info["score"] = result.score
        return info


def env_id(game_id: str) -> str:
    return f"spyglass/{game_id}-v0"


def register_all() -> list[str]:
    """Register every solo game with Gymnasium (done on import); returns the ids."""
    ids = []
    for info in spyglass.games.list_games():
        if not info.solo:
            continue
        name = env_id(info.id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                # Gymnasium calls it with keywords only, game_id among them (kwargs below);
                # its EnvCreator type admits no required parameter.
                entry_point=SpyglassEnv,  # type: ignore[arg-type]
                kwargs={"game_id": info.id},
                max_episode_steps=None,
                disable_env_checker=False,
            )
        ids.append(name)
    return ids


register_all()
