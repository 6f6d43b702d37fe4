"""Espionage (Working Title), Tom McKendree: hidden roles and secrets passed face down."""

from spyglass.engine import GameInfo, GameSpec, OptionSpec, Region

from . import bot, encoding, evaluate
from .rules import EspionageState

INFO = GameInfo(
    id="espionage",
    title="Espionage",
    summary="Spies pass secrets, agents arrest, double agents plant lies: then the reckoning.",
    rulebook="004_36ce344779a2691c.txt (Espionage (Working Title), Tom McKendree)",
    players=(3, 7),
    options=(
        OptionSpec("police_face_up", False, "black tens and black face cards are played face up"),
        OptionSpec(
            "game_length",
            "normal",
            "long doubles and short halves the points needed to end the game",
            choices=("normal", "long", "short"),
        ),
        OptionSpec(
            "city_limit",
            50,
            "the game also ends after this many cities, doubled for long games and halved for"
            " short ones (a safety limit of ours)",
            minimum=1,
            maximum=200,
        ),
    ),
)

LAYOUT = (
    Region("text", "goal", "City"),
    Region("text", "role", "Your role"),
    Region("cards", "hand", "Your hand"),
    Region("text", "standings", "Points"),
    Region("text", "must_answer", "You must answer seat", hide_empty=True),
    Region("text", "rejected_by", "Rejected by seat", hide_empty=True),
    Region("grid", "mats", "Mats (turn by turn; giver:card, ▒▒ face down)"),
    Region("count", "draw", "Draw pile"),
    Region("story", "walk", "Last city", hide_empty=True),
)

SPEC = GameSpec(
    info=INFO,
    state=EspionageState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    evaluate=evaluate.evaluate,
    encoding=encoding.encoding,
)
