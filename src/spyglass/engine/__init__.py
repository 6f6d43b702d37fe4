"""The game-agnostic kernel. Imports nothing else from spyglass."""

from .action import Action
from .errors import IllegalAction, ReplayError, RulesError, SpyglassError
from .game import Bot, Game, GameSpec
from .info import GameInfo, Ratings
from .layout import Region
from .log import LogEntry
from .options import OptionSpec
from .record import read_record, replay, write_record
from .registry import Registry
from .result import Result
from .rng import Rng, derive_seed, fresh_seed
from .seat import Seat
from .state import State
from .words import plural

__all__ = [
    "Action",
    "Bot",
    "Game",
    "GameInfo",
    "GameSpec",
    "IllegalAction",
    "LogEntry",
    "OptionSpec",
    "Ratings",
    "Region",
    "Registry",
    "ReplayError",
    "Result",
    "Rng",
    "RulesError",
    "Seat",
    "SpyglassError",
    "State",
    "derive_seed",
    "fresh_seed",
    "plural",
    "read_record",
    "replay",
    "write_record",
]
