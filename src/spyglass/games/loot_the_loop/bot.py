"""A heuristic for Loot the Loop: a short search over what the player can see.

The bot reads only the visible temple (face-down cards are blanks), the notes and the score
pile. It searches the moves whose outcome is certain (Explore, Mark, Return) a few plies deep;
a Look Around ends a line of play and is valued by what it may reveal and by the risk of being
left with no move. Positions are judged by jewels nabbed, jewels and the exit already found,
the notes in hand (they are the way out of a dead end) and the trinkets nabbed (the score).
"""

from __future__ import annotations

from spyglass.components.cards import Card
from spyglass.engine import Action, Rng

from .rules import (
    DECK_SIZE,
    EXIT_CARD,
    IS_TRINKET,
    JEWEL,
    JEWELS_NEEDED,
    KIND,
    NOTES_LIMIT,
    RANK,
    TRAP,
    LootTheLoopState,
)

DEPTH = 3  # plies of certain moves searched after the move chosen
DUDS = 17  # cards that are no trinket: 4 jewels, 12 traps, the exit

WIN = 1_000_000.0
LOSS = -1_000_000.0
JEWEL_WEIGHT = 1000.0
ACE_FOUND_WEIGHT = 250.0
TRINKET_WEIGHT = -100.0
NOTE_WEIGHTS = (0.0, 300.0, 450.0, 550.0)
EXIT_FOUND_WEIGHT = 50.0
LOOK_WEIGHT = 200.0
STUCK_WEIGHT = 3000.0

Shown = tuple[Card | None, ...]
Notes = tuple[Card, ...]
# A position as the player sees it: (the temple with blanks, sorted notes, jewels, trinkets).
Position = tuple[Shown, Notes, int, int]


def choose(state: LootTheLoopState, rng: Rng) -> Action:
    moves = state.legal_actions()
    if len(moves) == 1:
        return moves[0]
    search = Search(state)
    root: Position = (
        tuple(state.loop.shown),
        tuple(sorted(state.notes)),
        state.jewels,
        len(state.score_pile) - state.jewels,
    )
    best, best_value = moves[0], float("-inf")
    for move in moves:
        value = search.after(root, move) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = move, value
    return best


class Search:
    """Depth-limited search over certain moves, from one decision's point of view."""

    __slots__ = ("risk",)

    def __init__(self, state: LootTheLoopState) -> None:
        # The chance that a face-down card is no trinket (a dead end when turned up), from
        # the cards not seen yet.
        visible = [c for c in state.loop.shown if c is not None]
        visible += state.notes
        visible += state.score_pile
        unseen = DECK_SIZE - len(visible)
        duds = DUDS - sum(1 for c in visible if not IS_TRINKET[c])
        self.risk = duds / unseen if unseen else 0.0

    def after(self, root: Position, move: Action) -> float:
        if move.kind == "look":
            return self.look_value(root)
        arg = move.target if move.kind == "explore" else move.cards[0]
        child = play(root, move.kind, arg)
        if isinstance(child, float):
            return child
        return self.value(child, DEPTH, {root[0:2]})

    def value(self, pos: Position, depth: int, path: set[tuple[Shown, Notes]]) -> float:
        """The best value reachable from ``pos`` (the search's path is never repeated)."""
        shown = pos[0]
        if depth == 0 and shown[0] is None:
            return self.look_value(pos)
        # A dead end found deeper is a little less bad: the search may misjudge a repeat.
        best = self.look_value(pos) if shown[0] is None else LOSS - depth
        for kind, arg in moves(pos):
            child = play(pos, kind, arg)
            if isinstance(child, float):
                value = child
            else:
                key = child[0:2]
                if key in path:
                    continue
                if depth == 0:
                    return self.static(pos)  # some safe move exists: judge the position
                path.add(key)
                value = self.value(child, depth - 1, path)
                path.discard(key)
            best = max(best, value)
        return best

    def static(self, pos: Position) -> float:
        shown, notes, jewels, trinkets = pos
        value = JEWEL_WEIGHT * jewels + TRINKET_WEIGHT * trinkets + NOTE_WEIGHTS[len(notes)]
        aces = sum(1 for c in shown if c is not None and KIND[c] == JEWEL)
        value += ACE_FOUND_WEIGHT * aces
        if EXIT_CARD in shown:
            value += EXIT_FOUND_WEIGHT * (1 + jewels)
        return value

    def look_value(self, pos: Position) -> float:
        shown, notes = pos[0], pos[1]
        value = self.static(pos) + LOOK_WEIGHT
        if not notes:
            second = shown[1] if len(shown) > 1 else None
            if second is None:
                stuck = self.risk * self.risk
            else:
                stuck = 0.0 if IS_TRINKET[second] else self.risk
            value -= STUCK_WEIGHT * stuck
        return value


def moves(pos: Position) -> list[tuple[str, int]]:
    """The certain moves of a position: ("mark", card), ("explore", n), ("return", card)."""
    shown, notes = pos[0], pos[1]
    found: list[tuple[str, int]] = []
    top = shown[0]
    values = []
    if top is not None and IS_TRINKET[top]:
        values.append(RANK[top])
        if len(notes) < NOTES_LIMIT:
            found.append(("mark", top))
    second = shown[1] if len(shown) > 1 else None
    if second is not None and IS_TRINKET[second] and RANK[second] not in values:
        values.append(RANK[second])
    found.extend(("explore", v) for v in values)
    found.extend(("return", card) for card in notes)
    return found


def play(pos: Position, kind: str, arg: int) -> Position | float:
    """The position after a certain move, or the final value if the move ends the game."""
    shown, notes, jewels, trinkets = pos
    if kind == "mark":
        return (shown[1:], tuple(sorted((*notes, Card(arg)))), jewels, trinkets)
    if kind == "return":
        card = Card(arg)
        return ((card, *shown), tuple(c for c in notes if c != card), jewels, trinkets)
    shift = arg % len(shown)
    landed = shown[shift]
    turned = shown[shift:] + shown[:shift]
    if landed is None:
        return (turned, notes, jewels, trinkets)
    kind_landed = KIND[landed]
    if kind_landed == TRAP:
        return LOSS
    if landed == EXIT_CARD:
        if jewels >= JEWELS_NEEDED:
            return WIN + 100.0 * trinkets
        return (turned, notes, jewels, trinkets)
    if kind_landed == JEWEL:
        return (turned[1:], notes, jewels + 1, trinkets)
    return (turned[1:], notes, jewels, trinkets + 1)
