"""Tinker Tailor for learning libraries: roles, money and goods, with seats as targets."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spyglass.engine.learner_spec import (
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

from . import views
from .cards import CARDS, HAND_SIZE, MONEY_START, ROLE_CARDS, TITLES
from .draft import DISCARD, PICK, Draft
from .perform import BUY, CASH
from .rules import ROUNDS, TinkerTailorState
from .scoring import total

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
#: The role titles as the rhyme line writes them (two words for some: "Rich Man").
RHYME = tuple(TITLES[c] for c in ROLE_CARDS)


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
            # The role the rhyme has reached ("▶ Rich Man (seat 0)"), by its title.
            Labelled("rhyme", " · ", ("▶",), (Category("", RHYME, prefix=True, name="role"),)),
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
        observer=observer,
    )


def observer(encoder: Any) -> Callable[[TinkerTailorState, int, Any], None]:
    """The observation straight from the state: each feature of ``views.table_view`` written
    from what that view reads (the texts of the view are parsed only where they are the
    source: the status line)."""
    at = encoder.at
    players = encoder.players
    n = len(encoder.cards)
    zone = n + 2
    down = n  # a zone's face-down entry
    slot = [encoder.card_slot(c) for c in CARDS]  # by card code
    status_at, round_at, start_at, roles_at = (
        at(p) for p in ("status", "round", "starting_player", "roles")
    )
    draft_hand, leftover_at, money_market, goods_market = (
        at(p) for p in ("draft_hand", "leftover", "money_market", "goods_market")
    )
    goods_deck, money_deck, pirates = (
        at(f"piles.{p}") for p in ("goods deck", "money deck", "pirate cards left")
    )
    goods_discard, money_discard, looking = (
        at(p) for p in ("goods_discard", "money_discard", "looking")
    )
    your_goods, your_money, your_points, credit_at, final_at = (
        at(p) for p in ("your_goods", "your_money", "your_points", "credit", "final_hands")
    )
    rhyme_at, seen_at, known_at, revealed_at = (
        at(p) for p in ("rhyme", "draft_seen", "known", "revealed")
    )
    row = zone + len(NOTES)  # a seat's row of roles: its cards, then its note
    known_stride = 1 + zone
    revealed = encoder.feature_at("revealed")
    revealed_label = {label: i for i, label in enumerate(revealed.labels)}
    empty = encoder.text_entries("")  # an empty text counts as a mark
    # A market slot: a card code, a pirate (below zero) or None (empty), as the view names it.
    pirate, nothing = encoder.text_entries(views.PIRATE), encoder.text_entries(views.EMPTY)
    decisions: dict[str, int | None] = {}  # status text -> the decision it names
    drafts: dict[tuple[Draft, int], tuple[list[list[Any]], list[Any], list[int]]] = {}

    def decision(text: str) -> int | None:
        found = decisions.get(text, -1)
        if found == -1:
            found = next((i for i, d in enumerate(DECISIONS) if d in text), None)
            if len(decisions) < 4096:
                decisions[text] = found
        return found

    def draft_of(draft: Draft, seat: int) -> tuple[list[list[Any]], list[Any], list[int]]:
        """Per draft (a new record at every choice) and seat: each seat's roles, the roles
        left over, and the zone entries of the hands this seat chose from."""
        key = (draft, seat)
        found = drafts.get(key)
        if found is None:
            seen: list[int] = []
            for hand, choice, _verb in draft.seen(seat):
                if choice is not None:
                    seen += [slot[c] for c in hand]
                    seen.append(slot[choice])
            found = (draft.picks(), draft.leftover(), seen or list(empty))
            if len(drafts) >= 1024:
                drafts.clear()
            drafts[key] = found
        return found

    def market(values: dict[int, float], start: int, slots: list[int | None]) -> None:
        for s in slots:
            for i in nothing if s is None else pirate if s < 0 else (slot[s],):
                values[start + i] = values.get(start + i, 0.0) + 1.0

    def count(values: dict[int, float], start: int, cards: Any) -> None:
        for c in cards:
            at = start + slot[c]
            values[at] = values.get(at, 0.0) + 1.0

    def observe(state: TinkerTailorState, seat: int, out: Any) -> None:
        p = state.pending
        over = state.phase == "over"
        values: dict[int, float] = {
            round_at: state.round / 6,
            goods_deck: len(state.goods_deck) / 78,
            money_deck: len(state.money_deck) / 20,
            pirates: state.pirates_left() / 4,
        }
        found = decision(views.status(state))
        if found is not None:
            values[status_at + found] = 1.0
        if state.start in range(players):
            values[start_at + state.start] = 1.0
        picks, left, seen = draft_of(state.draft, seat)
        shown = views.called(state)
        for s, held in enumerate(picks[:players]):
            start = roles_at + s * row
            for r in held:
                at = start + (slot[r] if r in shown or s == seat else down)
                values[at] = values.get(at, 0.0) + 1.0
            note = (s == state.start) + 2 * (p is not None and p.seat == s)
            values[start + zone + (0, 1, 3, 2)[note]] = 1.0
        if p is not None and p.kind in (PICK, DISCARD) and p.seat == seat:
            count(values, draft_hand, state.draft.hand())
        sees = state.phase != "draft" and any(
            state.holder[a.index] == seat and state.rhyme >= a.index for a in views.ACT_ROLES
        )
        for c in left:
            at = leftover_at + (slot[c] if sees or c == state.acted else down)
            values[at] = values.get(at, 0.0) + 1.0
        market(values, money_market, state.money_market)
        market(values, goods_market, state.goods_market)
        count(values, goods_discard, state.goods_discard)
        count(values, money_discard, state.money_discard)
        if seat == state.performer:
            count(values, looking, state.looking)
        hand = state.hands[seat]
        for code in range(HAND_SIZE):
            copies = hand[code]
            if copies:
                values[(your_goods if code < MONEY_START else your_money) + slot[code]] = copies
        values[your_points] = total(hand) / 50
        if p is not None and p.kind in (BUY, CASH):
            values[credit_at] = p.credit / 10
        if over:
            for s, cards in enumerate(state.hands[:players]):
                start = final_at + s * (zone + 1)
                for code in range(HAND_SIZE):
                    if cards[code]:
                        values[start + slot[code]] = cards[code]
                values[start + zone] = total(cards) / 50
        elif state.phase != "draft" and 0 <= state.rhyme < len(ROLE_CARDS):
            # The rhyme line marks the role it has reached.
            values[rhyme_at] = 1.0
            values[rhyme_at + 1 + state.rhyme] = 1.0
        if not over:
            for i in seen:
                values[seen_at + i] = values.get(seen_at + i, 0.0) + 1.0
            knowledge = state.known[seat]
            for s in range(players):  # one label per seat: "seat 1 holds at least ..."
                known = knowledge[s]
                start = known_at + s * known_stride
                if s != seat and any(known):
                    values[start] = 1.0
                    for code in range(HAND_SIZE):
                        if known[code]:
                            values[start + 1 + slot[code]] = known[code]
        else:
            for i in empty:
                values[seen_at + i] = 1.0
        if state.reveal is not None:
            _role, what, counts = state.reveal
            kind = revealed_label.get(f"{what} cards held")
            if kind is not None:
                values[revealed_at + 2 * kind] = 1.0
            for s, number in enumerate(counts):
                label = revealed_label.get(f"seat {s} ")
                if label is not None:
                    values[revealed_at + 2 * label] = 1.0
                    values[revealed_at + 2 * label + 1] = number / 10
        encoder.put_values(out, values)

    return observe
