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

    __slots__ = ("board", "deck", "discard", "hand", "laid", "ones", "phase", "scoring", "topic")

    def __init__(self) -> None:
        self.phase = -1  # the phase's entry; -1 none
        # (rulers, kingdoms won, the one visited, advisors used, supporters spent): what the
        # kingdoms, the allies, advisors and supporters are written from; their entries.
        self.board: tuple[Any, ...] | None = None
        self.ones: list[int] = []
        self.laid = 0  # supporters turned face down
        self.topic = -1  # the topic's entry; -1 none
        self.hand: list[Any] = []  # the cards of each zone
        self.scoring: list[Any] = []
        self.deck: list[Any] = []
        self.discard: list[Any] = []


def observer(encoder: Any) -> Any:
    """The observation straight from the state (the view's features, without the view), kept
    per table: between two steps a card leaves the hand for the discard pile or the kingdom's
    debates won, the deck loses its top cards, and now and then a kingdom is visited or won or
    an advisor turned; each group of entries is compared with what it was written from and
    only what changed is written again."""
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

    def board(rulers: list[Any], won: list[int], at: int | None, used: int, spent: int) -> Any:
        """The entries set to 1 of the kingdoms, the one visited and its trump, the allies,
        advisors and supporters; and how many supporters are face down."""
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
        for i, j in enumerate(jacks):
            if not used >> i & 1:
                ones += [allies + j, advisors + j]
        laid = 0
        for k in won:
            ruler = rulers[k]
            if spent >> k & 1:
                laid += 1
                ones.append(spent_at + slot[ruler])
            else:
                ones += [allies + zone + slot[ruler], ready + slot[ruler]]
        return ones, laid

    def update(state: EmissaryState, seat: int, memo: Written, out: Any) -> None:
        memo.phase = switch(out, memo.phase, phases.get(state.phase, -1))
        won = state.won
        now = (tuple(state.rulers), tuple(won), state.visiting, state.jacks_used, state.spent)
        if now != memo.board:
            for i in memo.ones:
                out[i] = 0.0
            ones, memo.laid = board(state.rulers, won, *now[2:])
            for i in ones:
                out[i] = 1.0
            out[allies + n] = bin(state.jacks_used & _JACK_BITS).count("1")
            out[allies + zone + n] = memo.laid
            memo.board, memo.ones = now, ones
        memo.topic = switch(
            out, memo.topic, -1 if state.topic is None else topic + slot[state.topic]
        )
        keep(out, hand, state.hand, memo.hand)
        keep(out, won_here, state.scoring, memo.scoring)
        keep(out, contents, state.deck, memo.deck)
        keep(out, discard, state.discard, memo.discard)
        out[wins] = state.wins / 8
        out[deck] = len(state.deck) / 32
        out[score] = (2 * len(won) - memo.laid) / 8

    return encoder.kept(Written, update)
