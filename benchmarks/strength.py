"""How strong each agent plays every game, beside the clairvoyant ceiling; which is strongest.

    python benchmarks/strength.py [GAME ...] [--deals N] [--search-deals K] [--precision P]
        [--search-cap GAME=K ...] [--candidate GAME=SPEC,... ...] [--candidate-deals C]
        [--bound-deals B] [--effort-deals E] [--versus-tables V]
        [--budgets 10,40] [--seconds S] [--table-games M] [--players 4] [--workers W]
        [--seed S] [--out docs/strength.md] [--cache FILE] [--report-only]
        [--write-strongest src/spyglass/agents/strongest.toml]

Solo games: win rate (Wilson 95% interval) and mean score of random and heuristic on deals
0..N-1 (N = 2,401 gives a 95% interval of at most +-2 points whatever the rate). ISMCTS at two
iteration budgets plays the first deals of the same sequence, in rounds (50 deals, then 100,
200, ... up to K, but no further in a round than the rate seen so far needs, with 5% to spare):
a series stops once its interval is within +-P points (a rate near 0 or 1 needs far fewer deals
than one near a half) or at K deals (or at a game's own cap from --search-cap, for a game whose
search costs too much; the table then shows the wider interval). The candidates for a game's
strongest agent (CANDIDATES below, or --candidate) play in the same rounds, up to C deals each
whatever their interval (they are run for the paired test against the heuristic, which a precise
win rate does not settle; one that is also an ISMCTS column goes on to K), keeping each deal's
CPU time. The clairvoyant bound (can the deal be won with every hidden card known? The game's
own solver where it has one, ``agents.solvers.bound``; a deal not settled within S CPU seconds
counts as "unknown" and the bound is then a range) covers the deals of the game's longest
series, at most B. EFFORT below lists, for the games whose strongest agent falls
short of the targets, methods at growing budgets, each on the first E deals (EFFORT_SCALE
times E in the games it names): how the win rate grows with effort.

Every series is set against the heuristic on the deals both played (exact McNemar test of the
deals only one of them won, Holm's correction over the table). The strongest agent of a game is
the heuristic unless a series beats it so (p < 0.05 before correction), then the one with the
highest win rate; --write-strongest records the choice for the product (hints, bot seats named
``strongest``, ``spyglass report difficulty``), and a test checks that record against these
results.

Multiplayer games: a round-robin of random, heuristic and ISMCTS (the first budget): for each
pair, M tables with the two agents alternating round the table (half the tables with each in
seat 0), the share of wins of each agent's seats against the fair share. Spies! (a thousand
decisions a game) stops ISMCTS playouts after 10 moves and scores them with its evaluation.
The candidates of VERSUS play V tables each against the heuristic the same way (exact binomial
test of the tables one side's seats won alone); one that costs what the bot does plays six times
as many.

The table is printed as Markdown and, with --out, written to a file headed by the command that
regenerates it. Work is spread over W processes (the lab's runner), or over a Ray cluster with
--backend ray [--address ...]; Ctrl-C prints what finished. With --cache, every
finished part is appended to FILE and a later run with the same arguments redoes none of them,
so the tens of CPU-hours of the full table can be spread over many runs. A part's key names its
work exactly (the agent's spec; the solver and its version for the bound), so a better solver
or a new candidate is new work while everything else is reused.

The deal-by-deal results of docs/strength.md's run are kept in the repository, in
benchmarks/results/strength.jsonl (that run's --cache, committed as it grows, so that a run
spread over machines loses nothing when one is replaced): with that cache and --report-only
the command reprints the table in seconds, and without --report-only it carries the run on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import spyglass
from spyglass import agents
from spyglass.agents.policies import version as policy_version
from spyglass.agents.solvers import bound as solver_bound
from spyglass.agents.solvers import version as solver_version
from spyglass.engine import derive_seed
from spyglass.lab import mcnemar, simulate, wilson_interval
from spyglass.lab.runner import BACKENDS, run_tasks

#: Games whose full playouts cost too much at the table (Spies!: a thousand decisions a game):
#: ISMCTS stops each playout after this many moves and scores it with the game's evaluation.
TABLE_CUTOFF = {"spies": 10}
#: Bots too slow for every playout: where the game has no evaluation, ISMCTS rolls out at random.
SLOW_BOT = {"emissary"}
#: The Sandwich Guy's rollout search (agents/policies/sandwich_guy_search.py) with more deck
#: orders, candidates and playouts a decision than its defaults (48, 3, 1000 sandwiches)
SANDWICH_ROLLOUT = "rollout:samples=200,candidates=4,budget=8000"
#: Candidates for each solo game's strongest agent, beyond random, heuristic and the two ISMCTS
#: series: each plays the first deals in rounds, like ISMCTS, up to --candidate-deals.
CANDIDATES: dict[str, tuple[str, ...]] = {
    "syndicate": ("solver",),
    # (PIMC over the tuned policy's rollouts, 81.5% of 108 deals, plays in the effort series)
    # ISMCTS 10000 (0.73 CPU-s a move) led its effort series: 90 of its first 98 deals,
    # where the tuned policy won 86 of 100 and ISMCTS 1000 16 of 20. The rollout search with
    # more of everything (200 deck orders, 4 candidates, 8000 sandwiches a decision: 90 of
    # the first 100 deals, where its defaults won 87) costs about a seventh of ISMCTS 10000's
    # CPU, so it is listed first (on equal win rates the one listed first ranks higher)
    "sandwich-guy": (
        "pimc:samples=16",
        "tuned",
        SANDWICH_ROLLOUT,
        "ismcts:iterations=10000,cutoff=0",
    ),
    # hindsight optimisation over the solver led its effort series (80% of the first 20 deals);
    # with 8 samples and a margin of 1.5 standard errors, 44 of deals 400-459 (4 samples: 40,
    # the heuristic: 31)
    "tinker-sailor-soldier-spy": (
        "pimc:samples=16",
        "pimc:samples=4,evaluator=solver,cutoff=5",
        "pimc:samples=8,evaluator=solver,cutoff=5,margin=1.5",
        # ISMCTS 200 and 1000 (75% and 70% of the first 20 deals, 0.5 and 2.6 CPU-s a deal):
        # 79.8% and 77.5% of 400, the hindsight's 75.5%
        "ismcts:iterations=200,cutoff=0",
        "ismcts:iterations=1000,cutoff=0",
    ),
    # expectimax over the next market led Skyway's effort series (4 samples: 27 of the first
    # 32 deals, the heuristic 19). 16 samples (83.8% of 400 deals, 4 samples 83.0%, for 3.7
    # times the CPU) stays in the effort series only: its 400 deals were played before the
    # bot's value of a last turn was corrected, and cost 3.5 CPU-hours to play again
    "skyway": ("expectimax:depth=1,samples=4",),
    # ISMCTS 10 is also a column: as a candidate it plays every deal (0.08 CPU-s a deal).
    # Expectimax one card further than the bot led its effort series (75 of the first 76
    # deals, the heuristic 69; 1.6 CPU-s a deal). Its losses come with a full grid and an
    # Ace or a Ten no pile can take: expectimax two decisions deep (width 3) won all ten of
    # the first ten it lost, at 121 CPU-s a deal; Foursquare's own look-ahead spends the
    # second card only once 15 piles stand, on the best two placements (8 of those ten,
    # about 5 CPU-s a deal on the machine that played them)
    "foursquare": (
        "ismcts:iterations=10,cutoff=0",
        "expectimax:depth=1",
        "lookahead:depth=2,width=2,piles=15",
    ),
    # the effort series' leaders on their first 20 deals (95% and 65% there)
    "area-52": ("ismcts:iterations=200,cutoff=0", "pimc:samples=16,cutoff=5"),
    # ISMCTS 1000: the top of its effort series (70% of the first 20 deals, 14.6 CPU-s a deal);
    # 2000: whether the growth from 200 to 1000 (61.5% to 68.0% of 400 deals) goes on
    "loot-the-loop": tuple(f"ismcts:iterations={n},cutoff=0" for n in (200, 1000, 2000)),
    # PIMC 16 cut after 5 moves led its effort series (70% of the first 20 deals, 0.8 CPU-s);
    # 64 and 128 samples: whether the growth from 4 to 16 samples goes on
    "hide-and-seek": tuple(f"pimc:samples={n},cutoff=5" for n in (16, 64, 128)),
    # the bot with its static value's weights searched by self-play (agents.policies.dead_center)
    "dead-center": ("tuned",),
}
#: Candidates that cost about what the bot costs: they play all of --search-deals, not only
#: --candidate-deals.
CHEAP = {"tuned"}
#: How many times --versus-tables a CHEAP multiplayer candidate plays: an edge of a few points
#: of the wins needs thousands of tables for the paired test (at 53% of the tables won alone,
#: about 2,300 for p < 0.01), and at the bot's cost they take minutes.
CHEAP_TABLES = 6
#: Candidates that play more than --candidate-deals although they cost more (at most the
#: game's --search-deals; None: all of them): where the heuristic loses so few deals that the
#: paired test needs thousands to tell a better agent apart (Foursquare's heuristic loses 4%,
#: about 16 of 400 deals: 16 to 0 would be p = 3e-5 before Holm's correction multiplies it by
#: up to the size of the table's family). The look-ahead's 1,600 are what one session's CPU
#: allowed at about 5 CPU-s a deal.
MORE_DEALS: dict[tuple[str, str], int | None] = {
    ("foursquare", "expectimax:depth=1"): None,
    ("foursquare", "lookahead:depth=2,width=2,piles=15"): 1600,
    # 400 deals left its paired test at p = 0.02 after Holm (60 deals only it won, 28 only
    # the heuristic); the 800 more took about 40 minutes on two cores
    ("sandwich-guy", SANDWICH_ROLLOUT): 1200,
}
_ismcts_growing = tuple(f"ismcts:iterations={n},cutoff=0" for n in (40, 200, 1000))
#: ISMCTS on to seconds a move where nothing meets the targets (10,000 iterations: 0.73 CPU-s a
#: move in the Sandwich Guy, 2.2 in Skyway, as measured; Boba Tea and Dead Center play it on a
#: few deals only, see EFFORT_CAP)
_ismcts_seconds = (*_ismcts_growing, "ismcts:iterations=10000,cutoff=0")
#: PIMC where full bot playouts cost too much (tens of moves, each a search of the bot's own):
#: each rollout stops after five moves and the game's evaluation scores it.
_pimc_cut = tuple(f"pimc:samples={n},cutoff=5" for n in (4, 16))
#: Hindsight optimisation: each sampled deal solved by the game's clairvoyant solver (the
#: generic search where the game has none).
_hindsight = tuple(f"pimc:samples={n},evaluator=solver,cutoff=5" for n in (4, 16))
_ISMCTS = "ISMCTS, leaves scored by the evaluation"
_PIMC_CUT = "PIMC, bot rollouts cut after 5 moves"
_HINDSIGHT = "hindsight optimisation over the solver"
#: The game-specific search where the game's bot has a value of a position to score leaves
#: with (agents.expectimax): exact over the next card, 1 and 2 decisions deep.
_EXPECTIMAX = "expectimax over the next card, leaves scored by the bot's value"
#: How strength grows with effort, for the games whose strongest agent falls short of the
#: targets: each method at growing budgets, on the first --effort-deals deals. Where a
#: budget costs tens of CPU-seconds a deal, its series stops one budget earlier.
EFFORT: dict[str, dict[str, tuple[str, ...]]] = {
    "tinker-sailor-soldier-spy": {
        _ISMCTS: _ismcts_growing,
        "PIMC, bot rollouts": ("pimc:samples=4", "pimc:samples=16", "pimc:samples=64"),
        _HINDSIGHT: _hindsight,
    },
    "skyway": {
        _ISMCTS: _ismcts_seconds,
        _PIMC_CUT: _pimc_cut[:1],
        _HINDSIGHT: _hindsight[:1],
        # the first card of the next market enumerated, the other four from 1, 4, 16 samples
        _EXPECTIMAX: (
            "expectimax:depth=1",
            "expectimax:depth=1,samples=4",
            "expectimax:depth=1,samples=16",
        ),
    },
    "sandwich-guy": {
        _ISMCTS: _ismcts_seconds,
        "PIMC, bot rollouts": ("pimc:samples=4", "pimc:samples=16", "pimc:samples=64"),
        "hindsight optimisation over the solver": (
            "pimc:samples=4,evaluator=solver",
            "pimc:samples=16,evaluator=solver",
            "pimc:samples=64,evaluator=solver",
            "pimc:samples=256,evaluator=solver",
        ),
        "PIMC, rollouts by the tuned policy": (
            "tuned",
            "pimc:samples=4,policy=tuned",
            "pimc:samples=16,policy=tuned",
        ),
        "the tuned policy's best moves played out over shared deck orders": (
            "rollout",
            SANDWICH_ROLLOUT,
        ),
    },
    "area-52": {_ISMCTS: _ismcts_growing, _PIMC_CUT: _pimc_cut, _HINDSIGHT: _hindsight[:1]},
    "dead-center": {
        _ISMCTS: _ismcts_seconds,
        _PIMC_CUT: _pimc_cut,
        _HINDSIGHT: _hindsight[:1],
        _EXPECTIMAX: ("expectimax:depth=1",),
    },
    "boba-tea": {
        _ISMCTS: _ismcts_seconds,
        _PIMC_CUT: _pimc_cut,
        "hindsight optimisation over the generic search": _hindsight,
        _EXPECTIMAX: ("expectimax:depth=1", "expectimax:depth=2"),
    },
    "foursquare": {
        _ISMCTS: _ismcts_growing,
        _PIMC_CUT: _pimc_cut[:1],
        "hindsight optimisation over the generic search": _hindsight[:1],
        # depth 2 (width 2) took 72.6 CPU-s a deal before the bot's look ahead was made faster
        _EXPECTIMAX: ("expectimax:depth=1",),
        "expectimax two cards deep once 15 piles stand, on the bot's grid": (
            "lookahead:depth=2,width=2,piles=15",
        ),
    },
    "loot-the-loop": {_ISMCTS: _ismcts_growing, _PIMC_CUT: _pimc_cut, _HINDSIGHT: _hindsight[:1]},
    "hide-and-seek": {_ISMCTS: _ismcts_growing, _PIMC_CUT: _pimc_cut, _HINDSIGHT: _hindsight},
    "emissary": {
        # 1000 iterations already cost about a second a move on the machine of 30 November
        # (36.6 CPU-s a deal on a machine 2.7 times faster, 118 decisions a deal)
        _ISMCTS: _ismcts_growing,
        _PIMC_CUT: _pimc_cut,
        _HINDSIGHT: _hindsight,
        # its bot has no value of a position (its odds table already is the expectation over
        # the unseen topics of a kingdom), so the leaves are scored by the fitted evaluation
        "expectimax over the next card, leaves scored by the evaluation": ("expectimax:depth=1",),
    },
}
#: Games whose effort series play another number of deals than --effort-deals: this many times
#: it. More where no agent meets the targets, so the series show where the growth levels off:
#: five times in the Sandwich Guy and Boba Tea, whose searches cost seconds a deal, 1.6 times
#: where the dearest budget costs 35-70 CPU-s a deal. (The Emissary's, at 145 CPU-s a deal for
#: all its series, stay at --effort-deals.)
EFFORT_SCALE: dict[str, float] = {
    "sandwich-guy": 5,
    "boba-tea": 5,
    "skyway": 1.6,
    "foursquare": 1.6,
    "dead-center": 1.6,
}
#: Effort budgets that play fewer deals than their game's series, where a deal costs minutes
#: of CPU (on the machine of 30 November, 2.7 times slower than the one most of the table was
#: played on): ISMCTS at seconds a move (Boba Tea about 2 CPU-s a move at 10,000 iterations,
#: 90 CPU-s a deal; Dead Center about 4, 230 CPU-s a deal). Their rows are read beside the
#: heuristic on the same deals: a few deals, to see whether the trend of the cheaper budgets
#: turns, not a win rate.
EFFORT_CAP: dict[tuple[str, str], int] = {
    ("boba-tea", "ismcts:iterations=10000,cutoff=0"): 8,
    ("dead-center", "ismcts:iterations=10000,cutoff=0"): 6,
    # hindsight optimisation where its growth had not been seen to level off (the Sandwich
    # Guy's 76/79/86% at 4/16/64 samples) or had one budget (Boba Tea): the next budget, four
    # times the samples of the last
    ("sandwich-guy", "pimc:samples=256,evaluator=solver"): 16,
    ("boba-tea", "pimc:samples=16,evaluator=solver,cutoff=5"): 16,
}
#: Multiplayer agents set against the heuristic seat for seat, on --versus-tables tables.
#: Espionage: ISMCTS whose determinizations weigh the roles by the evidence of the plays
#: (``belief=4``), ahead of the heuristic in a screening of 60 tables (37 to 23 won alone).
#: The tuned policy (``agents.policies.espionage``: the bot with beliefs fitted to its play).
#: Tinker Tailor: PIMC over the role draft only (the bot plays the rest), each pick rolled
#: about a round on and scored by the bot's worth of each hand (``by_worth``); 59% of the
#: tables won alone in a screening of 400. The Spies!: the tuned policy (``agents.policies.spies``:
#: the bot with its worths of chits, £, spies and Action Points searched again).
VERSUS: dict[str, tuple[str, ...]] = {
    "espionage": ("ismcts:iterations=10,belief=4", "tuned"),
    "tinker-tailor": ("pimc:samples=10,cutoff=15,evaluation=by_worth,decisions=pick",),
    "spies": ("tuned",),
}
#: Games whose rules or data changed after results were kept for them, with the change (its
#: commit): their parts' keys (solo deals and multiplayer tables) name it, so results played
#: under the old rules are not reused. Loot the Loop: a loss only where the rulebook declares
#: one (issue 25). The Spies!: the balanced edition (issue 29).
REVISED: dict[str, str] = {"loot-the-loop": "rules:b509964", "spies": "edition:0735a20"}
#: The generic clairvoyant search's version (agents.solvers.version of a game without its own).
GENERIC = "clairvoyant:1"
CHUNK = 10  # deals per part for random and heuristic
SEARCH_CHUNK = 2  # deals per part for ISMCTS and the bound (seconds to minutes each)
FIRST_ROUND = 50  # deals of the first round of the search; each later round doubles it


def ismcts(game_id: str, budget: int, solo: bool = False) -> str:
    """The ISMCTS agent measured: on a solo game with an evaluation, each new leaf is scored by
    the evaluation at once (cutoff 0: as strong as full bot playouts at 40 iterations on 30
    deals of each game, and 4-66 times cheaper; see benchmarks/ismcts_cutoff.py); else playouts
    to the end, by the bot, or at random where the bot is too slow."""
    if game_id in TABLE_CUTOFF:
        return f"ismcts:iterations={budget},cutoff={TABLE_CUTOFF[game_id]}"
    if solo and spyglass.load(game_id).spec.evaluate is not None:
        return f"ismcts:iterations={budget},cutoff=0"
    if game_id in SLOW_BOT:
        return f"ismcts:iterations={budget},rollout=random"
    return f"ismcts:iterations={budget}"


def solo_chunk(  # noqa: PLR0917 - a part's arguments, in its key
    game_id: str, agent: str, seed: int, start: int, count: int, version: str = ""
) -> list[tuple]:
    """(deal index, won, score) for deals start..start+count-1. ``version`` names what else
    the results depend on (see :func:`work_tag`): revised rules or retuned weights are new
    work."""
    result = simulate(game_id, agent, count, seed=seed, first=start)
    return [(o.index, bool(o.won), o.score) for o in result.outcomes]


def timed_chunk(  # noqa: PLR0917 - a part's arguments, in its key
    game_id: str, agent: str, seed: int, start: int, count: int, version: str = ""
) -> list[tuple]:
    """(deal index, won, score, CPU seconds) for deals start..start+count-1, one at a time so
    that each deal's cost is its own (``version`` as for :func:`solo_chunk`)."""
    rows = []
    for index in range(start, start + count):
        started = time.process_time()
        outcome = simulate(game_id, agent, 1, seed=seed, first=index).outcomes[0]
        rows.append((index, bool(outcome.won), outcome.score, time.process_time() - started))
    return rows


