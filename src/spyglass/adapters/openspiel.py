"""Every spyglass game as an OpenSpiel Python game: ``pyspiel.load_game("spyglass_<id>")``.

Importing this module registers the games. Parameters: ``players`` (default the fewest),
``deals`` (how many deals chance chooses among), ``reward`` ("win" or "score", as in
``rewards``) and the game's own options.

Chance: the engine draws every random thing (each shuffle, each later draw) from one seed, so
the game opens by choosing the deal, uniformly among ``deals`` values; no seat observes it, and
after it the game is deterministic. The deal is chosen digit by digit, in a few explicit
chance nodes of at most 256 outcomes each (65,536 deals are two nodes of 256), so that a client
that samples chance from ``chance_outcomes()`` (``rl_environment``, MCTS, CFR samplers) pays
for a short list, not for one outcome per deal. Explicit nodes (rather than sampled stochastic)
keep OpenSpiel's serialisation, which replays the action history, exact. ``deal_actions(deal)``
gives the chance actions of one deal.

Information: the information-state string of a seat is its view (log included) with the
indices of its own past actions; the observation string is its view's table. Both tensors are
the fixed-shape vector of ``GameEncoding.observe`` (so the information-state tensor holds the
current view, not the whole history). Returns are ``Result.rewards`` (the winners share 1).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pyspiel

import spyglass
from spyglass.engine import Action, Rng, State, derive_seed

from .rewards import bounds, check_reward, rewards
from .tensors import GameEncoding, encoding_for

DEFAULT_DEALS = 1 << 16
#: The most outcomes one chance node lists.
DIGIT = 256
PREFIX = "spyglass_"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def radices(deals: int) -> tuple[int, ...]:
    """The sizes of the chance nodes that choose one of ``deals`` deals: factors of ``deals``
    of at most 256 where they exist, largest first (a prime above 256 stays one node)."""
    sizes, left = [], deals
    while left > 1:
        size = next((d for d in range(min(DIGIT, left), 1, -1) if left % d == 0), left)
        sizes.append(size)
        left //= size
    return tuple(sizes) or (1,)


def _game_type(info: spyglass.GameInfo, reward: str = "win") -> pyspiel.GameType:
    params: dict[str, Any] = {"players": info.players[0], "deals": DEFAULT_DEALS, "reward": "win"}
    for option in info.options:
        params[option.name] = option.default
    # Win shares always sum to 1 in a multiplayer game; scores and solo outcomes do not.
    constant = reward == "win" and not info.solo
    return pyspiel.GameType(
        short_name=short_name(info.id),
        long_name=f"spyglass {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM
        if constant
        else pyspiel.GameType.Utility.GENERAL_SUM,
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
        merged = {**_game_type(info).parameter_specification, **(params or {})}
        self.players = int(merged.pop("players"))
        self.deals = int(merged.pop("deals"))
        self.reward = check_reward(str(merged.pop("reward")))
        if self.deals < 1:
            raise ValueError("deals must be at least 1")
        game_type = _game_type(info, self.reward)
        self.spyglass = spyglass.load(game_id, **merged)
        self.players = self.spyglass.check_players(self.players)
        self.encoding: GameEncoding = encoding_for(self.spyglass, self.players)
        self.radices = radices(self.deals)
        # Built once: every chance node of a size hands out the same list.
        self.outcomes = {r: [(i, 1.0 / r) for i in range(r)] for r in set(self.radices)}
        low, high = bounds(self.spyglass, self.reward)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=max(self.radices),
            num_players=self.players,
            min_utility=low,
            max_utility=high,
            utility_sum=1.0 if game_type.utility == pyspiel.GameType.Utility.CONSTANT_SUM else None,
            max_game_length=self.spyglass.max_actions(self.players),
        )
        super().__init__(game_type, game_info, params or {})

    def new_initial_state(self) -> SpyglassState:
        return SpyglassState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The deal's digits are the only chance nodes."""
        return len(self.radices)

    def deal_actions(self, deal: int) -> list[int]:
        """The chance actions that choose deal number ``deal`` (0 <= deal < deals)."""
        if not 0 <= deal < self.deals:
            raise ValueError(f"deal must be in 0..{self.deals - 1}, not {deal}")
        digits = []
        for size in reversed(self.radices):
            deal, digit = divmod(deal, size)
            digits.append(digit)
        return digits[::-1]

    def deal_of(self, digits: list[int]) -> int:
        deal = 0
        for size, digit in zip(self.radices, digits, strict=True):
            deal = deal * size + digit
        return deal

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ViewObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(self.encoding, perfect_recall)


