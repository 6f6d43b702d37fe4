"""Every spyglass game as an OpenSpiel Python game: ``pyspiel.load_game("spyglass_<id>")``.

Importing this module registers the games. Parameters: ``players`` (default the fewest),
``deals`` (how many deals the opening chance node chooses among) and the game's own options.

Chance: the engine draws every random thing (each shuffle, each later draw) from one seed, so
the game opens with one explicit chance node that picks the seed uniformly among ``deals``
values; no seat observes it. After it the game is deterministic. An explicit node (rather than
sampled stochastic) keeps OpenSpiel's serialisation, which replays the action history, exact.

Information: the information-state string of a seat is its view (log included) with the
indices of its own past actions; the observation string is its view's table. Both tensors are
the fixed-shape vector of ``GameEncoding.observe`` (so the information-state tensor holds the
current view, not the whole history). Returns are ``Result.rewards`` (the winners share 1).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import spyglass
from spyglass.engine import Rng, State

from .encoding import GameEncoding, encoding_for

DEFAULT_DEALS = 1 << 16
PREFIX = "spyglass_"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _game_type(info: spyglass.GameInfo) -> pyspiel.GameType:
    params: dict[str, Any] = {"players": info.players[0], "deals": DEFAULT_DEALS}
    for option in info.options:
        params[option.name] = option.default
    return pyspiel.GameType(
        short_name=short_name(info.id),
        long_name=f"spyglass {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.players[1],
        min_num_players=info.players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class SpyglassGame(pyspiel.Game):
    """A spyglass game with its options and player count fixed."""

    def __init__(self, game_id: str, params: dict[str, Any] | None = None) -> None:
        info = spyglass.load(game_id).info
        game_type = _game_type(info)
        merged = {**game_type.parameter_specification, **(params or {})}
        self.players = int(merged.pop("players"))
        self.deals = int(merged.pop("deals"))
        if self.deals < 1:
            raise ValueError("deals must be at least 1")
        self.spyglass = spyglass.load(game_id, **merged)
        self.players = self.spyglass.check_players(self.players)
        self.encoding: GameEncoding = encoding_for(self.spyglass, self.players)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.spyglass.max_actions(self.players),
        )
        super().__init__(game_type, game_info, params or {})

    def new_initial_state(self) -> SpyglassState:
        return SpyglassState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ViewObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(self.encoding, perfect_recall)


class _Table:
    """The spyglass state inside an OpenSpiel state: cloned with ``State.clone`` (OpenSpiel
    deep-copies a Python state's attributes) and pickled as its record (serialisation)."""

    __slots__ = ("moves", "state")

    def __init__(self, state: State | None, moves: list[tuple[int, int]] | None = None) -> None:
        self.state = state
        self.moves = moves or []  # (seat, action index) of every action taken at the table

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(None if self.state is None else self.state.clone(), list(self.moves))

    def __reduce__(self) -> tuple[Any, ...]:
        state = self.state
        if state is not None and state.determinized:
            # A resampled state (ISMCTS) was never dealt, so it has no record: pickle its
            # attributes, with the game named by id and options.
            fields = {k: v for k, v in state.__dict__.items() if k != "game"}
            game = (state.game.info.id, dict(state.game.options))
            return (_Table.from_fields, (type(state), game, fields, self.moves))
        record = None if self.state is None else self.state.record()
        return (_Table.from_record, (record, self.moves))

    @staticmethod
    def from_fields(
        kind: type[State],
        game: tuple[str, dict[str, Any]],
        fields: dict[str, Any],
        moves: list[tuple[int, int]],
    ) -> _Table:
        state = kind.__new__(kind)
        state.__dict__.update(fields)
        state.game = spyglass.load(game[0], **game[1])
        return _Table(state, list(moves))

    @staticmethod
    def from_record(record: dict[str, Any] | None, moves: list[tuple[int, int]]) -> _Table:
        return _Table(None if record is None else spyglass.replay(record), list(moves))


class SpyglassState(pyspiel.State):
    """A position: a chance node before the deal, then the spyglass state."""

    def __init__(self, game: SpyglassGame) -> None:
        super().__init__(game)
        self.table = _Table(None)

    @property
    def _game_(self) -> SpyglassGame:
        game = self.get_game()
        assert isinstance(game, SpyglassGame)
        return game

    def current_player(self) -> int:
        state = self.table.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(state.current_player)

    def is_terminal(self) -> bool:
        return self.table.state is not None and self.table.state.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self._game_.deals
        return [(i, 1.0 / deals) for i in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        state = self.table.state
        if state is None or state.is_over or player != state.current_player:
            return []
        return list(self._game_.encoding.legal_indices(state))

    def _apply_action(self, action: int) -> None:
        game = self._game_
        if self.table.state is None:
            self.table.state = game.spyglass.new_state(players=game.players, seed=int(action))
            return
        state = self.table.state
        move = game.encoding.legal_indices(state).get(int(action))
        if move is None:
            raise ValueError(f"action {action} is not legal here")
        self.table.moves.append((int(state.current_player), int(action)))
        state.apply(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        kind, cards, target = self._game_.encoding.describe_index(action)
        return " ".join([kind, *cards, *([] if target is None else [str(target)])])

    def returns(self) -> list[float]:
        state = self.table.state
        if state is None or not state.is_over:
            return [0.0] * self._game_.players
        result = state.result
        assert result is not None
        return [float(r) for r in result.rewards]

    def resample(self, player: int, seed: int) -> SpyglassState:
        """A state consistent with everything ``player`` knows here (``Seat.determinize``): the
        resampler for OpenSpiel's ISMCTS."""
        new = SpyglassState(self._game_)
        state = self.table.state
        if state is not None:
            # Only the player's own moves carry over: the others' indices may name hidden cards.
            new.table.state = state.seat(player).determinize(Rng(seed))
            new.table.moves = [m for m in self.table.moves if m[0] == player]
        return new

    def __str__(self) -> str:
        state = self.table.state
        if state is None:
            return "(before the deal)"
        return json.dumps(state.view(None)["table"], ensure_ascii=False, sort_keys=True)


class ViewObserver:
    """OpenSpiel's observer: a seat's view as a tensor and as a string."""

    def __init__(self, encoding: GameEncoding, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoding.observation_size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: SpyglassState, player: int) -> None:
        inner = state.table.state
        if inner is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.encoding.observe(inner.view(player))

    def string_from(self, state: SpyglassState, player: int) -> str:
        inner = state.table.state
        if inner is None:
            return "(before the deal)"
        view = inner.view(player)
        if not self.perfect_recall:
            return json.dumps(view["table"], ensure_ascii=False, sort_keys=True)
        own = [index for seat, index in state.table.moves if seat == player]
        view = {k: v for k, v in view.items() if k != "result"}
        return json.dumps({"view": view, "mine": own}, ensure_ascii=False, sort_keys=True)


def ismcts_resampler(state: SpyglassState, player: int) -> SpyglassState:
    """For ``ISMCTSBot.set_resampler``: a determinization of ``state`` for ``player``."""
    seed = int(np.random.default_rng().integers(0, 2**63 - 1))
    return state.resample(player, seed)


def register_all() -> list[str]:
    """Register every game with pyspiel (done on import); returns the short names."""
    known = set(pyspiel.registered_names())
    names = []
    for info in spyglass.games():
        name = short_name(info.id)
        if name not in known:
            pyspiel.register_game(_game_type(info), _factory(info.id))
        names.append(name)
    return names


def _factory(game_id: str) -> type[SpyglassGame]:
    """A subclass per game: pyspiel builds a registered game from its class and parameters."""

    def __init__(self: SpyglassGame, params: dict[str, Any] | None = None) -> None:
        SpyglassGame.__init__(self, game_id, params)

    name = "".join(part.title() for part in game_id.split("-")) + "Game"
    cls = type(name, (SpyglassGame,), {"__init__": __init__, "__module__": __name__})
    globals()[name] = cls
    return cls


register_all()
