"""What each seat sees of the table (its view), as plain JSON.

A seat sees both markets, the discard piles, the sizes of the decks, its own goods, money and
role cards, the roles revealed as the rhyme calls them, the hands of role cards passed to it in
the draft, and what it knows for certain of the others' cards. It never sees another seat's
goods or money, nor how many it holds, except when a role makes everyone reveal a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import GOODS_CARDS, NAMES, ROLE_CARDS, Card, expand, names
from .draft import DISCARD, PICK
from .edition import EDITION
from .perform import (
    ACT_ROLES,
    BUY,
    CASH,
    EXCHANGE,
    GIFT,
    KEEP,
    NAME,
    PERFORM,
    ROB,
    SELL,
    SURRENDER,
    TAKE,
)
from .scoring import breakdown, collections, money_total, set_points

if TYPE_CHECKING:
    from .rules import TinkerTailorState

PIRATE, EMPTY = "pirate", "empty"


def market_names(market: list[int | None]) -> list[str]:
    return [EMPTY if s is None else PIRATE if s < 0 else NAMES[s] for s in market]


def called(state: TinkerTailorState) -> frozenset[Card]:
    """The roles the rhyme has reached this round (their holders have revealed them)."""
    if state.phase == "draft":
        return frozenset()
    return frozenset(ROLE_CARDS[: state.rhyme + 1])


def table_view(state: TinkerTailorState, observer: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    hand = state.hands[observer] if observer is not None else None
    p = state.pending
    return {
        "edition": EDITION.label,
        "round": f"{state.round} of {state.rounds}",
        "starting_player": state.start,
        "status": status(state),
        "rhyme": rhyme_line(state),
        "roles": role_rows(state, observer),
        "draft_hand": names(state.draft.hand())
        if p is not None and p.kind in (PICK, DISCARD) and p.seat == observer
        else [],
        "draft_seen": draft_seen(state, observer),
        "leftover": leftover(state, observer),
        "money_market": market_names(state.money_market),
        "goods_market": market_names(state.goods_market),
        "prices": " · ".join(f"{g} {g.cost}" for g in GOODS_CARDS),
        "piles": {
            "goods deck": len(state.goods_deck),
            "money deck": len(state.money_deck),
            "pirate cards left": state.pirates_left(),
        },
        "goods_discard": names(state.goods_discard),
        "money_discard": names(state.money_discard),
        "looking": names(state.looking)
        if observer is not None and observer == state.performer
        else [],
        "your_goods": names(c for c in expand(hand) if c.is_goods) if hand else [],
        "your_money": names(c for c in expand(hand) if c.is_money) if hand else [],
        "your_points": points_text(hand) if hand else "",
        "credit": p.credit if p is not None and p.kind in (BUY, CASH) else "",
        "revealed": revealed_text(state),
        "known": known_text(state, observer) if not over else "",
        "final_hands": final_hands(state) if over else [],
    }


def points_text(hand: list[int]) -> str:
    sets = sum(set_points(g, hand[g]) for g in GOODS_CARDS)
    bonus = EDITION.collection_points * collections(hand)
    money = money_total(hand)
    half = (money + 1) // 2
    return (
        f"{sets + bonus + half} (sets {sets}, collections {bonus}, money {half} for {money} coins)"
    )


def rhyme_line(state: TinkerTailorState) -> str:
    shown = called(state)
    parts = []
    for i, role in enumerate(ROLE_CARDS):
        text = role.title
        if role in shown:
            holder = state.holder[i]
            text += f" ({'seat ' + str(holder) if holder >= 0 else '–'})"
            if i == state.rhyme and state.phase != "over":
                text = "▶ " + text
        parts.append(text)
    return " · ".join(parts)


def role_rows(state: TinkerTailorState, observer: int | None) -> list[dict[str, Any]]:
    shown = called(state)
    picks = state.draft.picks()
    rows = []
    p = state.pending
    for seat in range(state.players):
        # Revealed roles first, in rhyme order, so the order of picking leaks nothing.
        held = sorted(picks[seat])
        cards = [str(r) for r in held if r in shown] + [
            str(r) if seat == observer else None for r in held if r not in shown
        ]
        notes = []
        if seat == state.start:
            notes.append("starting player")
        if p is not None and p.seat == seat:
            notes.append("to decide")
        title = f"seat {seat}" + (" (you)" if seat == observer else "")
        rows.append({"title": title, "cards": cards, "note": ", ".join(notes)})
    return rows


def draft_seen(state: TinkerTailorState, observer: int | None) -> str:
    """The hands this seat chose from earlier in this round's draft, and what it chose."""
    if observer is None or state.phase == "over":
        return ""
    parts = []
    for hand, choice, verb in state.draft.seen(observer):
        if choice is not None:
            kept = "kept" if verb == PICK else "discarded"
            parts.append(f"{' '.join(names(hand))} → {kept} {choice}")
    return "; ".join(parts)