def solver_chunk(  # noqa: PLR0917 - a part's arguments, in its key
    game_id: str, seed: int, start: int, count: int, seconds: float, version: str = ""
) -> list[tuple]:
    """(deal index, won, CPU seconds) of the game's clairvoyant solver for deals
    start..start+count-1: won True, False, or None for unknown (not settled within
    ``seconds`` of CPU). Only whether a deal can be won is asked, not its best score.
    ``version`` names the solver (see :func:`solver_version`), and the rules' revision where
    it has one (:func:`work_tag`): a better solver, or changed rules, are new work."""
    game = spyglass.load(game_id)
    rows = []
    for index in range(start, start + count):
        state = game.new_state(seed=derive_seed(seed, f"game/{index}"))
        found = solver_bound(state, seconds=seconds, optimise_score=False)
        rows.append((index, found.won, round(found.seconds, 4)))
    return rows


def bound_chunk(game_id: str, seed: int, start: int, count: int, seconds: float) -> list[tuple]:
    """The generic search's parts (games without a solver of their own): the key they had
    before the games' own solvers came, so the results kept under it are reused. That search
    is unchanged since (only its time and node allowance moved to ``solvers.base``)."""
    return solver_chunk(game_id, seed, start, count, seconds)


def policy_tag(game_id: str, agent: str) -> str:
    """The tuned policy's version where ``agent`` plays (``tuned``), searches with
    (``rollout``) or rolls out with (``policy=tuned``) the game's tuned policy, else empty."""
    name, params = agents.parse_spec(agent)
    if name not in {"tuned", "rollout"} and params.get("policy") != "tuned":
        return ""
    return policy_version(game_id)


