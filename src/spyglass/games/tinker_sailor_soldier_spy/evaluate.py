"""The chance of winning from a Tinker, Sailor, Soldier, Spy position, for searches that stop
playouts early.

Round 2 is lost when the chips run out before the last Location is paid, and every Location
still to come is known (only the order is hidden). So the model sets the chips left against an
estimate of the chips the remaining Locations will cost: each chip draws one of our cards, which
pays on average the mean matching value of the cards we own, and pays 1 itself (the same
estimate the bot uses); in round 1 the recruits still to come add little once that is known.
Weights fitted on heuristic self-play (see
``tests/games/test_solo_evaluate.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.components.decktet import SUIT_MASKS, TABLE
from spyglass.components.evaluation import win_chance

if TYPE_CHECKING:
    from .rules import TinkerSailorSoldierSpyState

#: intercept; chips left / 10; chips the Locations left will cost / 10
WEIGHTS = (-0.0495, 2.15, -2.34)

_VALUE = tuple(entry.value for entry in TABLE)  # each card's payment value, by its index


def features(state: TinkerSailorSoldierSpyState) -> tuple[float, ...]:
    masks, values = SUIT_MASKS, _VALUE
    paying: dict[int, int] = {}  # suit mask -> total value of the cards we own with those suits
    owned = 0
    for cards in (state.deck, state.discard, state.fight_cards):
        owned += len(cards)
        for card in cards:
            mask = masks[card]
            paying[mask] = paying.get(mask, 0) + values[card]
    owned = owned or 1
    pending = state.challenger if state.round == 2 else None
    cost = 0.0
    groups = paying.items()
    for location in (*state.locations, *([pending] if pending is not None else ())):
        mask = masks[location]
        still = values[location] - (state.paid if location == pending else 0)
        if still > 0:
            mean = sum(value for suits, value in groups if suits & mask) / owned
            cost += still / (mean + 1.0)
    return (state.chips_left / 10, cost / 10)


def evaluate(state: TinkerSailorSoldierSpyState) -> tuple[float, ...]:
    """``(p,)``: the estimated chance of winning, like ``Result.rewards`` for a solo game."""
    if (result := state.result) is not None:  # None exactly while the game goes on
        return result.rewards
    return win_chance(WEIGHTS, features(state))