def leftover(state: TinkerTailorState, observer: int | None) -> list[str | None]:
    """The role cards left over, face down: the Actor's holder sees them once it is called, and
    everyone sees the one it performs. Shown cards come first, so order leaks nothing."""
    cards = state.draft.leftover()
    sees = (
        observer is not None
        and any(state.holder[a.index] == observer and state.rhyme >= a.index for a in ACT_ROLES)
        and state.phase != "draft"
    )
    shown = [str(c) for c in cards if sees or c == state.acted]
    return shown + [None] * (len(cards) - len(shown))


def revealed_text(state: TinkerTailorState) -> str:
    if state.reveal is None:
        return ""
    role, what, counts = state.reveal
    listed = ", ".join(f"seat {s} {c}" for s, c in enumerate(counts))
    return f"for the {role}, {what} cards held: {listed}"


def known_text(state: TinkerTailorState, observer: int | None) -> str:
    row = state.known[observer] if observer is not None else state.public
    parts = []
    for seat in range(state.players):
        if seat == observer:
            continue
        cards = expand(row[seat])
        if cards:
            parts.append(f"seat {seat} holds at least {' '.join(names(cards))}")
    return "; ".join(parts)


def final_hands(state: TinkerTailorState) -> list[dict[str, Any]]:
    rows = []
    for seat, hand in enumerate(state.hands):
        b = breakdown(hand)
        rows.append(
            {
                "title": f"seat {seat}",
                "cards": names(expand(hand)),
                "note": f"{b['total']} points",
            }
        )
    return rows


STATUS = {
    TAKE: "takes from the market",
    EXCHANGE: "may swap goods with the market",
    GIFT: "gives one of the goods taken",
    KEEP: "chooses the card to keep",
    ROB: "chooses whom to rob",
    SURRENDER: "gives a card of their choice to the performer",
    SELL: "may sell goods",
    CASH: "takes money for the goods sold",
    NAME: "names a player and a kind of goods",
    PERFORM: "chooses a left-over role to perform",
    BUY: "may buy goods",
}


def status(state: TinkerTailorState) -> str:
    p = state.pending
    if state.phase == "over":
        return state.result.summary if state.result else "the game is over"
    if p is None:
        return ""
    if p.kind == PICK:
        return f"the draft: seat {p.seat} keeps one of {len(state.draft.hand())} role cards"
    if p.kind == DISCARD:
        return f"the draft: seat {p.seat} discards one role card and hands the other back"
    role = state.acting.title if state.acting is not None else "the role"
    if p.kind == BUY:
        credit = f" (credit {p.credit})" if p.credit else ""
        return f"after the {role}, seat {p.seat} may buy goods{credit}"
    if p.kind == SURRENDER:
        return f"{role} (seat {state.performer}): seat {p.seat} gives a card of their choice"
    what = STATUS.get(p.kind, "decides")
    if p.kind == CASH:
        what += f" (worth up to {p.credit})"
    return f"{role}: seat {p.seat} {what}"
