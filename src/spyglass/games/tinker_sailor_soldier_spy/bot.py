"""A heuristic for Tinker, Sailor, Soldier, Spy.

Round 2 is won or lost on suit chips: every Location still to pay for is known (only their order
is hidden), so the bot values a recruit by how much of that remaining cost its suits can pay,
times its value; it estimates the chips a purchase needs from the mean matching value of its own
cards; it gives up a round-1 fight when finishing it would leave fewer chips than it keeps in
reserve for round 2, or cost more than the recruit is worth. Chips go to a matching suit when
one is left (a matching chip also pays 1), choosing the suit the remaining Locations need least.
"""

from __future__ import annotations

from spyglass.components.decktet import SUITS, DecktetCard, matches
from spyglass.engine import Action, Rng

from .rules import CHOOSE, TinkerSailorSoldierSpyState

CHIP_PRICE = 3.0  # usefulness one chip spent in round 1 must buy
RESERVE = 25  # chips kept for round 2


def choose(state: TinkerSailorSoldierSpyState, rng: Rng) -> Action:
    moves = state.legal_actions()
    locations = _locations_left(state)
    if state.phase == CHOOSE:
        return max(moves, key=lambda move: _challenger_value(state, move, locations))
    if state.round == 1 and _give_up_now(state, locations):
        return next(m for m in moves if m.kind == "give-up")
    return _chip(state, moves, locations)


def _locations_left(state: TinkerSailorSoldierSpyState) -> list[DecktetCard]:
    pending = [state.challenger] if state.round == 2 and state.challenger is not None else []
    return state.locations + pending


def usefulness(card: DecktetCard, locations: list[DecktetCard]) -> float:
    """The card's value times the share of the remaining Location cost its suits can pay."""
    total = sum(loc.value for loc in locations) or 1
    return card.value * sum(loc.value for loc in locations if matches(card, loc.suits)) / total


def chips_needed(state: TinkerSailorSoldierSpyState, card: DecktetCard, paid: int = 0) -> float:
    """Expected chips to finish paying for ``card``: each chip draws a card (mean matching
    value of the cards we own) and pays one itself."""
    remaining = card.value - paid
    if remaining <= 0:
        return 0.0
    owned = state.deck + state.discard + state.fight_cards
    mean = sum(c.value for c in owned if matches(c, card.suits)) / len(owned) if owned else 0.0
    return remaining / (mean + 1.0)


def _challenger_value(
    state: TinkerSailorSoldierSpyState, move: Action, locations: list[DecktetCard]
) -> float:
    if move.kind != "fight":
        return 0.0  # giving up a lone challenger is worth nothing, and costs nothing
    card = move.cards[0]
    return usefulness(card, locations) - CHIP_PRICE * chips_needed(state, card)


def _give_up_now(state: TinkerSailorSoldierSpyState, locations: list[DecktetCard]) -> bool:
    challenger = state.fought
    still = chips_needed(state, challenger, state.paid)
    return (
        state.chips_left - still < RESERVE or usefulness(challenger, locations) < CHIP_PRICE * still
    )


def _chip(
    state: TinkerSailorSoldierSpyState, moves: list[Action], locations: list[DecktetCard]
) -> Action:
    need = dict.fromkeys(SUITS, 0.0)
    for loc in locations:
        for suit in loc.suits:
            need[suit] += loc.value / len(loc.suits)
    chips = [m for m in moves if m.kind == "chip"]
    matching = [m for m in chips if m.target in state.fought.suits]
    return min(matching or chips, key=lambda m: (need[m.target] / state.chips[m.target], m.text))