class _Table:
    """The spyglass state inside an OpenSpiel state: cloned with ``State.clone`` (OpenSpiel
    deep-copies a Python state's attributes) and pickled as its record (serialisation).

    It also keeps the OpenSpiel game (asking pyspiel for it crosses into C++ every time) and
    the legal actions by index of the state at hand (``legal_actions()`` and the
    ``apply_action()`` that follows read them once)."""

    __slots__ = ("digits", "game", "legal", "moves", "state")

    def __init__(
        self,
        state: State | None,
        moves: list[tuple[int, int]] | None = None,
        digits: list[int] | None = None,
        game: SpyglassGame | None = None,
    ) -> None:
        self.state = state
        self.moves = moves or []  # (seat, action index) of every action taken at the table
        self.digits = digits or []  # the deal's digits chosen so far, before the deal
        self.game = game
        # (state, step, legal actions by index) of the latest state asked about.
        self.legal: tuple[State, int, dict[int, Action]] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        state = None if self.state is None else self.state.clone()
        return _Table(state, list(self.moves), list(self.digits), self.game)

    def __reduce__(self) -> tuple[Any, ...]:
        state = self.state
        if state is not None and state.determinized:
            # A resampled state (ISMCTS) was never dealt, so it has no record: pickle its
            # attributes, with the game named by id and options.
            fields = {k: v for k, v in state.__dict__.items() if k != "game"}
            game = (state.game.info.id, dict(state.game.options))
            return (_Table.from_fields, (type(state), game, fields, self.moves))
        record = None if self.state is None else self.state.record()
        return (_Table.from_record, (record, self.moves, self.digits))

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
    def from_record(
        record: dict[str, Any] | None, moves: list[tuple[int, int]], digits: list[int]
    ) -> _Table:
        state = None if record is None else spyglass.replay(record)
        return _Table(state, list(moves), list(digits))


