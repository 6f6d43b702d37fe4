"""Dead Center (Isaludo, Wil Su): kill twelve zombies from a 3x3 cabin before the deck runs out."""

from spyglass.engine import GameInfo, GameSpec, OptionSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import DeadCenterState

INFO = GameInfo(
    id="dead-center",
    title="Dead Center",
    summary="Play cards into a 3x3 cabin; the lines through it kill the twelve zombies around it.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    options=(
        OptionSpec(
            "jokers",
            2,
            "Jokers shuffled into the deck (the rulebook's harder variants use 1, then 0)",
            choices=(0, 1, 2),
        ),
    ),
    score_order="higher",
    ratings=Ratings(complexity=3, weight=2, footprint=2, strategy=3, tactics=2, luck=2),
)

LAYOUT = (
    Region("grid", "board", "Cabin and zombies"),
    Region("text", "to_do", "Now"),
    Region("cards", "drawn", "Drawn card", hide_empty=True),
    Region("count", "deck", "Deck"),
    Region("cards", "face_down", "Face-down zombies are among", hide_empty=True),
    Region("cards", "killed", "Killed zombies", hide_empty=True),
)

SPEC = GameSpec(
    info=INFO,
    state=DeadCenterState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
