"""Tinker, Sailor, Soldier, Spy (Mike Richey): a Decktet solo deck-builder."""

from spyglass.engine import GameInfo, GameSpec, OptionSpec, Region

from . import bot, encoding, evaluate
from .rules import TinkerSailorSoldierSpyState

INFO = GameInfo(
    id="tinker-sailor-soldier-spy",
    title="Tinker, Sailor, Soldier, Spy",
    summary="Recruit Decktet personalities and events, then pay for every Location in turn.",
    rulebook="000_ac49dfc40dd892be.txt (a player's reading of Mike Richey's rules)",
    players=(1, 1),
    options=(
        OptionSpec(
            "fixed_locations",
            False,
            "face the Origin first and the End last in round 2",
        ),
    ),
    score_order="higher",
)

LAYOUT = (
    Region("text", "round", "Round"),
    Region("cards", "revealed", "Turned up", hide_empty=True),
    Region("cards", "challenger", "Challenger", hide_empty=True),
    Region("text", "payment", "Paid"),
    Region("cards", "second_row", "Second row"),
    Region("text", "chips", "Suit chips"),
    Region("count", "deck", "Deck"),
    Region("pile", "discard", "Discard pile", show="all"),
    Region("text", "piles", "Face-down piles"),
    Region("pile", "trash", "Trash", show="all"),
)

SPEC = GameSpec(
    info=INFO,
    state=TinkerSailorSoldierSpyState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
