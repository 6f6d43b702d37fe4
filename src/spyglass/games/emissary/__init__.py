"""The Emissary (Isaludo, Wil Su): a solo trick-taking game of exact bids across eight kingdoms."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import EmissaryState

INFO = GameInfo(
    id="emissary",
    title="The Emissary",
    summary="Debate eight rulers trick by trick; win exactly k debates in the k-th kingdom.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="higher",
    ratings=Ratings(complexity=3, weight=2, footprint=3, strategy=2, tactics=3, luck=2),
)

LAYOUT = (
    Region("text", "status", "Now"),
    Region("rows", "kingdoms", "Kingdoms (kingdom k needs exactly k wins)"),
    Region("cards", "topic", "The ruler raises", hide_empty=True),
    Region("cards", "hand", "Hand"),
    Region("rows", "allies", "Your side (face down: used)"),
    Region("pile", "won_here", "Debates won here", show="all"),
    Region("count", "deck", "Deck"),
    Region("pile", "discard", "Discard pile", show="all"),
)

SPEC = GameSpec(
    info=INFO,
    state=EmissaryState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
