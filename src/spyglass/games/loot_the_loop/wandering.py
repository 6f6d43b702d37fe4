"""Loot the Loop's wandering: when the game is lost, and how far repeats may go.

The rulebook lets the adventurer Mark and Return for ever, so the product needs a device that
ends every game; the rulebook's loss conditions must stay the only way a game is declared lost.
The words used here (RULES.md says the same for players):

- An *arrangement* is the temple as the player sees it (face-down cards blank) with the set of
  notes: its key is ``(shown, notes_mask)``.
- *Progress* is a Look Around, or an Explore that nabs a card or escapes. Progress changes the
  temple for good (a card turns up or leaves), so between two progress moves the temple's cards
  and facings are fixed and only their order and the notes change.
- *Wandering* is every other safe move: a Mark, a Return, or a *walk* (an Explore that lands on a
  face-down card, or on the exit before the four jewels are nabbed).
- A *cluster* is the set of arrangements Marks and Returns lead to from one another (every Mark
  can be undone by a Return and the other way round, so they are linked both ways).

Lost (the rulebook): no action at all, or every movement lands on a trap. Marks and Returns
change which movements are on offer, so the test runs over the whole cluster: the game is lost
when no arrangement of the cluster offers a Look Around or an Explore that does not land on a
face-up trap (:func:`lost`).

The device: wandering may bring back an arrangement already had since the last progress only if
it takes one step along a shortest way to progress, or, where progress can no longer be reached,
along a shortest way to a lost position (:func:`downhill`). So from every arrangement that is not
lost, a way on that is not a trap stays open (the first step of a shortest way is always
allowed), and since each such step shortens the distance, repeats cannot go on for ever.
"""

from __future__ import annotations

from functools import lru_cache

from spyglass.components.cards import Card

from .rooms import EXIT_CARD, IS_TRAP, IS_TRINKET, JEWELS_NEEDED, NOTES_LIMIT, RANK

Shown = tuple[Card | None, ...]
Notes = tuple[Card, ...]
Key = tuple[Shown, int]
Node = tuple[Shown, Notes, int]  # the temple as seen, the notes, their bit set


def progress(shown: Shown, jewels: int) -> bool:
    """Whether a Look Around, a nab or the escape is on offer."""
    top = shown[0]
    if top is None:
        return True
    size = len(shown)
    for card in shown[:2]:
        if card is not None and IS_TRINKET[card]:
            landed = shown[RANK[card] % size]
            if (
                landed is not None
                and not IS_TRAP[landed]
                and (landed != EXIT_CARD or jewels >= JEWELS_NEEDED)
            ):
                return True
    return False


def walks(shown: Shown, jewels: int) -> list[Shown]:
    """The temple after each Explore that only moves you (onto a face-down card, or onto the
    exit before the four jewels are nabbed)."""
    size = len(shown)
    found: list[Shown] = []
    last = -1
    for card in shown[:2]:
        if card is None or not IS_TRINKET[card] or RANK[card] == last:
            continue
        last = RANK[card]
        shift = last % size
        landed = shown[shift]
        if landed is None or (landed == EXIT_CARD and jewels < JEWELS_NEEDED):
            found.append(shown[shift:] + shown[:shift])
    return found


def shuffles(node: Node) -> list[Node]:
    """The arrangement after each Mark and Return on offer."""
    shown, notes, mask = node
    top = shown[0]
    found: list[Node] = []
    if top is not None and IS_TRINKET[top] and len(notes) < NOTES_LIMIT:
        found.append((shown[1:], (*notes, top), mask | 1 << top))
    for card in notes:
        rest = tuple(c for c in notes if c != card)
        found.append(((card, *shown), rest, mask & ~(1 << card)))
    return found


def successors(node: Node, jewels: int) -> list[Node]:
    """The arrangement after each wandering move on offer."""
    notes, mask = node[1], node[2]
    return [*((walked, notes, mask) for walked in walks(node[0], jewels)), *shuffles(node)]


def lost(shown: Shown, notes: Notes, mask: int, jewels: int) -> bool:
    """Whether the rulebook declares the game lost here: no arrangement that Marks and Returns
    lead to offers a Look Around or an Explore that does not land on a face-up trap."""
    stack: list[Node] = [(shown, notes, mask)]
    met = {(shown, mask)}
    while stack:
        node = stack.pop()
        if progress(node[0], jewels) or walks(node[0], jewels):
            return False
        for after in shuffles(node):
            key = (after[0], after[2])
            if key not in met:
                met.add(key)
                stack.append(after)
    return True


# A pure function of what the player sees, asked again and again for the same arrangement by
# searches (determinizations share every face-up card): remembered.
@lru_cache(maxsize=4096)
def downhill(shown: Shown, notes: Notes, mask: int, jewels: int) -> frozenset[Key]:
    """The arrangements one wandering move away that lie on a shortest way to progress; where no
    progress can be reached, those on a shortest way to a lost position. Empty when progress is
    on offer here (no repeat brings it nearer)."""
    if progress(shown, jewels):
        return frozenset()
    root: Node = (shown, notes, mask)
    # Breadth first, each arrangement remembering the first steps of its shortest ways.
    nodes: dict[Key, Node] = {(shown, mask): root}
    levels: list[dict[Key, set[Key]]] = []
    level: dict[Key, set[Key]] = {}
    for after in successors(root, jewels):
        key = (after[0], after[2])
        if key not in level:
            level[key] = {key}
            nodes[key] = after
    while level:
        goals: set[Key] = set()
        for key, firsts in level.items():
            if progress(key[0], jewels):
                goals |= firsts
        if goals:
            return frozenset(goals)
        following: dict[Key, set[Key]] = {}
        for key, firsts in level.items():
            for after in successors(nodes[key], jewels):
                next_key = (after[0], after[2])
                if next_key in following:
                    following[next_key] |= firsts
                elif next_key not in nodes:
                    following[next_key] = set(firsts)
                    nodes[next_key] = after
        levels.append(level)
        level = following
    return frozenset(_towards_loss(nodes, levels, jewels))


def _towards_loss(
    nodes: dict[Key, Node], levels: list[dict[Key, set[Key]]], jewels: int
) -> set[Key]:
    """No progress can be reached from the root, whose every reachable arrangement is in
    ``nodes``: the first steps of the shortest ways to one whose cluster offers no walk (there
    the rulebook declares the game lost)."""
    cluster: dict[Key, int] = {}
    walking: list[bool] = []
    for start in nodes:
        if start in cluster:
            continue
        number = len(walking)
        any_walk = False
        stack = [start]
        cluster[start] = number
        while stack:
            node = nodes[stack.pop()]
            any_walk = any_walk or bool(walks(node[0], jewels))
            for after in shuffles(node):
                next_key = (after[0], after[2])
                if next_key not in cluster:
                    cluster[next_key] = number
                    stack.append(next_key)
        walking.append(any_walk)
    for level in levels:
        goals: set[Key] = set()
        for key, firsts in level.items():
            if not walking[cluster[key]]:
                goals |= firsts
        if goals:
            return goals
    return set()
