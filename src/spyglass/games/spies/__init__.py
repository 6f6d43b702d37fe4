"""Spies! (SPI 1981), the Long Game rules v2.3: espionage across Europe, 1933-1939.

Reconstructed edition (the printed map, counters and tiles are not public: see
``/shared/rules/spies-edition.md`` and RULES.md). The rules are in ``rules.py`` and the modules
it calls (``flow`` holds the order of play, ``parts`` the state's parts); ``bot`` is the
heuristic bot, ``evaluate.py`` the win chances ISMCTS scores a
cut-off with, ``encoding.py`` the declaration for learning libraries.
"""

from collections.abc import Callable
from typing import cast

from spyglass.engine import Action, GameInfo, GameSpec, OptionSpec, Region, Rng, State

from . import bot, encoding, evaluate
from .rules import SpiesState

INFO = GameInfo(
    id="spies",
    title="Spies!",
    summary="Five powers steal each other's secrets across Europe, 1933-1939.",
    rulebook="003_1350b2273e9fc733.txt (Spies!, Long Game rules v2.3)",
    players=(2, 5),
    edition="reconstructed edition",
    options=(
        OptionSpec(
            "historical_alliances",
            False,
            "rule 8.1: a power loses 20 points if its ally trails both of the other camp",
        ),
        OptionSpec(
            "two_power_score",
            "best",
            "a seat with two powers scores its better power (7.0), the lower one or the two "
            "added (8.2)",
            choices=("best", "lower", "combined"),
        ),
        OptionSpec(
            "allocation",
            "standard",
            "which seat plays which power: rule 7.0, or 8.3 (four players: France and Russia "
            "together) and 8.4 (three players: Germany-Italy, France-Russia, Britain)",
            choices=("standard", "alternative"),
        ),
        OptionSpec(
            "russia_bidding",
            False,
            "rule 8.5 (two or four players): seats bid each year to play Russia",
        ),
        OptionSpec(
            "secret_money",
            False,
            "rule 2.2's alternative: a seat sees only its own powers' money",
        ),
    ),
)

LAYOUT = (
    Region("banner", "prompt", "Asked", hide_empty=True),
    Region("text", "status", "Turn"),
    Region("track", "action_track", "Action Points"),
    Region("columns", "offer_panel", "Offer", parts=("items",), hide_empty=True),
    Region("map", "map", "Europe, 1933"),
    Region("text", "you", "You play"),
    Region("text", "tiles_in_hand", "Your Event Tiles", hide_empty=True),
    Region("text", "bank", "Bank"),
    Region("grid", "record", "Time and Victory Record"),
    Region("rows", "events", "Event Tiles played", hide_empty=True),
    Region("rows", "manifest", "Event Tile manifest (every tile)", command="tiles"),
    Region("rows", "powers_summary", "Powers"),
    Region("text", "talks", "Diplomacy", hide_empty=True),
    Region("text", "russia_bidding", "Bidding for Russia", hide_empty=True),
)

SPEC = GameSpec(
    info=INFO,
    state=SpiesState,
    package=__name__,
    layout=LAYOUT,
    # The engine hands these only states of this game: the casts say so to the type checker.
    bot=cast(Callable[[State, Rng], Action], bot.choose),
    evaluate=cast(Callable[[State], tuple[float, ...]], evaluate.evaluate),
    encoding=encoding.encoding,
)
