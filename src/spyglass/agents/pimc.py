"""Perfect-information Monte Carlo: judge each move on sampled deals, play the best on average.

For each decision the agent samples determinizations of its seat (``seat.determinize``: full
states consistent with what the seat knows, never the true state) and plays every legal move
on each of them. A move's value on a sample is one of:

- ``rollout``: a policy plays the sample out from there, and the value is the reward it ends
  with, or the game's evaluation after ``cutoff`` moves. The policy is the game's own bot, or
  with ``policy="tuned"`` the game's tuned policy (``agents.policies``; the bot where there is
  none); either reads only what the seat can see. Choosing the move with the best mean is one
  step of policy improvement over that policy (Bertsekas' rollout algorithm; Tesauro and
  Galperin's backgammon rollouts): it can only lose to it through sampling noise, and the
  better the policy, the better the improvement.
- ``solver``: whether the sample can still be won with every card known (the game's clairvoyant
  solver, a small CPU allowance per sample): hindsight optimisation (Yoon, Fern and Givan;
  Bjarnason, Fern and Tadepalli's Klondike player). Samples the solver does not settle, and
  ties, fall back on the rollout's value, so moves that every sample wins are still told apart.

Every move sees the same samples and the same rollout dice (common random numbers), so the
difference between two moves is measured on the same luck. The policy's own move is the
reference: the others race against it in batches of samples, a move clearly behind it (its mean
difference more than two standard errors below) drops out, and at the end a move replaces the
policy's only if it is ahead by more than ``margin`` standard errors (``margin=0``: any
lead). So noise rarely talks the agent out of a good move, and a small budget plays like the
policy. ``samples`` is the number of samples a move is judged on at most; ``milliseconds`` caps
the CPU time of a decision (real time with ``clock="wall"``: see ``agents.clock``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from spyglass.engine import Action, RulesError, Seat, State
from spyglass.engine.rng import Rng, as_rng

from .clock import Deadline, check_clock, check_milliseconds
from .heuristic import to_move
from .ismcts import decision_words, evaluation, likelihood_model, searched, weighed_sample
from .policies import policy as tuned_policy

EVALUATORS = ("rollout", "solver")
POLICIES = ("bot", "tuned")


BATCH = 4  # samples added to every move still in the race at a time
DROP = 2.0  # standard errors behind the bot's move at which a move leaves the race


@dataclass(slots=True)
class Arm:
    """One legal move under evaluation: the sum and sum of squares of its differences from the
    bot's move, sample by sample."""

    action: Action
    order: int  # its place among the legal moves (the last tie-break)
    total: float = 0.0
    squares: float = 0.0
    count: int = 0

    def add(self, difference: float) -> None:
        self.total += difference
        self.squares += difference * difference
        self.count += 1

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    @property
    def error(self) -> float:
        """The standard error of the mean difference (0 until two samples differ)."""
        n = self.count
        if n < 2:
            return 0.0
        variance = max(0.0, (self.squares - self.total * self.total / n) / (n - 1))
        return math.sqrt(variance / n)


