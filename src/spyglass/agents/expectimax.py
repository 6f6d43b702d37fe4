"""Expectimax over the next card: every card the deck may deliver, weighed by its odds.

In the solo card games the only thing hidden after the deal is the order of the draw pile
(and, in Dead Center, the face-down zombies), and what the player knows of it is exactly its
contents. So the value of a move is an expectation over which card comes next, and that
expectation can be computed, not sampled: for each kind of card still in the deck (cards the
rules cannot tell apart are one kind: in Boba Tea and Foursquare only the rank is read), put
one of that kind on top of the deck of a determinization, play the move, and weigh what
follows by the share of the deck that kind makes up. A move that draws nothing has a single
outcome. Below each outcome the player's next decision is a maximum over its moves, each
again an expectation over the card after; ``depth`` decisions deep, a leaf is scored by the
game's bot's own value of a position (the bot module's ``value``: what the bot maximises, so
that depth 1 is the bot looking one card further ahead), or where the bot has none by the
game's evaluation, its estimated chance of winning (:func:`leaf_value`).

The root's moves are first valued one decision deep (every move, each next card), and then the
best ``width`` of them are searched ``depth`` deep, best first, while the CPU budget
(``milliseconds``) lasts; at the inner decisions the same ``width`` is kept, chosen the same
way. The other moves are pruned, not valued one decision deep beside the deeper values (a
shallower look is often the rosier one, and would win such a comparison for that reason);
where the budget runs out before the few all have a deeper value, the root's choice falls
back on the one-decision values of every move.

Cards further down (a kick's second draw in Boba Tea, the other four cards of Skyway's next
market, the zombies still face down in Dead Center) come from the determinization: ``samples``
determinizations are averaged (1: the expectation over the next card of one sampled world).
Ties go to the game's bot's move. The agent reads only the seat (``seat.determinize``), never
the true state.

This is the game-specific search of the strength run's effort series (``docs/strength.md``):
exact over the next card, where PIMC and ISMCTS sample it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from importlib import import_module
from typing import Any, cast

from spyglass.engine import Action, Game, RulesError, Seat, State
from spyglass.engine.rng import as_rng

from .clock import Deadline, check_clock, check_milliseconds
from .heuristic import to_move

#: What of a card the rules of a game read, where it is less than the whole card: cards with
#: the same key are one kind of next card (Boba Tea's queues and discards and Foursquare's
#: flips compare ranks only; every other game reads suits or colours too).
KINDS: dict[str, Callable[[Any], Hashable]] = {
    "boba-tea": lambda card: card.rank,
    "foursquare": lambda card: card.rank,
}
#: How leaves may be scored (see :func:`leaf_value`).
LEAVES = ("bot", "evaluation")
#: Defaults (see :class:`ExpectimaxAgent`).
DEPTH = 2
WIDTH = 4


class ExpectimaxAgent:
    """``depth`` (decisions searched, each followed by the exact expectation over the next
    card; 1 or more), ``width`` (moves searched deeper than one decision at each node, the
    best by their one-decision values), ``samples`` (determinizations averaged, for what lies
    below the next card), ``milliseconds`` (CPU time a decision may take: the one-decision
    values on the first sample are always computed, further samples and deeper searches only
    while time is left), ``clock``, ``leaf``
    (``bot`` or ``evaluation``: see :func:`leaf_value`)."""

    name = "expectimax"

    def __init__(
        self,
        seed: int | None = None,
        *,
        depth: int = DEPTH,
        width: int = WIDTH,
        samples: int = 1,
        milliseconds: float | None = None,
        clock: str = "cpu",
        leaf: str | None = None,
    ) -> None:
        if int(depth) < 1:
            raise RulesError("expectimax needs a depth of 1 or more decisions")
        if int(width) < 1:
            raise RulesError("expectimax needs a width of 1 or more moves")
        if int(samples) < 1:
            raise RulesError("expectimax needs at least one sample")
        self.milliseconds = check_milliseconds(milliseconds, "expectimax")
        self.rng = as_rng(seed)
        self.depth = int(depth)
        self.width = int(width)
        self.samples = int(samples)
        self.clock = check_clock(clock, "expectimax")
        if leaf is not None and leaf not in LEAVES:
            raise RulesError(f"leaf is one of {', '.join(LEAVES)}, not {leaf!r}")
        self.leaf = leaf
        self.last_positions = 0  # positions the last decision scored at its leaves
        self.last_samples = 0  # determinizations the last decision searched

    @staticmethod
    def plays(game: Game) -> bool:
        """Solo games whose leaves it can score (by the bot's value or the evaluation)."""
        return game.info.solo and (callable(bot_value(game)) or game.spec.evaluate is not None)

    def choose(self, seat: Seat) -> Action:
        legal, _ = to_move(seat)
        self.last_positions = 0
        if len(legal) == 1:
            return legal[0]
        game = seat.game
        if not self.plays(game):
            raise RulesError(
                "expectimax is for solo games whose leaves it can score (the bot's value of a"
                f" position, or the game's evaluation): {game.info.id} is not one"
            )
        deadline = Deadline.after(self.milliseconds, self.clock)
        search = _Search(leaf_value(seat, self.leaf), KINDS.get(game.info.id), self.width)
        worlds = [seat.determinize(self.rng, log=False) for _ in range(self.samples)]
        favoured = None
        bot = game.spec.bot
        if bot is not None:
            favoured = bot(worlds[0], self.rng).text
        # one decision deep on each sample in turn, while time is left (the first always; a
        # sample the clock stops part-way through is left out)
        totals = dict.fromkeys((a.text for a in legal), 0.0)
        kept: list[dict[str, list[tuple[float, State]]]] = []  # outcomes, for a deeper search
        done = 0
        for world in worlds:
            sample, outcomes = {}, {}
            for action in legal:
                if done and deadline.passed():
                    break
                outcomes[action.text] = search.outcomes(world, action)
                sample[action.text] = search.expected(outcomes[action.text], 1)
            if len(sample) < len(legal):
                break
            for text, value in sample.items():
                totals[text] += value
            if self.depth > 1:
                kept.append(outcomes)
            done += 1
            if deadline.passed():
                break
        values = {text: total / done for text, total in totals.items()}
        if self.depth > 1:
            # the best few searched deeper; values of two depths are not compared, so the
            # deeper ones count only once every move of the few has one
            deeper = {}
            for action in sorted(legal, key=lambda a: -values[a.text])[: self.width]:
                if deadline.passed():
                    break
                total = sum(search.expected(o[action.text], self.depth) for o in kept)
                deeper[action.text] = total / done
            if len(deeper) == min(self.width, len(legal)):
                values = deeper
                legal = [a for a in legal if a.text in deeper]
        self.last_positions = search.positions
        self.last_samples = done
        return max(
            enumerate(legal),
            key=lambda item: (round(values[item[1].text], 12), item[1].text == favoured, -item[0]),
        )[1]


class _Search:
    """The expectimax recursion over one game's positions."""

    def __init__(
        self, leaf: Callable[[State], float], kind: Callable[[Any], Hashable] | None, width: int
    ) -> None:
        self.leaf = leaf
        self.kind = kind
        self.width = width
        self.positions = 0

    def value(self, state: State, depth: int) -> float:
        """A decision's value: the best of its moves, ``depth`` decisions deep."""
        if state.is_over or depth == 0:
            self.positions += 1
            return self.leaf(state)
        legal = state.legal_actions()
        if depth == 1 or len(legal) == 1:
            return max(self.chance(state, a, depth) for a in legal)
        # the best few by their one-decision values, searched deeper from the same outcomes
        # (the rest are pruned: a shallower value is not compared with deeper ones)
        outcomes = {a.text: self.outcomes(state, a) for a in legal}
        first = {text: self.expected(outs, 1) for text, outs in outcomes.items()}
        chosen = sorted(first, key=lambda text: -first[text])[: self.width]
        return max(self.expected(outcomes[text], depth) for text in chosen)

    def chance(self, state: State, action: Action, depth: int) -> float:
        """The expectation of playing ``action``, ``depth`` decisions deep counting this one."""
        return self.expected(self.outcomes(state, action), depth)

    def expected(self, outcomes: list[tuple[float, State]], depth: int) -> float:
        """The mean value of a move's outcomes (see :meth:`outcomes`), weighed by their odds."""
        if len(outcomes) == 1:
            return self.value(outcomes[0][1], depth - 1)
        return sum(share * self.value(child, depth - 1) for share, child in outcomes)

    def outcomes(self, state: State, action: Action) -> list[tuple[float, State]]:
        """(share of the deck, position) after ``action`` for each kind of card the deck may
        give next; one outcome if the move draws nothing or the deck holds one kind."""
        deck = getattr(state, "deck", None)
        if not deck:
            return [(1.0, _after(state, action, None, None))]
        kinds: dict[Hashable, tuple[int, int]] = {}  # kind -> (count, index of one such card)
        key = self.kind
        for index, card in enumerate(deck):
            k = card if key is None else key(card)
            count, where = kinds.get(k, (0, index))
            kinds[k] = (count + 1, where)
        size = len(deck)
        out = []
        for count, where in kinds.values():
            child = _after(state, action, where, size)
            if count == size or _drew_nothing(child, size):
                return [(1.0, child)]  # the next card does not matter here
            out.append((count / size, child))
        return out


def bot_value(game: Game) -> Any:
    """The ``value`` function of the game's bot module, or None."""
    try:
        module = import_module(f"{game.spec.package}.bot")
    except ImportError:
        return None
    return getattr(module, "value", None)


def leaf_value(seat: Seat, leaf: str | None) -> Callable[[State], float]:
    """How the leaves are scored: by the game's bot's own value of a position (``bot``: the
    ``value`` function of the game's bot module), or by the game's evaluation, its estimated
    chance of winning (``evaluation``); None: the bot's where the game's bot has one."""
    game = seat.game
    value = bot_value(game)
    if leaf == "bot" or (leaf is None and callable(value)):
        if not callable(value):
            raise RulesError(f"{game.info.id}'s bot has no value of a position to score leaves")
        return cast(Callable[[State], float], value)
    evaluate = game.spec.evaluate
    if evaluate is None:
        raise RulesError(f"{game.info.id} has no evaluation to score expectimax's leaves")
    player = seat.player or 0  # a solo seat (choose checks that it has a player)

    def evaluated(state: State) -> float:
        return evaluate(state)[player]

    return evaluated


def _after(state: State, action: Action, card: int | None, size: int | None) -> State:
    """``state`` after ``action``, the deck's card at index ``card`` put on top first."""
    child = state.clone()
    if card is not None and size is not None and card != size - 1:
        deck = getattr(child, "deck")  # noqa: B009 - not every state has one (see chance)
        deck.append(deck.pop(card))  # the rest keep the determinization's order
    child.apply_legal(action)
    return child


def _drew_nothing(child: State, size: int) -> bool:
    """Whether the move left the deck as it was (a move that draws no card)."""
    return len(getattr(child, "deck", ())) == size


__all__ = ["KINDS", "ExpectimaxAgent"]
