"""Tinker Tailor for learning libraries: roles, money and goods, with seats as targets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine.encoding import (
    ActionKind,
    Category,
    Each,
    Encoding,
    Labelled,
    Number,
    Scoring,
    Zone,
    multisets_of,
    pairs_of,
    singles,
    unique,
    vocabulary,
)

from .rules import ROUNDS, TinkerTailorState

#: The decisions the status line names, in the words it uses (views.status).
DECISIONS = (
    "keeps one of",
    "discards one role card",
    "takes from the market",
    "may swap goods",
    "gives one of the goods taken",
    "chooses the card to keep",
    "chooses whom to rob",
    "gives a card of their choice",
    "may sell goods",
    "takes money for the goods sold",
    "names a player",
    "chooses a left-over role",
    "may buy goods",
)
NOTES = ("", "starting player", "starting player, to decide", "to decide")
#: The most money cards one purchase can pay with (a hand never holds more coins than this).
MAX_PAID = 6
#: The most slots a market has (players + 2, at most 8).
MARKET = 8


def encoding(options: Mapping[str, Any], players: int) -> Encoding:
    decks = TinkerTailorState.deck_contents(options, players)
    cards = vocabulary(decks)
    goods, money, roles = decks["goods"], decks["money"], decks["roles"]
    seats = tuple(range(players))
    # A purchase names the good first, then the money paid for it (in any order).
    purchases = tuple(
        (good, *paid) for good in unique(goods) for paid in multisets_of(money, range(MAX_PAID + 1))
    )
    return Encoding(
        cards=cards,
        actions=(
            ActionKind("pick", singles(roles)),
            ActionKind("discard", singles(roles)),
            ActionKind("perform", singles(roles)),
            ActionKind("take", singles([*goods, *money])),
            ActionKind("done"),
            ActionKind("buy", purchases, ordered=1),
            ActionKind("pay", singles(money)),
            ActionKind("change", singles(money)),
            ActionKind("keep", singles(goods)),
            ActionKind("sell", singles(goods)),
            ActionKind("name", singles(goods), seats),
            ActionKind("give", singles([*goods, *money]), seats),
            ActionKind("rob", targets=seats),
            ActionKind("swap", pairs_of(goods), ordered=2),
        ),
        observation=(
            # The decision being waited for: the status line names it ("may sell goods").
            Category("status", DECISIONS, contains=True),
            Number("round", 6, (0, max(ROUNDS.values()) / 6)),
            Category("starting_player", seats),
            Each("roles", players, (Zone("cards"), Category("note", NOTES))),
            Zone("draft_hand"),
            Zone("leftover"),
            # A market slot shows a card, "pirate" (read as the Pirate) or "empty" (a mark).
            Zone("money_market", most=MARKET),
            Zone("goods_market", most=MARKET),
            Number("piles.goods deck", 78),
            Number("piles.money deck", 20),
            Number("piles.pirate cards left", 4),
            Zone("goods_discard"),
            Zone("money_discard"),
            Zone("looking"),
            Zone("your_goods"),
            Zone("your_money"),
            Number("your_points", 50, (0, 3)),
            Number("credit", 10),
            Each("final_hands", players, (Zone("cards"), Number("note", 50, (0, 3)))),
            # The role the rhyme has reached ("▶ Soldier (seat 0)").
            Labelled("rhyme", " · ", ("▶",), (Zone(""),)),
            # Every role card this seat has held in this round's draft (its text names them).
            Zone("draft_seen", most=len(roles)),
            # What the seat has seen of other hands: "seat 1 holds at least 1 2; seat 2 ...".
            Labelled("known", "; ", tuple(f"seat {s} holds at least" for s in seats), (Zone(""),)),
            # A role's test: "for the Rich Man, money cards held: seat 0 3, seat 1 2".
            Labelled(
                "revealed",
                "[,:] ",
                ("money cards held", "goods cards held", *(f"seat {s} " for s in seats)),
                (Number("", 10, (0, 10)),),
            ),
        ),
        # A seat's points; 150 is beyond any hand seen in self-play.
        scoring=Scoring(points=(0, 150), text="points"),
    )
