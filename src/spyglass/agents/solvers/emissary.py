"""The Emissary with every card and every future shuffle known: can all eight courts be won?

The search plays the game's own rules on a compact position (hand and discard pile as
bitmasks of card codes, the deck as a tuple, the generator as its 64-bit state) and writes
its line in the game's notation, so it replays on the real state.

**Chance.** The only chance is the deck's order, and every shuffle comes from the state's own
generator: the discard pile when a card is needed from an empty deck (mid-kingdom), and all 32
cards after each won kingdom. A shuffle of ``n`` cards sorts them and draws one permutation of
``n`` from the generator, so the search reproduces each one by calling the same
``Rng.shuffle`` on a clone of the generator at the moment the real game would shuffle, on the
same sorted cards: the deck it sees is the deck the game would deal. What a shuffle deals
therefore depends on the order of play only through which cards are shuffled and how many
shuffles came before (the generator's state), and both are part of the position's key, so a
key never stands for two different futures.

**Keys.** A position before a debate (abilities may be used) is keyed by the generator's
state, the deck (its cards in order), the hand and the discard pile (bitmasks; the won debates
are the rest, and only their number matters until the end-of-kingdom shuffle, which takes all
32 cards whatever they are), the debates won, the advisors used, the kingdom being visited,
the kingdoms visited, the trump suit of every kingdom still to win, and the number of face-up
supporters of each suit. Two lines that reach the same cards in the same places by different
orders (of answers, abilities or kingdoms) are searched once. Positions with a fresh hand
(choose a kingdom) are keyed likewise. Each key remembers the lowest score target it failed.
When no reshuffle can come before the kingdom ends (the deck holds a topic for every card
that is or may come into the hand, and every card that may be drawn), the discard pile is
left out of the key: which cards were won and which lost cannot change the rest of the
kingdom (only their number does), and the end-of-kingdom shuffle takes all 32 cards
whatever they are.

**Pruning** (each keeps every win, and the best score):

- Rulers count by suit only: a kingdom's ruler matters for its trump and, once won, for the
  suit of its supporter; a King and a Queen of one suit are interchangeable, so the search uses
  the first face-up supporter of a suit and never swaps (spades) with a ruler of the same suit
  (the position after it is the one before it with an ability spent).
- A supporter is used only when the advisor of its suit is already face down in this kingdom:
  using the advisor instead leaves a position with the same cards and one more face-up
  supporter, which can do all the other can (it may still use that supporter later) and
  scores at least as much.
- A position whose face-up supporters plus kingdoms still to win cannot reach the score
  target fails at once (a supporter never turns face up again).
- A kingdom fails at once when even the most debates it could still win fall short of its
  target: each win needs a card that can win (its suit is or can become trump through the
  spades ability, or a lower card of its suit can still be raised, i.e. is not won here;
  when no reshuffle can come, a topic is one of the deck's cards within reach and is raised
  once, so the cards of a suit that is not trump win at most a matching of them to lower
  topics of their suit), each
  diamonds use can trade two cards for two such, and only the clubs ability grows the hand
  (by at most the clubs then in hand, which are at most those held now plus every card drawn
  before, and never more than the clubs not won here; when no reshuffle can come, no more
  than those held now and those among the deck's top cards that can have left it by then,
  which is what settles most last kingdoms).

The rules' own early losses (too many debates won, too few cards with no clubs ability left,
no card for a topic) end lines where the game ends them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from spyglass.components.bits import set_bits
from spyglass.components.cards import Card, cards_text
from spyglass.engine import RulesError, State
from spyglass.engine.rng import Rng
from spyglass.games.emissary.rules import (
    CHOOSE,
    CLUBS,
    DEBATE_CARDS,
    DIAMONDS,
    DISCARD,
    HAND,
    HEARTS,
    KINGDOMS,
    RESPOND,
    SPADES,
    EmissaryState,
    ability_action,
)

from .base import Allowance, Bound, finished_bound, prove

#: Raised whenever a change could change an answer (results kept by the strength run name it).
VERSION = 3

ALL = (1 << KINGDOMS) - 1
ALL_CARDS = tuple(int(c) for c in sorted(DEBATE_CARDS))  # the end-of-kingdom shuffle's input
SUIT_MASK = tuple(sum(1 << (s * 13 + r) for r in range(8)) for s in range(4))
SUIT_LOW = tuple(1 << s * 13 for s in range(4))  # each suit's Ace
CLUBS_MASK = SUIT_MASK[CLUBS]
JACK_CARDS = tuple(Card.of(11, s) for s in "SHCD")
NOT_FAILED = 1 << 30


def _matched(cards: int, topics: int) -> int:
    """The most of ``cards`` (ranks as bits) that can each beat a different lower one of
    ``topics`` (the same suit): the lowest cards first, each taking any lower topic free."""
    count = free = 0
    for rank in range(8):
        if cards >> rank & 1 and free:
            count += 1
            free -= 1
        free += topics >> rank & 1
    return count


#: MATCHED[cards << 8 | topics]: ``_matched`` for every pair of rank sets of one suit.
MATCHED = bytes(_matched(c, t) for c in range(256) for t in range(256))


def _suit(card: int) -> int:
    return card // 13


def _rank(card: int) -> int:
    return card % 13 + 1


def _beats(answer: int, topic: int, trump: int) -> bool:
    if answer // 13 == topic // 13:
        return answer > topic  # same suit: codes order ranks
    return answer // 13 == trump


@dataclass(slots=True)
class Pos:
    """One position of the game, compact. ``deck``: top card last, as the game keeps it."""

    deck: tuple[int, ...]
    rng: int
    hand: int
    discard: int
    wins: int
    scoring: int  # debates won in this kingdom (bitmask)
    jacks: int  # advisors face down, by suit
    spent: int  # supporters face down, by kingdom index
    rulers: tuple[int, ...]
    won: tuple[int, ...]  # kingdom indices, in the order won
    visited: int
    visiting: int  # -1 while choosing

    def copy(self) -> Pos:
        return Pos(
            self.deck,
            self.rng,
            self.hand,
            self.discard,
            self.wins,
            self.scoring,
            self.jacks,
            self.spent,
            self.rulers,
            self.won,
            self.visited,
            self.visiting,
        )

    # ------------------------------------------------------------ the game's card flow

    def take(self) -> int | None:
        """The top card, shuffling the discard pile into a new deck when the deck is empty."""
        if not self.deck:
            if not self.discard:
                return None
            order = set_bits(self.discard)  # sorted, as the game sorts it
            rng = Rng(self.rng)
            rng.shuffle(order)
            self.rng = rng.state
            self.deck = tuple(order)
            self.discard = 0
        card = self.deck[-1]
        self.deck = self.deck[:-1]
        return card

    def draw(self, count: int) -> None:
        for _ in range(count):
            card = self.take()
            if card is None:
                return
            self.hand |= 1 << card

    def ready(self) -> list[int]:
        """Face-up supporters (cards), in the order won (the game's order)."""
        return [self.rulers[k] for k in self.won if not self.spent >> k & 1]

    def clubs_left(self) -> bool:
        if not self.jacks >> CLUBS & 1:
            return True
        return any(_suit(c) == CLUBS for c in self.ready())

    def ready_by_suit(self) -> tuple[int, int, int, int]:
        counts = [0, 0, 0, 0]
        for card in self.ready():
            counts[_suit(card)] += 1
        return counts[0], counts[1], counts[2], counts[3]

    def key(self, settled: bool = False) -> tuple:
        """The position's key; ``settled``: no reshuffle can come before the kingdom ends,
        so which of the cards out of play were won and which discarded cannot matter (only
        the number won), and the discard pile is left out."""
        suits = 0
        for k in range(KINGDOMS):
            if not self.visited >> k & 1 or k == self.visiting:
                suits |= (_suit(self.rulers[k]) + 1) << (3 * k)
        return (
            self.rng,
            self.deck,
            self.hand,
            -1 if settled else self.discard,
            self.wins,
            self.jacks,
            self.visiting,
            self.visited,
            suits,
            self.ready_by_suit(),
        )


Ability = tuple[int, int | None]  # the source card, and the kingdom index swapped with


class Solver:
    def __init__(self, allowance: Allowance) -> None:
        self.allowance = allowance
        self.failed: dict[tuple, int] = {}
        self.line: list[str] = []
        self.need = 0  # the score the current search must reach

    # ------------------------------------------------------------ moves

    def abilities(self, p: Pos) -> tuple[list[Ability], bool]:
        """The abilities the search tries (pruned as the module says), and whether the rules
        offer any ability at all (then the next topic needs the move 'debate')."""
        hand = p.hand
        trump = _suit(p.rulers[p.visiting])
        useful = 1 << DIAMONDS
        if hand & SUIT_MASK[trump]:
            useful |= 1 << HEARTS
        if hand & SUIT_MASK[CLUBS] and (p.deck or p.discard):
            useful |= 1 << CLUBS
        if p.visited != ALL:
            useful |= 1 << SPADES
        offered = False
        sources: list[int] = []
        for suit in range(4):
            if not useful >> suit & 1:
                continue
            if not p.jacks >> suit & 1:
                offered = True
                sources.append(JACK_CARDS[suit])
                continue
            for card in p.ready():
                if _suit(card) == suit:
                    offered = True
                    sources.append(card)
                    break  # a King and a Queen of one suit do the same
        moves: list[Ability] = []
        for source in sources:
            if _suit(source) == SPADES:
                for k in range(KINGDOMS):
                    if not p.visited >> k & 1 and _suit(p.rulers[k]) != trump:
                        moves.append((source, k))
            else:
                moves.append((source, None))
        if not offered:
            # Supporters the rules offer that the search skips still make 'debate' a move.
            offered = any(useful >> _suit(c) & 1 for c in p.ready())
        return moves, offered

    def use(self, p: Pos, source: int, there: int | None) -> Pos:
        """The position after an ability (diamonds: after the draw, before the discard)."""
        q = p.copy()
        suit = _suit(source)
        if _rank(source) == 11:
            q.jacks |= 1 << suit
        else:
            q.spent |= 1 << q.rulers.index(source)
        if suit == HEARTS:
            gone = q.hand & SUIT_MASK[_suit(q.rulers[q.visiting])]
            q.hand ^= gone
            q.discard |= gone
        elif suit == CLUBS:
            q.draw((q.hand & SUIT_MASK[CLUBS]).bit_count())
        elif suit == SPADES:
            assert there is not None
            rulers = list(q.rulers)
            rulers[q.visiting], rulers[there] = rulers[there], rulers[q.visiting]
            q.rulers = tuple(rulers)
        else:
            q.draw(2)
        return q

    # ------------------------------------------------------------ the search

    def between(self, p: Pos) -> bool:
        """After a visit, a debate or an ability (the game's ``_between_debates``)."""
        if not p.hand:
            return self.end_kingdom(p)
        target = p.visiting + 1
        cards = p.hand.bit_count()
        if p.wins > target:
            return False
        if p.wins + cards < target and not p.clubs_left():
            return False  # the rules' own loss
        ready = p.ready()
        if 8 + len(ready) + KINGDOMS - len(p.won) < self.need:
            return False
        # At most: the cards that can still win (the diamonds ability may trade two others
        # for two new ones each time), and what the clubs ability may still add.
        diamonds = 2 * _uses_left(p, DIAMONDS, ready)
        growth, reach = _reach(p, ready, diamonds)
        settled = reach >= 0
        winners = _winners(p, ready, reach) + diamonds
        if p.wins + min(cards, winners) + growth < target:
            return False
        key = p.key(settled)
        if self.failed.get(key, NOT_FAILED) <= self.need:
            return False
        self.allowance.tick()
        moves, offered = self.abilities(p)
        can_debate = bool(p.deck or p.discard)
        line = self.line
        if can_debate:
            if offered:
                line.append("debate")
            if self.debate(p):
                return True
            if offered:
                line.pop()
        for source, there in moves:
            line.append(ability_action(Card(source), None if there is None else there + 1).text)
            q = self.use(p, source, there)
            diamonds = _suit(source) == DIAMONDS
            if self.discard_two(q) if diamonds else self.between(q):
                return True
            line.pop()
        self.failed[key] = self.need
        return False

    def debate(self, p: Pos) -> bool:
        """The ruler raises the next topic; every legal answer is tried."""
        q = p.copy()
        topic = q.take()
        assert topic is not None
        q.discard |= 1 << topic
        return self.respond(q, topic)

    def respond(self, p: Pos, topic: int) -> bool:
        follow = p.hand & SUIT_MASK[_suit(topic)]
        options = set_bits(follow or p.hand)
        trump = _suit(p.rulers[p.visiting])
        more = p.wins < p.visiting + 1  # wins still wanted: try winning answers first
        winning = [c for c in options if _beats(c, topic, trump)]
        losing = [c for c in options if not _beats(c, topic, trump)]
        # Win with the cheapest card that wins; lose with the dearest card (the one likeliest
        # to win a later debate unwanted).
        ordered = winning + losing[::-1] if more else losing[::-1] + winning
        line = self.line
        for card in ordered:
            q = p.copy()
            q.hand ^= 1 << card
            if _beats(card, topic, trump):
                q.wins += 1
                q.scoring |= 1 << card
            else:
                q.discard |= 1 << card
            line.append(str(Card(card)))
            if self.between(q):
                return True
            line.pop()
        return False

    def discard_two(self, p: Pos) -> bool:
        """After the diamonds draw: two cards go (all of them from a hand of two or fewer)."""
        cards = set_bits(p.hand)
        if len(cards) <= 2:
            q = p.copy()
            q.discard |= q.hand
            q.hand = 0
            return self.between(q)
        line = self.line
        pairs = [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
        for a, b in pairs:
            q = p.copy()
            gone = 1 << a | 1 << b
            q.hand ^= gone
            q.discard |= gone
            line.append("discard " + cards_text((Card(a), Card(b))))
            if self.between(q):
                return True
            line.pop()
        return False

    def end_kingdom(self, p: Pos) -> bool:
        if p.wins != p.visiting + 1:
            return False
        q = p.copy()
        q.won = (*q.won, q.visiting)
        q.visiting = -1
        if len(q.won) == KINGDOMS:
            return 8 + len(q.ready()) >= self.need
        order = list(ALL_CARDS)
        rng = Rng(q.rng)
        rng.shuffle(order)
        q.rng = rng.state
        q.deck = tuple(order)
        q.discard = 0
        q.wins = 0
        q.scoring = 0
        q.jacks = 0
        q.draw(HAND)
        return self.choose(q)

    def choose(self, p: Pos) -> bool:
        """A fresh hand: visit each kingdom still to win, the likeliest fit first."""
        if 8 + len(p.ready()) + KINGDOMS - len(p.won) < self.need:
            return False
        key = p.key()
        if self.failed.get(key, NOT_FAILED) <= self.need:
            return False
        self.allowance.tick()
        options = [k for k in range(KINGDOMS) if not p.visited >> k & 1]
        options.sort(key=lambda k: _fit(p, k))
        line = self.line
        for k in options:
            q = p.copy()
            q.visiting = k
            q.visited |= 1 << k
            line.append(f"visit {k + 1}")
            if self.between(q):
                return True
            line.pop()
        self.failed[key] = self.need
        return False

    def solve(self, state: EmissaryState, need: int) -> bool:
        """Whether a win with a score of at least ``need`` exists (``line``: one)."""
        self.need = need
        self.line = []
        p = _position(state)
        phase = state.phase
        if phase == CHOOSE:
            return self.choose(p)
        if phase == RESPOND:
            assert state.topic is not None
            return self.respond(p, int(state.topic))
        if phase == DISCARD:
            return self.discard_two(p)
        return self.between(p)


def _uses_left(p: Pos, suit: int, ready: list[int]) -> int:
    """How many more times this kingdom the ability of ``suit`` can be used."""
    uses = 0 if p.jacks >> suit & 1 else 1
    for card in ready:
        uses += card // 13 == suit
    return uses


def _growth(uses: int, held: int, free: int, drawn: int) -> int:
    """At most how many cards the hand can gain from ``uses`` clubs abilities: each draws the
    clubs then in hand, at most the ``held`` now plus every card drawn before (``drawn`` by
    diamonds, and earlier clubs draws), and never more than ``free``, the clubs that can be in
    hand at all."""
    growth = 0
    for _ in range(uses):
        clubs = min(free, held + drawn)
        growth += clubs
        drawn += clubs
    return growth


def _reach(p: Pos, ready: list[int], diamonds: int) -> tuple[int, int]:
    """At most how many cards the hand can still gain in this kingdom (only the clubs
    ability grows it), and at most how many cards can still leave the deck in it, or -1 when
    a reshuffle may come first. The deck gives a topic for every card that is or will be in
    hand (diamonds draws as many as it discards) and every card drawn (``diamonds``: at most
    two per diamonds use).

    Counted as if no reshuffle came, every card drawn is one of the deck's top cards: before
    a clubs use, at most the topics of the cards answered (all but the club kept for it) and
    the cards drawn so far have left the deck, so the clubs in hand then are at most those
    held now and those among that many top cards. If the reach counted so is no more than
    the deck holds, no reshuffle comes: were one card more needed, the cards before it would
    all have come from the deck's top, so the count holds for them and they are fewer.
    Otherwise the clubs in hand are at most those not won here (won debates stay out until
    the kingdom ends)."""
    cards = p.hand.bit_count()
    uses = _uses_left(p, CLUBS, ready)
    if not uses:
        return 0, (cards + diamonds if cards + diamonds <= len(p.deck) else -1)
    held = (p.hand & CLUBS_MASK).bit_count()
    deck = p.deck
    size = len(deck)
    growth = 0
    for _ in range(uses):
        region = min(size, cards - 1 + 2 * growth + diamonds)
        top = sum(1 for c in deck[size - region :] if c // 13 == CLUBS) if region > 0 else 0
        growth += held + min(diamonds + growth, top)
    reach = cards + 2 * growth + diamonds
    if reach <= size:
        return growth, reach
    free = 8 - (p.scoring & CLUBS_MASK).bit_count()
    return _growth(uses, held, free, diamonds), -1


def _winners(p: Pos, ready: list[int], reach: int = -1) -> int:
    """At most how many cards of the hand can still win a debate. A card of a suit that is
    or can become trump (spades brings an unvisited kingdom's trump here) may. Any other card
    needs a lower card of its suit raised as a topic. With ``reach`` (no reshuffle can come:
    at most the deck's top ``reach`` cards leave it in this kingdom), each of those is raised
    once at most, so the cards of a suit win at most as many debates as a matching of them to
    lower topics among those cards holds. Otherwise (``reach`` -1) any card not won here may
    still be raised (lost and discarded cards come back when the discard pile is shuffled
    into a deck), as often as the reshuffles bring it."""
    trumps = 1 << _suit(p.rulers[p.visiting])
    if _uses_left(p, SPADES, ready):
        for k in range(KINGDOMS):
            if not p.visited >> k & 1:
                trumps |= 1 << _suit(p.rulers[k])
    hand = p.hand
    if reach >= 0:
        deck = p.deck
        topics = 0
        for card in deck[len(deck) - reach :]:
            topics |= 1 << card
        count = 0
        for suit in range(4):
            cards = hand >> 13 * suit & 0xFF
            if trumps >> suit & 1:
                count += cards.bit_count()
            elif cards:
                count += MATCHED[cards << 8 | topics >> 13 * suit & 0xFF]
        return count
    topics = ~p.scoring
    count = 0
    while hand:
        low = hand & -hand
        hand ^= low
        card = low.bit_length() - 1
        suit = card // 13
        if trumps >> suit & 1 or topics & (low - SUIT_LOW[suit]):
            count += 1
    return count


def _fit(p: Pos, k: int) -> tuple[int, int]:
    """How far a plain greedy play of the known topics lands from kingdom ``k``'s target
    (0: it hits it), for the order kingdoms are tried in: win while wins are wanted with the
    cheapest winning card, else lose with the dearest losing card."""
    trump = _suit(p.rulers[k])
    target = k + 1
    hand = p.hand
    deck = p.deck
    wins = 0
    i = len(deck) - 1
    while hand and i >= 0:
        topic = deck[i]
        i -= 1
        options = set_bits(hand & SUIT_MASK[_suit(topic)] or hand)
        winning = [c for c in options if _beats(c, topic, trump)]
        losing = [c for c in options if not _beats(c, topic, trump)]
        if wins < target and winning:
            card = winning[0]
        elif losing:
            card = losing[-1]
        else:
            card = winning[0]
        if _beats(card, topic, trump):
            wins += 1
        hand ^= 1 << card
    return abs(wins - target), -target


def _position(state: EmissaryState) -> Pos:
    hand = 0
    for card in state.hand:
        hand |= 1 << card
    discard = 0
    for card in state.discard:
        discard |= 1 << card
    return Pos(
        tuple(int(c) for c in state.deck),
        state.rng.state,
        hand,
        discard,
        state.wins,
        sum(1 << c for c in state.scoring),
        state.jacks_used,
        state.spent,
        tuple(int(c) for c in state.rulers),
        tuple(state.won),
        state.visited,
        -1 if state.visiting is None else state.visiting,
    )


def _replay(state: EmissaryState, line: list[str]) -> tuple[list[str], State]:
    end = state.clone()
    for move in line:
        end.apply(move)
    return list(line), end


def bound(
    state: State, seconds: float = 2.0, optimise_score: bool = True, max_nodes: int | None = None
) -> Bound:
    """The clairvoyant bound of an Emissary position: won (with a line and its score, the best
    proved with ``optimise_score``), cannot be won, or unknown when the allowance runs out."""
    if not isinstance(state, EmissaryState):
        raise RulesError("this solver solves The Emissary")
    allowance = Allowance(seconds, max_nodes)
    if state.is_over:
        return finished_bound(state)
    solver = Solver(allowance)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        return prove(
            allowance,
            lambda need: solver.solve(state, need),
            lambda: _replay(state, solver.line),
            optimise_score,
        )
    finally:
        sys.setrecursionlimit(limit)
