"""A heuristic for Dead Center: judge positions by the zombies they leave ready to die, and
look one card ahead.

A living zombie is *ready* when its two support cards already kill it: then any card played on
its front pile kills it. The static value of a cabin counts the kills made, each ready zombie
(weighted by the chance that a card from the deck fits its front pile), partial credit for
supports that are close (right suits, a sum near 10), the chance that the next card can kill,
and, against it, the chance that the next card fits no pile (which loses). Face-down zombies
count by the share of the unseen faces their line would kill.

A play is judged by the expected value of the next turn: for every card the deck may still hold,
the best pile for it (with the kill it allows) under the static value. Since a kill depends only
on the supports, never on the card played, the next turn's kills need no search; and playing a
card changes one pile, so only the four lines through that pile are judged again.

- reveal: the face-down space whose line is likeliest to kill what it hides;
- play: the pile with the best expected next turn (after the best kill this play allows);
- kill: always kill (it costs nothing), choosing the zombie whose removal leaves the best
  expected next turn.

The bot reads only what the player sees: the cabin, the face-up zombies, the set of face-down
ones and the deck's contents (never its order).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng

from .cabin import (
    DEMAND,
    FITS,
    FRONT,
    KILL_SUM,
    PILE_OF_LABEL,
    PILES,
    SPACE_OF_LABEL,
    SPACES,
    SUPPORTS,
    VALUE,
    ZOMBIES_NEXT_TO,
)
from .rules import KILL, PASS, REVEAL, ZOMBIE_CARDS, ZOMBIE_COUNT, DeadCenterState

#: The static value's constants, by name (a tuned policy, ``agents.policies.dead_center``,
#: plays the same bot with its own: :func:`decide`).
WEIGHTS: dict[str, float] = {
    "kill": 100.0,  # each zombie killed
    "ready": 12.0,  # each ready zombie, times the chance a card fits its front pile
    "ready_floor": 0.3,  # a ready zombie is worth this much even if its front pile rarely fits
    "partial": 3.0,  # supports close to killing (right suits, a sum near 10)
    "stuck": 150.0,  # the chance the next card fits no pile (which loses), against
    "hidden": 0.6,  # face-down zombies count less: they cannot be attacked yet
    "next_kill": 80.0,  # per unit of chance that the next card can kill
}
WIN = 10_000.0
LOSS = -10_000.0

CARDS = 54
PILE_COUNT = len(PILES)


def _fit_masks() -> tuple[int, ...]:
    """FIT_MASK[top]: the cards (as a bitmask over codes) that may be played on ``top``."""
    return tuple(
        sum(1 << card for card in range(CARDS) if FITS[top * CARDS + card]) for top in range(CARDS)
    )


FIT_MASK = _fit_masks()
#: The twelve zombies by index (suit-major); SUPPORT_OK[card]: the zombies (a bitmask over
#: indices) whose suit or colour demand that card meets as a support; KILLED_BY[pair] for a
#: pair of support cards (first * 54 + second): the zombies the pair kills.
ZOMBIE_INDEX = {code: i for i, code in enumerate(ZOMBIE_CARDS)}
SUPPORT_OK = tuple(
    sum(1 << i for i, zombie in enumerate(ZOMBIE_CARDS) if DEMAND[zombie][card])
    for card in range(CARDS)
)
KILLED_BY = tuple(
    SUPPORT_OK[first] & SUPPORT_OK[second] if VALUE[first] + VALUE[second] >= KILL_SUM else 0
    for first in range(CARDS)
    for second in range(CARDS)
)
#: LINES_THROUGH[pile]: the zombie spaces whose line (front or support) uses that pile.
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(len(SPACES)) if i == FRONT[j] or i in SUPPORTS[j])
    for i in range(len(PILES))
)


def choose(state: DeadCenterState, rng: Rng) -> Action:
    """The bot's move: :func:`decide` with its own weights."""
    return decide(state, rng)


def decide(state: DeadCenterState, rng: Rng, weights: Mapping[str, float] = WEIGHTS) -> Action:
    """The move whose expected next turn is best under the static value with these
    ``weights`` (see :data:`WEIGHTS`)."""
    moves = state.legal_actions()
    if len(moves) == 1:
        return moves[0]
    judge = Judge(state, weights)
    if state.phase == REVEAL:
        return _best(moves, rng, lambda m: judge.reveal_value(SPACE_OF_LABEL[m.target]))
    tops = state.tops()
    if state.phase == KILL:
        alive = state.alive
        return _best(
            [m for m in moves if m != PASS],
            rng,
            lambda m: judge.expected(tops, alive & ~(1 << SPACE_OF_LABEL[m.target])),
        )
    return _best(moves, rng, lambda m: judge.play_value(tops, PILE_OF_LABEL[m.target]))


