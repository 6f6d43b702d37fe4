"""Foursquare (Isaludo, Wil Su): a solo card-laying puzzle of flipping rows and columns."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import FoursquareState

INFO = GameInfo(
    id="foursquare",
    title="Foursquare",
    summary="Lay the number cards in a 4x4 grid of piles; extremes flip their row and column.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="higher",
    ratings=Ratings(complexity=1, weight=2, footprint=2, strategy=2, tactics=2, luck=2),
)

LAYOUT = (
    Region("cards", "card", "Card to place", hide_empty=True),
    Region("grid", "grid", "Flavortown"),
    Region("text", "key", "Key"),
    Region("text", "closed", "Face-down tops"),
    Region("count", "deck", "Deck"),
    Region("text", "remaining", "Left in the deck"),
)

SPEC = GameSpec(
    info=INFO,
    state=FoursquareState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
