"""Area 52 (Isaludo, Wil Su): a solo card game of defending against two waves of aliens."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import Area52State

INFO = GameInfo(
    id="area-52",
    title="Area 52",
    summary="Black defenders beat red aliens by exact sums or bigger values; then the discard"
    " pile attacks again.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="higher",
    ratings=Ratings(complexity=2, weight=1, footprint=2, strategy=2, tactics=2, luck=3),
)

LAYOUT = (
    Region("text", "status", "Wave"),
    Region("cards", "attackers", "Attackers (current first)"),
    Region("cards", "defenders", "Defenders"),
    Region("count", "defender_deck", "Defender deck"),
    Region("count", "alien_deck", "Alien deck"),
    Region("cards", "alien_deck_back", "  at its back, in order", hide_empty=True),
    Region(
        "cards",
        "alien_deck_contents",
        "  in it, any order (the discard pile you saw)",
        hide_empty=True,
    ),
    Region("pile", "discard", "Discard pile", show="all"),
)

SPEC = GameSpec(
    info=INFO,
    state=Area52State,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