def value(state: DeadCenterState) -> float:
    """The bot's value of a position, on the scale of its play values: the expected next turn
    of the best play of the card drawn (after the best kill it allows), the best kill's, or
    before a card is drawn the expected next turn of the cabin as it stands (:data:`WIN` plus
    the cards left once won, :data:`LOSS` once lost). Searches that look further ahead than
    the bot (``agents.expectimax``) score their leaves with it."""
    if state.is_over:
        result = state.result
        return WIN + len(state.deck) if result is not None and result.won else LOSS
    judge = Judge(state)
    tops = state.tops()
    if state.phase == KILL:
        alive = state.alive
        return max(
            judge.expected(tops, alive & ~(1 << SPACE_OF_LABEL[m.target]))
            for m in state.legal_actions()
            if m != PASS
        )
    if state.phase == REVEAL or state.drawn is None:
        return judge.expected(tops, state.alive)
    return max(judge.play_value(tops, PILE_OF_LABEL[m.target]) for m in state.legal_actions())


def _best(moves: list[Action], rng: Rng, value: Callable[[Action], float]) -> Action:
    best, best_value = moves[0], float("-inf")
    for move in moves:
        v = value(move) + rng.random() * 1e-6
        if v > best_value:
            best, best_value = move, v
    return best


class Judge:
    """Values positions reachable from one decision (same deck, same face-down set)."""

    def __init__(self, state: DeadCenterState, weights: Mapping[str, float] = WEIGHTS) -> None:
        self.kill_weight = weights["kill"]
        self.ready_weight = weights["ready"]
        self.ready_floor = weights["ready_floor"]
        self.partial_weight = weights["partial"]
        self.stuck = weights["stuck"]
        self.hidden_weight = weights["hidden"]
        self.next_kill = weights["next_kill"]
        deck = 0
        for card in state.deck:
            deck |= 1 << card
        self.deck = deck
        self.n = deck.bit_count()
        self.cards = sorted(state.deck)  # its contents are known, its order is not
        self.ring = state.ring
        self.alive = state.alive
        self.face_down = state.face_down
        fd = state.face_down
        # Each living space's zombie (by index among the twelve) if face up, else -1; the
        # face-down ones are known only as a set.
        self.faces = [-1 if fd >> j & 1 else ZOMBIE_INDEX[z] for j, z in enumerate(state.ring)]
        self.hidden_mask = 0
        for j, zombie in enumerate(state.ring):
            if fd >> j & 1:
                self.hidden_mask |= 1 << ZOMBIE_INDEX[zombie]
        self.per_hidden = 1 / (self.hidden_mask.bit_count() or 1)
        self.per_card = 1 / (self.n or 1)
        self.drawn = state.drawn
        self.tops = state.tops()
        # Memo of line(): a line's worth depends only on its three piles' top cards here.
        self._lines: dict[int, tuple[float, int]] = {}

    # ------------------------------------------------------------ the decisions

    def play_value(self, tops: list[Card], pile: int) -> float:
        drawn = self.drawn
        assert drawn is not None  # plays are weighed for the card just drawn
        after = list(tops)
        after[pile] = drawn
        alive = self.alive
        up = alive & ~self.face_down
        best = None
        for space in ZOMBIES_NEXT_TO[pile]:
            if up >> space & 1:
                a, b = SUPPORTS[space]
                if kills(self.ring[space], after[a], after[b]):
                    v = self.expected(after, alive & ~(1 << space))
                    best = v if best is None else max(best, v)
        return self.expected(after, alive) if best is None else best

    def reveal_value(self, space: int) -> float:
        # The card is not drawn yet: prefer the line likeliest to kill the hidden face, with a
        # front pile that many cards fit.
        a, b = SUPPORTS[space]
        first, second = self.tops[a], self.tops[b]
        fit = (FIT_MASK[self.tops[FRONT[space]]] & self.deck).bit_count() / (self.n or 1)
        return self.share(first, second) * (self.ready_floor + fit)

    # ------------------------------------------------------------ values

    def share(self, first: Card, second: Card) -> float:
        """The share of the face-down zombies that these two supports would kill."""
        hits = KILLED_BY[first * CARDS + second] & self.hidden_mask
        return hits.bit_count() * self.per_hidden

    def line(self, space: int, tops: list[Card], masks: list[int]) -> tuple[float, int]:
        """One living zombie's worth, and its front's cards if it is ready (else 0)."""
        a, b = SUPPORTS[space]
        pair = tops[a] * CARDS + tops[b]
        front = masks[FRONT[space]]
        chance = self.ready_floor + front.bit_count() * self.per_card
        zombie = self.faces[space]
        if zombie < 0:
            hits = (KILLED_BY[pair] & self.hidden_mask).bit_count()
            return self.hidden_weight * self.ready_weight * chance * hits * self.per_hidden, 0
        if KILLED_BY[pair] >> zombie & 1:
            return self.ready_weight * chance, front
        # How close: the share of supports meeting the demand times the sum's share of 10.
        first, second = tops[a], tops[b]
        matching = (SUPPORT_OK[first] >> zombie & 1) + (SUPPORT_OK[second] >> zombie & 1)
        total = min(VALUE[first] + VALUE[second], KILL_SUM)
        return self.partial_weight * matching * total / (2 * KILL_SUM), 0

    def expected(self, tops: list[Card], alive: int) -> float:
        """The mean, over the cards the deck may hold, of the best next play's static value.

        The deck seen by the next position is taken as the current one (one card fewer makes
        little difference to the shares, and keeps every line's cached worth valid).
        """
        n = self.n
        if not alive:
            return WIN + n
        if n == 0:
            return LOSS
        deck = self.deck
        tops = list(tops)
        masks = [FIT_MASK[t] & deck for t in tops]
        worth = [0.0] * ZOMBIE_COUNT
        fronts = [0] * ZOMBIE_COUNT
        base = self.kill_weight * (ZOMBIE_COUNT - alive.bit_count())
        living = [j for j in range(ZOMBIE_COUNT) if alive >> j & 1]
        line = self.line
        for j in living:
            worth[j], fronts[j] = line(j, tops, masks)
            base += worth[j]
        # Per pile: the zombie that a card played there kills (the toughest ready one), the
        # lines it changes, and the parts of the unions that it leaves alone.
        killers: list[int | None] = [None] * PILE_COUNT
        for j in living:
            if fronts[j]:
                pile = FRONT[j]
                other = killers[pile]
                if other is None or self.ring[j].rank > self.ring[other].rank:
                    killers[pile] = j
        affected = [[j for j in LINES_THROUGH[p] if alive >> j & 1] for p in range(PILE_COUNT)]
        kept = [base - sum(worth[j] for j in affected[p]) for p in range(PILE_COUNT)]
        others_fit = []
        others_kill = []
        for p in range(PILE_COUNT):
            fit = kill = 0
            for i in range(PILE_COUNT):
                if i != p:
                    fit |= masks[i]
            for j in living:
                if j not in affected[p]:
                    kill |= fronts[j]
            others_fit.append(fit)
            others_kill.append(kill)
        won = [
            killer is not None and alive == 1 << killer
            for killer in (killers[p] for p in range(PILE_COUNT))
        ]
        for p in range(PILE_COUNT):
            if killers[p] is not None:
                kept[p] += self.kill_weight
        # The lines a card on pile p changes (the zombie it kills aside), with their piles.
        changed = [
            [(j, *SUPPORTS[j], FRONT[j]) for j in affected[p] if j != killers[p]]
            for p in range(PILE_COUNT)
        ]
        memo = self._lines
        stuck_weight = self.stuck / n
        next_kill_weight = self.next_kill / n
        fits = FITS
        total = 0.0
        for card in self.cards:
            best = LOSS
            card_mask = FIT_MASK[card] & deck
            for p in range(PILE_COUNT):
                old = tops[p]
                if not fits[old * CARDS + card]:
                    continue
                if won[p]:
                    best = WIN
                    break
                tops[p] = card
                old_mask = masks[p]
                masks[p] = card_mask
                value = kept[p]
                killing = others_kill[p]
                for j, a, b, f in changed[p]:
                    key = ((j * CARDS + tops[a]) * CARDS + tops[b]) * CARDS + tops[f]
                    worth_and_front = memo.get(key)
                    if worth_and_front is None:
                        worth_and_front = memo[key] = line(j, tops, masks)
                    value += worth_and_front[0]
                    killing |= worth_and_front[1]
                tops[p] = old
                masks[p] = old_mask
                value -= stuck_weight * (n - (others_fit[p] | card_mask).bit_count())
                value += next_kill_weight * killing.bit_count()
                best = max(best, value)
            total += best
        return total / n


def kills(zombie: Card, first: Card, second: Card) -> bool:
    demand = DEMAND[zombie]
    return VALUE[first] + VALUE[second] >= KILL_SUM and demand[first] and demand[second]