def solver_tag(game_id: str, agent: str) -> str:
    """The solver's version where ``agent`` solves sampled deals (``evaluator=solver``), else
    empty: a faster or corrected solver is new work."""
    if agents.parse_spec(agent)[1].get("evaluator") != "solver":
        return ""
    return solver_version(game_id)


def work_tag(game_id: str, agent: str | None) -> str:
    """What a part's key adds to its arguments to name its work exactly: the rules' revision
    (:data:`REVISED`), the tuned policy's version (:func:`policy_tag`) and the solver's
    (:func:`solver_tag`), where there are any. Empty otherwise, so the keys of every other
    part stay those of the results kept."""
    tags = [
        REVISED.get(game_id, ""),
        policy_tag(game_id, agent) if agent else "",
        solver_tag(game_id, agent) if agent else "",
    ]
    return " ".join(t for t in tags if t)


def table_chunk(  # noqa: PLR0917 - a part's arguments, in its key
    game_id: str, seats: list[str], players: int, seed: int, games: int, version: str = ""
) -> list:
    """The winners of each of ``games`` tables (``version`` as for :func:`solo_chunk`)."""
    result = simulate(game_id, seats, games, seed=seed, players=players)
    return [o.winners for o in result.outcomes]


@dataclass(frozen=True)
class Part:
    """One unit of work: a few deals (or tables) of one game for one agent (or pairing)."""

    key: str  # names the work exactly, so a cached result is reused only for the same work
    kind: str  # "solo", "bound" or "table"
    game_id: str
    label: Any  # the agent, or (first agent, second agent, seats) for a table
    function: Callable[..., list]
    arguments: tuple


