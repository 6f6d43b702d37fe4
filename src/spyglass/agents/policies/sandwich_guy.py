"""A tuned policy for The Sandwich Guy: each sandwich scored by the hand it leaves.

The game is lost when a hand holds no sandwich before the deck runs out, and a hand shrinks
by one card with every sandwich of mixed colours (it discards three, draws two). So a sandwich
is judged by what it keeps alive: the chance that the next hand still holds a sandwich (the
game's bot looks at this alone, besides the cards drawn), how many cards it draws, and how well
the cards kept can make the one-suit and one-colour sandwiches that draw three or four cards
next time. Each is a number read off the cards kept and the deck's contents (known to the
player; only the deck's order is hidden), and a move's score is their weighted sum.

The weights were searched on self-play (Optuna's TPE over thousands of deals apart from the
strength run's; ``spyglass tune sandwich-guy --agent tuned -p agent.draws=0:4 ...`` repeats
such a search with this very code). A sandwich that draws the deck's last card wins at once
and is always played; once the deck is done the game's bot finishes (an exact search for the
fewest cards left).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng
from spyglass.games.sandwich_guy.bot import choose as bot_choose
from spyglass.games.sandwich_guy.rules import (
    COMPLETES,
    DRAWS,
    HAND_LIMIT,
    SandwichGuyState,
    quality,
)

from .weights import chosen as with_weights

#: Raised whenever the weights or the features change (results kept by the strength run name it).
VERSION = 1

#: The weight of each feature of a move (see :func:`features`), as tuned.
WEIGHTS: dict[str, float] = {
    "survival": 2.58,
    "draws": 2.41,
    "sandwiches": -1.48,
    "best_draw": 0.97,
    "outs": -0.21,
    "suit_outs": 3.85,
    "colour_outs": 0.71,
    "suit_pairs": 0.45,
    "colour_pairs": -0.21,
}

_RANK = tuple(Card(code).rank for code in range(52))
_SUIT = tuple("SHCD".index(Card(code).suit) for code in range(52))  # type: ignore[arg-type]
#: The two suits of each colour, by suit index (spades and clubs, hearts and diamonds).
_COLOUR = ((0, 2), (1, 3), (0, 2), (1, 3))
_SUIT_CARDS = tuple(tuple(code for code in range(52) if _SUIT[code] == suit) for suit in range(4))


@lru_cache(maxsize=1 << 16)
def kept(mask: int) -> tuple[bool, int, int, int, tuple, tuple, int, int]:
    """What the cards kept (a bitmask of card codes) offer, whatever the deck holds:
    whether they hold a sandwich, the ranks that would complete one of their pairs (a bitmask
    of ranks), how many sandwiches they hold, the most cards one of them would draw, their
    pairs that a card of one suit would turn into a one-suit sandwich ((ranks, suit)), those
    that a card of one colour would turn into a one-colour sandwich ((ranks, suit) for each
    suit of that colour), and their pairs of one suit and of one colour."""
    cards = [c for c in range(52) if mask >> c & 1]
    n = len(cards)
    wanted = sandwiches = best = suit_pairs = colour_pairs = 0
    by_suit: list[tuple[int, int]] = []
    by_colour: list[tuple[int, int]] = []
    for i in range(n - 1):
        a = cards[i]
        for j in range(i + 1, n):
            b = cards[j]
            completes = COMPLETES[_RANK[a] * 14 + _RANK[b]]
            same_suit = _SUIT[a] == _SUIT[b]
            same_colour = _COLOUR[_SUIT[a]] == _COLOUR[_SUIT[b]]
            suit_pairs += same_suit
            colour_pairs += same_colour
            if not completes:
                continue
            wanted |= completes
            if same_suit:
                by_suit.append((completes, _SUIT[a]))
            if same_colour:
                # a card of the pair's colour but another suit makes a one-colour sandwich
                by_colour += [
                    (completes, s) for s in _COLOUR[_SUIT[a]] if not same_suit or s != _SUIT[a]
                ]
            for k in range(j + 1, n):
                c = cards[k]
                if completes >> _RANK[c] & 1:
                    sandwiches += 1
                    best = max(best, DRAWS[quality((Card(a), Card(b), Card(c)))])
    return (
        sandwiches > 0,
        wanted,
        sandwiches,
        best,
        tuple(by_suit),
        tuple(by_colour),
        suit_pairs,
        colour_pairs,
    )


def features(
    kept_mask: int, draws: int, deck_ranks: list[int], deck_suits: list[int], size: int
) -> tuple[float, ...]:
    """A move's features, in :data:`WEIGHTS`' order: ``kept_mask`` the cards it keeps,
    ``draws`` the cards it draws, ``deck_ranks[r]`` the deck's cards of rank r,
    ``deck_suits[s]`` the ranks of suit s in the deck (a bitmask), ``size`` the deck's size."""
    has, wanted, sandwiches, best, by_suit, by_colour, suit_pairs, colour_pairs = kept(kept_mask)
    outs = 0
    rank = 1
    bits = wanted >> 1
    while bits:
        if bits & 1:
            outs += deck_ranks[rank]
        bits >>= 1
        rank += 1
    if has:
        survival = 1.0
    elif draws <= 0:
        survival = 0.0
    else:  # hypergeometric: the draw brings at least one card completing a pair
        survival = 1.0 - math.comb(size - outs, draws) / math.comb(size, draws)
    suit_outs = _outs(by_suit, deck_suits)
    colour_outs = _outs(by_colour, deck_suits)
    return (
        survival,
        float(draws),
        math.log1p(sandwiches),
        float(best),
        outs / size,
        suit_outs / size,
        colour_outs / size,
        float(suit_pairs),
        float(colour_pairs),
    )


