"""A heuristic for The Emissary, reading the exact-bid odds of ``odds.py``.

- Kingdom: the unvisited kingdom whose target the hand is likeliest to hit exactly.
- Answer: the card that leaves the best odds for the wins still needed.
- Discard after the diamonds ability: the pair whose loss leaves the best odds.
- Abilities: hearts and spades are judged exactly (their outcome is known); diamonds and clubs
  draw unknown cards, so they follow rules of thumb on the current odds. An advisor is used for
  any gain; a supporter, which scores while face up, only for a clear one.

Only what the seat sees is used: the hand, the topic, the rulers, and the deck's contents
(known, as every card that left it was seen), never the deck's order.
"""

from __future__ import annotations

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng

from .odds import Odds, odds
from .rules import (
    CHOOSE,
    CLUBS,
    DEBATE,
    DIAMONDS,
    DISCARD,
    HEARTS,
    RANK,
    RESPOND,
    SPADES,
    SUIT,
    EmissaryState,
    beats,
)

SUPPORTER_COST = 0.12  # odds gained that justify turning a scoring supporter face down
JACK_MARGIN = 0.01  # an advisor is used when it adds at least this much
SPADES_BELOW = 0.6  # another trump is only weighed when the odds are below this
DIAMONDS_BELOW = 0.75  # the diamonds ability redraws when the odds are below this
DIAMONDS_GAIN = 0.25  # its assumed share of the missing odds recovered
CLUBS_BELOW = 0.35  # the clubs ability draws when the odds are below this and wins run short
CLUBS_GAIN = 0.3


def choose(state: EmissaryState, rng: Rng) -> Action:
    moves = state.legal_actions()
    pool = _pool(state)
    if len(moves) == 1 or not pool:
        return moves[0]
    if state.phase == CHOOSE:
        return _choose_kingdom(state, moves, pool)
    need = state.target - state.wins
    table = odds(state.hand, state.trump, pool, need)
    if state.phase == RESPOND:
        return _answer(state, moves, table, need)
    if state.phase == DISCARD:
        return _discard(state, moves, table, need)
    return _between_debates(state, moves, table, need, pool)


def _pool(state: EmissaryState) -> list[Card]:
    """The cards the next topics come from, as far as the seat knows. While a topic waits for
    an answer it still counts (one card in twenty-odd): the odds table built before it was
    raised then serves the answer too."""
    pool = state.deck + state.discard if len(state.deck) < len(state.hand) else state.deck
    if state.phase == RESPOND and state.topic is not None and state.topic not in pool:
        pool = [*pool, state.topic]
    return pool


def _choose_kingdom(state: EmissaryState, moves: list[Action], pool: list[Card]) -> Action:
    hand = state.hand
    # One table per trump suit, deep enough for every kingdom (the spades ability may bring
    # another kingdom's trump here before the first debate, when the same tables serve).
    limit = max(move.target for move in moves)
    best, best_value = moves[0], -1.0
    for move in moves:
        number = move.target
        trump = SUIT[state.rulers[number - 1]]
        value = odds(hand, trump, pool, limit).chance(hand, number)
        if value > best_value:
            best, best_value = move, value
    return best


def _answer(state: EmissaryState, moves: list[Action], table: Odds, need: int) -> Action:
    topic = state.topic
    assert topic is not None
    trump = state.trump
    best, best_value = moves[0], (-1.0, False)
    for move in moves:
        card = move.cards[0]
        won = beats(card, topic, trump)
        rest = [c for c in state.hand if c != card]
        # Equal odds (all nil, say, when only an ability could still save the kingdom):
        # at least step towards the target.
        value = (table.chance(rest, need - won), won == (need > 0))
        if value > best_value:
            best, best_value = move, value
    return best


def _discard(state: EmissaryState, moves: list[Action], table: Odds, need: int) -> Action:
    best, best_value = moves[0], -1.0
    for move in moves:
        rest = [c for c in state.hand if c not in move.cards]
        value = table.chance(rest, need)
        if value > best_value:
            best, best_value = move, value
    return best


def _between_debates(
    state: EmissaryState, moves: list[Action], table: Odds, need: int, pool: list[Card]
) -> Action:
    hand = state.hand
    base = table.chance(hand, need)
    best: Action | None = None
    best_gain = 0.0
    for move in moves:
        if move.kind == "ability":
            value = _ability_odds(state, move, table, need, base=base, pool=pool)
            source = move.cards[0]
            gain = value - base - (JACK_MARGIN if RANK[source] == 11 else SUPPORTER_COST)
            if gain > best_gain:
                best, best_gain = move, gain
    if best is not None:
        return best
    return DEBATE if DEBATE in moves else moves[0]


def _ability_odds(
    state: EmissaryState, move: Action, table: Odds, need: int, *, base: float, pool: list[Card]
) -> float:
    """The odds after an ability (estimated for the two that draw unknown cards)."""
    hand = state.hand
    trump = state.trump
    suit = SUIT[move.cards[0]]
    if suit == HEARTS:
        return table.chance([c for c in hand if SUIT[c] != trump], need)
    if suit == SPADES:
        other = SUIT[state.rulers[move.target - 1]]
        if other == trump or base >= SPADES_BELOW:
            return base
        return odds(hand, other, pool, need).chance(hand, need)
    if suit == DIAMONDS:
        if base < DIAMONDS_BELOW or (len(hand) <= 2 and base < 1.0):
            return base + (1.0 - base) * DIAMONDS_GAIN
        return base
    assert suit == CLUBS
    if base < CLUBS_BELOW and state.wins + len(hand) <= state.target + 1:
        return base + (1.0 - base) * CLUBS_GAIN
    return base
