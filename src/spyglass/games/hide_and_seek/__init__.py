"""Hide and Seek (Isaludo, Wil Su): a solo deduction game of guessing hidden playmates' suits."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import HideAndSeekState

INFO = GameInfo(
    id="hide-and-seek",
    title="Hide and Seek",
    summary="Guess the suits of twelve face-down playmates from the ends of their rows and"
    " columns; score 20.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="higher",
    ratings=Ratings(complexity=2, weight=1, footprint=3, strategy=2, tactics=2, luck=3),
)

LAYOUT = (
    Region("grid", "playground", "Playground"),
    Region("pile", "deck", "Deck", show="top"),
    Region("text", "status", "Status"),
    Region("pile", "score_pile", "Score pile", show="all"),
    Region("pile", "discard", "Discard pile", show="all", hide_empty=True),
)

SPEC = GameSpec(
    info=INFO,
    state=HideAndSeekState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
