"""Loot the Loop (Isaludo, Wil Su): walk a temple that is a loop of cards, nab four jewels."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import LootTheLoopState

INFO = GameInfo(
    id="loot-the-loop",
    title="Loot the Loop",
    summary="Walk a looping temple of cards: nab the four jewels, dodge traps, find the exit.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="higher",
    ratings=Ratings(complexity=3, weight=1, footprint=1, strategy=1, tactics=3, luck=3),
)

LAYOUT = (
    Region("grid", "reach", "Within reach: explore N lands on the card under N"),
    Region("rows", "loop", "The whole temple, from the top of the deck"),
    Region("cards", "notes", "Notes (marked paths, at most 3)"),
    Region("pile", "score_pile", "Score pile", show="all"),
    Region("text", "status", "Temple"),
)

SPEC = GameSpec(
    info=INFO,
    state=LootTheLoopState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
