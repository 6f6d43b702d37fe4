"""Paying for goods: which handfuls of money cards may pay for one good.

A buying player pays each good with money cards from hand; what is paid beyond the costs so far
is credit, which may pay for further goods or be taken as change from the money market. A
purchase names only the cards the good needs: take any one card away and the credit plus the
rest would fall short of the cost. Paying more than that (to take bigger change, say three 1s
for a Bread and a 2 back) is a separate move that pays one card into the credit (see perform).
"""

from __future__ import annotations

from functools import cache

from .cards import MONEY_CARDS, VALUES, Card


@cache
def payments(money: tuple[int, ...], credit: int, cost: int) -> tuple[tuple[Card, ...], ...]:
    """Every way to pay ``cost`` from a hand of money (counts by value, ascending) with
    ``credit`` already paid: multisets of cards, highest value first. With enough credit the
    only way is to pay nothing."""
    if credit >= cost:
        return ((),)
    found: list[tuple[Card, ...]] = []
    need = cost - credit
    values = [VALUES[m] for m in MONEY_CARDS]

    def extend(i: int, chosen: list[Card], total: int) -> None:
        if total >= need:
            # Minimal: dropping the smallest card chosen must fall short.
            if total - VALUES[chosen[-1]] < need:
                found.append(tuple(chosen))
            return
        for j in range(i, -1, -1):
            taken = chosen.count(MONEY_CARDS[j])
            if taken < money[j]:
                chosen.append(MONEY_CARDS[j])
                extend(j, chosen, total + values[j])
                chosen.pop()

    extend(len(MONEY_CARDS) - 1, [], 0)
    return tuple(found)
