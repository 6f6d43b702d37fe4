"""The role draft: who holds which hand of role cards, and what each seat knows of it.

A round's draft is recorded by the cards dealt and the choices made, in order; everything else
(the hand being passed, each seat's roles, the cards left over) follows from those.

Standard game (3-6 players): the starting player is dealt players+2 cards; each player in turn
from the starting player keeps one (``choices[k]`` is the k-th player's role) and passes the
rest on; the two left over go back face down.

Two players: the starting player S is dealt 4 and keeps one (``choices[0]``); the other player O
keeps one of the 3 (``choices[1]``), discards one face down (``choices[2]``) and hands the last
back; S adds 3 more (``deal2``), keeps one (``choices[3]``) and passes 3; O keeps one
(``choices[4]``) and discards the other two.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from spyglass.engine import Rng

from .cards import Card

PICK, DISCARD = "pick", "discard"
TWO_PLAYER_STEPS = 5
FIRST_DEAL_2P = 4
SECOND_DEAL_2P = 3


def dealt_size(players: int) -> int:
    """How many role cards the starting player deals at the start of the draft."""
    return FIRST_DEAL_2P if players == 2 else players + 2


def steps(players: int) -> int:
    """How many decisions the draft takes."""
    return TWO_PLAYER_STEPS if players == 2 else players


def without(cards: Sequence[Card], removed: Sequence[Card]) -> list[Card]:
    """``cards`` less one copy of each of ``removed`` (role cards are unique)."""
    gone = set(removed)
    return [c for c in cards if c not in gone]


class Draft(NamedTuple):
    """One round's draft: the deal(s) and the choices so far. (A NamedTuple: a new one is
    made at every choice, and tuples are the cheapest immutable records to make.)"""

    players: int
    start: int
    deal: tuple[Card, ...]
    deal2: tuple[Card, ...] = ()
    choices: tuple[Card, ...] = ()

    @property
    def complete(self) -> bool:
        return len(self.choices) == steps(self.players)

    @property
    def needs_second_deal(self) -> bool:
        return self.players == 2 and len(self.choices) == 3 and not self.deal2

    def drafter(self) -> int | None:
        """The seat choosing now (None once the draft is complete)."""
        m = len(self.choices)
        if self.complete:
            return None
        if self.players == 2:
            return self.start if m in (0, 3) else 1 - self.start
        return (self.start + m) % self.players

    def decision(self) -> str:
        return DISCARD if self.players == 2 and len(self.choices) == 2 else PICK

    def hand_at(self, m: int) -> list[Card]:
        """The hand being chosen from at step ``m`` (sorted)."""
        c = self.choices
        if self.players != 2:
            return sorted(without(self.deal, c[:m]))
        if m <= 2:
            return sorted(without(self.deal, c[:m]))
        second = [self.handed_back(), *self.deal2]
        return sorted(without(second, c[3:m]))

    def hand(self) -> list[Card]:
        return self.hand_at(len(self.choices))

    def handed_back(self) -> Card:
        """Two players: the card O handed back to S (after O's discard)."""
        return without(self.deal, self.choices[:3])[0]

    def picks(self) -> list[list[Card]]:
        """Each seat's roles, in the order picked."""
        held: list[list[Card]] = [[] for _ in range(self.players)]
        for m, card in enumerate(self.choices):
            if self.players == 2:
                if m == 2:
                    continue
                held[self.start if m in (0, 3) else 1 - self.start].append(card)
            else:
                held[(self.start + m) % self.players].append(card)
        return held

    def leftover(self) -> list[Card]:
        """The role cards offered but not picked (face down), once the draft is complete."""
        if not self.complete:
            return []
        if self.players == 2:
            return sorted([self.choices[2], *without(self.hand_at(4), self.choices[4:])])
        return sorted(without(self.deal, self.choices))

    def seen(self, seat: int) -> list[tuple[list[Card], Card | None, str]]:
        """The hands ``seat`` has held this round: (hand, its choice or None, the verb)."""
        m = len(self.choices)
        seen = []
        for step in range(m + 1):
            if step >= steps(self.players):
                break
            who = self._drafter_at(step)
            if who != seat:
                continue
            choice = self.choices[step] if step < m else None
            verb = DISCARD if self.players == 2 and step == 2 else PICK
            seen.append((self.hand_at(step), choice, verb))
        return seen

    def _drafter_at(self, m: int) -> int:
        if self.players == 2:
            return self.start if m in (0, 3) else 1 - self.start
        return (self.start + m) % self.players

    def cards(self) -> list[Card]:
        return [*self.deal, *self.deal2]


def resample(
    draft: Draft,
    undealt: Sequence[Card],
    *,
    called: Collection[Card],
    acted: Card | None,
    observer: int | None,
    rng: Rng,
) -> tuple[Draft, list[Card]]:
    """A draft (and undealt stack, top last) consistent with what ``observer`` knows.

    Public knowledge: the roles already called (a called role that is held has been revealed
    with its holder, so an unrevealed role is one not yet called) and the left-over role the
    Actor performed. A seat also knows the hands it held and what it chose from them.
    """
    # The card the Actor performed is known to be a left-over card: never a pick.
    barred = frozenset(called) | ({acted} if acted is not None else set())
    resample_for = _resample_two if draft.players == 2 else _resample_standard
    return resample_for(
        draft,
        undealt,
        called=frozenset(called),
        barred=barred,
        acted=acted,
        observer=observer,
        rng=rng,
    )


def _shuffled(cards: Collection[Card], rng: Rng) -> list[Card]:
    order = sorted(cards)
    rng.shuffle(order)
    return order


def _fill(
    pool: Collection[Card], restricted: int, called: frozenset[Card], rng: Rng
) -> tuple[list[Card], list[Card]]:
    """``restricted`` cards not yet called (for unrevealed roles), then the rest, shuffled."""
    if not restricted:
        return [], _shuffled(pool, rng)
    eligible = _shuffled([c for c in pool if c not in called], rng)
    chosen = eligible[:restricted]
    rest = _shuffled(without(sorted(pool), chosen), rng)
    return chosen, rest


def _resample_standard(
    draft: Draft,
    undealt: Sequence[Card],
    *,
    called: frozenset[Card],
    barred: frozenset[Card],
    acted: Card | None,
    observer: int | None,
    rng: Rng,
) -> tuple[Draft, list[Card]]:
    n, m = draft.players, len(draft.choices)
    everything = sorted([*draft.deal, *undealt])
    # A pick whose role has been called is public, with its seat (one role per seat).
    fixed = {i: c for i, c in enumerate(draft.choices) if c in called}
    picks: list[Card | None] = [fixed.get(i) for i in range(m)]
    k = None if observer is None else (observer - draft.start) % n
    remaining = n + 2 - m  # the hand being passed, or the two left over
    if k is not None and m >= k:
        seen = draft.hand_at(k)
        outside = without(everything, seen)
        blanks = [i for i in range(k) if picks[i] is None]
        chosen, stack = _fill(without(outside, list(fixed.values())), len(blanks), barred, rng)
        for i, card in zip(blanks, chosen, strict=True):
            picks[i] = card
        if m == k:
            rest = seen
        else:
            picks[k] = draft.choices[k]
            inside = without(seen, [draft.choices[k], *fixed.values()])
            blanks = [i for i in range(k + 1, m) if picks[i] is None]
            chosen, rest = _fill(inside, len(blanks), barred, rng)
            for i, card in zip(blanks, chosen, strict=True):
                picks[i] = card
    else:
        blanks = [i for i in range(m) if picks[i] is None]
        pool = without(everything, list(fixed.values()))
        if acted is not None:
            pool = without(pool, [acted])
        chosen, free = _fill(pool, len(blanks), barred, rng)
        for i, card in zip(blanks, chosen, strict=True):
            picks[i] = card
        if acted is not None:
            free = [acted, *free]  # the Actor's choice is one of the two left over
        rest, stack = free[:remaining], free[remaining:]
    choices = tuple(c for c in picks if c is not None)
    deal = tuple(sorted([*choices, *rest]))
    return Draft(n, draft.start, deal, (), choices), _shuffled(stack, rng)


def _resample_two(
    draft: Draft,
    undealt: Sequence[Card],
    *,
    called: frozenset[Card],
    barred: frozenset[Card],
    acted: Card | None,
    observer: int | None,
    rng: Rng,
) -> tuple[Draft, list[Card]]:
    m = len(draft.choices)
    s, o = draft.start, 1 - draft.start
    everything = sorted([*draft.deal, *draft.deal2, *undealt])
    held = draft.picks()
    revealed = {seat: [c for c in held[seat] if c in called] for seat in (s, o)}
    if observer == s:
        return _two_from_start(draft, everything, barred, revealed[o], rng)
    if observer == o and m >= 1:
        return _two_from_other(draft, everything, barred, revealed[s], rng)
    return _two_from_nobody(
        draft, everything, called=barred, revealed=revealed, acted=acted, rng=rng
    )


def _two_from_start(
    draft: Draft,
    everything: list[Card],
    called: frozenset[Card],
    revealed_other: list[Card],
    rng: Rng,
) -> tuple[Draft, list[Card]]:
    """S knows its deals, its choices and what came back; O's choices are unknown."""
    c = list(draft.choices)
    m = len(c)

    def choose(pool: list[Card]) -> Card:
        shown = [r for r in revealed_other if r in pool]
        if shown:
            return shown[0]
        return _shuffled([x for x in pool if x not in called], rng)[0]

    if m == 2:
        c[1] = choose(without(draft.deal, c[:1]))
    elif m >= 3:
        pair = without(draft.deal, [c[0], draft.handed_back()])
        c[1] = choose(pair)
        c[2] = without(pair, [c[1]])[0]
        if m == 5:
            c[4] = choose(draft.hand_at(4))
    stack = without(everything, [*draft.deal, *draft.deal2])
    return Draft(2, draft.start, draft.deal, draft.deal2, tuple(c)), _shuffled(stack, rng)


def _two_from_other(
    draft: Draft,
    everything: list[Card],
    called: frozenset[Card],
    revealed_start: list[Card],
    rng: Rng,
) -> tuple[Draft, list[Card]]:
    """O knows the hands it was passed and its own choices; S's choices are unknown."""
    c = list(draft.choices)
    m = len(c)
    passed = draft.hand_at(1)  # X: the three O was passed
    second = draft.hand_at(4) if m >= 4 else []  # Y: the three passed the second time
    unseen = without(everything, [*passed, *second])
    if m < 4:
        a = _pick_unseen(unseen, revealed_start, called, rng)
        deal = tuple(sorted([a, *passed]))
        deal2: tuple[Card, ...] = ()
        rest = without(unseen, [a])
        if m == 3:
            order = _shuffled(rest, rng)
            deal2, rest = tuple(sorted(order[:3])), order[3:]
        c[0] = a
        return Draft(2, draft.start, deal, deal2, tuple(c)), _shuffled(rest, rng)
    back = draft.handed_back()
    if back not in second:
        # The card handed back did not come round again: S kept it.
        e = back
        a = _pick_unseen(unseen, [r for r in revealed_start if r != back], called, rng)
    else:
        shown = _shuffled(revealed_start, rng)
        eligible = _shuffled([x for x in unseen if x not in called and x not in shown], rng)
        pair = (shown + eligible)[:2]
        if len(shown) == 1:
            pair = pair if rng.below(2) else pair[::-1]
        a, e = pair
    c[0], c[3] = a, e
    deal = tuple(sorted([a, *passed]))
    deal2 = tuple(sorted(without([*second, e], [back])))
    stack = without(unseen, [a, e])
    return Draft(2, draft.start, deal, deal2, tuple(c)), _shuffled(stack, rng)


def _pick_unseen(
    unseen: list[Card], revealed: list[Card], called: frozenset[Card], rng: Rng
) -> Card:
    if revealed:
        return revealed[0]
    return _shuffled([x for x in unseen if x not in called], rng)[0]


def _two_from_nobody(
    draft: Draft,
    everything: list[Card],
    *,
    called: frozenset[Card],
    revealed: dict[int, list[Card]],
    acted: Card | None,
    rng: Rng,
) -> tuple[Draft, list[Card]]:
    """Only public knowledge: the revealed roles of each seat and the Actor's choice."""
    m = len(draft.choices)
    s, o = draft.start, 1 - draft.start
    slots = {s: [i for i in (0, 3) if i < m], o: [i for i in (1, 4) if i < m]}
    shown = [r for seat in (s, o) for r in revealed[seat]]
    blanks = sum(len(slots[seat]) - len(revealed[seat]) for seat in (s, o))
    pool = without(everything, [*shown, *([acted] if acted is not None else [])])
    chosen, free = _fill(pool, blanks, called, rng)
    c: list[Card | None] = [None] * m
    for seat in (s, o):
        unknown = len(slots[seat]) - len(revealed[seat])
        cards = _shuffled(revealed[seat], rng) + [chosen.pop() for _ in range(unknown)]
        order = list(slots[seat])
        if len(revealed[seat]) == 1 and len(order) == 2 and rng.below(2):
            order.reverse()
        for i, card in zip(order, cards, strict=True):
            c[i] = card
    if acted is not None:
        free.insert(rng.below(min(len(free), 2) + 1), acted)  # among the three left over
    if m <= 2:
        hand = [free.pop() for _ in range(4 - m)]
        full = _filled(c)
        deal = tuple(sorted([*full, *hand]))
        return Draft(2, draft.start, deal, (), tuple(full)), _shuffled(free, rng)
    c[2] = free.pop(0)
    full = _filled(c)
    if m == 3:
        back = free.pop(0)
        deal2 = tuple(sorted(free[:3]))
        stack = free[3:]
    else:
        rest = 2 if m == 5 else 3
        second = [free.pop(0) for _ in range(rest)]
        if m == 5:
            second.append(full[4])
        circle = sorted([full[3], *second])
        back = circle[rng.below(len(circle))]
        deal2 = tuple(sorted(without(circle, [back])))
        stack = free
    deal = tuple(sorted([full[0], full[1], full[2], back]))
    return Draft(2, draft.start, deal, deal2, tuple(full)), _shuffled(stack, rng)


def _filled(choices: list[Card | None]) -> list[Card]:
    """The choices once every one is known (each seat's slots and the middle one, filled)."""
    full = [card for card in choices if card is not None]
    assert len(full) == len(choices)
    return full
