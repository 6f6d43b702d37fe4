"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Cowling, Powley and Whitehouse (2012). Each iteration samples a full state consistent with what
the seat knows (``seat.determinize``), walks the one tree of the seat's information sets with
UCT restricted to the actions legal in that sample (each child counts how often it was available,
so rarely available moves are not starved), expands one untried action, plays the game out with
a rollout policy, and backs up one reward per seat. Every seat's decisions in the tree are made
for that seat's own reward, so the same search serves one to seven players.

Actions are identified across samples by their notation, unique within a state; chance (draws,
reshuffles) is resampled with each determinization's own generator. The search only ever sees
``seat.determinize`` samples, never the true state.

Opponent modelling: a determinization deals the hidden cards uniformly, as if the other players'
moves said nothing about them. Where the game's bot module offers ``likelihood(state, seat)``
(how likely what the seat has seen is, if the hidden cards were those of ``state``; Espionage
weighs the cards played on the seat by the roles that would play them), ``belief=k`` draws k
samples per iteration and keeps one with chance proportional to that likelihood: sampling
importance resampling from the posterior the bot's model of play implies.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import cast

from spyglass.engine import Action, RulesError, Seat, State
from spyglass.engine.rng import Rng, as_rng

from .clock import Deadline, check_clock, check_milliseconds
from .heuristic import bot_move, to_move

ROLLOUTS = ("random", "heuristic")
OPPONENTS = ("tree", "bot")


@dataclass(slots=True)
class Node:
    """A node of the information-set tree: the move that led here and its statistics."""

    mover: int = -1  # the seat that chose the move into this node (-1: the root, none did)
    visits: int = 0
    available: int = 0
    reward: list[float] = field(default_factory=list)
    children: dict[str, Node] = field(default_factory=dict)
    favoured: str | None = None  # the bot's move here (progressive bias), once looked up
    looked_up: bool = False


