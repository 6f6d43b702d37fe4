"""End scoring: sets of one kind (charts capped at 8), collections of all five kinds, money at
half its total value rounded up; ties broken by Gems, then Wine, Cloth, Fish, Bread."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import GOODS_CARDS, MONEY_CARDS, TIE_BREAK, VALUES
from .edition import CHART_LENGTH, EDITION

CHARTS = tuple(g.points for g in EDITION.goods)


def set_points(kind: int, count: int) -> int:
    """Points for holding ``count`` cards of one kind (more than 8 score as 8)."""
    if count <= 0:
        return 0
    return CHARTS[kind][min(count, CHART_LENGTH) - 1]


def collections(hand: Sequence[int]) -> int:
    """Complete collections of every kind (a card may count in a set and a collection)."""
    return min(hand[g] for g in GOODS_CARDS)


def money_total(hand: Sequence[int]) -> int:
    return sum(hand[m] * VALUES[m] for m in MONEY_CARDS)


def money_points(hand: Sequence[int]) -> int:
    return (money_total(hand) + 1) // 2


def total(hand: Sequence[int]) -> int:
    sets = sum(set_points(g, hand[g]) for g in GOODS_CARDS)
    return sets + EDITION.collection_points * collections(hand) + money_points(hand)


def breakdown(hand: Sequence[int]) -> dict[str, Any]:
    """The score of one hand, category by category (what a person wants to see)."""
    sets = ", ".join(f"{g} ×{hand[g]}: {set_points(g, hand[g])}" for g in GOODS_CARDS if hand[g])
    complete = collections(hand)
    money = money_total(hand)
    return {
        "total": total(hand),
        "sets": sets or "none",
        "set_points": sum(set_points(g, hand[g]) for g in GOODS_CARDS),
        "collections": complete,
        "collection_points": EDITION.collection_points * complete,
        "money": money,
        "money_cards": sum(hand[m] for m in MONEY_CARDS),
        "money_points": (money + 1) // 2,
        "tie_break": " ".join(f"{hand[g]} {g}" for g in TIE_BREAK),
    }


def rank_key(hand: Sequence[int]) -> tuple[int, ...]:
    """Higher is better: points, then the tie-breaks in order."""
    return (total(hand), *(hand[g] for g in TIE_BREAK))


def winners(hands: Sequence[Sequence[int]]) -> tuple[int, ...]:
    keys = [rank_key(h) for h in hands]
    best = max(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)