class PIMCAgent:
    """``samples`` (determinizations a move is judged on, at most), ``milliseconds`` (CPU time
    a decision may take), ``evaluator`` ("rollout" or "solver"), ``cutoff`` (rollout moves
    before the game's evaluation scores the position; None plays to the end), ``solve_ms`` (the
    solver's CPU allowance per sample), ``margin`` (standard errors by which a move must beat
    the policy's to replace it), ``policy`` ("bot" or "tuned": who plays the rollouts and
    proposes the reference move), ``evaluation`` (another function of the game's ``evaluate``
    module to score cut-off rollouts with; None: the game's own), ``decisions`` (words joined by
    "+": only decisions whose moves' notation begins with one of them are judged, the policy
    playing the others at once; None judges every decision), ``belief`` (1: off; k draws each
    sample from k determinizations by the likelihood the game's bot module gives what the seat
    has seen, as ISMCTS's option of that name does)."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = 16,
        milliseconds: float | None = None,
        evaluator: str = "rollout",
        cutoff: int | None = None,
        solve_ms: float = 20.0,
        margin: float = 1.0,
        clock: str = "cpu",
        policy: str = "bot",
        evaluation: str | None = None,
        decisions: str | None = None,
        belief: int = 1,
    ) -> None:
        if int(samples) < 1:
            raise RulesError("pimc needs at least one sample")
        self.milliseconds = check_milliseconds(milliseconds, "pimc")
        if evaluator not in EVALUATORS:
            raise RulesError(f"evaluator is one of {', '.join(EVALUATORS)}, not {evaluator!r}")
        if cutoff is not None and int(cutoff) < 0:
            raise RulesError("cutoff is a number of moves, 0 or more")
        if float(solve_ms) <= 0:
            raise RulesError("solve_ms must be positive")
        if policy not in POLICIES:
            raise RulesError(f"policy is one of {', '.join(POLICIES)}, not {policy!r}")
        if int(belief) < 1:
            raise RulesError("belief is a number of samples, 1 or more")
        self.rng = as_rng(seed)
        self.samples = int(samples)
        self.evaluator = evaluator
        self.cutoff = None if cutoff is None else int(cutoff)
        self.solve_seconds = float(solve_ms) / 1000
        self.margin = float(margin)
        self.clock = check_clock(clock, "pimc")
        self.policy = policy
        self.evaluation = None if evaluation is None else str(evaluation)
        self.decisions = decision_words(decisions)
        self.belief = int(belief)
        self.last_evaluations = 0  # how many (move, sample) pairs the last decision judged

    def choose(self, seat: Seat) -> Action:
        legal, player = to_move(seat)
        self.last_evaluations = 0
        if len(legal) == 1:
            return legal[0]
        game = seat.game
        bot = game.spec.bot
        if self.policy == "tuned":
            bot = tuned_policy(game.info.id, bot)
        if bot is None:
            raise RulesError(f"{game.info.id} has no bot to roll out with")
        deadline = Deadline.after(self.milliseconds, self.clock)
        rng = self.rng
        favoured = bot(seat.determinize(rng, log=False), rng).text
        reference = next(a for a in legal if a.text == favoured)
        if self.decisions is not None and not searched(legal, self.decisions):
            return reference
        rivals = [Arm(a, i) for i, a in enumerate(legal) if a is not reference]
        value = self._value_function(seat, player, bot)
        likelihood = likelihood_model(seat) if self.belief > 1 else None
        done = 0
        while rivals and done < self.samples:
            for _ in range(min(BATCH, self.samples - done)):
                if likelihood is None:
                    state = seat.determinize(rng, log=False)
                else:
                    state = weighed_sample(seat, player, likelihood, rng, self.belief)
                dice = rng.next64()
                base = value(state, reference, dice)
                self.last_evaluations += 1
                for arm in rivals:
                    arm.add(value(state, arm.action, dice) - base)
                    self.last_evaluations += 1
                done += 1
            if deadline.passed():
                break
            if done >= 2 * BATCH:
                rivals = [a for a in rivals if a.mean + DROP * a.error >= 0 or a.error == 0]
                rivals = [a for a in rivals if not (a.error == 0 and a.mean < 0)]
        best = max(rivals, key=lambda a: (a.mean, -a.order), default=None)
        if (
            best is not None
            and best.count >= BATCH  # fewer samples are not evidence enough to leave the bot
            and best.mean > 0
            and best.mean > self.margin * best.error
        ):
            return best.action
        return reference

    def _value_function(
        self, seat: Seat, player: int, bot: Callable[[State, Rng], Action]
    ) -> Callable[[State, Action, int], float]:
        cutoff = self.cutoff
        evaluate = evaluation(seat, self.evaluation) if cutoff is not None else None

        def rollout(state: State, action: Action, dice: int) -> float:
            state = state.clone()
            state.apply_legal(action)  # one of this very sample's legal moves
            rng = Rng(dice)
            moves = 0
            while not state.is_over:
                if evaluate is not None and cutoff is not None and moves >= cutoff:
                    return evaluate(state)[player]
                state.apply(bot(state, rng))
                moves += 1
            result = state.result
            assert result is not None  # the loop above ran to the end of the game
            return result.rewards[player]

        if self.evaluator == "rollout":
            return rollout
        if seat.players != 1:
            raise RulesError("the solver evaluator is for solo games")
        from spyglass.agents.solvers import solver  # noqa: PLC0415 - loaded only when asked

        solve = solver(seat.game.info.id)
        seconds = self.solve_seconds

        def hindsight(state: State, action: Action, dice: int) -> float:
            after = state.clone()
            after.apply_legal(action)
            found = solve(after, seconds=seconds, optimise_score=False)
            # won or lost with every card known, the rollout telling apart the moves every
            # sample wins (or loses); an unsettled sample counts by its rollout alone
            if found.won is None:
                return rollout(state, action, dice)
            return float(found.won) + 0.5 * rollout(state, action, dice)

        return hindsight
