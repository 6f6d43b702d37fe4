"""A game with its options fixed: the factory of new states."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .errors import RulesError
from .info import GameInfo
from .layout import Region
from .options import resolve_options
from .rng import Rng, fresh_seed

if TYPE_CHECKING:
    from .action import Action
    from .learner_spec import EncodingHook
    from .state import State

Bot = Callable[["State", Rng], "Action"]

S = TypeVar("S", bound="State")


@dataclass(frozen=True, slots=True)
class GameSpec(Generic[S]):
    """Everything a game package declares: its info, state class, table layout, bot, and
    optionally an evaluation of unfinished positions (each seat's expected reward, as
    ``Result.rewards`` would give it) that search may use to cut playouts short.

    Generic in the game's state class: a game's bot and evaluation take its own state, which
    is what ``state`` makes. Code that holds specs of many games types them ``GameSpec[Any]``
    (the pairing of each spec's bot with its own state class is not expressible statically)."""

    info: GameInfo
    state: type[S]
    package: str
    layout: tuple[Region, ...] = ()
    bot: Callable[[S, Rng], Action] | None = None
    evaluate: Callable[[S], tuple[float, ...]] | None = None
    encoding: EncodingHook | None = None


class Game:
    """A registered game with validated options. ``new_state`` starts a table."""

    __slots__ = ("options", "spec")

    def __init__(self, spec: GameSpec[Any], options: Mapping[str, Any] | None = None) -> None:
        self.spec = spec
        self.options = resolve_options(spec.info.id, spec.info.options, options or {})

    @property
    def info(self) -> GameInfo:
        return self.spec.info

    def rules_text(self) -> str:
        """The game's RULES.md: the rules in our words, with our rulings."""
        return resources.files(self.spec.package).joinpath("RULES.md").read_text("utf-8")

    def check_players(self, players: int | None) -> int:
        low, high = self.info.players
        if players is None:
            return low
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise RulesError(
                f"{self.info.title} is for {self.info.players_text()} players, not {players!r}"
            )
        return players

    def max_actions(self, players: int | None = None) -> int:
        return self.spec.state.max_actions(self.options, self.check_players(players))

    def deck_contents(self, players: int | None = None) -> dict[str, list[Any]]:
        return self.spec.state.deck_contents(self.options, self.check_players(players))

    def new_state(
        self, players: int | None = None, seed: int | None = None, deck: Any = None
    ) -> State:
        """A new table. ``deck`` stacks the initial shuffles: a list of cards (or one string
        of notations) for a game with one deck, or a dict of such per named deck; each must be
        the deck's exact contents, top card first."""
        n = self.check_players(players)
        if seed is None:
            seed = fresh_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise RulesError(f"a seed is a whole number, not {seed!r}")
        cls: type[State] = self.spec.state
        contents = cls.deck_contents(self.options, n)
        stacked = self._stacked(deck, contents)
        decks: dict[str, tuple[Any, ...]] = {}
        for name, cards in contents.items():
            if name in stacked:
                order = stacked[name]
                cls.check_deck(name, order, self.options, n)
            else:
                order = cls.shuffle_deck(
                    name, cards, Rng.derived(seed, f"deck/{name}"), self.options, n
                )
            decks[name] = tuple(order)
        state = cls.__new__(cls)
        state._init(self, n, seed, decks)
        state._setup()
        return state

    def _stacked(self, deck: Any, contents: dict[str, list[Any]]) -> dict[str, list[Any]]:
        if deck is None:
            return {}
        if not isinstance(deck, Mapping):
            if len(contents) != 1:
                names = ", ".join(contents)
                raise RulesError(
                    f"{self.info.title} shuffles several decks ({names}): give deck= as a dict"
                    " of deck name to cards"
                )
            deck = {next(iter(contents)): deck}
        stacked = {}
        for name, given in deck.items():
            if name not in contents:
                names = ", ".join(contents)
                raise RulesError(f"{self.info.title} has no deck {name!r} (its decks: {names})")
            stacked[name] = self._read_deck(name, given, contents[name])
        return stacked

    def _read_deck(self, name: str, given: Any, expected: Sequence[Any]) -> list[Any]:
        parse = self.spec.state.parse_card
        tokens = given.replace(",", " ").split() if isinstance(given, str) else given
        try:
            # Every entry goes through the game's parser: a Card passes, notation is read,
            # anything else (a bare int, say) is refused rather than taken for a card.
            order = [parse(c) for c in tokens]
        except TypeError:
            raise RulesError(f"deck {name!r} must be a list of cards or a string") from None
        want, have = Counter(expected), Counter(order)
        problems = []
        missing = want - have
        if missing:
            problems.append("missing " + _cards_text(missing))
        extra = have - want
        duplicate = Counter({c: k for c, k in extra.items() if c in want})
        foreign = Counter({c: k for c, k in extra.items() if c not in want})
        if duplicate:
            problems.append("duplicate " + _cards_text(duplicate))
        if foreign:
            problems.append("not in this deck " + _cards_text(foreign))
        if problems:
            raise RulesError(
                f"stacked deck {name!r} must hold exactly its {len(expected)} cards: "
                + "; ".join(problems)
            )
        return order

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<Game {self.info.id}{' ' + opts if opts else ''}>"


def _cards_text(counter: Counter[Any]) -> str:
    return " ".join(str(c) for c in sorted(counter.elements()))
