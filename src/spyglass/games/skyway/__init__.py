"""Skyway (Isaludo, Wil Su): draft stacks of cards into a 3x3 interchange of increasing runs."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import SkywayState

INFO = GameInfo(
    id="skyway",
    title="Skyway",
    summary="Draft blueprints into a 3x3 grid of stacks; build a run of five in every suit.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="higher",
    ratings=Ratings(complexity=2, weight=2, footprint=2, strategy=3, tactics=2, luck=2),
)

LAYOUT = (
    Region("text", "round", "Round"),
    Region("rows", "market", "Market (blueprints, bottom card first)", hide_empty=True),
    Region("grid", "play_area", "Play area"),
    Region("text", "runs", "Longest runs"),
    Region("count", "deck", "Deck"),
    Region("cards", "deck_contents", "Still in the deck (order unknown)", hide_empty=True),
    Region("pile", "discard", "Discard pile", show="all"),
)

SPEC = GameSpec(
    info=INFO,
    state=SkywayState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