class ISMCTSAgent:
    """``iterations`` and/or ``milliseconds`` bound each decision, whichever runs out first
    (1000 iterations by default). The time budget counts the process's CPU time, so a search
    that shares its core with others still gets its allowance (it still depends on the
    machine's speed: a fixed number of iterations does not); ``clock="wall"`` counts real time
    instead (a server's cap: see ``agents.clock``).
    ``c`` is the UCT exploration constant; ``rollout`` the playout policy ("random" or
    "heuristic", the game's bot);
    ``cutoff``, if given, ends each playout after that many moves and scores the position with
    the game's evaluation (games without one play out to the end). ``bias`` is the weight of
    progressive bias toward the game's bot: at each node the bot's move is expanded first and
    gets a bonus of ``bias / (visits + 1)``, so the search leaves the bot's line only when the
    playouts show another move is better (0 turns it off). ``belief`` (1: off) is the number of
    determinizations weighed against each other per iteration by the game's likelihood of what
    the seat has seen (see the module's docstring). ``evaluation`` names another function of the
    game's ``evaluate`` module to score the cut-off playouts with (None: the game's own
    evaluation); ``decisions`` (words joined by "+") limits the search to decisions whose moves'
    notation begins with one of those words, the bot playing every other decision at once (a
    budget spent where the bot is weakest; None searches every decision). ``opponents="bot"``
    lets the game's bot make the other seats' moves inside the tree too (the tree then holds
    only the searching seat's own decisions): the tree's opponents otherwise choose by their
    rewards averaged over the searching seat's determinizations, blind to their own hidden
    cards (a spy and an agent play alike), where the bot plays each sample's hand as dealt;
    "tree" (the default) is the usual SO-ISMCTS."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        milliseconds: float | None = None,
        c: float = 0.7,
        rollout: str = "heuristic",
        cutoff: int | None = None,
        bias: float = 1.0,
        belief: int = 1,
        clock: str = "cpu",
        evaluation: str | None = None,
        decisions: str | None = None,
        opponents: str = "tree",
    ) -> None:
        if iterations is None and milliseconds is None:
            iterations = 1000
        if iterations is not None and int(iterations) < 1:
            raise RulesError("ismcts needs at least one iteration")
        self.milliseconds = check_milliseconds(milliseconds, "ismcts")
        if rollout not in ROLLOUTS:
            raise RulesError(f"rollout is one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if cutoff is not None and int(cutoff) < 0:
            raise RulesError("cutoff is a number of moves, 0 or more")
        if int(belief) < 1:
            raise RulesError("belief is a number of samples, 1 or more")
        if opponents not in OPPONENTS:
            raise RulesError(f"opponents is one of {', '.join(OPPONENTS)}, not {opponents!r}")
        self.rng = as_rng(seed)
        self.iterations = None if iterations is None else int(iterations)
        self.c = float(c)
        self.rollout = rollout
        self.cutoff = None if cutoff is None else int(cutoff)
        self.bias = float(bias)
        self.belief = int(belief)
        self.clock = check_clock(clock, "ismcts")
        self.evaluation = None if evaluation is None else str(evaluation)
        self.decisions = decision_words(decisions)
        self.opponents = opponents
        self.last_iterations = 0  # how many iterations the last decision ran

    # ------------------------------------------------------------------ the decision

    def choose(self, seat: Seat) -> Action:
        legal, player = to_move(seat)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        if self.decisions is not None and not searched(legal, self.decisions):
            self.last_iterations = 0
            return bot_move(seat, self.rng, log=False)
        root = self.search(seat)
        children = root.children

        def rank(action: Action) -> tuple[int, bool, float, int]:
            # Most visited; on a tie (small budgets) the bot's move, then the better mean.
            child = children.get(action.text)
            if child is None or not child.visits:
                return (0, action.text == root.favoured, 0.0, -legal.index(action))
            mean = child.reward[player] / child.visits
            return (child.visits, action.text == root.favoured, mean, -legal.index(action))

        return max(legal, key=rank)

    def search(self, seat: Seat) -> Node:
        """Run the budget from ``seat`` and return the root of the tree."""
        players = seat.players
        root = Node(reward=[0.0] * players)
        game_bot = seat.game.spec.bot
        bot = game_bot if self.rollout == "heuristic" else None
        guide = game_bot if self.bias > 0 else None
        evaluate = evaluation(seat, self.evaluation) if self.cutoff is not None else None
        deadline = Deadline.after(self.milliseconds, self.clock)
        likelihood = likelihood_model(seat) if self.belief > 1 else None
        model = None
        if self.opponents == "bot":
            if game_bot is None:
                raise RulesError(f"{seat.game.info.id} has no bot to play the opponents")
            model = game_bot
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if done and deadline.passed():
                break
            if likelihood is None or seat.player is None:  # a spectator made no moves to weigh
                state = seat.determinize(self.rng, log=False)
            else:
                state = self._weighed_sample(seat, seat.player, likelihood)
            self._iterate(
                root, state, players, bot=bot, guide=guide, evaluate=evaluate,
                model=model, me=seat.player,
            )  # fmt: skip
            done += 1
        self.last_iterations = done
        return root

    def _weighed_sample(
        self, seat: Seat, player: int, likelihood: Callable[[State, int], float]
    ) -> State:
        """One of ``belief`` determinizations, drawn by their likelihoods."""
        return weighed_sample(seat, player, likelihood, self.rng, self.belief)

    def _iterate(
        self,
        root: Node,
        state: State,
        players: int,
        *,
        bot: Callable[[State, Rng], Action] | None,
        guide: Callable[[State, Rng], Action] | None,
        evaluate: Callable[[State], tuple[float, ...]] | None,
        model: Callable[[State, Rng], Action] | None = None,
        me: int | None = None,
    ) -> None:
        node, path = root, [root]
        bias = self.bias
        rng = self.rng
        log = math.log
        c = self.c
        # Selection and expansion, within the moves this sample allows.
        while not state.is_over:
            if model is not None and state.current_player != me:
                state.apply(model(state, rng))  # the other seats' moves: the bot's, untracked
                continue
            legal = state.legal_actions()
            children = node.children
            if guide is not None and not node.looked_up:
                node.looked_up = True
                if len(legal) > 1:
                    node.favoured = guide(state, rng).text
            favoured = node.favoured
            untried = []
            best, best_value = None, -1.0
            for action in legal:
                child = children.get(action.text)
                if child is None:
                    untried.append(action)
                    continue
                child.available += 1
                if not untried:  # UCT only matters when every move has been tried
                    value = child.reward[child.mover] / child.visits + c * math.sqrt(
                        log(child.available) / child.visits
                    )
                    if action.text == favoured:
                        value += bias / (child.visits + 1)
                    if value > best_value:
                        best, best_value = action, value
            if untried:
                pick = next((a for a in untried if a.text == favoured), None)
                if pick is None:
                    pick = untried[rng.below(len(untried))]
                # The loop runs while the game goes on, so someone is to move.
                mover = cast(int, state.current_player)
                child = Node(mover=mover, reward=[0.0] * players)
                child.available = 1
                children[pick.text] = child
                state.apply_legal(pick)  # taken from this sample's own legal actions
                path.append(child)
                break
            # Every move was tried and rewards lie in [0, 1], so some value beat -1.
            assert best is not None
            node = children[best.text]
            state.apply_legal(best)
            path.append(node)
        rewards = self._playout(state, bot, evaluate, rng)
        for visited in path:
            visited.visits += 1
            totals = visited.reward
            for p in range(players):
                totals[p] += rewards[p]

    def _playout(
        self,
        state: State,
        bot: Callable[[State, Rng], Action] | None,
        evaluate: Callable[[State], tuple[float, ...]] | None,
        rng: Rng,
    ) -> tuple[float, ...]:
        moves = 0
        while not state.is_over:
            if evaluate is not None and self.cutoff is not None and moves >= self.cutoff:
                return evaluate(state)
            if bot is not None:
                state.apply(bot(state, rng))  # a bot's choice is checked like any move
            else:
                legal = state.legal_actions()
                state.apply_legal(legal[rng.below(len(legal))])
            moves += 1
        result = state.result
        assert result is not None
        return result.rewards


def likelihood_model(seat: Seat) -> Callable[[State, int], float] | None:
    """The game's likelihood of what a seat has seen, if its bot module offers one."""
    try:
        module = import_module(f"{seat.game.spec.package}.bot")
    except ImportError:
        return None
    return getattr(module, "likelihood", None)


