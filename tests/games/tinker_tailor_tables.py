"""Tinker Tailor test tables: stacked decks, a chosen starting player, scripted drafts, and
cards handed to a seat before play. The other test_tinker_tailor files import these."""

from __future__ import annotations

from functools import cache

import spyglass
from spyglass.games.tinker_tailor.cards import (
    Card,
    goods_deck,
    money_deck,
    parse_card,
    role_deck,
)
from spyglass.games.tinker_tailor.knowledge import deck_of, degrade, minus
from spyglass.games.tinker_tailor.rules import TinkerTailorState

GAME = spyglass.load("tinker-tailor")


@cache
def seed_with_start(players: int, start: int) -> int:
    """A seed whose randomly chosen starting player is ``start``."""
    for seed in range(200):
        if GAME.new_state(players=players, seed=seed).start == start:
            return seed
    raise AssertionError("no seed found")


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def stacked(top: str, contents: list[Card]) -> list[Card]:
    """``top`` first (cards may repeat, as goods and money do), then the rest in order."""
    head = cards(top)
    rest = list(contents)
    for card in head:
        rest.remove(card)
    return head + rest


def table(
    players: int = 3, start: int = 0, money: str = "", goods: str = "", roles: str = ""
) -> TinkerTailorState:
    """A new game with each deck's top cards stacked (the money market is dealt first, then
    the goods market, then the 5-player draws; round 1's role cards come from ``roles``)."""
    decks = {
        "money": stacked(money, money_deck()),
        "goods": stacked(goods, goods_deck()),
        "roles": stacked(roles, role_deck()),
    }
    state = GAME.new_state(players=players, seed=seed_with_start(players, start), deck=decks)
    assert isinstance(state, TinkerTailorState)
    assert state.start == start
    return state


def give(state: TinkerTailorState, seat: int, text: str, face_down: bool = False) -> None:
    """Deal cards from the decks to a seat, face up (as if they were taken from the market
    earlier in the game): for positions the rules would take many rounds to reach. Face down,
    nobody else sees them (as if drawn from the deck earlier): for cards no other seat can
    place."""
    for card in cards(text):
        deck = state.goods_deck if card.is_goods else state.money_deck
        deck.remove(card)
        if face_down:
            if card.is_goods:
                state.goods_deck_known = degrade(state.goods_deck_known, True)
            else:
                state.money_deck_known = degrade(state.money_deck_known, False)
            state.hands[seat][card] += 1
            continue
        if card.is_goods:
            state.goods_deck_known = minus(state.goods_deck_known, card)
        else:
            state.money_deck_known = minus(state.money_deck_known, card)
        state._seen_move(deck_of(card.is_goods), card, None, gained=False)
        state._gain(seat, card)
    state._legal = state.offered = None


def draft(state: TinkerTailorState, *moves: str) -> None:
    """Apply draft moves in order: a role name means 'pick' it, '-name' means 'discard' it."""
    for m in moves:
        state.apply(f"discard {m[1:]}" if m.startswith("-") else f"pick {m}")


def hand(state: TinkerTailorState, seat: int) -> list[str]:
    """A seat's goods and money, in code order (goods first)."""
    held = state.hands[seat]
    return [str(Card(code)) for code, n in enumerate(held) for _ in range(n)]


def goods_market(state: TinkerTailorState) -> list[str]:
    return state.view(None)["table"]["goods_market"]


def money_market(state: TinkerTailorState) -> list[str]:
    return state.view(None)["table"]["money_market"]


def legal(state: TinkerTailorState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def called(state: TinkerTailorState) -> str:
    """The role being performed now."""
    return str(state.acting) if state.acting is not None else ""
