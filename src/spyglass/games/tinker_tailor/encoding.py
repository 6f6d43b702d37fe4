"""Tinker Tailor for learning libraries: roles, money and goods, with seats as targets."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    source: the status line), kept between steps: a part per group of features, rewritten
    only when what it reads changed."""
    at = encoder.at
    players = encoder.players
    n = len(encoder.cards)
    zone = n + 2
    down = n  # a zone's face-down entry
    slot = [encoder.card_slot(c) for c in CARDS]  # by card code
    status_at, round_at, start_at, roles_at = (
        at(p) for p in ("status", "round", "starting_player", "roles")
    )
    draft_hand_at, leftover_at, money_market, goods_market = (
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

    def market(values: dict[int, float], start: int, slots: Any) -> None:
        for s in slots:
            for i in nothing if s is None else pirate if s < 0 else (slot[s],):
                values[start + i] = values.get(start + i, 0.0) + 1.0

    def count(values: dict[int, float], start: int, cards: Any) -> None:
        for c in cards:
            at = start + slot[c]
            values[at] = values.get(at, 0.0) + 1.0

    def held(values: dict[int, float], start: int, hand: Any) -> None:
        """A hand (a count per card code) into the zone at ``start``."""
        for code in range(HAND_SIZE):
            if hand[code]:
                values[start + slot[code]] = hand[code]

    # ---- the parts: what each reads from the state, and the entries it writes from that

    def counters(state: TinkerTailorState, seat: int) -> tuple[Any, ...]:
        found = decision(views.status(state))
        return (
            found,
            state.round,
            len(state.goods_deck),
            len(state.money_deck),
            state.pirates_left(),
            state.start,
        )

    def write_counters(value: tuple[Any, ...]) -> dict[int, float]:
        found, rounds, goods, money, pirates_left, start = value
        values = {
            round_at: rounds / 6,
            goods_deck: goods / 78,
            money_deck: money / 20,
            pirates: pirates_left / 4,
        }
        if found is not None:
            values[status_at + found] = 1.0
        if start in range(players):
            values[start_at + start] = 1.0
        return values

    def roles(state: TinkerTailorState, seat: int) -> tuple[Any, ...]:
        p = state.pending
        return state.draft, views.called(state), state.start, None if p is None else p.seat, seat

    def write_roles(value: tuple[Any, ...]) -> dict[int, float]:
        draft, shown, start_seat, deciding, seat = value
        picks = draft_of(draft, seat)[0]
        values: dict[int, float] = {}
        for s, cards in enumerate(picks[:players]):
            start = roles_at + s * row
            for r in cards:
                at = start + (slot[r] if r in shown or s == seat else down)
                values[at] = values.get(at, 0.0) + 1.0
            note = (s == start_seat) + 2 * (deciding == s)
            values[start + zone + (0, 1, 3, 2)[note]] = 1.0
        return values

    def draft_hand(state: TinkerTailorState, seat: int) -> tuple[Any, ...]:
        p = state.pending
        if p is not None and p.kind in (PICK, DISCARD) and p.seat == seat:
            return tuple(state.draft.hand())
        return ()

    def leftover(state: TinkerTailorState, seat: int) -> tuple[Any, ...]:
        sees = state.phase != "draft" and any(
            state.holder[a.index] == seat and state.rhyme >= a.index for a in views.ACT_ROLES
        )
        return state.draft, seat, sees, state.acted

    def write_leftover(value: tuple[Any, ...]) -> dict[int, float]:
        draft, seat, sees, acted = value
        values: dict[int, float] = {}
        for c in draft_of(draft, seat)[1]:
            at = leftover_at + (slot[c] if sees or c == acted else down)
            values[at] = values.get(at, 0.0) + 1.0
        return values

    def markets(state: TinkerTailorState, seat: int) -> tuple[Any, ...]:
        return tuple(state.money_market), tuple(state.goods_market)

    def write_markets(value: tuple[Any, ...]) -> dict[int, float]:
        values: dict[int, float] = {}
        market(values, money_market, value[0])
        market(values, goods_market, value[1])
        return values

    def discards(state: TinkerTailorState, seat: int) -> tuple[Any, ...]:
        return tuple(state.goods_discard), tuple(state.money_discard)

    def write_discards(value: tuple[Any, ...]) -> dict[int, float]:
        values: dict[int, float] = {}
        count(values, goods_discard, value[0])
        count(values, money_discard, value[1])
        return values

    def counted(start: int) -> Callable[[tuple[Any, ...]], dict[int, float]]:
        def write(cards: tuple[Any, ...]) -> dict[int, float]:
            values: dict[int, float] = {}
            count(values, start, cards)
            return values

        return write

    def write_hand(hand: tuple[int, ...]) -> dict[int, float]:
        values = {your_points: total(hand) / 50}
        for code in range(HAND_SIZE):
            if hand[code]:
                values[(your_goods if code < MONEY_START else your_money) + slot[code]] = hand[code]
        return values

    def credit(state: TinkerTailorState, seat: int) -> float:
        p = state.pending
        return p.credit if p is not None and p.kind in (BUY, CASH) else 0

    def final(state: TinkerTailorState, seat: int) -> Any:
        return tuple(map(tuple, state.hands[:players])) if state.phase == "over" else None

    def write_final(hands: Any) -> dict[int, float]:
        values: dict[int, float] = {}
        for s, cards in enumerate(hands or ()):
            start = final_at + s * (zone + 1)
            held(values, start, cards)
            values[start + zone] = total(cards) / 50
        return values

    def rhyme(state: TinkerTailorState, seat: int) -> int:
        # The rhyme line marks the role it has reached, once the draft is over.
        if state.phase not in ("over", "draft") and 0 <= state.rhyme < len(ROLE_CARDS):
            return state.rhyme
        return -1

    def write_rhyme(reached: int) -> list[int]:
        return [] if reached < 0 else [rhyme_at, rhyme_at + 1 + reached]

    def seen(state: TinkerTailorState, seat: int) -> Any:
        return None if state.phase == "over" else (state.draft, seat)

    def write_seen(value: Any) -> dict[int, float]:
        values: dict[int, float] = {}
        for i in empty if value is None else draft_of(*value)[2]:
            values[seen_at + i] = values.get(seen_at + i, 0.0) + 1.0
        return values

    def known(state: TinkerTailorState, seat: int) -> Any:
        if state.phase == "over":
            return None
        return seat, tuple(map(tuple, state.known[seat][:players]))

    def write_known(value: Any) -> dict[int, float]:
        values: dict[int, float] = {}
        if value is None:
            return values
        seat, knowledge = value
        for s, cards in enumerate(knowledge):  # one label per seat: "seat 1 holds at least"
            start = known_at + s * known_stride
            if s != seat and any(cards):
                values[start] = 1.0
                held(values, start + 1, cards)
        return values

    def write_revealed(reveal: Any) -> dict[int, float]:
        values: dict[int, float] = {}
        if reveal is None:
            return values
        _role, what, counts = reveal
        kind = revealed_label.get(f"{what} cards held")
        if kind is not None:
            values[revealed_at + 2 * kind] = 1.0
        for s, cards in enumerate(counts):
            label = revealed_label.get(f"seat {s} ")
            if label is not None:
                values[revealed_at + 2 * label] = 1.0
                values[revealed_at + 2 * label + 1] = cards / 10
        return values

    part = encoder.part
    return encoder.incremental(
        part(
            counters,
            write_counters,
            "status",
            "round",
            "starting_player",
            *(f"piles.{p}" for p in ("goods deck", "money deck", "pirate cards left")),
        ),
        part(roles, write_roles, "roles"),
        part(draft_hand, counted(draft_hand_at), "draft_hand"),
        part(leftover, write_leftover, "leftover"),
        part(markets, write_markets, "money_market", "goods_market"),
        part(discards, write_discards, "goods_discard", "money_discard"),
        part(
            lambda state, seat: tuple(state.looking) if seat == state.performer else (),
            counted(looking),
            "looking",
        ),
        part(
            lambda state, seat: tuple(state.hands[seat]),
            write_hand,
            "your_goods",
            "your_money",
            "your_points",
        ),
        part(credit, lambda left: {credit_at: left / 10}, "credit"),
        part(final, write_final, "final_hands"),
        part(rhyme, write_rhyme, "rhyme"),
        part(seen, write_seen, "draft_seen"),
        part(known, write_known, "known"),
        part(lambda state, seat: state.reveal, write_revealed, "revealed"),
    )