@dataclass(frozen=True)
class PartTask:
    """A part as a task of the lab's runner (picklable: a module-level function and its
    arguments)."""

    function: Callable[..., list]
    arguments: tuple

    def run(self) -> list:
        return self.function(*self.arguments)


class Planner:
    """The parts of the run, named so that the same work always has the same key."""

    def __init__(self, args, infos, budgets: list[int]) -> None:
        self.args, self.infos, self.budgets = args, infos, budgets
        self.solo = [i for i in infos if i.solo]

    def part(self, kind, game_id, label, function, *arguments) -> Part:
        key = json.dumps([kind, game_id, function.__name__, *arguments])
        return Part(key, kind, game_id, label, function, arguments)

    def fixed(self) -> list[Part]:
        """The cheap agents on every deal, then the multiplayer tables (a few at a time for
        every game in turn, so an interrupted run still covers every game evenly)."""
        args, parts = self.args, []
        for start in range(0, args.deals, CHUNK):
            count = min(CHUNK, args.deals - start)
            for info in self.solo:
                tag = REVISED.get(info.id)
                for agent in ("random", "heuristic"):
                    parts.append(
                        self.part("solo", info.id, agent, solo_chunk, info.id, agent, args.seed,
                                  start, count, *([tag] if tag else []))
                    )  # fmt: skip
        tables = []
        for info in self.infos:
            if info.solo:
                continue
            low, high = info.players
            n = min(max(args.players, low), high)
            names = ["random", "heuristic", ismcts(info.id, self.budgets[0])]
            tables += [(info, n, a, b) for a, b in combinations(names, 2)]
        half = args.table_games // 2
        for start in range(0, half, SEARCH_CHUNK):
            for info, n, a, b in tables:
                games = min(SEARCH_CHUNK, half - start)
                for flip, (first, second) in enumerate(((a, b), (b, a))):
                    seats = [first if p % 2 == 0 else second for p in range(n)]
                    seed = derive_seed(args.seed, f"{info.id}/{a}/{b}/{flip}/{start}")
                    label = (a, b, tuple(seats))
                    tag = REVISED.get(info.id)
                    parts.append(
                        self.part("table", info.id, label, table_chunk, info.id, seats, n, seed,
                                  games, *([tag] if tag else []))
                    )  # fmt: skip
        return parts

    def search(
        self, game_id: str, agent: str | None, start: int, stop: int, timed: bool = False
    ) -> list[Part]:
        """An agent's series (``agent``; ``timed``: with each deal's CPU time, as the
        candidates and effort series keep it) or the clairvoyant bound (``agent`` None) on
        deals start..stop-1."""
        args, parts = self.args, []
        for first in range(start, stop, SEARCH_CHUNK):
            count = min(SEARCH_CHUNK, stop - first)
            tag = work_tag(game_id, agent)
            if agent is None and solver_version(game_id) == GENERIC and not tag:
                parts.append(
                    self.part("bound", game_id, None, bound_chunk, game_id, args.seed, first,
                              count, args.seconds)
                )  # fmt: skip
            elif agent is None:
                version = " ".join(v for v in (solver_version(game_id), tag) if v)
                parts.append(
                    self.part("bound", game_id, None, solver_chunk, game_id, args.seed, first,
                              count, args.seconds, version)
                )  # fmt: skip
            else:
                function = timed_chunk if timed else solo_chunk
                parts.append(
                    self.part("solo", game_id, agent, function, game_id, agent, args.seed,
                              first, count, *([tag] if tag else []))
                )  # fmt: skip
        return parts

    def versus(self) -> list[Part]:
        """Each multiplayer candidate against the heuristic, seat for seat: the two alternate
        round the table, each in seat 0 for half the tables (a few tables of every game in
        turn, so an interrupted run covers every game evenly). A candidate that costs what the
        bot does (:data:`CHEAP`) plays :data:`CHEAP_TABLES` times as many tables, ten a part."""
        args, tables = self.args, []
        for info in self.infos:
            if info.solo:
                continue
            low, high = info.players
            n = min(max(args.players, low), high)
            for agent in VERSUS.get(info.id, ()):
                cheap = agents.parse_spec(agent)[0] in CHEAP
                half = args.versus_tables * (CHEAP_TABLES if cheap else 1) // 2
                tables.append((info, n, "heuristic", agent, half, CHUNK if cheap else SEARCH_CHUNK))
        parts = []
        most = max((table[4] for table in tables), default=0)
        for start in range(0, most, SEARCH_CHUNK):
            for info, n, a, b, half, chunk in tables:
                if start >= half or start % chunk:
                    continue
                games = min(chunk, half - start)
                for flip, (first, second) in enumerate(((a, b), (b, a))):
                    seats = [first if p % 2 == 0 else second for p in range(n)]
                    seed = derive_seed(args.seed, f"{info.id}/{a}/{b}/{flip}/{start}")
                    tag = work_tag(info.id, b)
                    parts.append(
                        self.part("table", info.id, (a, b, tuple(seats)), table_chunk, info.id,
                                  seats, n, seed, games, *([tag] if tag else []))
                    )  # fmt: skip
        return parts


def deals_allowed(
    game_id: str, agent: str, most: int, candidate_deals: int, candidate: bool
) -> int:
    """How many deals a series may play, where the game's series play at most ``most``: a
    ``candidate`` (not a column of the table) stops at ``candidate_deals``, unless it costs
    about what the bot costs (:data:`CHEAP`) or its test needs more deals (:data:`MORE_DEALS`)."""
    if not candidate or agents.parse_spec(agent)[0] in CHEAP:
        return most
    if (game_id, agent) in MORE_DEALS:
        wanted = MORE_DEALS[game_id, agent]
        return most if wanted is None else min(most, max(wanted, candidate_deals))
    return min(most, candidate_deals)


def round_stop(  # noqa: PLR0917 - a series' state and the run's settings
    series: list[tuple], done: int, target: int, most: int, precision: float, estimate: bool
) -> int | None:
    """Where a series' next round of the search ends (None: the series is complete). It has
    played ``done`` deals (``series``, their rows) and may play ``most``; the round goes up to
    ``target``. A series that ``estimate``s a win rate (an ISMCTS column) ends once its
    interval is within +-``precision`` points and stops a round where the rate seen so far
    needs it to; a candidate is run for its paired test against the heuristic, which a precise
    win rate does not settle, so it plays all its deals."""
    if done >= most or (estimate and precise(series, precision)):
        return None
    stop = min(target, most)
    if series and estimate:  # no further than the rate observed so far needs
        stop = min(stop, max(done + SEARCH_CHUNK, enough(series, precision, most)))
    return stop


def precise(rows: list[tuple], precision: float) -> bool:
    """Whether a win rate's Wilson 95% interval is at most +-``precision`` points wide."""
    if not rows:
        return False
    return _narrow(sum(1 for _, won, _ in rows if won), len(rows), precision)


def _narrow(wins: int, games: int, precision: float) -> bool:
    low, high = wilson_interval(wins, games)
    return (high - low) / 2 <= precision / 100


