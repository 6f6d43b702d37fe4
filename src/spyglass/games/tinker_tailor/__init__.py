"""Tinker Tailor (Richard Denning, Medusa Games): draft a role each round, perform it when the
rhyme calls it, buy goods, and collect sets. Played on our reconstructed edition of the cards."""

from spyglass.engine import GameInfo, GameSpec, Region

from . import bot, encoding, evaluate
from .edition import EDITION
from .rules import TinkerTailorState

INFO = GameInfo(
    id="tinker-tailor",
    title="Tinker Tailor",
    summary="Draft a role each round, perform it as the rhyme calls it, buy goods, collect sets.",
    rulebook="001_74df749674cfe273.txt (Tinker Tailor, Richard Denning, Medusa Games, 2nd ed.)",
    players=(2, 6),
    edition=EDITION.label,
)

LAYOUT = (
    Region("text", "round", "Round"),
    Region("text", "status", "Now"),
    Region("text", "rhyme", "The rhyme"),
    Region("rows", "roles", "Role cards"),
    Region("cards", "draft_hand", "Role cards to choose from", hide_empty=True),
    Region("text", "draft_seen", "Role cards you have held this round", hide_empty=True),
    Region("cards", "leftover", "Left over (face down)", hide_empty=True),
    Region("cards", "money_market", "Money market"),
    Region("cards", "goods_market", "Goods market"),
    Region("text", "prices", "Goods cost"),
    Region("text", "piles", "Piles"),
    Region("pile", "goods_discard", "Goods discard", show="top"),
    Region("pile", "money_discard", "Money discard", show="top"),
    Region("cards", "looking", "You look at", hide_empty=True),
    Region("cards", "your_goods", "Your goods"),
    Region("cards", "your_money", "Your money"),
    Region("text", "your_points", "Your points now", hide_empty=True),
    Region("text", "credit", "Credit to spend", hide_empty=True),
    Region("text", "revealed", "Revealed", hide_empty=True),
    Region("text", "known", "You know", hide_empty=True),
    Region("rows", "final_hands", "Final hands", hide_empty=True),
)

SPEC = GameSpec(
    info=INFO,
    state=TinkerTailorState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
