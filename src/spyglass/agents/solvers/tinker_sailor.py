"""Tinker, Sailor, Soldier, Spy with every card and every future shuffle known.

The search drives the game's own rules (a quiet clone of the true state per move), so every
move it tries is a real legal move, every draw and every reshuffle is the one the real game
makes (the state's own generator does it), and a line it finds replays as it is. What makes it
settle deals the generic search cannot is what it knows about the game:

**The key.** A position is what can still matter: the round and phase, how far through the
Personalities, Events and Locations piles the game is (their orders are fixed at the deal, so a
count says which cards remain), the challenger, the deck in its order, the discard pile as a
set of cards (a reshuffle sorts it before shuffling, so its order never matters), how many Aces
are left, the generator's state (it decides every later reshuffle), the second row as a set,
what is paid, and the suit chips up to symmetry (below). The trash does not matter, nor the
order in which the same cards were bought.

**Symmetry of suits.** A chip pays only where its suit is among the challenger's. Two suits
that belong to exactly the same challengers still to come (the one being fought, the cards
turned up, the Personalities, Events and Locations left) are interchangeable: swapping their
chips maps every line to a line with the same payments. So chips are keyed as the sorted
(signature, count) pairs, and of two such suits with as many chips left only one is tried.

**Bounds that prove defeats.** The cards a fight draws do not depend on the chips' suits:
placing ``j`` chips draws the next ``j`` cards of the real deck (reshuffled as the real game
does it, with the state's generator). So the game with *wild* chips, where each chip may pay 1
or not as the player wishes, has the same draws; its lines are: each turn a challenger, then a
purchase after any ``j`` chips from the first where cards and chips could pay to the first
where the cards alone pay, or (round 1) giving up after any ``j`` before that. Every real line
is a wild line spending the same chips, so a position from which no wild line wins within its
chips (less the score sought) is lost. The wild game has no suits to branch on; its positions
are keyed by (the piles left, deck, discard pile, Aces left, generator). Round 2's wild value
(the fewest chips) is computed exactly and memoised, and cuts every round-2 position. In round
1 the wild search asks whether the chips left suffice, with the largest budget proved too small
and the smallest proved enough kept per position; it runs only at the start of the last
WILD_TURNS turns and within a share of WILD_SHARE positions (earlier its tree is too large to
prove anything, and a search cut short proves nothing). Before it, a cheap bound: for each
Location, a fight placing ``j`` chips draws ``j + 1`` cards, which pay at most the ``j + 1``
best matching values among the cards that can still be in the deck (the deck, the discard
pile, the second row, every Ace left, every challenger still to come, at most one of each pair
turned up together), and its chips at most ``min(j, chips of its suits)``; the least such
``j``, summed over the Locations, is at most what round 2 will spend.

**Dominance between chip counts.** With everything else equal, more chips of every suit is
never worse (any line from fewer chips can be played move for move, and a round-1 fight that
would have ended for want of chips can be given up by hand). So a position is known lost when
a position with the same rest and at least as many chips of every suit was lost: the table of
defeats keeps, for each rest of a position, the chip counts (and the score sought) that were
proved lost, as an antichain (an entry another implies is dropped), and a position is compared
with the newest SCAN entries only (a long scan costs more than it saves; missing an entry only
searches again, it never answers wrongly).

**Round 2 without suits to branch on** (``Solver.solve``, ``outcomes``). A fight's suits
matter only through how many of its chips match: ``j`` chips ending it (bought or given up)
allow between ``low`` and ``high`` matching ones, that is the demands (its suits: low), (the
other suits: j - high), (any suit: high - low). Chips of six suits can meet all demands of a
line exactly when, for every set of suits U, the demands confined to U come to at most U's
chips (Hall's condition), so a position's chips are its 63 slacks, packed in one integer;
round 2 is searched fight by fight on them, more slack everywhere never worse (defeats are an
antichain per position). A plan found gets its suits from a transport of the chips to its
demands, each fight's other suits first, and is played out on the real rules before it counts.
Round 1 is still searched move by move on the real rules (the bot's order finds wins fastest):
``solve`` can search round 1 on slacks too (``Solver.turn``), but ordered by chips spent it
settled 193 of the strength run's 206 deals in 2 CPU-seconds, against 203 for the bot-ordered
search, so ``bound`` calls it from round 2 only.

Moves are tried in the game's bot's order first (its choice, then the rest). With
``optimise_score`` the search looks for a win keeping at least one more chip at a time
(``base.prove``), with the bound and the table cutting against the score sought.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from spyglass.components.decktet import SUIT_MASKS, SUITS, DecktetCard
from spyglass.engine import Action, Rng, RulesError, State
from spyglass.games.tinker_sailor_soldier_spy import bot as ts_bot
from spyglass.games.tinker_sailor_soldier_spy.rules import (
    CHOOSE,
    FIGHT,
    TinkerSailorSoldierSpyState,
)
from spyglass.games.tinker_sailor_soldier_spy.rules import _action as _game_action

from .base import Allowance, Bound, finished_bound, prove

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 2

INFINITE = 1_000
WILD_TURNS = 3  # round-1 turns left (after this one) when the wild search starts
WILD_SHARE = 2_000  # wild positions one real position may search for a proof
SCAN = 24  # entries of the table of defeats compared with a position
SUIT_BITS = tuple(1 << i for i in range(len(SUITS)))
VALUES = tuple(DecktetCard(i).value for i in range(45))

# Round 2's chips as a vector of slacks, one 8-bit field per set of suits U (0..63): what the
# chips of U's suits hold beyond every demand confined to U (see ``Solver.exact_two``). A
# field's top bit is a guard: a subtraction that would make a field negative clears it.
ALL_SUITS = (1 << len(SUITS)) - 1
FIELD = 8
GUARDS = sum(128 << (FIELD * u) for u in range(ALL_SUITS + 1))
#: For each set of suits S, a 1 in the field of every U that contains S.
WITHIN = tuple(
    sum(1 << (FIELD * u) for u in range(ALL_SUITS + 1) if not s & ~u) for s in range(ALL_SUITS + 1)
)


def slacks(chips: Sequence[int]) -> int:
    """The slack vector of a chip count (suit order) before any demand: U holds its chips."""
    packed = 0
    for u in range(1, ALL_SUITS + 1):
        held = sum(count for i, count in enumerate(chips) if u >> i & 1)
        packed |= held << (FIELD * u)
    return packed


def _minus(packed: int, demand: int) -> int:
    """``packed`` less ``demand`` field by field, or -1 if a field would go negative."""
    left = (packed | GUARDS) - demand
    if left & GUARDS != GUARDS:
        return -1
    return left ^ GUARDS


def _fewer_chips(small: tuple[int, ...], large: tuple[int, ...]) -> bool:
    """No more chips of any suit in ``small`` than in ``large``."""
    return all(a >= b for a, b in zip(large, small, strict=True))


def _add_defeat(
    tables: dict[tuple, list[tuple[Any, int]]],
    rest: tuple,
    chips: Any,
    target: int,
    weaker: Callable[[Any, Any], bool],
) -> None:
    """Record a defeat with ``chips`` against ``target`` under ``rest``, keeping each table an
    antichain: a defeat already there with no more chips (``weaker(old, chips)``) and a target
    no lower is implied by the new one and dropped."""
    table = tables.get(rest)
    if table is None:
        tables[rest] = [(chips, target)]
        return
    table[:] = [
        (kept, failed) for kept, failed in table if not (target <= failed and weaker(kept, chips))
    ]
    table.append((chips, target))


def _at_most(small: int, large: int) -> bool:
    """Whether every field of ``small`` is at most the same field of ``large``."""
    return ((large | GUARDS) - small) & GUARDS == GUARDS


def _assign(chips: Sequence[int], demands: Sequence[tuple[int, int]]) -> list[list[int]] | None:
    """Suits for ``demands`` ((allowed suits mask, count) each) out of ``chips``: for each
    demand the suit indices it takes, or None if they cannot all be met (a max flow by
    augmenting paths, one chip at a time: 36 chips at most)."""
    left = list(chips)
    taken: list[list[int]] = [[] for _ in demands]

    def augment(d: int, seen: set[int]) -> bool:
        allowed = demands[d][0]
        for s in range(len(SUITS)):
            if allowed >> s & 1 and left[s]:
                left[s] -= 1
                taken[d].append(s)
                return True
        for s in range(len(SUITS)):
            if not allowed >> s & 1 or s in seen:
                continue
            seen.add(s)
            # take s from another demand that can move to another suit
            for other, suits in enumerate(taken):
                if other != d and s in suits:
                    suits.remove(s)
                    if augment(other, seen):
                        taken[d].append(s)
                        return True
                    suits.append(s)
        return False

    for d, (_, count) in enumerate(demands):
        for _ in range(count):
            if not augment(d, set()):
                return None
    return taken


def _chip(suit: str) -> Action:
    return _game_action("chip", suit=suit)


def _mask_ints(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _mask(cards: list[DecktetCard]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _challengers(state: TinkerSailorSoldierSpyState) -> list[DecktetCard]:
    """Every challenger still to come (or being fought), in no particular order."""
    future: list[DecktetCard] = list(state.revealed)
    if state.challenger is not None:
        future.append(state.challenger)
    future += state.personalities
    future += state.events
    future += state.locations
    return future


def _signatures(state: TinkerSailorSoldierSpyState) -> list[int]:
    """For each suit, the set (a bitmask over the challengers to come) of challengers it
    belongs to: suits with equal signatures are interchangeable for chips."""
    future = _challengers(state)
    signatures = []
    for bit in SUIT_BITS:
        signature = 0
        for index, card in enumerate(future):
            if SUIT_MASKS[card] & bit:
                signature |= 1 << index
        signatures.append(signature)
    return signatures


Start = tuple[tuple[int, ...], int, int, int]  # deck, discard pile, Aces left, generator
BOUGHT, GIVE_UP, PASS = 0, 1, 2  # how a fight ends (PASS: a lone challenger left unfought)
#: (chips placed, demand on the slacks, the deck etc. after, the plan's step: (card, how it
#: ends, chips, the fewest and the most of them matching))
Outcome = tuple[int, int, Start, tuple[int, int, int, int, int]]


class _Capped(Exception):
    """A wild-chip search ran past its share of positions (it then proves nothing)."""


class Solver:
    """Depth-first search on the real rules with the key, symmetry, bound and dominance
    described in the module's docstring."""

    def __init__(self, state: TinkerSailorSoldierSpyState, allowance: Allowance) -> None:
        self.allowance = allowance
        self.rng = Rng(0)  # the bot's (it draws nothing from it, but the API wants one)
        # rest of a position -> chip counts (as suit-ordered tuples) proved unable to reach a
        # target, with that target: (chips, target) means "fewer than target chips at best".
        self.lost: dict[tuple, list[tuple[int, int]]] = {}
        self.pool_cache: dict[tuple[int, int], list[int]] = {}
        self.wild_memo: dict[tuple, int] = {}
        self.wild_failed: dict[tuple, int] = {}
        self.wild_won: dict[tuple, int] = {}
        self.wild_nodes = 0
        self.outcome_cache: dict[tuple, list[Outcome]] = {}
        self.lost_real: dict[tuple, list[tuple[tuple[int, ...], int]]] = {}
        self.wild_cap = 0
        # The piles' orders never change: a later position's piles are these less the top
        # cards taken since (each is read by how many cards it has left).
        self.personalities = tuple(state.personalities)
        self.events = tuple(state.events)
        self.aces = tuple(state.aces)
        self.locations = tuple(state.locations)
        self.line: list[Action] = []
        self.end: TinkerSailorSoldierSpyState | None = None

    # -------------------------------------------------------------- the bound

    def _best_sums(self, pool: int, groups: tuple[tuple[int, ...], ...], suits: int) -> list[int]:
        """Prefix sums of the best matching values the pool can draw for a challenger of
        ``suits``: entry ``k`` is the most ``k`` distinct cards can pay."""
        key = (pool, hash(groups), suits)
        sums = self.pool_cache.get(key)  # type: ignore[arg-type]
        if sums is None:
            values = []
            rest = pool
            while rest:
                low = rest & -rest
                card = low.bit_length() - 1
                rest ^= low
                values.append(VALUES[card] if SUIT_MASKS[card] & suits else 0)
            for group in groups:  # at most one card of each pair turned up together
                values.append(max(VALUES[c] if SUIT_MASKS[c] & suits else 0 for c in group))
            values.sort(reverse=True)
            sums = [0]
            for value in values:
                sums.append(sums[-1] + value)
            self.pool_cache[key] = sums  # type: ignore[index]
        return sums

    def needed(self, state: TinkerSailorSoldierSpyState, chips: tuple[int, ...]) -> int:
        """A lower bound on the chips round 2 will still spend (INFINITE: it cannot be won)."""
        pool = _mask(state.deck) | _mask(state.discard) | _mask(state.fight_cards)
        pool |= _mask(state.aces)
        groups: tuple[tuple[int, ...], ...] = ()
        if state.round == 1:
            if state.phase == FIGHT and state.challenger is not None:
                pool |= 1 << state.challenger
            pairs = list(zip(state.personalities, state.events, strict=False))
            extra = state.personalities[len(pairs) :] + state.events[len(pairs) :]
            for card in extra:
                pool |= 1 << card
            groups = tuple(tuple(pair) for pair in pairs)
            if len(state.revealed) == 2:
                groups += (tuple(state.revealed),)
            elif state.revealed:
                pool |= 1 << state.revealed[0]
        total = 0
        size = pool.bit_count() + len(groups)
        if state.round == 2 and state.phase == FIGHT:
            # the Location being fought: the chips placed from here draw from the pool less
            # the second row
            fought = state.challenger
            assert fought is not None
            suits = SUIT_MASKS[fought]
            rest = pool & ~_mask(state.fight_cards)
            sums = self._best_sums(rest, (), suits)
            matching = sum(chips[i] for i, bit in enumerate(SUIT_BITS) if suits & bit)
            need = fought.value - state.paid
            j = 1
            while j < len(sums) and sums[j] + min(j, matching) < need:
                j += 1
            if j >= len(sums):
                return INFINITE
            total += j
        for location in state.locations:
            suits = SUIT_MASKS[location]
            sums = self._best_sums(pool, groups, suits)
            matching = sum(chips[i] for i, bit in enumerate(SUIT_BITS) if suits & bit)
            j = 0
            while j + 1 <= size and sums[j + 1] + min(j, matching) < location.value:
                j += 1
            if j + 1 > size:
                return INFINITE
            total += j
        return total

    # -------------------------------------------------------------- round 2 with wild chips

    def round_two(self, state: TinkerSailorSoldierSpyState) -> int:
        """The fewest chips round 2 can be won with from here if every chip matched whatever
        it paid for (INFINITE: not even then). Exact about the draws: they come from the real
        deck and reshuffles, which do not depend on the chips' suits."""
        fought = state.challenger
        assert fought is not None
        drawn, decks, discards, ace_counts, rngs = self._draws(
            tuple(state.deck), _mask(state.discard), len(state.aces), state.rng.state, 64
        )
        best = INFINITE
        paid = state.paid
        kept = _mask(state.fight_cards)  # the second row: discarded at the clean-up
        suits = SUIT_MASKS[fought]
        for j, card in enumerate(drawn, start=1):
            if SUIT_MASKS[card] & suits:
                paid += VALUES[card]
            kept |= 1 << card
            if paid + j >= fought.value:  # j more chips, every one matching
                after = self.wild(
                    len(state.locations),
                    decks[j - 1],
                    discards[j - 1] | kept,
                    ace_counts[j - 1],
                    rngs[j - 1],
                )
                best = min(best, j + after)
                if paid >= fought.value:
                    break  # the cards alone pay: the fight cannot draw further
        return best

    def _draws(
        self,
        deck: tuple[int, ...],
        discard: int,
        aces: int,
        rng: int,
        most: int,
        *,
        pays: tuple[int, int] = (0, 0),
    ) -> tuple[list[int], list[tuple[int, ...]], list[int], list[int], list[int]]:
        """Up to ``most`` draws from this deck as the real game makes them (reshuffling the
        discard pile with the top Ace when the deck runs out): the cards, and after each the
        deck, the discard pile, (Aces left,) and the generator's state. ``pays``: (suits,
        still to pay): stop at the card whose suits pay it off (no fight draws further)."""
        suits, due = pays
        cards: list[int] = []
        decks: list[tuple[int, ...]] = []
        discards: list[int] = []
        ace_counts: list[int] = []
        rngs: list[int] = []
        for card, after in self._drawing(deck, discard, aces, rng):
            if len(cards) >= most:
                break
            cards.append(card)
            decks.append(after[0])
            discards.append(after[1])
            ace_counts.append(after[2])
            rngs.append(after[3])
            if suits and SUIT_MASKS[card] & suits:
                due -= VALUES[card]
                if due <= 0:
                    break
        return cards, decks, discards, ace_counts, rngs

    def _drawing(
        self, deck: tuple[int, ...], discard: int, aces: int, rng: int
    ) -> Iterator[tuple[int, Start]]:
        """The draws from this deck as the real game makes them, one at a time (a search
        stops at the first that pays, so a reshuffle it never reaches is never made): each
        card with the deck, discard pile, Aces left and generator after it."""
        while True:
            if not deck:
                if not discard:
                    return
                new = [c for c in range(45) if discard >> c & 1]
                if aces:
                    aces -= 1
                    new.append(self.aces[aces])
                generator = Rng(rng)
                generator.shuffle(new)
                rng = generator.state
                deck = tuple(new)
                discard = 0
            card = deck[-1]
            deck = deck[:-1]
            yield card, (deck, discard, aces, rng)

    def wild(self, left: int, deck: tuple[int, ...], discard: int, aces: int, rng: int) -> int:
        """:meth:`round_two` from the start of a fight with ``left`` Locations still to pay."""
        if not left:
            return 0
        key = (left, deck, discard, aces, rng)
        known = self.wild_memo.get(key)
        if known is not None:
            return known
        self.allowance.tick()
        location = self.locations[left - 1]
        value, suits = VALUES[location], SUIT_MASKS[location]
        best = INFINITE
        paid = 0
        kept = 0
        for j, (card, after) in enumerate(self._drawing(deck, discard, aces, rng)):
            if j >= best:
                break  # every later purchase costs more chips than the best
            if SUIT_MASKS[card] & suits:
                paid += VALUES[card]
            kept |= 1 << card
            if paid + j >= value:
                cost = j + self.wild(left - 1, after[0], after[1] | kept, after[2], after[3])
                best = min(best, cost)
                if paid >= value:
                    break
        self.wild_memo[key] = best
        return best

    # -------------------------------------------------------------- round 1 with wild chips

    def _options(
        self,
        card: int,
        start: tuple[tuple[int, ...], int, int, int],
        *,
        paid: int,
        kept: int,
        started: bool,
        recruiting: bool,
    ) -> list[tuple[int, tuple[int, ...], int, int, int]]:
        """How a fight against ``card`` can end when every chip may match or not as wished:
        (chips placed, then the deck, discard pile, Aces left and generator after the
        clean-up), purchases first. ``started``: the free card is drawn (``paid`` and the
        second row ``kept`` are the fight's so far); ``recruiting``: round 1 (a fight can be
        given up, and a bought card joins the discard pile)."""
        value, suits = VALUES[card], SUIT_MASKS[card]
        deck, discard, aces, rng = start
        offset = 1 if started else 0  # a fight in progress pays a chip for each draw
        bought: list[tuple[int, tuple[int, ...], int, int, int]] = []
        given_up: list[tuple[int, tuple[int, ...], int, int, int]] = []
        if started and recruiting:
            given_up.append((0, deck, discard | kept, aces, rng))
        drawn, decks, discards, ace_counts, rngs = self._draws(deck, discard, aces, rng, 64)
        gains = 1 << card if recruiting else 0
        for index, drawn_card in enumerate(drawn):
            cost = index + offset
            if SUIT_MASKS[drawn_card] & suits:
                paid += VALUES[drawn_card]
            kept |= 1 << drawn_card
            after = (decks[index], discards[index] | kept, ace_counts[index], rngs[index])
            if paid + cost >= value:  # bought if every chip so far matched
                bought.append((cost, after[0], after[1] | gains, after[2], after[3]))
            if paid >= value:
                break  # the cards alone pay: no line draws further
            if recruiting:  # given up here (its chips need not have matched)
                given_up.append((cost, *after))
        return bought + given_up

    def wild_turn(
        self, counts: tuple[int, int], start: tuple[tuple[int, ...], int, int, int], budget: int
    ) -> bool:
        """Whether the game can be won spending at most ``budget`` wild chips from the start
        of a round-1 turn with ``counts`` Personalities and Events left to turn up."""
        if budget < 0:
            return False
        personalities, events = counts
        if not personalities and not events:
            return self.wild(len(self.locations), *start) <= budget
        key = (counts, *start)
        if budget <= self.wild_failed.get(key, -1):
            return False
        if budget >= self.wild_won.get(key, INFINITE):
            return True
        self.allowance.tick()
        self.wild_nodes += 1
        if self.wild_nodes > self.wild_cap:
            raise _Capped  # only finished positions were written to the tables: they stay true
        revealed = []
        if personalities:
            revealed.append(self.personalities[personalities - 1])
        if events:
            revealed.append(self.events[events - 1])
        after = (max(personalities - 1, 0), max(events - 1, 0))
        if self._wild_choose(revealed, after, start, budget):
            self.wild_won[key] = budget
            return True
        self.wild_failed[key] = budget
        return False

    def _wild_choose(
        self,
        revealed: Sequence[int],
        after: tuple[int, int],
        start: tuple[tuple[int, ...], int, int, int],
        budget: int,
    ) -> bool:
        options = []
        for card in revealed:
            options += self._options(card, start, paid=0, kept=0, started=False, recruiting=True)
        if len(revealed) == 1:  # a lone challenger can be given up unfought
            options.append((0, *start))
        for cost, deck, discard, aces, rng in options:
            if cost <= budget and self.wild_turn(after, (deck, discard, aces, rng), budget - cost):
                return True
        return False

    def wild_from(self, state: TinkerSailorSoldierSpyState, budget: int) -> bool:
        """Whether the game can be won from ``state`` spending at most ``budget`` chips if
        every chip could match or not as wished. Every real line is a line of this game
        spending the same chips, so False proves the real position cannot do it."""
        if budget < 0:
            return False
        if state.round == 2:
            return self.round_two(state) <= budget
        start = (tuple(state.deck), _mask(state.discard), len(state.aces), state.rng.state)
        after = (len(state.personalities), len(state.events))
        if state.phase != FIGHT:
            return self._wild_choose(list(state.revealed), after, start, budget)
        options = self._options(
            state.fought,
            start,
            paid=state.paid,
            kept=_mask(state.fight_cards),
            started=True,
            recruiting=True,
        )
        for cost, deck, discard, aces, rng in options:
            if cost <= budget and self.wild_turn(after, (deck, discard, aces, rng), budget - cost):
                return True
        return False

    def wild_proves_lost(self, state: TinkerSailorSoldierSpyState, budget: int, share: int) -> bool:
        """Whether the wild-chip game proves the position cannot win within ``budget``
        chips, searching at most ``share`` of its positions (beyond that, no proof)."""
        self.wild_nodes, self.wild_cap = 0, share
        try:
            return not self.wild_from(state, budget)
        except _Capped:
            return False

    # -------------------------------------------------------------- the exact search

    def outcomes(
        self,
        card: int,
        start: Start,
        fight: tuple[int, int, bool],
        recruiting: bool,
    ) -> list[Outcome]:
        """Every way a fight against ``card`` can end from ``start``: (chips placed, the
        demand they make on the slacks, the deck etc. after the clean-up, the plan's step).
        ``fight``: what is paid and the second row so far, and whether the free card is
        drawn; ``recruiting``: round 1 (a fight can be given up; a bought card joins the
        discard pile). Purchases first, fewest chips first.

        Placing ``j`` chips draws the next ``j`` cards whatever their suits, and the fight
        ends at the first draw where the cards and the matching chips pay. With the other
        chips placed first, ``m`` matching chips end it by a purchase at ``j`` exactly if the
        cards and ``m`` pay there and, for every earlier chip ``i``, the cards then and the
        ``m - (j - i)`` matching chips placed by then (if any) fall short: ``m`` lies in a
        range [low, high]. A give-up at ``j`` needs the cards and ``m`` to fall short at ``j``.
        "Between low and high of the challenger's suits S" is, for the slacks, the demands
        (S: low), (the other suits: j - high) and (any suit: high - low): exactly the chips
        that can be split so."""
        paid, kept, started = fight
        value, suits = VALUES[card], SUIT_MASKS[card]
        other = ALL_SUITS & ~suits
        deck, discard, aces, rng = start
        drawn, decks, discards, ace_counts, rngs = self._draws(
            deck, discard, aces, rng, 64, pays=(suits, value - paid)
        )
        offset = 0 if started else 1  # cards drawn before the first chip
        if len(drawn) < offset:  # no free card: given up (round 1) or lost (round 2)
            return [(0, 0, start, (card, GIVE_UP, 0, 0, 0))] if recruiting else []
        cum = [paid]  # what the cards pay once the first n are drawn
        for drawn_card in drawn:
            if SUIT_MASKS[drawn_card] & suits:
                paid += VALUES[drawn_card]
            cum.append(paid)
        gains = 1 << card if recruiting else 0
        bought: list[Outcome] = []
        given_up: list[Outcome] = []
        row = kept
        for drawn_card in drawn[:offset]:
            row |= 1 << drawn_card
        for j in range(len(drawn) - offset + 1):
            if j:
                if cum[j - 1 + offset] >= value:
                    break  # the cards alone paid before this chip: the fight is over
                row |= 1 << drawn[j - 1 + offset]
            index = j + offset - 1
            if index < 0:
                after = (deck, discard | row, aces, rng)
            else:
                after = (decks[index], discards[index] | row, ace_counts[index], rngs[index])
            if j == 0 and started and cum[0] >= value:
                break  # cannot be: a paid fight is cleaned up at once
            low = max(0, value - cum[j + offset])
            high = j
            for i in range(j):  # after chip i (0: before any), the fight must still be on
                high = min(high, value - 1 - cum[i + offset] + (j - i))
            if low <= high:
                demand = low * WITHIN[suits] + (j - high) * WITHIN[other]
                demand += (high - low) * WITHIN[ALL_SUITS]
                new = (after[0], after[1] | gains, after[2], after[3])
                bought.append((j, demand, new, (card, BOUGHT, j, low, high)))
            if recruiting and cum[j + offset] < value:
                most = min(j, value - 1 - cum[j + offset])  # matching chips that keep it on
                demand = (j - most) * WITHIN[other] + most * WITHIN[ALL_SUITS]
                given_up.append((j, demand, after, (card, GIVE_UP, j, 0, most)))
        return bought + given_up

    def _cut(self, stage: tuple[int, int, int], start: Start, packed: int, target: int) -> bool:
        """Whether a bound proves that no line from the start of this turn keeps ``target``."""
        budget = (packed >> (FIELD * ALL_SUITS)) - target
        personalities, events, left = stage
        if budget < 0:
            return True
        if not personalities and not events:
            return self.wild(left, *start) > budget
        if self.needed_at(stage, start, packed) > budget:
            return True
        if personalities < WILD_TURNS + 1 and events < WILD_TURNS + 1:
            self.wild_nodes, self.wild_cap = 0, WILD_SHARE
            try:
                return not self.wild_turn((personalities, events), start, budget)
            except _Capped:
                return False
        return False

    def turn(
        self, stage: tuple[int, int, int], start: Start, packed: int, target: int, plan: list
    ) -> bool:
        """Whether a win keeping ``target`` chips exists from the start of a turn: ``stage``
        is the Personalities and Events left to turn up and the Locations left (round 2 when
        both piles are empty); ``packed`` the chips' slacks. A winning plan goes to ``plan``."""
        self.allowance.tick()
        personalities, events, left = stage
        if not personalities and not events and not left:
            return (packed >> (FIELD * ALL_SUITS)) >= target
        rest = (stage, start)
        table = self.lost.get(rest)
        if table is not None:
            for slack, failed in table:
                if failed <= target and _at_most(packed, slack):
                    return False
        if self._cut(stage, start, packed, target):
            return False
        if personalities or events:
            revealed = []
            if personalities:
                revealed.append(self.personalities[personalities - 1])
            if events:
                revealed.append(self.events[events - 1])
            after = (max(personalities - 1, 0), max(events - 1, 0), left)
            choices: list[tuple[int | None, list[Outcome]]] = []
            for card in revealed:
                choices.append((card, self._outcomes(card, start, (0, 0, False), True)))
            if len(revealed) == 1:  # a lone challenger can be given up unfought
                choices.append((None, [(0, 0, start, (revealed[0], PASS, 0, 0, 0))]))
            if self._try(choices, after, packed, target, plan):
                return True
        else:
            card = self.locations[left - 1]
            options = self._outcomes(card, start, (0, 0, False), False)
            if self._try([(card, options)], (0, 0, left - 1), packed, target, plan):
                return True
        self._record(rest, packed, target)
        return False

    def _outcomes(
        self, card: int, start: Start, fight: tuple[int, int, bool], recruiting: bool
    ) -> list[Outcome]:
        key = (card, start, fight, recruiting)
        known = self.outcome_cache.get(key)
        if known is None:
            known = self.outcomes(card, start, fight, recruiting)
            self.outcome_cache[key] = known
        return known

    def _try(
        self,
        choices: list[tuple[int | None, list[Outcome]]],
        after: tuple[int, int, int],
        packed: int,
        target: int,
        plan: list,
    ) -> bool:
        """Try each outcome of each choice (a challenger and how its fight ends) in turn."""
        # Interleave the challengers' outcomes by chips spent: the cheap lines of both first.
        ordered = sorted(
            ((outcome, n) for n, (_, options) in enumerate(choices) for outcome in options),
            key=lambda pair: (pair[0][3][1] != BOUGHT, pair[0][0], pair[1]),
        )
        for (_, demand, new, step), _ in ordered:
            child = _minus(packed, demand)
            if child < 0:
                continue
            plan.append(step)
            if self.turn(after, new, child, target, plan):
                return True
            plan.pop()
        return False

    def _record(self, rest: tuple, packed: int, target: int) -> None:
        """Keep the defeats as an antichain: drop those the new one implies."""
        _add_defeat(self.lost, rest, packed, target, _at_most)

    def needed_at(self, stage: tuple[int, int, int], start: Start, packed: int) -> int:
        """:meth:`needed` at the start of a round-1 turn: a lower bound on the chips round 2
        will spend, each Location's matching chips at most the slack of its suits."""
        personalities, events, _ = stage
        deck, discard, aces, _ = start
        pool = discard | _mask_ints(deck) | _mask_ints(self.aces[:aces])
        # the turns to come pair the piles from their tops
        tops_p = self.personalities[:personalities][::-1]
        tops_e = self.events[:events][::-1]
        pairs = list(zip(tops_p, tops_e, strict=False))
        for card in tops_p[len(pairs) :] + tops_e[len(pairs) :]:
            pool |= 1 << card
        groups = tuple(tuple(pair) for pair in pairs)
        size = pool.bit_count() + len(groups)
        total = 0
        for location in self.locations:
            suits = SUIT_MASKS[location]
            sums = self._best_sums(pool, groups, suits)
            matching = (packed >> (FIELD * suits)) & 127
            j = 0
            while j + 1 <= size and sums[j + 1] + min(j, matching) < location.value:
                j += 1
            if j + 1 > size:
                return INFINITE
            total += j
        return total

    def solve(self, state: TinkerSailorSoldierSpyState, target: int) -> list[Action] | None:
        """A line from ``state`` winning with at least ``target`` chips (played out on the
        real rules before it is returned), or None if there is none (proved)."""
        chips = tuple(state.chips[s] for s in SUITS)
        packed = slacks(chips)
        start = (tuple(state.deck), _mask(state.discard), len(state.aces), state.rng.state)
        piles = (len(state.personalities), len(state.events), len(state.locations))
        plan: list = []
        if state.phase == FIGHT:  # finish the fight, then go on from the next turn
            recruiting = state.round == 1
            fight = (state.paid, _mask(state.fight_cards), True)
            options = self._outcomes(state.fought, start, fight, recruiting)
            if not self._try([(state.fought, options)], piles, packed, target, plan):
                return None
        else:  # choosing in round 1: the revealed cards are off their piles already
            choices: list[tuple[int | None, list[Outcome]]] = []
            for card in state.revealed:
                choices.append((card, self._outcomes(card, start, (0, 0, False), True)))
            if len(state.revealed) == 1:
                choices.append((None, [(0, 0, start, (state.revealed[0], PASS, 0, 0, 0))]))
            if not self._try(choices, piles, packed, target, plan):
                return None
        return self._play(state, chips, plan, target)

    def _play(
        self, state: TinkerSailorSoldierSpyState, chips: tuple[int, ...], plan: list, target: int
    ) -> list[Action]:
        """The moves of a plan: suits for its chips by a transport of the chips to the
        demands, each fight's other suits before its matching ones; checked on the rules."""
        demands: list[tuple[int, int]] = []
        for card, _, j, low, high in plan:
            suits = SUIT_MASKS[card]
            demands += [(suits, low), (ALL_SUITS & ~suits, j - high), (ALL_SUITS, high - low)]
        taken = _assign(chips, demands)
        if taken is None:
            raise AssertionError("a plan its slacks allowed has no suits")
        end = state.clone()
        line: list[Action] = []

        def play(action: Action) -> None:
            end.apply(action)
            line.append(action)

        for index, (card, kind, _, _, _) in enumerate(plan):
            if kind == PASS:
                play(_game_action("give-up"))
                continue
            if end.phase == CHOOSE:  # round 2 turns its Locations up by itself
                play(_game_action("fight", card))
            placed = taken[3 * index] + taken[3 * index + 1] + taken[3 * index + 2]
            if placed and (end.phase != FIGHT or end.challenger != card):
                raise AssertionError("the plan's fight is not the game's")
            placed.sort(key=lambda s: bool(SUIT_MASKS[card] & SUIT_BITS[s]))
            for s in placed:
                play(_chip(SUITS[s]))
            if kind == GIVE_UP and end.phase == FIGHT and end.challenger == card:
                play(_game_action("give-up"))
        if not (end.is_over and end.won and end.chips_left >= target):
            raise AssertionError("the plan does not win on the real rules")
        self.end = end
        return line

    # -------------------------------------------------------------- the key

    def key(
        self, state: TinkerSailorSoldierSpyState, signatures: list[int]
    ) -> tuple[tuple, tuple[int, ...], tuple[tuple[int, int], ...]]:
        """(the rest of the position, its chips in suit order, the canonical chips: (suit
        signature, chips) pairs, sorted)."""
        chips = tuple(state.chips[s] for s in SUITS)
        rest = (
            state.round,
            state.phase,
            len(state.personalities),
            len(state.events),
            len(state.locations),
            state.challenger,
            tuple(state.deck),
            _mask(state.discard),
            len(state.aces),
            state.rng.state,
            _mask(state.fight_cards),
            state.paid,
        )
        return rest, chips, tuple(sorted(zip(signatures, chips, strict=True)))

    def _known_lost(self, rest: tuple, chips: tuple[int, ...], target: int) -> bool:
        # The newest entries only: a long antichain costs more to scan than it saves.
        for kept, failed in self.lost_real.get(rest, ())[-SCAN:]:
            if failed <= target and all(a >= b for a, b in zip(kept, chips, strict=True)):
                return True
        return False

    def _record_lost(self, rest: tuple, chips: tuple[int, ...], target: int) -> None:
        """Keep only the entries no other entry implies (more chips of every suit and a
        target no higher): the list stays a short antichain."""
        _add_defeat(self.lost_real, rest, chips, target, _fewer_chips)

    # -------------------------------------------------------------- the search

    def moves(self, state: TinkerSailorSoldierSpyState, signatures: list[int]) -> list[Action]:
        """The legal moves, one per class of interchangeable chips, the bot's choice first."""
        legal = state.legal_actions()
        if state.phase == FIGHT:
            seen = set()
            kept = []
            for action in legal:
                if action.kind == "chip":
                    index = SUITS.index(action.target)
                    cls = (signatures[index], state.chips[action.target])
                    if cls in seen:
                        continue
                    seen.add(cls)
                kept.append(action)
            legal = kept
        if len(legal) < 2:
            return legal
        first = ts_bot.choose(state, self.rng)
        if first in legal:
            index = legal.index(first)
            return [first, *legal[:index], *legal[index + 1 :]]
        return legal

    def reach(self, state: TinkerSailorSoldierSpyState, target: int) -> bool:
        """Whether a win keeping at least ``target`` chips exists; its line goes to ``line``."""
        self.allowance.tick()
        if state.is_over:
            if state.won and state.chips_left >= target:
                self.end = state
                return True
            return False
        signatures = _signatures(state)
        rest, chips, canonical = self.key(state, signatures)
        canon_chips = tuple(count for _, count in canonical)
        canon_rest = (rest, tuple(sig for sig, _ in canonical))
        if self._known_lost(canon_rest, canon_chips, target):
            return False
        if state.round == 2:
            # Round 2 is searched exactly on the chips' slacks (no suit to branch on); its
            # line is played out on the real rules before it counts.
            line = self.solve(state, target)
            if line is None:
                self._record_lost(canon_rest, canon_chips, target)
                return False
            self.line.extend(line)
            return True
        if state.chips_left - self.needed(state, chips) < target:
            return False
        if (
            state.phase != FIGHT
            and len(state.personalities) < WILD_TURNS
            and self.wild_proves_lost(state, state.chips_left - target, WILD_SHARE)
        ):
            # Only at the start of the last turns of round 1: earlier, the wild tree is too
            # large to prove anything within its share and costs more than it cuts.
            return False
        for action in self.moves(state, signatures):
            child = state.clone()
            child.apply_legal(action)
            self.line.append(action)
            if self.reach(child, target):
                return True
            self.line.pop()
        self._record_lost(canon_rest, canon_chips, target)
        return False


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of a Tinker, Sailor, Soldier, Spy position: won with a line (and,
    with ``optimise_score``, the most chips a win can keep), cannot be won, or unknown."""
    if not isinstance(state, TinkerSailorSoldierSpyState):
        raise RulesError("this solver solves Tinker, Sailor, Soldier, Spy")
    if state.is_over:
        return finished_bound(state)
    allowance = Allowance(seconds, max_nodes)
    solver = Solver(state, allowance)
    found: list[tuple[list[str], State]] = []

    def reach(target: int) -> bool:
        solver.line = []
        solver.end = None
        if not solver.reach(state.quiet_clone(), target):
            return False
        assert solver.end is not None
        found.append(([str(a) for a in solver.line], solver.end))
        return True

    def line() -> tuple[list[str], State]:
        return found[-1]

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return prove(allowance, reach, line, optimise_score)
    finally:
        sys.setrecursionlimit(limit)


__all__ = ["VERSION", "Solver", "bound"]