class SpyglassState(pyspiel.State):
    """A position: a chance node before the deal, then the spyglass state."""

    def __init__(self, game: SpyglassGame) -> None:
        super().__init__(game)
        self.table = _Table(None, game=game)
        self.samples_drawn = 0  # by ismcts_resampler, from this state object

    @property
    def _game_(self) -> SpyglassGame:
        table = self.table
        game = table.game
        if game is None:  # a table unpickled from its record
            found = self.get_game()
            assert isinstance(found, SpyglassGame)
            game = table.game = found
        return game

    def _legal_map(self, state: State) -> dict[int, Action]:
        """The legal actions of ``state`` (the table's) by index, computed once per state."""
        table = self.table
        cached = table.legal
        if cached is not None and cached[0] is state and cached[1] == state.step:
            return cached[2]
        found = self._game_.encoding.legal_map(state)
        table.legal = (state, state.step, found)
        return found

    # Python callers reach these without a round trip through C++ (pyspiel's own versions
    # call back into Python several times and copy every list and tensor); C++ callers get
    # the same answers through the methods pyspiel calls.

    def is_chance_node(self) -> bool:
        return self.table.state is None

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As pyspiel's ``legal_actions``: the ascending legal actions of ``player`` (default
        the player to move); the chance outcomes at a chance node."""
        state = self.table.state
        if state is None:
            return [action for action, _ in self.chance_outcomes()]
        if state.is_over:
            return []
        mover = state.current_player
        if player is None or player == mover:
            return sorted(self._legal_map(state))
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """The observation vector of ``player`` (default the player to move) as a float32
        numpy array: pyspiel's values, without copying them into a list."""
        return self._tensor(player)

    def information_state_tensor(self, player: int | None = None) -> np.ndarray:
        """The information-state tensor: the same vector (see the module's text)."""
        return self._tensor(player)

    def _tensor(self, player: int | None) -> np.ndarray:
        game = self._game_
        if player is None:
            player = self.current_player()
        if not 0 <= player < game.players:
            raise pyspiel.SpielError(f"player {player} is not in 0..{game.players - 1}")
        inner = self.table.state
        if inner is None:
            return np.zeros(game.encoding.observation_size, np.float32)
        return game.encoding.observe_state(inner, player)

    def current_player(self) -> int:
        state = self.table.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return cast(int, state.current_player)  # not over: someone is to move

    def is_terminal(self) -> bool:
        return self.table.state is not None and self.table.state.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game = self._game_
        return game.outcomes[game.radices[len(self.table.digits)]]

    def _legal_actions(self, player: int) -> list[int]:
        table = self.table
        state = table.state
        if state is None:
            if player != pyspiel.PlayerId.CHANCE:
                return []
            return list(range(self._game_.radices[len(table.digits)]))
        if state.is_over or player != state.current_player:
            return []
        return sorted(self._legal_map(state))

    def _apply_action(self, action: int) -> None:
        game = self._game_
        table = self.table
        if table.state is None:
            size = game.radices[len(table.digits)]
            if not 0 <= action < size:
                raise ValueError(f"chance action {action} is not in 0..{size - 1}")
            table.digits.append(int(action))
            if len(table.digits) == len(game.radices):
                deal = game.deal_of(table.digits)
                table.state = game.spyglass.new_state(players=game.players, seed=deal)
            return
        state = table.state
        move = self._legal_map(state).get(int(action))
        if move is None:
            raise ValueError(f"action {action} is not legal here")
        mover = cast(int, state.current_player)  # it has a legal move: someone is to move
        table.moves.append((mover, int(action)))
        state.apply_legal(move)  # the legal map came from this state's own legal actions

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal digit {action}"
        kind, cards, target = self._game_.encoding.describe_index(action)
        return " ".join([kind, *cards, *([] if target is None else [str(target)])])

    def returns(self) -> list[float]:
        state = self.table.state
        game = self._game_
        if state is None or not state.is_over:
            return [0.0] * game.players
        result = state.result
        assert result is not None
        paid = rewards(game.spyglass, game.encoding.scoring, result, game.reward)
        return [float(r) for r in paid]

    @property
    def deal(self) -> int | None:
        """The deal number, once chance has chosen it."""
        game = self._game_
        digits = self.table.digits
        return game.deal_of(digits) if len(digits) == len(game.radices) else None

    def resample(self, player: int, seed: int) -> SpyglassState:
        """A state consistent with everything ``player`` knows here (``Seat.determinize``): the
        resampler for OpenSpiel's ISMCTS."""
        new = SpyglassState(self._game_)
        state = self.table.state
        new.table.digits = list(self.table.digits)
        if state is not None:
            # Only the player's own moves carry over: the others' indices may name hidden cards.
            new.table.state = state.seat(player).determinize(Rng(seed))
            new.table.moves = [m for m in self.table.moves if m[0] == player]
        return new

    def __str__(self) -> str:
        state = self.table.state
        if state is None:
            return f"(before the deal: digits {self.table.digits})"
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
        self.tensor[:] = self.encoding.observe_state(inner, player)

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
    """For ``ISMCTSBot.set_resampler``: a determinization of ``state`` for ``player``.

    Its seed comes from what ``player`` has seen (its information-state string) and how many
    samples were drawn from this very state object before, so that two searches run alike
    draw the same samples, while each call on a root gives a new one. For streams of your own,
    use :func:`seeded_resampler`."""
    count = state.samples_drawn
    state.samples_drawn = count + 1
    key = f"{player}/{count}/{state.information_state_string(player)}"
    return state.resample(player, derive_seed(0, key))


def seeded_resampler(seed: int) -> Callable[[SpyglassState, int], SpyglassState]:
    """A resampler with its own seeded stream: ``bot.set_resampler(seeded_resampler(7))``."""
    rng = Rng(derive_seed(seed, "openspiel/resampler"))

    def resample(state: SpyglassState, player: int) -> SpyglassState:
        return state.resample(player, rng.next64())

    return resample


def register_all() -> list[str]:
    """Register every game with pyspiel (done on import); returns the short names."""
    known = set(pyspiel.registered_names())
    names = []
    for info in spyglass.games.list_games():
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
