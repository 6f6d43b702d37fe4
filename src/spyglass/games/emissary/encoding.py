"""The Emissary for learning libraries: eight kingdoms, a hand, advisors and supporters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.learner_spec import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Number,
    Scoring,
    Zone,
    sets_of,
    singles,
    vocabulary,
)

from .rules import JACKS, KINGDOMS, SUIT, SUITS, EmissaryState

TRUMPS = ("S", "H", "C", "D")
PHASES = ("choose", "gap", "respond", "discard", "over")
#: The advisors' bits in ``jacks_used`` (one per Jack, in the order of JACKS).
_JACK_BITS = (1 << len(JACKS)) - 1


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    decks = EmissaryState.deck_contents(options, players)
    # The jacks are the advisors: they are dealt out of no deck, yet they are cards.
    cards = vocabulary(decks, *JACKS)
    kingdoms = tuple(range(1, KINGDOMS + 1))
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("visit", targets=kingdoms),
            ActionKind("debate"),
            ActionKind("ability", singles([*decks["rulers"], *JACKS]), (None, *kingdoms)),
            ActionKind("answer", singles(decks["deck"])),
            ActionKind("discard", sets_of(decks["deck"], [2])),
        ),
        observation=(
            Category("phase", PHASES),
            Each(
                "kingdoms",
                KINGDOMS,
                (Zone("cards"), Category("state", ("unvisited", "visiting", "won"))),
            ),
            Category("visiting", kingdoms),
            Category("trump", TRUMPS),
            Number("wins", 8),
            Zone("topic"),
            Zone("hand"),
            Each("allies", 2, (Zone("cards"),)),
            Zone("advisors_ready"),
            Zone("supporters_ready"),
            Zone("supporters_spent"),
            Zone("won_here"),
            Number("deck", 32),
            Zone("deck_contents"),
            Zone("discard"),
            Number("score", 8, bounds=(0, 2)),
        ),
        # Kingdoms won plus supporters unused: a win has all eight kingdoms.
        scoring=Scoring(won=(8, 16), lost=(0, 15), text="kingdoms won plus supporters unused"),
        observer=observer,
    )


class Written:
    """What a table's kept vector was written from (``GameEncoding.kept``)."""

    __slots__ = (
        "advisors",
        "advisors_used",
        "deck",
        "discard",
        "hand",
        "kingdoms",
        "kingdoms_key",
        "laid",
        "phase",
        "scoring",
        "supporters",
        "supporters_key",
        "topic",
    )

    def __init__(self) -> None:
        self.phase = -1  # the phase's entry; -1 none
        # The kingdoms, the one visited and its trump: written from (rulers, kingdoms won,
        # the one visited); their entries set to 1.
        self.kingdoms_key: tuple[Any, ...] | None = None
        self.kingdoms: list[int] = []
        # The advisors ready (and among the allies): written from the advisors used.
        self.advisors_used = -1
        self.advisors: list[int] = []
        # The supporters, ready or spent: written from (rulers, kingdoms won, spent).
        self.supporters_key: tuple[Any, ...] | None = None
        self.supporters: list[int] = []
        self.laid = 0  # supporters turned face down
        self.topic = -1  # the topic's entry; -1 none
        self.hand: list[Any] = []  # the cards of each zone
        self.scoring: list[Any] = []
        self.deck: list[Any] = []
        self.discard: list[Any] = []


def _rewrite(out: Any, was: list[int], now: list[int]) -> list[int]:
    """Entries set to 1: ``was`` cleared, ``now`` set; returns ``now``."""
    for i in was:
        out[i] = 0.0
    for i in now:
        out[i] = 1.0
    return now


