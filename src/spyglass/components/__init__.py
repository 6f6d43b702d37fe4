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
from .loop import Loop

__all__ = [
    "RED_SUITS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "Loop",
    "by_rank",
    "card_list",
    "cards_text",
    "parse_card",
    "parse_cards",
    "stacked",
    "standard_deck",
]
