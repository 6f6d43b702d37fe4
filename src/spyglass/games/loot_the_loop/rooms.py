"""What each card is in the temple of Loot the Loop, and the game's fixed numbers.

Aces are jewels, the number cards trinkets (their rank is the distance they offer), the face
cards traps and the joker the exit. The tables are indexed by card code, for the hot paths.
"""

from __future__ import annotations

from spyglass.components.cards import PER_DECK, Card, by_rank

NOTES_LIMIT = 3
JEWELS_NEEDED = 4
DECK_SIZE = 53

JEWEL, TRINKET, TRAP, EXIT = "jewel", "trinket", "trap", "exit"
EXIT_CARD = Card.joker(1)


def kind_of(card: Card) -> str:
    rank = card.rank
    if rank == 0:
        return EXIT
    if rank == 1:
        return JEWEL
    return TRINKET if rank <= 10 else TRAP


KIND = tuple(kind_of(Card(code)) for code in range(PER_DECK))
RANK = tuple(Card(code).rank for code in range(PER_DECK))
IS_TRINKET = tuple(k == TRINKET for k in KIND)
IS_TRAP = tuple(k == TRAP for k in KIND)
NOTE_ORDER = tuple(by_rank(Card(code)) for code in range(PER_DECK))  # notes listed by rank