def deck_tables(deck: Iterable[int]) -> tuple[list[int], list[int]]:
    """What ``features`` reads of the deck: its count of each rank, and per suit a bitmask of
    the ranks it holds."""
    ranks = [0] * 14
    suits = [0, 0, 0, 0]
    for card in deck:
        ranks[_RANK[card]] += 1
        suits[_SUIT[card]] |= 1 << _RANK[card]
    return ranks, suits


def _outs(pairs: tuple, deck_suits: list[int]) -> int:
    """The deck's cards that complete one of these pairs ((ranks, suit) each), counted once."""
    hit = [0, 0, 0, 0]
    for ranks, suit in pairs:
        hit[suit] |= ranks & deck_suits[suit]
    return hit[0].bit_count() + hit[1].bit_count() + hit[2].bit_count() + hit[3].bit_count()


class Policy:
    """The tuned policy with its weights (``WEIGHTS`` unless given): call it like a bot."""

    __slots__ = ("weights",)

    def __init__(self, weights: dict[str, float] | None = None) -> None:
        chosen = with_weights("sandwich-guy", WEIGHTS, weights)
        self.weights = tuple(chosen[name] for name in WEIGHTS)

    def __call__(self, state: SandwichGuyState, rng: Rng) -> Action:
        moves = state.legal_actions()
        if state.deck_done or len(moves) == 1:
            return moves[0] if len(moves) == 1 else bot_choose(state, rng)
        size = len(state.deck)
        deck_ranks, deck_suits = deck_tables(state.deck)
        hand = 0
        for card in state.hand:
            hand |= 1 << card
        room = HAND_LIMIT - (len(state.hand) - 3)
        weights = self.weights
        best, best_value = moves[0], -math.inf
        for move in moves:
            a, b, c = move.cards
            draws = min(DRAWS[quality(move.cards)], room, size)
            if draws == size:
                return move  # it draws the last card: the game is won
            values = features(
                hand & ~(1 << a | 1 << b | 1 << c), draws, deck_ranks, deck_suits, size
            )
            value = sum(w * x for w, x in zip(weights, values, strict=True))
            if value > best_value:
                best, best_value = move, value
        return best