def enough(rows: list[tuple], precision: float, limit: int) -> int:
    """How many deals a series at its observed win rate needs for an interval of
    +-``precision`` points, with 5% to spare, in whole parts (at most ``limit``): where the next
    round can stop instead of doubling past it (a rate of 80% needs about 1,540 deals, not the
    2,401 a doubling round would play)."""
    rate = sum(1 for _, won, _ in rows if won) / len(rows)

    def narrow(n: int) -> bool:
        return _narrow(round(rate * n), n, precision)

    low, high = 1, limit
    if not narrow(high):
        return limit
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if narrow(middle) else (middle + 1, high)
    wanted = -(-int(low * 1.05) // SEARCH_CHUNK) * SEARCH_CHUNK
    return min(wanted, limit)


def interleave(groups: list[list[Part]]) -> list[Part]:
    """The parts of several series, a part of each in turn (even coverage if interrupted)."""
    out = []
    for i in range(max((len(g) for g in groups), default=0)):
        out += [g[i] for g in groups if i < len(g)]
    return out


def _regenerating(argv: list[str]) -> list[str]:
    """The arguments that rebuild the table: without --report-only, and without a cache given
    by an absolute path (a file on the machine that built it). A relative cache is a file of
    the repository (``benchmarks/results/strength.jsonl``, the deal-by-deal results of the
    published table) and stays: with it the command reprints the table at once, or continues
    the run where the file ends."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
            if not Path(arg).is_absolute():
                out += ["--cache", arg]
        elif arg == "--report-only":
            pass
        elif arg.startswith("--cache="):
            if not Path(arg.partition("=")[2]).is_absolute():
                out.append(arg)
        elif arg == "--cache":
            skip = True
        else:
            out.append(arg)
    return out


def _caps(values: list[str], parser: argparse.ArgumentParser) -> dict[str, int]:
    """``--search-cap GAME=K`` options as {game: K}, refusing unknown games and bad counts."""
    known = {i.id for i in spyglass.games()}
    caps = {}
    for value in values:
        game, _, count = value.partition("=")
        if game not in known:
            parser.error(
                f"--search-cap {value}: no game {game!r} (known: {', '.join(sorted(known))})"
            )
        if not count.isdigit() or int(count) < 1:
            parser.error(f"--search-cap {value}: K must be a positive whole number of deals")
        caps[game] = int(count)
    return caps


def _candidates(values: list[str], parser: argparse.ArgumentParser) -> dict[str, tuple[str, ...]]:
    """``--candidate GAME=SPEC,...`` options as {game: specs}; unknown games and agents refused."""
    known = {i.id for i in spyglass.games()}
    chosen: dict[str, tuple[str, ...]] = {}
    for value in values:
        game, _, specs = value.partition("=")
        if game not in known:
            parser.error(f"--candidate {value}: no game {game!r}")
        names = tuple(x for x in _split_specs(specs) if x)
        for spec in names:
            try:
                agents.load_spec(spec)
            except spyglass.RulesError as error:
                parser.error(f"--candidate {value}: {error}")
        chosen[game] = names
    return chosen


def _split_specs(text: str) -> list[str]:
    """Specs separated by commas, where a spec's own parameters also use commas: a part that
    names an agent (no ``=``, or a ``:`` before it) starts a new spec."""
    specs: list[str] = []
    for part in text.split(","):
        starts = "=" not in part or (part.find(":") != -1 and part.find(":") < part.find("="))
        if starts or not specs:
            specs.append(part)
        else:
            specs[-1] += "," + part
    return specs


def _read_cache(path: Path | None) -> dict[str, list]:
    """Finished parts from earlier runs (one JSON object per line; a torn last line is skipped)."""
    if path is None or not path.exists():
        return {}
    cached = {}
    for line in path.read_text().splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        cached[entry["key"]] = entry["rows"]
    return cached


def main(argv: list[str] | None = None) -> int:
    args, infos, budgets, results = collect(argv)
    text = report(args, infos, budgets, results)
    print(text)
    if args.write_strongest:
        args.write_strongest.write_text(strongest_toml(infos, results, budgets))
    if args.out:
        command = "python benchmarks/strength.py " + " ".join(_regenerating(argv or sys.argv[1:]))
        args.out.write_text(
            "# Strength of play\n\n"
            f"Generated by `{command.strip()}` ({time.strftime('%Y-%m-%d')}); "
            "see the script's docstring for what each column means.\n\n" + text
        )
    return 0


def collect(argv: list[str] | None = None) -> tuple[Any, list, list[int], Results]:
    """Run (or, with --report-only, only read from --cache) the parts the arguments ask for:
    the parsed arguments, the games, the ISMCTS budgets and what the parts found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--deals", type=int, default=2401)
    parser.add_argument(
        "--search-deals", type=int, help="the most deals for ISMCTS and the bound (default N)"
    )
    parser.add_argument(
        "--precision",
        type=float,
        default=2.0,
        help="stop an ISMCTS series once its win rate's 95%% interval is within +- this many "
        "points (default 2)",
    )
    parser.add_argument(
        "--search-cap",
        action="append",
        default=[],
        metavar="GAME=K",
        help="at most K ISMCTS deals for GAME (repeatable), below --search-deals",
    )
    parser.add_argument("--budgets", default="10,40", help="two ISMCTS iteration budgets")
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="clairvoyant cap per deal, in CPU seconds"
    )
    parser.add_argument(
        "--bound-deals",
        type=int,
        help="the most deals for the clairvoyant bound (default: those of the longest series)",
    )
    parser.add_argument(
        "--candidate-deals",
        type=int,
        default=1000,
        help="the most deals for each candidate for a game's strongest agent (default 1000)",
    )
    parser.add_argument(
        "--candidate",
        action="append",
        default=[],
        metavar="GAME=SPEC,...",
        help="the candidates for GAME's strongest agent instead of the script's own (repeatable; "
        "GAME= alone: none)",
    )
    parser.add_argument(
        "--effort-deals",
        type=int,
        default=200,
        help="deals of each effort series (a method at one budget; default 200)",
    )
    parser.add_argument("--table-games", type=int, default=200)
    parser.add_argument(
        "--versus-tables",
        type=int,
        default=400,
        help="tables of each multiplayer candidate against the heuristic (default 400)",
    )
    parser.add_argument("--players", type=int, default=4, help="table size for multiplayer")
    parser.add_argument("--workers", type=int, default=2, help="processes, or Ray CPUs")
    parser.add_argument("--backend", choices=BACKENDS, default="process")
    parser.add_argument("--address", help="a running Ray cluster (with --backend ray)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--cache",
        type=Path,
        help="a file of finished parts: read at the start (their work is not redone), each newly "
        "finished part appended, so a long run can be stopped and continued in later runs",
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="run nothing: the table of the parts already in --cache",
    )
    parser.add_argument(
        "--write-strongest",
        type=Path,
        metavar="TOML",
        help="write each game's strongest agent, as these results rank them, to this file "
        "(src/spyglass/agents/strongest.toml is the product's)",
    )
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    search_deals = args.deals if args.search_deals is None else min(args.search_deals, args.deals)
    caps = _caps(args.search_cap, parser)
    candidates = {**CANDIDATES, **_candidates(args.candidate, parser)}
    infos = [i for i in spyglass.games() if not args.games or i.id in args.games]
    solo_rows: dict[tuple[str, str], list[tuple]] = defaultdict(list)
    cpu_rows: dict[tuple[str, str], list[float]] = defaultdict(list)
    bound_rows: dict[str, list[tuple]] = defaultdict(list)
    table_rows: dict[tuple[str, str, str], list[tuple]] = defaultdict(list)
    planner = Planner(args, infos, budgets)
    cached = _read_cache(args.cache)
    absorbed: set[str] = set()

    def absorb(part: Part, rows: list) -> None:
        absorbed.add(part.key)
        if part.kind == "solo":
            # (index, won, score), and the deal's CPU time for the timed series
            solo_rows[part.game_id, part.label] += [tuple(r[:3]) for r in rows]
            cpu_rows[part.game_id, part.label] += [r[3] for r in rows if len(r) > 3]
        elif part.kind == "bound":
            bound_rows[part.game_id] += [tuple(r[:2]) for r in rows]
        else:
            a, b, seats = part.label
            table_rows[part.game_id, a, b] += [(seats, tuple(w)) for w in rows]

    def execute(parts: list[Part], stage: str) -> bool:
        """Run the parts not yet done (none with --report-only); True if interrupted."""
        todo = []
        for part in parts:
            if part.key in absorbed:
                continue
            if part.key in cached:
                absorb(part, cached[part.key])
            else:
                todo.append(part)
        if args.report_only or not todo:
            return False
        print(
            f"{stage}: {len(todo)} parts to run ({len(parts) - len(todo)} cached)", file=sys.stderr
        )
        started = time.perf_counter()
        done = 0

        def finished(position: int, rows: list) -> None:
            nonlocal done
            part = todo[position]
            absorb(part, rows)
            if args.cache:
                with args.cache.open("a") as cache:
                    cache.write(json.dumps({"key": part.key, "rows": rows}) + "\n")
            done += 1
            elapsed = time.perf_counter() - started
            eta = elapsed / done * (len(todo) - done)
            print(f"  {done}/{len(todo)} parts, ETA {eta:,.0f} s", file=sys.stderr)

        outcome = run_tasks(
            [PartTask(p.function, p.arguments) for p in todo],
            jobs=args.workers,
            backend=args.backend,
            address=args.address,
            on_result=finished,
            batch=1,
        )
        if outcome.interrupted:
            print("interrupted: the table covers what finished", file=sys.stderr)
        return outcome.interrupted

    interrupted = execute(planner.fixed(), "random, heuristic and the tables")
    # The search, in rounds of doubling deals: a series stops once its interval is narrow
    # enough or at --search-deals; the bound covers the deals of the game's longest series.
    reached: dict[tuple[str, str | None], int] = defaultdict(int)
    target, stage = FIRST_ROUND, 1
    while not interrupted:
        groups = []
        for info in planner.solo:
            searches = [ismcts(info.id, b, solo=True) for b in budgets]
            trying = list(candidates.get(info.id, ()))
            most_deals = min(search_deals, caps.get(info.id, search_deals))
            for agent in dict.fromkeys(searches + trying):
                # a candidate that is also a column of the table keeps the column's parts
                timed = agent in trying and agent not in searches
                most = deals_allowed(info.id, agent, most_deals, args.candidate_deals, timed)
                done, series = reached[info.id, agent], solo_rows[info.id, agent]
                stop = round_stop(series, done, target, most, args.precision, agent not in trying)
                if stop is None:
                    continue
                groups.append(planner.search(info.id, agent, done, stop, timed))
                reached[info.id, agent] = stop
            # the bound covers the deals of the game's longest series (effort ones included)
            widest = max(
                [reached[info.id, agent] for agent in searches + trying]
                + [effort_deals(info.id, args.effort_deals) for _ in EFFORT.get(info.id, {})]
            )
            widest = min(widest, args.bound_deals or widest)
            if reached[info.id, None] < widest:
                groups.append(planner.search(info.id, None, reached[info.id, None], widest))
                reached[info.id, None] = widest
        parts = interleave(groups)
        if not parts:
            break
        interrupted = execute(
            parts, f"search, round {stage} (up to {min(target, search_deals)} deals)"
        )
        target, stage = 2 * target, stage + 1
    if not interrupted:
        interrupted = execute(planner.versus(), "multiplayer candidates against the heuristic")
    if not interrupted:
        # an ISMCTS series of the table is reused as it is (its parts, untimed): timed parts
        # of the same deals would count them twice in that series
        effort = [
            planner.search(
                info.id, spec, 0, effort_deals(info.id, args.effort_deals, spec),
                timed=spec not in {ismcts(info.id, b, solo=True) for b in budgets},
            )
            for info in planner.solo
            for specs in EFFORT.get(info.id, {}).values()
            for spec in specs
        ]  # fmt: skip
        execute(interleave(effort), "effort series")
    return args, infos, budgets, Results(solo_rows, cpu_rows, bound_rows, table_rows)


