"""Syndicate (Isaludo, Wil Su): a deterministic solo puzzle of promotions through five ranks."""

from spyglass.engine import GameInfo, GameSpec, Ratings, Region

from . import bot, encoding, evaluate
from .rules import SyndicateState

INFO = GameInfo(
    id="syndicate",
    title="Syndicate",
    summary="Promote agents up five mafia ranks; each replacement must fit the digits.",
    rulebook="002_c87b19de315c763f.txt (Isaludo)",
    players=(1, 1),
    score_order="lower",
    hidden_information=False,
    ratings=Ratings(complexity=2, weight=3, footprint=2, strategy=3, tactics=1, luck=1),
)

LAYOUT = (
    Region("cards", "leftover", "Left over (choose three rank-5 members)", hide_empty=True),
    Region("columns", "ranks", "The syndicate", parts=("members", "candidates")),
    Region("cards", "sacrificed", "Sacrificed", hide_empty=True),
    Region("cards", "removed", "Out of the game", hide_empty=True),
)

SPEC = GameSpec(
    info=INFO,
    state=SyndicateState,
    package=__name__,
    layout=LAYOUT,
    bot=bot.choose,
    encoding=encoding.encoding,
    evaluate=evaluate.evaluate,
)
