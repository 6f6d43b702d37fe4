"""A heuristic for Hide and Seek, reading only what the player sees.

The face-up playmates give the exact odds of every suit at every face-down playmate, and of
every row and column still hiding a suit (``arrangements.suit_odds``). Every playmate is revealed
before the end, so a guess scores sooner or later exactly when its line still hides a playmate
of its suit: those odds are what a guess is worth. Reveals are the clock (the game ends with the
last one) while the deck only moves when the player moves it, so the bot reveals as late as it
can and in an order that makes the last reveals sure:

1. **place** the top card where its line most surely hides that suit, if that is sure enough
   (the bar rises while the deck holds many cards per face-down playmate, since there is time
   to wait for better information, and falls when cards run short);
2. otherwise get rid of the top card without losing anything useful: **withdraw** a guess of
   its suit that can no longer score from a line that still has playmates to find (freeing a
   space that matters), else **dump** it on a space whose line is all face up (it can never
   score there, and blocks nothing), else withdraw a dead guess of its suit from such a line;
3. otherwise place it on a fair chance;
4. otherwise **reveal**, column by column in step: a playmate of a column with the fewest
   face-up playmates, then of a row with the fewest, and among those the one expected to score
   the most guesses. After two reveals in every column each column's last rank is known and the
   suit rules nearly always pin its suit down, so the last four reveals are almost sure; spread
   over the rows, they keep the row ends useful to the end.
"""

from __future__ import annotations

from spyglass.components.cards import SUITS
from spyglass.engine import Action, Rng

from .arrangements import line_odds, suit_odds
from .playground import CELL_LABELS, CELLS, COLUMNS, ROWS, SPACES, SPACES_OF_CELL, Space
from .rules import HideAndSeekState

# Keyed by Card.suit, which is None for a joker (this game has none: never looked up).
SUIT_OF: dict[str | None, int] = {suit: i for i, suit in enumerate(SUITS)}

PLACE_BAR = 0.6  # place when the line hides the top card's suit at least this surely ...
BAR_SLOPE = 0.1  # ... plus this much per deck card per face-down playmate above 40/12
AVERAGE_SUPPLY = 40 / 12
FAIR_CHANCE = 0.45  # placing on a fair chance beats revealing early


def choose(state: HideAndSeekState, rng: Rng) -> Action:
    """The bot's move for the player of ``state`` (only what the player sees is read)."""
    legal = {action.text: action for action in state.legal_actions()}
    seen = state.seen_cells()
    odds = suit_odds(seen)
    top = state.top
    if top is not None:
        chosen = _use_top_card(state, seen, odds, SUIT_OF[top.suit])
        if chosen is not None:
            return legal[chosen]
    return legal[f"reveal {CELL_LABELS[_next_reveal(seen, odds, state.guesses, rng)]}"]


def _use_top_card(state: HideAndSeekState, seen: tuple, odds: tuple, suit: int) -> str | None:
    """The notation of a move that uses the top card well, or None to reveal instead."""
    guesses = state.guesses
    best: Space | None = None
    best_odds, dump = -1.0, None
    for space in SPACES:
        if guesses[space.index] is not None:
            continue
        line = line_odds(odds, space.line, space.line_index)
        if line[suit] > best_odds + 1e-9:
            best, best_odds = space, line[suit]
        if dump is None and max(line) == 0.0:
            dump = space
    bar = PLACE_BAR + BAR_SLOPE * (len(state.deck) / seen.count(None) - AVERAGE_SUPPLY)
    if best is not None and best_odds >= bar:
        return f"place {best.label}"
    dead_in_live_line = dead_in_dead_line = None
    for space in SPACES:
        guess = guesses[space.index]
        if guess is None or SUIT_OF[guess.suit] != suit:
            continue
        line = line_odds(odds, space.line, space.line_index)
        if line[suit] == 0.0:
            if max(line) > 0.0:
                dead_in_live_line = dead_in_live_line or space
            else:
                dead_in_dead_line = dead_in_dead_line or space
    if dead_in_live_line is not None:
        return f"withdraw {dead_in_live_line.label}"
    if dump is not None:
        return f"place {dump.label}"
    if dead_in_dead_line is not None:
        return f"withdraw {dead_in_dead_line.label}"
    if best is not None and best_odds >= FAIR_CHANCE:
        return f"place {best.label}"
    return None


def _next_reveal(seen: tuple, odds: tuple, guesses: list, rng: Rng) -> int:
    """The playmate to reveal: in a column with the fewest face-up playmates, then in a row
    with the fewest, the one expected to score the most guesses (ties broken at random)."""
    by_column = [sum(seen[c * ROWS + r] is not None for r in range(ROWS)) for c in range(COLUMNS)]
    by_row = [sum(seen[c * ROWS + r] is not None for c in range(COLUMNS)) for r in range(ROWS)]
    best, best_key = 0, (ROWS + 1, COLUMNS + 1, 0.0)
    for cell in range(CELLS):
        if seen[cell] is not None:
            continue
        expected = rng.random() * 1e-6
        for space in SPACES_OF_CELL[cell]:
            guess = guesses[space]
            if guess is not None:
                expected += odds[cell][SUIT_OF[guess.suit]]
        key = (by_column[cell // ROWS], by_row[cell % ROWS], -expected)
        if key < best_key:
            best, best_key = cell, key
    return best
