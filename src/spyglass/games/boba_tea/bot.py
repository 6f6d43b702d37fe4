"""A heuristic for The First Boba Tea Shop in London: survival odds rank by rank.

The game is lost only by a fourth discard of a rank, so the bot values a position by the chance
that no rank gets there. Each rank is judged alone: with ``slack`` discards still allowed
(three minus those made), ``d`` copies in the deck and ``q`` copies in the queues, it survives
when at most ``slack`` of those copies are discarded later. A card still in the deck is
discarded with chance ``DECK_DISCARD`` (rude customers, kicked tops), a card in a queue with
the much smaller ``QUEUE_DISCARD`` (only a stay discards it). The value of a position is the
product of the ranks' survival chances (a binomial table, computed once).

A rude customer is answered by comparing that value after a stay (the queue's cards
discarded) with its expectation after a kick (the customer and a random top card discarded,
then another draw for the same position, which may be rude again: ``AFTER_RUDE``). A target is
chosen by the expectation over the ranks the deck can deliver: placed if it fits, else the
better answer. Only the deck's contents are used (the player may look through it), never its
order. The three constants were tuned on 800 to 1,500 games per setting; nearby values play
about as well.
"""

from __future__ import annotations

from math import comb

from spyglass.engine import Action, Rng

from .rules import FOURTH, QUEUES, RANK, BobaTeaState, window

DECK_DISCARD = 0.45  # chance that a card still in the deck ends in the discard pile
QUEUE_DISCARD = 0.05  # chance that a card now in a queue ends there (its queue leaves)
AFTER_RUDE = 0.8  # value kept, relatively, when the next draw for a kick is rude again
RANKS = range(1, 14)
COPIES = 4


def _binomial(n: int, p: float) -> list[float]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _survival_table() -> tuple[tuple[tuple[float, ...], ...], ...]:
    """[slack + 1][copies in deck][copies in queues]: chance that at most slack are discarded."""
    table = []
    for slack in range(-1, FOURTH):
        rows = []
        for in_deck in range(COPIES + 1):
            deck = _binomial(in_deck, DECK_DISCARD)
            row = []
            for in_queues in range(COPIES + 1):
                queues = _binomial(in_queues, QUEUE_DISCARD)
                row.append(
                    sum(
                        deck[i] * queues[j]
                        for i in range(in_deck + 1)
                        for j in range(in_queues + 1)
                        if i + j <= slack
                    )
                )
            rows.append(tuple(row))
        table.append(tuple(rows))
    return tuple(table)


SURVIVAL = _survival_table()


def survival(slack: int, in_deck: int, in_queues: int) -> float:
    return SURVIVAL[slack + 1][in_deck][in_queues] if slack >= 0 else 0.0


class _Odds:
    """The survival factors of one position, and how moves change them."""

    def __init__(self, state: BobaTeaState) -> None:
        self.queues = state.queues
        self.deck = [0] * 14
        for card in state.deck:
            self.deck[RANK[card]] += 1
        self.size = len(state.deck)
        self.queued = [0] * 14
        for queue in state.queues:
            for card in queue:
                self.queued[RANK[card]] += 1
        self.slack = [FOURTH - 1 - d for d in state.discarded]
        self.base = [survival(self.slack[r], self.deck[r], self.queued[r]) for r in range(14)]

    def ratio(self, rank: int, discards: int, deck_change: int, queue_change: int) -> float:
        """How rank's survival changes with more discards and copies moved."""
        before = self.base[rank]
        if not before:
            return 0.0
        after = survival(
            self.slack[rank] - discards,
            self.deck[rank] + deck_change,
            self.queued[rank] + queue_change,
        )
        return after / before

    def fit_share(self, low: int, high: int) -> float:
        if not self.size:
            return 1.0
        return sum(self.deck[low : high + 1]) / self.size

    def stay(self, index: int, held: int) -> float:
        """The queue's cards discarded, the held customer (out of the deck) in the queue."""
        leaving = [0] * 14
        for card in self.queues[index]:
            leaving[RANK[card]] += 1
        value = 1.0
        for rank in RANKS:
            gone = leaving[rank]
            if gone or rank == held:
                value *= self.ratio(rank, gone, 0, (rank == held) - gone)
                if not value:
                    return 0.0
        return value

    def kick(self, held: int, fit: float) -> float:
        """The held customer and a random top card discarded, then a new draw."""
        alone = self.ratio(held, 1, 0, 0)
        if not alone or not self.size:
            return alone
        total = 0.0
        deck = self.deck
        for top in RANKS:
            count = deck[top]
            if not count:
                continue
            if top == held:
                total += count * self.ratio(held, 2, -1, 0)
            else:
                total += count * alone * self.ratio(top, 1, -1, 0)
        return total / self.size * (fit + (1 - fit) * AFTER_RUDE)


