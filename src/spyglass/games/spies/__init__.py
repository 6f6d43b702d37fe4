"""Spies! (SPI 1981), the Long Game rules v2.3: espionage across Europe, 1933-1939.

Not yet in the catalogue: the game is built in slices (see RULES.md); so far the data, set-up,
police, searches, spy movement, Secrets, event tiles, Action Chits, havens and Cousins. Tests
build it from ``SPEC`` directly.
"""

from spyglass.engine import GameInfo, GameSpec, Region

from . import bot
from .rules import SpiesState

INFO = GameInfo(
    id="spies",
    title="Spies!",
    summary="Five powers steal each other's secrets across Europe, 1933-1939.",
    rulebook="003_1350b2273e9fc733.txt (Spies!, Long Game rules v2.3)",
    players=(2, 5),
    edition="reconstructed edition",
)

LAYOUT = (
    Region("text", "status", "Turn"),
    Region("map", "map", "Europe, 1933"),
    Region("text", "you", "You play"),
    Region("text", "powers", "Powers"),
)

SPEC = GameSpec(info=INFO, state=SpiesState, package=__name__, layout=LAYOUT, bot=bot.choose)
