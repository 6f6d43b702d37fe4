"""The table of Dead Center: the 3x3 cabin, the ring of twelve zombie spaces, and the two
rules that read cards off it (what may be played on a pile, what an attack kills).

Everything is precomputed once: the game asks these tables thousands of times a second.

Positions are ``(row, col)`` in the 5x5 frame that holds the cabin in its middle 3x3 and the
zombies on its border (corners excepted). Labels read like a spreadsheet over that frame: the
cabin is B2 to D4, the zombies sit on B1-D1, A2-A4, E2-E4 and B5-D5.
"""

from __future__ import annotations

from spyglass.components.cards import PER_DECK, Card
from spyglass.components.grid import Pos, label

FRAME = 5
PILES: tuple[Pos, ...] = tuple((r, c) for r in range(1, 4) for c in range(1, 4))
#: The zombie spaces in reading order (row by row, left to right): also the deal order.
SPACES: tuple[Pos, ...] = tuple(
    (r, c)
    for r in range(FRAME)
    for c in range(FRAME)
    if (r in (0, FRAME - 1)) != (c in (0, FRAME - 1))
)
PILE_LABELS: tuple[str, ...] = tuple(label(p) for p in PILES)
SPACE_LABELS: tuple[str, ...] = tuple(label(p) for p in SPACES)
PILE_OF_LABEL = {text: i for i, text in enumerate(PILE_LABELS)}
SPACE_OF_LABEL = {text: j for j, text in enumerate(SPACE_LABELS)}
ALL_SPACES = (1 << len(SPACES)) - 1


def _attack_lines() -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """For each zombie space: the one pile next to it, and the two support piles beyond it.

    A border space touches exactly one cabin pile; the line from the zombie through that pile
    runs on across the cabin, and its other two piles are the supports.
    """
    index = {pos: i for i, pos in enumerate(PILES)}
    front, supports = [], []
    for r, c in SPACES:
        dr = 1 if r == 0 else -1 if r == FRAME - 1 else 0
        dc = 1 if c == 0 else -1 if c == FRAME - 1 else 0
        front.append(index[(r + dr, c + dc)])
        supports.append((index[(r + 2 * dr, c + 2 * dc)], index[(r + 3 * dr, c + 3 * dc)]))
    return tuple(front), tuple(supports)


#: FRONT[j]: the pile a card must be played on to attack the zombie of space j.
#: SUPPORTS[j]: the two other piles on that line (nearer first).
FRONT, SUPPORTS = _attack_lines()
#: ZOMBIES_NEXT_TO[i]: the spaces adjacent to pile i (corners two, edges one, centre none).
ZOMBIES_NEXT_TO: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(len(SPACES)) if FRONT[j] == i) for i in range(len(PILES))
)

KILL_SUM = 10
ZOMBIE_RANKS = (11, 12, 13)


def value(card: Card) -> int:
    """A card's value as the rules count it: Ace 1, Two to Ten their rank, a Joker 0."""
    return card.rank


def _fits(card: Card, top: Card) -> bool:
    if card.is_joker or top.is_joker:
        return True
    if card.rank == top.rank:
        return True
    if card.is_red == top.is_red:
        return top.rank > card.rank  # one colour: build down
    return top.rank < card.rank  # alternating colours: build up


def _tables() -> tuple[tuple[int, ...], bytes]:
    values, fits = [], bytearray(PER_DECK * PER_DECK)
    cards = [Card(code) for code in range(PER_DECK)]
    for card in cards:
        values.append(value(card))
    for top in cards:
        for card in cards:
            if not card.is_face and not top.is_face:
                fits[top * PER_DECK + card] = _fits(card, top)
    return tuple(values), bytes(fits)


#: VALUE[code] and FITS[top * 54 + card] (number cards and Jokers only).
VALUE, FITS = _tables()


def fits(card: Card, top: Card) -> bool:
    """Whether ``card`` may be played on a pile whose top card is ``top``."""
    return bool(FITS[top % PER_DECK * PER_DECK + card % PER_DECK])


def placement_reason(card: Card, top: Card) -> str:
    """Which placement rule lets ``card`` go on ``top`` (or why none does)."""
    if card.is_joker:
        return "a Joker goes on anything"
    if top.is_joker:
        return "anything goes on a Joker"
    if card.rank == top.rank:
        return "equal value"
    same = card.is_red == top.is_red
    if same and top.rank > card.rank:
        return "same colour, lower value"
    if not same and top.rank < card.rank:
        return "opposite colour, higher value"
    if same:
        return (
            f"on a card of the same colour the new card must be lower ({card.rank_label}"
            f" is not below {top.rank_label})"
        )
    return (
        f"on a card of the opposite colour the new card must be higher ({card.rank_label}"
        f" is not above {top.rank_label})"
    )


def _demands() -> dict[int, tuple[bool, ...]]:
    """For each zombie: which cards (by code) meet its suit or colour demand as a support."""
    table = {}
    for code in range(PER_DECK):
        zombie = Card(code)
        if not zombie.is_face:
            continue
        row = []
        for support in (Card(c) for c in range(PER_DECK)):
            if support.is_joker or zombie.rank == 11:
                row.append(True)  # a Joker counts as every suit; Jacks demand nothing
            elif zombie.rank == 13:
                row.append(support.suit == zombie.suit)
            else:
                row.append(support.is_red == zombie.is_red)
        table[code] = tuple(row)
    return table


#: DEMAND[zombie][support]: the support card meets the zombie's suit (King) or colour (Queen).
DEMAND = _demands()


def kills(zombie: Card, first: Card, second: Card) -> bool:
    """Whether an attack with these two support cards kills ``zombie``."""
    demand = DEMAND[zombie % PER_DECK]
    a, b = first % PER_DECK, second % PER_DECK
    return VALUE[a] + VALUE[b] >= KILL_SUM and demand[a] and demand[b]


def demand_text(zombie: Card) -> str:
    """The zombie's extra demand on the support cards, in words."""
    if zombie.rank == 13:
        return f"both supports must be {zombie.symbol} (a King's suit)"
    if zombie.rank == 12:
        return f"both supports must be {zombie.colour} (a Queen's colour)"
    return "a Jack makes no demand on suits"


def why_no_kill(zombie: Card, first: Card, second: Card) -> str:
    """Why these supports do not kill ``zombie`` (empty if they do)."""
    total = VALUE[first % PER_DECK] + VALUE[second % PER_DECK]
    demand = DEMAND[zombie % PER_DECK]
    problems = []
    if total < KILL_SUM:
        problems.append(f"the supports {first} + {second} sum to {total}, less than {KILL_SUM}")
    if not (demand[first % PER_DECK] and demand[second % PER_DECK]):
        problems.append(f"{demand_text(zombie)} and {first} + {second} are not")
    return "; ".join(problems)
