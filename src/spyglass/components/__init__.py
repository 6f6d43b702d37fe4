"""Reusable table pieces: the standard deck, its notation, multi-deck identity."""

from .cards import (
    RED_SUITS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    by_rank,
    card_list,
    cards_text,
    parse_card,
    parse_cards,
    stacked,
    standard_deck,
)

__all__ = [
    "RED_SUITS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "by_rank",
    "card_list",
    "cards_text",
    "parse_card",
    "parse_cards",
    "stacked",
    "standard_deck",
]
