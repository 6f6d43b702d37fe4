"""A heuristic for Area 52: one move of lookahead, the visible attackers, then coverage.

Each legal move is played on a light copy of the squad (values and colours only; the refill
draws are left out, so nothing face down is read). The attackers still face up this turn are
then met greedily, each by its cheapest answer. The squad that results is judged by its
**coverage**: the share of the aliens still in the alien deck (its contents are known to the
player, its order is not) that it could beat without losing anyone.

A defender lost costs the most; a sacrifice costs three times as much as a defender lost to
colour, because the alien comes back and, in the first wave, the discarded defender swells the
second. (Weights tuned over 300-1,000 seeded games; a two-move search over the visible
attackers and a second-wave term in the first wave did not win measurably more.)
"""

from __future__ import annotations

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng

from .rules import DUAL, RED, SACRIFICE, SINGLE, VALUE, Area52State

LOSS = 10.0  # per defender that leaves the squad for good
SACRIFICE_COST = 20.0  # on top of the loss: the alien comes back later
COVERAGE = 48.0  # times the share of the alien deck the squad can beat for free
SINGLE_COST = 0.5  # a single attack in the lookahead: free, but the squad gets weaker
HIGH_CARD = 0.5  # per point of value kept on the table, to break ties toward strong squads
LOST = -1000.0  # a squad wiped out with nothing left to draw

Squad = list[tuple[int, bool]]  # (value, is red) of each defender


def choose(state: Area52State, rng: Rng) -> Action:
    moves = state.legal_actions()
    deck = deck_profile(state.alien_deck)
    squad = [(VALUE[c], RED[c]) for c in state.defenders]
    best, best_value = moves[0], float("-inf")
    for move in moves:
        value = _move_value(state, move, squad, deck) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = move, value
    return best


def deck_profile(cards: list[Card]) -> list[int]:
    """Counts of the aliens still to come, indexed by value * 2 + is_red."""
    counts = [0] * 28
    for card in cards:
        counts[VALUE[card] * 2 + RED[card]] += 1
    return counts


def _move_value(state: Area52State, move: Action, squad: Squad, deck: list[int]) -> float:
    defenders = state.defenders
    attacker = state.attackers[0]
    alien = (VALUE[attacker], RED[attacker])
    wave2 = state.wave == 2
    after = list(squad)
    cost = 0.0
    if move.kind == DUAL:
        if wave2:
            lost = [card for card in move.cards if RED[card] == alien[1]]
            after = [d for d, card in zip(squad, defenders, strict=True) if card not in lost]
            cost += LOSS * len(lost)
    elif move.kind == SINGLE:
        after[defenders.index(move.cards[0])] = alien
    else:
        after.pop(defenders.index(move.cards[0]))
        cost += LOSS + SACRIFICE_COST
    for upcoming in state.attackers[1:]:
        extra, after = cheapest(after, (VALUE[upcoming], RED[upcoming]), wave2)
        cost += extra
    if not after and not state.defender_deck:
        if move.kind != SACRIFICE and len(state.attackers) == 1 and not state.alien_deck:
            return -cost  # the last alien of the second wave falls: a win, whatever it costs
        return LOST - cost
    return -cost + COVERAGE * coverage(after, deck, wave2) + HIGH_CARD * sum(v for v, _ in after)


def cheapest(squad: Squad, alien: tuple[int, bool], wave2: bool) -> tuple[float, Squad]:
    """The cheapest answer to ``alien`` (greedy) and the squad it leaves."""
    value, red = alien
    best_loss = 3
    best_pair: tuple[int, int] | None = None
    n = len(squad)
    for i in range(n - 1):
        rest = value - squad[i][0]
        if rest <= 0:
            continue
        for j in range(i + 1, n):
            if squad[j][0] == rest:
                loss = (squad[i][1] == red) + (squad[j][1] == red) if wave2 else 0
                if loss < best_loss:
                    best_loss, best_pair = loss, (i, j)
    if best_pair is not None and best_loss == 0:
        return 0.0, squad
    single = -1
    for k, (v, r) in enumerate(squad):
        if v > value and r != red and (single < 0 or v < squad[single][0]):
            single = k
    if single >= 0:
        after = list(squad)
        after[single] = alien
        return SINGLE_COST, after
    if best_pair is not None:
        i, j = best_pair
        after = [d for k, d in enumerate(squad) if not (k in (i, j) and d[1] == red)]
        return LOSS * best_loss, after
    if not squad:
        return 0.0, squad
    weakest = min(range(n), key=lambda k: squad[k][0])
    return LOSS + SACRIFICE_COST, squad[:weakest] + squad[weakest + 1 :]


def coverage(squad: Squad, deck: list[int], wave2: bool) -> float:
    """Share of the aliens still to come that this squad beats without losing a defender."""
    total = sum(deck)
    if total == 0:
        return 1.0
    free = 0  # bitmask over value * 2 + is_red of the aliens answered for free
    n = len(squad)
    for i in range(n - 1):
        vi, ri = squad[i]
        for j in range(i + 1, n):
            vj, rj = squad[j]
            s = vi + vj
            if s > 13:
                continue
            if not wave2:
                free |= 3 << (s * 2)
            elif ri == rj:
                free |= 1 << (s * 2 + (not ri))  # both of one colour: safe against the other
    for v, r in squad:
        # beats every alien of the other colour below v
        for below in range(1, v):
            free |= 1 << (below * 2 + (not r))
    beaten = sum(deck[k] for k in range(28) if free >> k & 1)
    return beaten / total