@dataclass
class Results:
    """Everything the parts found: per (game, agent) the solo deals (index, won, score) and,
    for the timed series, each deal's CPU seconds; per game the bound's deals (index, won);
    per (game, first agent, second agent) the tables (seats, winners)."""

    solo: dict[tuple[str, str], list[tuple]]
    cpu: dict[tuple[str, str], list[float]]
    bound: dict[str, list[tuple]]
    tables: dict[tuple[str, str, str], list[tuple]]


#: A series takes part in the ranking once it has this many deals (or tables): the first round
#: of the search, since the precision rule may end a series there (100% of 98 Syndicate deals
#: is within +-2 points); the significance test, not this floor, guards against luck.
MIN_DEALS = FIRST_ROUND
#: An agent replaces the heuristic as a game's strongest only if it beats it deal by deal (solo,
#: exact McNemar) or table by table (multiplayer, exact binomial) at this level.
SIGNIFICANT = 0.05


def series(game_id: str, budgets: list[int], effort: bool = True) -> list[str]:
    """The solo series of a game, in the order the tables list them; with ``effort=False``
    without those played only for the effort series (a few deals each: they are not tested
    against the heuristic, so they do not swell the family Holm's correction holds together)."""
    names = ["random", "heuristic", *(ismcts(game_id, b, solo=True) for b in budgets)]
    names += [c for c in CANDIDATES.get(game_id, ()) if c not in names]
    if not effort:
        return names
    for specs in EFFORT.get(game_id, {}).values():
        names += [c for c in specs if c not in names]
    return names


def versus_heuristic(game_id: str, agent: str, solo: dict) -> tuple[int, int, int, int, int]:
    """On the deals both played: (deals, the agent's wins, the heuristic's wins, deals only the
    agent won, deals only the heuristic won)."""
    heuristic = {i: won for i, won, _ in solo.get((game_id, "heuristic"), [])}
    mine = {i: won for i, won, _ in solo.get((game_id, agent), [])}
    deals = [i for i in mine if i in heuristic]
    only_mine = sum(1 for i in deals if mine[i] and not heuristic[i])
    only_heuristic = sum(1 for i in deals if heuristic[i] and not mine[i])
    return (
        len(deals),
        sum(mine[i] for i in deals),
        sum(heuristic[i] for i in deals),
        only_mine,
        only_heuristic,
    )


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment: each p-value as it compares with the level of the whole
    family of tests (monotone, at most 1)."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [1.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def solo_ranking(
    game_id: str, budgets: list[int], results: Results
) -> list[tuple[str, float, int]]:
    """The game's series with at least MIN_DEALS deals, strongest first: (agent, win rate,
    deals). Only the heuristic and the agents that beat it deal by deal (more deals won only by
    them, p below SIGNIFICANT) are eligible; among them the higher win rate ranks first, and
    on equal rates the series listed first (the cheaper)."""
    ranked = []
    for position, agent in enumerate(series(game_id, budgets, effort=False)):
        rows = results.solo.get((game_id, agent), [])
        if len(rows) < MIN_DEALS:
            continue
        if agent != "heuristic":
            _, _, _, only_mine, only_heuristic = versus_heuristic(game_id, agent, results.solo)
            if only_mine <= only_heuristic or mcnemar(only_mine, only_heuristic) >= SIGNIFICANT:
                continue
        rate = sum(1 for _, won, _ in rows if won) / len(rows)
        ranked.append((agent, rate, len(rows), position))
    ranked.sort(key=lambda r: (-r[1], r[3]))
    return [(agent, rate, deals) for agent, rate, deals, _ in ranked]


