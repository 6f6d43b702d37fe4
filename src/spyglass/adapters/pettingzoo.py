"""Every multiplayer spyglass game as a PettingZoo AEC environment.

``env(game_id, players=n, **options)`` (or ``raw_env``) gives agents ``"seat_0"`` ... ; each
observation is ``{"observation": float32 vector of view(seat), "action_mask": int8 mask}``
(the mask is all zero when it is not that seat's turn), and the seat's info lists its legal
actions (``info["legal_actions"]``, ascending; empty when it is not its turn), so that a client
need not scan the mask. Rewards come at the end (``rewards``): with ``reward="win"`` each
seat's share of the win, with ``reward="score"`` 1 to 2 for a winner and -1 to 0 for the
others, the more points the higher.

``state()`` is what the seats see together: every seat's observation vector, one after the
other (``state_space``). It holds every card some seat has seen, but not the order of the
cards nobody has seen: a centralised critic may use it; a playing seat must not.
``render_mode="ansi"`` returns the spectator's table as text, ``"human"`` writes it to
standard output.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import spyglass
from spyglass.engine import Action, RulesError, State

from .rewards import check_reward, rewards
from .tensors import encoding_for
from .text import view_text

RENDER_MODES = ("ansi", "human")


class SpyglassAEC(AECEnv):
    """One multiplayer game at a fixed player count."""

    metadata = {  # noqa: RUF012 - PettingZoo's convention
        "render_modes": list(RENDER_MODES),
        "name": "spyglass_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

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
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.players = self.game.check_players(players)
        self.render_mode = render_mode
        self.reward_mode = check_reward(reward)
        self.encoding = encoding_for(self.game, self.players)
        self.metadata = {**self.metadata, "name": f"spyglass_{game_id}_v0"}
        self.possible_agents = [f"seat_{p}" for p in range(self.players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        n = self.encoding.num_actions
        size = self.encoding.observation_size
        vector = spaces.Box(self.encoding.low, self.encoding.high, (size,), np.float32)
        self.observation_spaces = {
            a: spaces.Dict({"observation": vector, "action_mask": spaces.Box(0, 1, (n,), np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state_space = spaces.Box(
            np.tile(self.encoding.low, self.players),
            np.tile(self.encoding.high, self.players),
            (size * self.players,),
            np.float32,
        )
        # The table itself; not ``state``, which PettingZoo reserves for the global state.
        self.table: State | None = None
        self._legal: dict[int, Action] = {}  # the current state's legal actions by index
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal = int(self._rng.integers(0, 2**63 - 1))
        self.table = self.game.new_state(players=self.players, seed=deal)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"legal_actions": ()} for a in self.agents}
        self.agent_selection = self._agent(self.table.current_player)
        self._deal_legal()
        if self.table.is_over:
            self._finish()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        """Pay every seat and end the game for all of them."""
        result = self._require_table().result
        assert result is not None
        values = rewards(self.game, self.encoding.scoring, result, self.reward_mode)
        for a in self.agents:
            self.rewards[a] = float(values[self._seat[a]])
            self.terminations[a] = True
        self._accumulate_rewards()
        # Every seat is told once that the game ended; the first of them moves next.
        self.agent_selection = self.agents[0]

    def _deal_legal(self) -> None:
        """The legal actions of the table, by index, and in the info of the seat to move
        (ascending, so that a client need not scan the mask)."""
        self._legal = self.encoding.legal_map(self._require_table())
        self.infos[self.agent_selection]["legal_actions"] = tuple(sorted(self._legal))

    def _agent(self, seat: int | None) -> str:
        return self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        table = self._require_table()
        seat = self._seat[agent]
        # The seat to move is the agent selected (reset() and step() keep them together, and
        # the legal actions are none once the game is over): no need to ask the table again.
        if agent == self.agent_selection:
            mask = self.encoding.mask(self._legal)
        else:
            mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        return {"observation": self.encoding.observe_state(table, seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        """Every seat's observation, one after the other (see the module's text)."""
        table = self._require_table()
        return np.concatenate(
            [self.encoding.observe_state(table, seat) for seat in range(self.players)]
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._require_table()
        move = self._legal.get(int(action))
        if move is None:
            raise RulesError(
                f"action {action} is not legal for {agent} here: use the observation's action_mask"
            )
        self._cumulative_rewards[agent] = 0.0
        table.apply_legal(move)  # taken from this state's own legal actions
        infos = self.infos
        infos[agent]["legal_actions"] = ()
        if table.is_over:
            self._legal = {}
            self._finish()
        else:
            # _agent() and _deal_legal() inlined: this is every step of every client. The
            # rewards stay as reset() left them (all zero) until _finish() pays the seats.
            mover = self.agent_selection = self.possible_agents[table.current_player]  # type: ignore[index]
            legal = self._legal = self.encoding.legal_map(table)
            infos[mover]["legal_actions"] = tuple(sorted(legal))
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = view_text(self.game, self._require_table().view(None))
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass

    def _require_table(self) -> State:
        if self.table is None:
            raise RulesError("call reset() before using the environment")
        return self.table


def raw_env(game_id: str, **kwargs: Any) -> SpyglassAEC:
    return SpyglassAEC(game_id, **kwargs)


def env(game_id: str, **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks wrapped around it."""
    wrapped: AECEnv = SpyglassAEC(game_id, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
