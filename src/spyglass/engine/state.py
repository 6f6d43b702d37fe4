"""The base class of every game's state: the public API of DESIGN.md sections 2 and 3.

A game subclasses :class:`State` and fills in the underscored hooks; everything public
(applying moves, views, seats, determinization, cloning, records) is implemented here once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .action import Action
from .errors import IllegalAction, RulesError
from .log import LogEntry
from .result import Result
from .rng import Rng, as_rng
from .seat import Seat

if TYPE_CHECKING:
    from .game import Game

RECORD_FORMAT = "spyglass-record"
RECORD_VERSION = 1


class State:
    """A position of a game, with its history, log and random generator.

    Subclasses implement:

    - ``deck_contents(options, players)``: the cards of every initially shuffled deck (or
      ``DECK``: the cards of a game's one deck, named ``deck``, whatever the options);
    - ``max_actions(options, players)``: a bound on the length of any game;
    - ``_setup()``: deal from ``self._deck(name)`` (each deck top card first);
    - ``is_over`` and ``_current()``; ``_legal_actions()`` (empty once over);
    - ``_apply(action)`` for a legal action; ``_result()`` once over;
    - ``_view(observer)`` and ``_snapshot()`` (JSON-ready dicts);
    - ``_resample(observer, rng)``: reshuffle what ``observer`` cannot see (games with hidden
      information), using only what the observer knows (or ``UNSEEN``: the attributes holding
      piles whose order nobody has seen, such as a solo game's draw pile, each shuffled);
    - ``_copy_containers()``: replace mutable containers after a shallow copy;
    - ``_cards()``: every card in every zone, for the conservation check;
    - optionally ``_parse(text)``, ``_why_illegal(action)``, ``_describe(action)``.
    """

    # A staticmethod in each game: a notation (or a card, returned as it is) -> the card. Its
    # parameters are left open: the checker binds a callable class attribute like a method.
    parse_card: ClassVar[Callable[..., Any]]
    notation_help: ClassVar[str] = ""
    #: The cards of a game's one deck, ``deck``, when they do not depend on the options: the
    #: default ``deck_contents`` (None: the game defines ``deck_contents``).
    DECK: ClassVar[tuple[Any, ...] | None] = None
    #: The attributes holding piles whose order no player has seen (lists of cards): the
    #: default ``_resample`` shuffles each; a game that hides more overrides ``_resample``.
    UNSEEN: ClassVar[tuple[str, ...]] = ()

    game: Game
    players: int
    seed: int | None
    _decks: dict[str, tuple[Any, ...]] | None
    _rng: Rng
    _history: list[Action]
    _log: list[LogEntry]
    _step: int
    _legal: list[Action] | None
    _determinized: bool
    _log_cache: dict[Any, tuple[int, LogEntry | None, list[Any]]]
    _quiet: bool  # a search's private copy: events are not logged

    # ------------------------------------------------------------------ set-up hooks

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Any]]:
        if cls.DECK is None:
            raise NotImplementedError
        return {"deck": list(cls.DECK)}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        raise NotImplementedError

    @classmethod
    def shuffle_deck(
        cls, name: str, cards: Sequence[Any], rng: Rng, options: Mapping[str, Any], players: int
    ) -> list[Any]:
        """The random initial order of a deck (top first). Override for constrained deals."""
        order = sorted(cards)
        rng.shuffle(order)
        return order

    @classmethod
    def check_deck(
        cls, name: str, order: Sequence[Any], options: Mapping[str, Any], players: int
    ) -> None:
        """Raise RulesError if a stacked order breaks a constraint beyond its contents."""

    def _deck(self, name: str) -> tuple[Any, ...]:
        """The initial order of the deck ``name``, top card first: what ``_setup`` deals.
        (A determinization keeps no decks: it is set up by copying, never dealt.)"""
        if self._decks is None:
            raise RuntimeError("a determinized state has no initial decks")
        return self._decks[name]

    def _init(self, game: Game, players: int, seed: int, decks: dict[str, tuple[Any, ...]]) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self._decks = decks
        self._rng = Rng.derived(seed, "play")
        self._history = []
        self._log = []
        self._step = 0
        self._legal = None
        self._determinized = False
        self._log_cache = {}
        self._quiet = False

    def _setup(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ rule hooks

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    def _current(self) -> int:
        return 0

    def _legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        raise NotImplementedError

    def _result(self) -> Result:
        raise NotImplementedError

    def _view(self, observer: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def _snapshot(self) -> dict[str, Any]:
        raise NotImplementedError

    def _resample(self, observer: int | None, rng: Rng) -> None:
        """Shuffle the ``UNSEEN`` piles (none: games without hidden information)."""
        for name in self.UNSEEN:
            setattr(self, name, rng.shuffled(getattr(self, name)))

    def _copy_containers(self) -> None:
        raise NotImplementedError

    def _cards(self) -> list[Any]:
        raise NotImplementedError

    def _parse(self, text: str) -> Action | None:
        """A game's own reading of free-form notation; None if it cannot read it."""
        return None

    def _why_illegal(self, action: Action) -> str:
        return "it is not one of the legal moves in this position"

    def _describe(self, action: Action) -> str:
        return str(action)

    # ------------------------------------------------------------------ helpers for games

    @property
    def options(self) -> Mapping[str, Any]:
        return self.game.options

    @property
    def rng(self) -> Rng:
        return self._rng

    def _say(
        self, text: str, seats: Sequence[int] | None = None, others: str | None = None
    ) -> None:
        """Log an event; with ``seats``, only those seats read ``text`` and the rest ``others``
        (nothing in a search's quiet copy: see :meth:`quiet_clone`)."""
        if self._quiet:
            return
        self._log.append(LogEntry(text, None if seats is None else frozenset(seats), others))

    def _legal_list(self) -> list[Action]:
        """The cached legal actions, for internal use (never hand this list out)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        return legal

    def _observer(self, seat: int | None) -> int | None:
        # In a solo game the spectator watches over the player's shoulder.
        return 0 if seat is None and self.players == 1 else seat

    def _check_seat(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RulesError(
                f"there is no seat {seat!r}: this table has seats 0 to {self.players - 1}"
                " (or None for a spectator)"
            )
        return seat

    # ------------------------------------------------------------------ public API

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self._current()

    @property
    def step(self) -> int:
        """How many actions have been applied."""
        return self._step

    @property
    def history(self) -> list[Action]:
        return list(self._history)

    @property
    def result(self) -> Result | None:
        return self._result() if self.is_over else None

    @property
    def log(self) -> list[str]:
        """Every event of the game, including private ones (the true state is omniscient)."""
        return [entry.text for entry in self._log]

    def legal_actions(self) -> list[Action]:
        return list(self._legal_list())

    def parse(self, text: str) -> Action:
        """The legal action that ``text`` denotes, or IllegalAction saying which rule forbids it."""
        if not isinstance(text, str):
            raise IllegalAction(f"a move is an Action or its notation, not {type(text).__name__}")
        if self.is_over:
            raise IllegalAction("the game is over", text)
        legal = self._legal_list()
        stripped = text.strip()
        for action in legal:
            if action.text == stripped:
                return action
        key = self._normalize(text)
        for action in legal:
            if self._normalize(str(action)) == key:
                return action
        candidate = self._parse(text)
        if candidate is not None:
            return self._check_legal(candidate, text)
        hint = f" ({self.notation_help})" if self.notation_help else ""
        raise IllegalAction(f"this is not a move in this position{hint}", text.strip())

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (or its notation). Illegal input leaves the state unchanged."""
        self.apply_legal(self._resolve(action))

    def apply_legal(self, action: Action) -> None:
        """Apply an action taken from this very state's legal actions, without checking it.

        For searches that apply thousands of moves they drew from ``legal_actions()``; anything
        else goes through :meth:`apply`.
        """
        self._legal = None
        self._apply(action)
        self._step += 1
        self._history.append(action)

    def describe(self, action: Action | str) -> str:
        """A sentence for people saying what a legal action does (IllegalAction otherwise)."""
        return self._describe(self._resolve(action))

    def view(self, player: int | None = None) -> dict[str, Any]:
        """Everything ``player`` may see (None: a spectator), JSON-ready, and nothing more."""
        seat = self._check_seat(player)
        observer = self._observer(seat)
        over = self.is_over
        return {
            "game": self.game.info.id,
            "seat": seat,
            "players": self.players,
            "step": self._step,
            "current_player": self.current_player,
            "over": over,
            "result": self._result().to_json() if over else None,
            "table": self._view(observer),
            "log": list(self._log_projection(("seen", observer), lambda e: e.seen_by(observer))),
        }

    def seat(self, player: int | None) -> Seat:
        """What an agent in ``player``'s seat gets: its view, its legal actions, and
        determinizations built from a sample that already hides everything it cannot see."""
        seat = self._check_seat(player)
        # The seed does not matter: a determinization depends only on what the seat knows.
        sample = self.determinize(seat, Rng(0))
        legal = self.legal_actions() if seat is not None and self.current_player == seat else []
        return Seat(seat, self.view(seat), legal, self.game, sample)

    def determinize(
        self, player: int | None, rng: Rng | int | None = None, *, log: bool = True
    ) -> Self:
        """A full state consistent with everything ``player`` knows, hidden parts resampled.

        The result has no record (it is a guess, not a game that was played), no seed, a
        history reduced to its length, and a log reduced to what ``player`` read. With
        ``log=False`` (tree search) it starts with an empty log and logs nothing more.
        """
        seat = self._check_seat(player)
        observer = self._observer(seat)
        rng = as_rng(rng)
        new = self.clone()
        new._rng = Rng(rng.next64())
        new.seed = None
        new._decks = None
        new._history = []
        new._determinized = True
        new._log = (
            list(self._log_projection(("redacted", observer), lambda e: e.redacted_for(observer)))
            if log
            else []
        )
        new._quiet = not log
        new._log_cache = {}
        new._legal = None
        new._resample(observer, rng)
        return new

    @property
    def determinized(self) -> bool:
        return self._determinized

    def clone(self) -> Self:
        cls = type(self)
        new = cls.__new__(cls)
        new.__dict__.update(self.__dict__)
        new._rng = self._rng.clone()
        new._history = list(self._history)
        new._log = list(self._log)
        new._log_cache = dict(self._log_cache)
        new._copy_containers()
        return new

    def quiet_clone(self) -> Self:
        """A copy for searching the true state (a clairvoyant solver): the same position and
        the same generator (so every future shuffle is the real one), but an empty log and
        history, and nothing logged from here on (a search applies moves by the million)."""
        new = self.clone()
        new._quiet = True
        new._log = []
        new._history = []
        new._log_cache = {}
        return new

    def snapshot(self) -> dict[str, Any]:
        """The whole state, hidden parts included, JSON-ready (tests, digests, debugging)."""
        return {
            "step": self._step,
            "current_player": self.current_player,
            "rng": self._rng.state,
            "table": self._snapshot(),
            "log": [
                [e.text, None if e.seats is None else sorted(e.seats), e.others] for e in self._log
            ],
        }

    def position_key(self) -> str:
        """The table and the generator's state, as one canonical string: two ways of reaching
        the same position (the same cards in the same places, the same shuffles to come) give
        the same key, whatever their history. Cheaper than ``snapshot``, which also copies the
        log (search tables key millions of positions by it)."""
        return json.dumps([self._snapshot(), self._rng.state], sort_keys=True)

    def digest(self) -> str:
        blob = json.dumps(self.snapshot(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()

    def record(self) -> dict[str, Any]:
        """Everything needed to replay this game exactly, as JSON-ready data."""
        if self._determinized or self._decks is None or self.seed is None:
            raise RulesError(
                "a determinized state has no record: it is a guess at hidden information,"
                " not a game that was played"
            )
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.info.id,
            "options": dict(self.game.options),
            "players": self.players,
            "seed": self.seed,
            "decks": {name: [str(c) for c in order] for name, order in self._decks.items()},
            "actions": [str(a) for a in self._history],
            "digest": self.digest(),
        }

    def cards(self) -> list[Any]:
        """Every card in every zone of the table (for the conservation invariant)."""
        return self._cards()

    # ------------------------------------------------------------------ internals

    def _log_projection(self, key: Any, project: Callable[[LogEntry], Any]) -> list[Any]:
        """``project`` applied to every log entry (Nones dropped), kept incrementally.

        The log only grows, so a projection computed earlier stays valid as a prefix while the
        entry it ended on is still at the same place (clones share a prefix, then diverge).
        The returned list is shared with the cache: copy it before changing it.
        """
        log = self._log
        cached = self._log_cache.get(key)
        start, items = 0, []
        if cached is not None:
            count, last, done = cached
            if count <= len(log) and (count == 0 or log[count - 1] is last):
                start, items = count, done
        if start < len(log) or cached is None:
            fresh = [r for e in log[start:] if (r := project(e)) is not None]
            if fresh:
                items = items + fresh
            self._log_cache[key] = (len(log), log[-1] if log else None, items)
        return items

    def _resolve(self, action: Action | str) -> Action:
        """The legal action meant by an Action or a notation, or IllegalAction."""
        if isinstance(action, str):
            return self.parse(action)
        if not isinstance(action, Action):
            raise IllegalAction(f"a move is an Action or its notation, not {type(action).__name__}")
        if self.is_over:
            raise IllegalAction("the game is over", str(action))
        return self._check_legal(action, str(action))

    def _check_legal(self, action: Action, text: str) -> Action:
        legal = self._legal_list()
        for candidate in legal:
            if candidate is action:
                return action
        for candidate in legal:
            if candidate == action:
                return candidate
        raise IllegalAction(self._why_illegal(action), text.strip())

    def _normalize(self, text: str) -> str:
        tokens = []
        for token in text.replace(",", " ").split():
            try:
                tokens.append(str(self.parse_card(token)))
            except RulesError:
                tokens.append(token.lower())
        return " ".join(tokens)

    def __repr__(self) -> str:
        where = "over" if self.is_over else f"seat {self.current_player} to move"
        return f"<{type(self).__name__} {self.game.info.id} step {self._step}, {where}>"