def table_share(rows: list[tuple], agent: str) -> tuple[float, int, int, int]:
    """Of these tables: (the share of wins taken by ``agent``'s seats, tables, tables its seats
    alone won, tables the other agent's seats alone won)."""
    share, alone, other = 0.0, 0, 0
    for seats, winners in rows:
        mine = sum(1 for p in winners if seats[p] == agent)
        share += mine / len(winners) if winners else 0.0
        if winners and mine == len(winners):
            alone += 1
        elif winners and mine == 0:
            other += 1
    return (share / len(rows) if rows else 0.0), len(rows), alone, other


def table_ranking(game_id: str, results: Results) -> list[tuple[str, float, int]]:
    """The agents set against the heuristic at this game, strongest first: (agent, share of the
    wins its seats took, tables). The heuristic (share one half against itself) ranks among
    them; another agent is eligible only if its seats won more tables than the heuristic's,
    p below SIGNIFICANT (exact binomial test of the tables one side won alone)."""
    ranked = [("heuristic", 0.5, 0, 0)]
    for (game, a, b), rows in results.tables.items():
        if game != game_id or "heuristic" not in (a, b) or len(rows) < MIN_DEALS:
            continue
        agent = b if a == "heuristic" else a
        share, tables, alone, other = table_share(rows, agent)
        if alone > other and mcnemar(alone, other) < SIGNIFICANT:
            ranked.append((agent, share, tables, 1))
    ranked.sort(key=lambda r: (-r[1], r[3]))
    return [(agent, share, tables) for agent, share, tables, _ in ranked]


def strongest_choices(infos: list, budgets: list[int], results: Results) -> dict[str, dict]:
    """Each game's strongest agent as these results rank it, with its figures."""
    chosen = {}
    for info in infos:
        if info.solo:
            ranking = solo_ranking(info.id, budgets, results)
            heuristic = results.solo.get((info.id, "heuristic"), [])
            base = sum(1 for _, won, _ in heuristic if won) / len(heuristic) if heuristic else None
        else:
            ranking = table_ranking(info.id, results)
            base = 0.5
        if not ranking:
            continue
        agent, rate, deals = ranking[0]
        chosen[info.id] = {"agent": agent, "win_rate": rate, "deals": deals, "heuristic": base}
    return chosen


def strongest_toml(infos: list, results: Results, budgets: list[int] | None = None) -> str:
    """The product's table of strongest agents (``agents/strongest.toml``) from these results."""
    lines = [
        "# The strongest agent of each game, chosen by benchmarks/strength.py from its committed",
        "# results (benchmarks/results/strength.jsonl; regenerate with its --write-strongest): the",
        "# heuristic unless an agent beats it deal by deal (solo) or table by table (multiplayer,",
        "# against it seat for seat), p < 0.05; then the highest win rate (share of wins). A test",
        "# checks these entries against the committed results.",
        "",
        "[games]",
    ]
    for game, entry in strongest_choices(infos, budgets or [10, 40], results).items():
        measure = "share of the wins against the heuristic" if game in _MULTI else "deals won"
        lines += [
            "",
            f'[games."{game}"]',
            f'agent = "{entry["agent"]}"',
            f"win_rate = {entry['win_rate']:.4f}",
            f"deals = {entry['deals']}",
            f"heuristic = {entry['heuristic']:.4f}",
            f'note = "{measure}"',
        ]
    return "\n".join(lines) + "\n"


_MULTI = {i.id for i in spyglass.games() if not i.solo}


def _rate(wins: int, games: int) -> str:
    if not games:
        return "–"
    low, high = wilson_interval(wins, games)
    return f"{100 * wins / games:.1f}% ({100 * low:.1f}–{100 * high:.1f}) of {games}"


def _share(wins: int, games: int) -> str:
    return f"{100 * wins / games:.1f}%"


def _exceptions(solo: list, budgets: list[int]) -> str:
    """The solo games whose ISMCTS plays out to the end instead, named for the table's text."""
    playing_out = [i.id for i in solo if "cutoff=0" not in ismcts(i.id, budgets[0], solo=True)]
    return f"; for {', '.join(playing_out)} it plays out to the end" if playing_out else ""