def choose(state: BobaTeaState, rng: Rng) -> Action:
    moves = state.legal_actions()
    odds = _Odds(state)
    if state.held is not None:
        assert state.target is not None  # a rude customer came for a target
        index, position = state.target
        held = RANK[state.held]
        fit = odds.fit_share(*window(state.queues[index], position))
        stay, kick = moves
        return stay if odds.stay(index, held) >= odds.kick(held, fit) else kick
    return _target(odds, moves, rng)


def value(state: BobaTeaState) -> float:
    """The bot's value of a position: its estimated chance of surviving, the product of the
    ranks' survival chances after the best answer to a rude customer, or after the best
    target's expectation over the next card (1 once won, 0 once lost). Searches that look
    further ahead than the bot (``agents.expectimax``) score their leaves with it."""
    if state.is_over:
        result = state.result
        return 1.0 if result is not None and result.won else 0.0
    odds = _Odds(state)
    now = 1.0
    for rank in RANKS:
        now *= odds.base[rank]
    if state.held is not None:
        assert state.target is not None  # a rude customer came for a target
        index, position = state.target
        held = RANK[state.held]
        fit = odds.fit_share(*window(state.queues[index], position))
        return now * max(odds.stay(index, held), odds.kick(held, fit))
    return now * max(_target_values(odds, state.legal_actions())) / max(odds.size, 1)


def _target(odds: _Odds, moves: list[Action], rng: Rng) -> Action:
    best, best_value = moves[0], -1.0
    for move, worth in zip(moves, _target_values(odds, moves), strict=True):
        value = worth + rng.random() * 1e-12
        if value > best_value:
            best, best_value = move, value
    return best


def _target_values(odds: _Odds, moves: list[Action]) -> list[float]:
    """Each target's value relative to now, times the cards in the deck: the sum over the
    deck's cards of the value of that card drawn for it (placed, kicked or stayed for)."""
    deck = odds.deck
    placed = [0.0] * 14
    kicked = [0.0] * 14
    stayed = [[0.0] * 14 for _ in range(QUEUES)]
    for rank in RANKS:
        if not deck[rank]:
            continue
        drawn = odds.ratio(rank, 0, -1, 0)
        if not drawn:
            continue
        # Seen from the moment the card is drawn: it has left the deck.
        deck[rank] -= 1
        odds.size -= 1
        saved = odds.base[rank]
        odds.base[rank] = saved * drawn
        placed[rank] = drawn * odds.ratio(rank, 0, 0, 1)
        kicked[rank] = drawn * odds.kick(rank, 1.0)
        for index in range(QUEUES):
            stayed[index][rank] = drawn * odds.stay(index, rank)
        odds.base[rank] = saved
        deck[rank] += 1
        odds.size += 1
    values = []
    for move in moves:
        number, position = move.target
        low, high = window(odds.queues[number - 1], position)
        fit = odds.fit_share(low, high)
        again = fit + (1 - fit) * AFTER_RUDE
        stays = stayed[number - 1]
        value = 0.0
        for rank in RANKS:
            count = deck[rank]
            if not count:
                continue
            if low <= rank <= high:
                value += count * placed[rank]
            else:
                kick = kicked[rank] * again
                value += count * (stays[rank] if stays[rank] > kick else kick)
        values.append(value)
    return values
