"""A heuristic for The Emissary, reading the exact-bid odds of ``odds.py``.

- Kingdom: the unvisited kingdom whose target the hand is likeliest to hit exactly, weighed
  against how likely a typical hand is to hit it (hard kingdoms wait for a fitting hand).
- Answer: the card that leaves the best odds for the wins still needed.
- Discard after the diamonds ability: the pair whose loss leaves the best odds.
- Abilities: hearts and spades are judged exactly (their outcome is known); the draws of clubs
  and diamonds are sampled while the hand is small, and follow rules of thumb otherwise. An
  advisor is used for any gain; a supporter, which scores while face up, only for a clear one.

Only what the seat sees is used: the hand, the topic, the rulers, and the deck's contents
(known, as every card that left it was seen), never the deck's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng

from .odds import Odds, best_kept, odds, solve_many
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
SAMPLED_HAND = 6  # the draws of clubs and diamonds are sampled while the hand stays this small
SAMPLES = 12
CLUBS_BELOW = 0.35  # for larger hands: clubs draws when the odds are below this...
CLUBS_GAIN = 0.3  # ... and wins run short, assumed to recover this share of the missing odds
# The odds of an exact bid for a random hand of eight, by target (no abilities), and how much
# a kingdom choice weighs a hand's odds against them.
TYPICAL = (1.0, 0.25, 0.41, 0.47, 0.42, 0.28, 0.13, 0.04, 0.005)
RARITY = 0.5


@dataclass(slots=True)
class Turn:
    """What one decision inside a kingdom looks at."""

    state: EmissaryState
    hand: list[Card]
    trump: int
    need: int  # wins still needed
    pool: list[Card]  # where the next topics come from
    hearts: bool  # the hearts advisor is still face up
    table: Odds
    rng: Rng


def choose(state: EmissaryState, rng: Rng) -> Action:
    moves = state.legal_actions()
    pool = topic_pool(state)
    if len(moves) == 1 or not pool:
        return moves[0]
    if state.phase == CHOOSE:
        return _choose_kingdom(state, moves, pool)
    need = state.target - state.wins
    hearts = not state.jacks_used >> HEARTS & 1
    table = odds(state.hand, state.trump, pool, need, hearts)
    turn = Turn(state, state.hand, state.trump, need, pool, hearts, table, rng)
    if state.phase == RESPOND:
        return _answer(turn, moves)
    if state.phase == DISCARD:
        return _discard(turn, moves)
    return _between_debates(turn, moves)


def topic_pool(state: EmissaryState) -> list[Card]:
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
        chance = odds(hand, trump, pool, limit, hearts=True).chance(hand, number)
        value = chance / TYPICAL[number] ** RARITY
        if value > best_value:
            best, best_value = move, value
    return best


def _answer(turn: Turn, moves: list[Action]) -> Action:
    topic = turn.state.topic
    assert topic is not None
    need = turn.need
    best, best_value = moves[0], (-1.0, False)
    for move in moves:
        card = move.cards[0]
        won = beats(card, topic, turn.trump)
        rest = [c for c in turn.hand if c != card]
        # Equal odds (all nil, say, when only an ability could still save the kingdom):
        # at least step towards the target.
        value = (turn.table.chance(rest, need - won), won == (need > 0))
        if value > best_value:
            best, best_value = move, value
    return best


def _discard(turn: Turn, moves: list[Action]) -> Action:
    best, best_value = moves[0], -1.0
    for move in moves:
        rest = [c for c in turn.hand if c not in move.cards]
        value = turn.table.chance(rest, turn.need)
        if value > best_value:
            best, best_value = move, value
    return best


def _between_debates(turn: Turn, moves: list[Action]) -> Action:
    base = turn.table.debate(turn.hand, turn.need)
    best: Action | None = None
    best_gain = 0.0
    known: dict[tuple[int, int | None], float] = {}  # an advisor and a supporter act alike
    for move in moves:
        if move.kind != "ability":
            continue
        source = move.cards[0]
        key = (SUIT[source], move.target)
        value = known.get(key)
        if value is None:
            value = known[key] = _ability_odds(turn, move, base)
        gain = value - base - (JACK_MARGIN if RANK[source] == 11 else SUPPORTER_COST)
        if gain > best_gain:
            best, best_gain = move, gain
    if best is not None:
        return best
    return DEBATE if DEBATE in moves else moves[0]


def _ability_odds(turn: Turn, move: Action, base: float) -> float:
    """The odds after an ability: exact for hearts and spades, sampled for the draws of clubs
    and diamonds while the hand is small, else a rule of thumb."""
    hand, trump, need, pool = turn.hand, turn.trump, turn.need, turn.pool
    suit = SUIT[move.cards[0]]
    if suit == HEARTS:
        return turn.table.plain([c for c in hand if SUIT[c] != trump], need)
    if suit == SPADES:
        other = SUIT[turn.state.rulers[move.target - 1]]
        if other == trump or base >= SPADES_BELOW:
            return base
        return odds(hand, other, pool, need, turn.hearts).chance(hand, need)
    if suit == DIAMONDS:
        if len(hand) + 2 <= SAMPLED_HAND and len(pool) > 2:
            return _after_draw(turn, 2, keep=len(hand))
        return base
    assert suit == CLUBS
    clubs = sum(1 for c in hand if SUIT[c] == CLUBS)
    if len(hand) + clubs <= SAMPLED_HAND and len(pool) > clubs:
        return _after_draw(turn, clubs, keep=len(hand) + clubs)
    state = turn.state
    if base < CLUBS_BELOW and state.wins + len(hand) <= state.target + 1:
        return base + (1.0 - base) * CLUBS_GAIN
    return base


def _after_draw(turn: Turn, draw: int, keep: int) -> float:
    """The mean odds over sampled draws of ``draw`` cards from the pool, keeping the best
    ``keep`` cards of the hand that results (the samples' tables built in one batch)."""
    need = turn.need
    if need > keep:
        return 0.0
    draws = [turn.rng.sample(turn.pool, draw) for _ in range(SAMPLES)]
    hands = [tuple(sorted(turn.hand + drawn)) for drawn in draws]
    pools = [tuple(c for c in turn.pool if c not in drawn) for drawn in draws]
    tables = solve_many(hands, turn.trump, pools, need, turn.hearts)[0]
    total = 0.0
    chances = best_kept(tables, keep, need)
    assert isinstance(chances, list)  # one chance per sample: tables is a batch
    for chance in chances:
        total += chance  # in the samples' order, as the sum always ran
    return total / SAMPLES