def paired(solo: list, budgets: list[int], solo_rows: dict) -> list[str]:
    """Every series against the heuristic on the deals both played: a deal both win or both
    lose says nothing of which is stronger, so the test (exact McNemar) weighs the deals only
    one of them won, and Holm's correction holds the table's tests together to their level.
    Far stronger than comparing two intervals, which also differ in deals."""
    lines = [
        "### Every agent against the heuristic, deal by deal",
        "",
        "On the deals both played: the win rates there, the deals only the agent won and only "
        "the heuristic won, the exact McNemar p-value of that split, and the same after Holm's "
        "correction for all the tests of this table (below 0.05: a difference that chance "
        "would rarely give, even among this many tests).",
        "",
        "| game | agent | deals | agent wins | heuristic wins | only agent | only heuristic "
        "| p | p (Holm) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    rows, pvalues = [], []
    for info in solo:
        for agent in series(info.id, budgets, effort=False)[2:]:
            deals, mine, theirs, first, second = versus_heuristic(info.id, agent, solo_rows)
            if not deals:
                continue
            p = mcnemar(first, second)
            pvalues.append(p)
            rows.append((info.id, agent, deals, mine, theirs, first, second, p))
    for (game, agent, deals, mine, theirs, first, second, p), q in zip(
        rows, holm(pvalues), strict=True
    ):
        lines.append(
            f"| {game} | `{agent}` | {deals} | {_share(mine, deals)} | {_share(theirs, deals)} "
            f"| {first} | {second} | {p:.3g} | {q:.3g} |"
        )
    return lines


def _bound_cells(bounds: list[tuple]) -> tuple[str, float | None, float | None]:
    """The bound's cell, and its low and high ends (unknown deals lost / won)."""
    if not bounds:
        return "–", None, None
    won = sum(1 for _, w in bounds if w)
    unknown = sum(1 for _, w in bounds if w is None)
    low, high = won / len(bounds), (won + unknown) / len(bounds)
    span = f"{100 * low:.1f}%" if not unknown else f"{100 * low:.1f}–{100 * high:.1f}%"
    return f"{span} of {len(bounds)} ({unknown} unknown)", low, high


def targets(solo: list, budgets: list[int], results: Results) -> list[str]:
    """Each solo game's strongest agent against the issue's targets: beat the heuristic on the
    same deals (p < 0.001 after Holm) and close half the gap between the heuristic and the
    bound (on the deals the bound covers)."""
    lines = [
        "### The strongest agent of each solo game",
        "",
        "The strongest agent is the heuristic unless an agent beats it deal by deal (p < 0.05), "
        "then the one that wins most (what `agents.strongest(game)` returns: hints, bot seats "
        "named `strongest` and `spyglass report difficulty` play it). *Gap closed*: how much of "
        "the distance from the heuristic's win rate to the clairvoyant bound's it covers, both "
        "counted on the deals the bound and the agent share (a range where the bound has "
        "unknown deals). *p (Holm)*: against the heuristic, from the table above.",
        "",
        "| game | strongest | deals | its win rate | heuristic there | bound there | gap closed "
        "| p (Holm) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    family = []
    for info in solo:
        for agent in series(info.id, budgets, effort=False)[2:]:
            deals, _, _, first, second = versus_heuristic(info.id, agent, results.solo)
            if deals:
                family.append(((info.id, agent), mcnemar(first, second)))
    adjusted = dict(zip([k for k, _ in family], holm([p for _, p in family]), strict=True))
    for info in solo:
        ranking = solo_ranking(info.id, budgets, results)
        if not ranking:
            continue
        agent = ranking[0][0]
        mine = {i: won for i, won, _ in results.solo.get((info.id, agent), [])}
        heuristic = {i: won for i, won, _ in results.solo.get((info.id, "heuristic"), [])}
        bounds = dict(results.bound.get(info.id, []))
        deals = sorted(i for i in mine if i in heuristic and i in bounds)
        if not deals:
            lines.append(f"| {info.id} | `{agent}` | – | – | – | – | – | – |")
            continue
        n = len(deals)
        rate = sum(mine[i] for i in deals) / n
        base = sum(heuristic[i] for i in deals) / n
        low = sum(1 for i in deals if bounds[i]) / n
        high = sum(1 for i in deals if bounds[i] is not False) / n
        gaps = [(rate - base) / (b - base) for b in (low, high) if b > base]
        if not gaps:
            closed = "–"
        elif len(gaps) == 1 or abs(gaps[0] - gaps[1]) < 0.0005:
            closed = f"{100 * gaps[0]:.0f}%"
        else:
            closed = f"{100 * min(gaps):.0f}–{100 * max(gaps):.0f}%"
        bound = f"{100 * low:.1f}%" if low == high else f"{100 * low:.1f}–{100 * high:.1f}%"
        q = adjusted.get((info.id, agent))
        lines.append(
            f"| {info.id} | `{agent}` | {n} | {100 * rate:.1f}% | {100 * base:.1f}% | {bound} "
            f"| {closed} | {'–' if q is None else f'{q:.3g}'} |"
        )
    return lines


def effort_deals(game_id: str, deals: int, spec: str | None = None) -> int:
    """The deals of ``game_id``'s effort series: ``deals`` (--effort-deals) scaled as
    :data:`EFFORT_SCALE` says, rounded to whole parts; for ``spec``, at most its
    :data:`EFFORT_CAP`."""
    scaled = round(deals * EFFORT_SCALE.get(game_id, 1) / SEARCH_CHUNK) * SEARCH_CHUNK
    return min(scaled, EFFORT_CAP.get((game_id, spec or ""), scaled))


def effort(solo: list, results: Results, deals: int) -> list[str]:
    """How the win rate grows with effort: each method's series on the same deals (the first
    ``deals`` scaled by the game's :data:`EFFORT_SCALE`; a longer series is cut to them), beside
    the heuristic's win rate on those very deals."""
    games = [i for i in solo if EFFORT.get(i.id)]
    if not games:
        return []
    lines = [
        "### How strength grows with effort",
        "",
        "Each method at growing budgets on the same deals: the win rate (Wilson 95% interval), "
        "the heuristic's on those deals, the deals only the agent and only the heuristic won, "
        "and the mean CPU seconds a deal took (over all the deals the series played). The "
        "dearest budgets, minutes of CPU a deal, play only the first few of those deals (the "
        "row says how many): they show whether a trend turns, not a win rate.",
        "",
        "| game | method | agent | win rate | heuristic there | only agent / only heuristic "
        "| CPU-s a deal |",
        "|---|---|---|---|---|---|---|",
    ]
    for info in games:
        heuristic = {i: won for i, won, _ in results.solo.get((info.id, "heuristic"), [])}
        for method, specs in EFFORT[info.id].items():
            for spec in specs:
                last = effort_deals(info.id, deals, spec)
                rows = [r for r in results.solo.get((info.id, spec), []) if r[0] < last]
                if not rows:
                    continue
                wins = sum(1 for _, won, _ in rows if won)
                both = [(won, heuristic[i]) for i, won, _ in rows if i in heuristic]
                base = _share(sum(h for _, h in both), len(both)) if both else "–"
                only = sum(1 for w, h in both if w and not h)
                other = sum(1 for w, h in both if h and not w)
                cpu = results.cpu.get((info.id, spec), [])
                mean = f"{sum(cpu) / len(cpu):.2f}" if cpu else "–"
                lines.append(
                    f"| {info.id} | {method} | `{spec}` | {_rate(wins, len(rows))} | {base} "
                    f"| {only} / {other} | {mean} |"
                )
    return lines


def report(args, infos, budgets, results: Results) -> str:
    lines = []
    solo = [i for i in infos if i.solo]
    solo_rows = results.solo
    if solo:
        lines += [
            "## Solo games",
            "",
            "Win rate with its Wilson 95% interval and the number of deals; mean score of all "
            "games in brackets (where the game scores them). ISMCTS is guided toward the game's "
            "bot's move and scores each new leaf with the game's evaluation at once (cutoff 0)"
            f"{_exceptions(solo, budgets)}. Strongest: the agent `agents.strongest` names "
            "(below). Clairvoyant: deals the game's solver proved winnable with every hidden "
            "card known, within the CPU cap (unknown deals counted as lost for the low end, as "
            "won for the high end).",
            "",
            "| game | random | heuristic | "
            + " | ".join(f"ISMCTS {b}" for b in budgets)
            + " | strongest | clairvoyant bound |",
            "|---|---|---|" + "---|" * len(budgets) + "---|---|",
        ]
        for info in solo:
            cells = []
            names = ["random", "heuristic", *(ismcts(info.id, b, solo=True) for b in budgets)]
            for agent in names:
                rows = solo_rows.get((info.id, agent), [])
                wins = sum(1 for _, won, _ in rows if won)
                scores = [s for _, _, s in rows if s is not None]
                mean = f" [{sum(scores) / len(scores):.2f}]" if scores else ""
                cells.append(_rate(wins, len(rows)) + mean)
            ranking = solo_ranking(info.id, budgets, results)
            best = ranking[0][0] if ranking else None
            if best is None or best in names:
                cells.append("–" if best is None else f"`{best}` (its column)")
            else:
                rows = solo_rows.get((info.id, best), [])
                wins = sum(1 for _, won, _ in rows if won)
                cells.append(f"`{best}`: {_rate(wins, len(rows))}")
            cells.append(_bound_cells(results.bound.get(info.id, []))[0])
            lines.append(f"| {info.id} | " + " | ".join(cells) + " |")
        lines += ["", *paired(solo, budgets, solo_rows), ""]
        lines += [*targets(solo, budgets, results), ""]
        more = effort(solo, results, args.effort_deals)
        if more:
            lines += [*more, ""]
    multi = [i for i in infos if not i.solo]
    if multi:
        lines += [
            "## Multiplayer games: round-robin",
            "",
            f"{args.players} seats (clamped to the game's range), the two agents alternating "
            "round the table, each in seat 0 for half the tables. Share of the wins taken by "
            "each agent's seats (a shared win is split), Wilson 95% interval; the fair share is "
            "the agent's share of the seats. *p*: the exact binomial test of the tables won by "
            "one agent's seats alone against those won by the other's alone.",
            "",
            "| game | agents | tables | first agent's wins | second agent's wins | fair | p |",
            "|---|---|---|---|---|---|---|",
        ]
        for (game_id, a, b), rows in sorted(results.tables.items()):
            share = {a: 0.0, b: 0.0}
            seats_of = {a: 0, b: 0}
            for seats, winners in rows:
                for p in winners:
                    share[seats[p]] += 1 / len(winners)
                for name in seats:
                    seats_of[name] += 1
            games = len(rows)
            cells = []
            for name in (a, b):
                low, high = wilson_interval(round(share[name]), games)
                cells.append(f"{100 * share[name] / games:.1f}% ({100 * low:.1f}–{100 * high:.1f})")
            fair = seats_of[a] / (seats_of[a] + seats_of[b])
            _, _, alone, other = table_share(rows, b)
            lines.append(
                f"| {game_id} | {a} vs {b} | {games} | {cells[0]} | {cells[1]} | "
                f"{100 * fair:.0f}% / {100 * (1 - fair):.0f}% | {mcnemar(alone, other):.3g} |"
            )
        played = {game_id for game_id, _, _ in results.tables}
        missing = [i.id for i in infos if not i.solo and i.id not in played]
        if missing:
            lines += ["", f"No tables finished yet for: {', '.join(missing)}."]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
