"""The Sandwich Guy (Isaludo, Wil Su): a light hand-management solo game."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import SandwichGuyState

INFO = GameInfo(
    id="sandwich-guy",
    title="The Sandwich Guy",
    summary="Discard evenly spaced triples of cards to draw more; get through the whole deck.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="lower",
    ratings=Ratings(complexity=1, weight=1, footprint=1, strategy=2, tactics=3, luck=3),
)

LAYOUT = (
    Region("cards", "hand", "Hand"),
    Region("count", "deck", "Deck"),
    Region("cards", "deck_contents", "  in the deck, any order (you may look through it)"),
    Region("pile", "discard", "Discard pile", show="all"),
    Region("text", "sandwiches", "Sandwiches made"),
)

SPEC = GameSpec(
    info=INFO,
    state=SandwichGuyState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
