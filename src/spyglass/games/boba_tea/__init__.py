"""The First Boba Tea Shop in London (Isaludo, Wil Su): a push-your-luck queueing solo game."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import BobaTeaState

INFO = GameInfo(
    id="boba-tea",
    title="The First Boba Tea Shop in London",
    summary="Pick a spot in one of four polite queues, then draw the customer; clear the deck.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="higher",
    ratings=Ratings(complexity=2, weight=1, footprint=3, strategy=2, tactics=2, luck=3),
)

LAYOUT = (
    Region("rows", "queues", "Queues (highest customer first)"),
    Region("text", "target", "Target position", hide_empty=True),
    Region("cards", "drawn", "Rude customer (does not fit)", hide_empty=True),
    Region("count", "customers", "Customers in the queues"),
    Region("count", "deck", "Deck"),
    Region("text", "deck_ranks", "Left in the deck (order unknown)"),
    Region("rows", "discard_rows", "Discard pile, nth card of its rank"),
)

SPEC = GameSpec(
    info=INFO,
    state=BobaTeaState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