def observer(encoder: Any) -> Any:
    """The observation straight from the state (the view's features, without the view), kept
    per table: between two steps a card leaves the hand for the discard pile or the kingdom's
    debates won, the deck loses its top cards, and now and then a kingdom is visited or won,
    an advisor turned or a supporter spent. Each group of entries is compared (in C) with what
    it was written from and only what changed is written again."""
    at = encoder.at
    names = (
        "phase",
        "kingdoms",
        "visiting",
        "trump",
        "wins",
        "topic",
        "hand",
        "allies",
        "advisors_ready",
        "supporters_ready",
        "supporters_spent",
        "won_here",
        "deck",
        "deck_contents",
        "discard",
        "score",
    )
    (
        phase,
        kingdoms,
        visiting,
        trump,
        wins,
        topic,
        hand,
        allies,
        advisors,
        ready,
        spent_at,
        won_here,
        deck,
        contents,
        discard,
        score,
    ) = (at(p) for p in names)
    n = len(encoder.cards)
    zone = n + 2
    row = zone + 3  # a kingdom's cards, then its state
    phases = {p: phase + i for i, p in enumerate(PHASES)}
    trumps = {t: trump + i for i, t in enumerate(TRUMPS)}
    jacks = [encoder.card_slot(j) for j in JACKS]
    slot = encoder.card_slots
    keep, switch = encoder.keep_cards, encoder.switch
    # The advisors ready for each set of advisors used (a bit per Jack), and how many are
    # face down.
    ready_advisors = [
        [e for i, j in enumerate(jacks) if not used >> i & 1 for e in (allies + j, advisors + j)]
        for used in range(1 << len(JACKS))
    ]
    down = [bin(used).count("1") for used in range(1 << len(JACKS))]

    def shown_kingdoms(rulers: list[Any], won: list[int], at: int | None) -> list[int]:
        """The kingdoms' entries: a won kingdom's card face down, each one's state; the one
        visited and its trump."""
        ones = []
        for k, ruler in enumerate(rulers):
            start = kingdoms + k * row
            if k in won:
                ones += [start + n, start + zone + 2]
            else:
                ones += [start + slot[ruler], start + zone + (k == at)]
        if at is not None:
            ones.append(visiting + at)
            suit = SUITS[SUIT[rulers[at]]]
            if suit in trumps:
                ones.append(trumps[suit])
        return ones

    def update(state: EmissaryState, seat: int, memo: Written, out: Any) -> None:
        # Everything compared here first (in C), a call made only for what changed: most
        # steps change one or two lists.
        now_phase = phases.get(state.phase, -1)
        if now_phase != memo.phase:
            memo.phase = switch(out, memo.phase, now_phase)
        rulers, won = state.rulers, state.won
        key = (tuple(rulers), tuple(won), state.visiting)
        if key != memo.kingdoms_key:
            memo.kingdoms = _rewrite(out, memo.kingdoms, shown_kingdoms(rulers, won, key[2]))
            memo.kingdoms_key = key
        used = state.jacks_used & _JACK_BITS
        if used != memo.advisors_used:
            memo.advisors = _rewrite(out, memo.advisors, ready_advisors[used])
            out[allies + n] = down[used]
            memo.advisors_used = used
        spent = state.spent
        key = (key[0], key[1], spent)
        if key != memo.supporters_key:
            supporters, laid = [], 0
            for k in won:
                ruler = rulers[k]
                if spent >> k & 1:
                    laid += 1
                    supporters.append(spent_at + slot[ruler])
                else:
                    supporters += [allies + zone + slot[ruler], ready + slot[ruler]]
            memo.supporters = _rewrite(out, memo.supporters, supporters)
            out[allies + zone + n] = memo.laid = laid
            memo.supporters_key = key
        now_topic = -1 if state.topic is None else topic + slot[state.topic]
        if now_topic != memo.topic:
            memo.topic = switch(out, memo.topic, now_topic)
        if state.hand != memo.hand:
            keep(out, hand, state.hand, memo.hand)
        if state.scoring != memo.scoring:
            keep(out, won_here, state.scoring, memo.scoring)
        if state.deck != memo.deck:
            keep(out, contents, state.deck, memo.deck)
        if state.discard != memo.discard:
            keep(out, discard, state.discard, memo.discard)
        out[wins] = state.wins / 8
        out[deck] = len(state.deck) / 32
        out[score] = (2 * len(won) - memo.laid) / 8

    return encoder.kept(Written, update)