def evaluation(seat: Seat, name: str | None) -> Callable[[State], tuple[float, ...]] | None:
    """The game's own evaluation (``name`` None), or the function ``name`` of its ``evaluate``
    module (an error if there is none)."""
    if name is None:
        return seat.game.spec.evaluate
    try:
        module = import_module(f"{seat.game.spec.package}.evaluate")
    except ImportError:
        module = None
    found = getattr(module, name, None) if not name.startswith("_") else None
    if not callable(found):
        raise RulesError(f"{seat.game.info.id} has no evaluation called {name!r}")
    return cast(Callable[[State], tuple[float, ...]], found)


def decision_words(text: str | None) -> frozenset[str] | None:
    """The words of a ``decisions`` option ("pick+take"), or None for every decision."""
    if text is None:
        return None
    words = frozenset(w.strip() for w in str(text).split("+") if w.strip())
    if not words:
        raise RulesError("decisions names the first words of the moves to search, e.g. pick")
    return words


def searched(legal: Sequence[Action], words: frozenset[str]) -> bool:
    """Whether a decision is one of those to search: one of its moves begins with a word."""
    return any(action.text.split(" ", 1)[0] in words for action in legal)


def weighed_sample(
    seat: Seat,
    player: int,
    likelihood: Callable[[State, int], float],
    rng: Rng,
    count: int,
) -> State:
    """One of ``count`` determinizations of ``seat``, drawn with chance proportional to the
    likelihood of what ``player`` has seen in each (the first if every weight is 0)."""
    samples = [seat.determinize(rng, log=False) for _ in range(count)]
    weights = [likelihood(s, player) for s in samples]
    total = sum(weights)
    if total <= 0:
        return samples[0]
    pick = rng.random() * total
    for sample, weight in zip(samples, weights, strict=True):
        pick -= weight
        if pick < 0:
            return sample
    return samples[-1]
