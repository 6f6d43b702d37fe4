"""Teach MaskablePPO (sb3-contrib) a solo spyglass game on the CPU, and measure what it learnt.

    pip install -e ".[rl,train]"
    python examples/train_maskable_ppo.py                        # Hide and Seek, a few minutes
    python examples/train_maskable_ppo.py --game area-52 --timesteps 50000

The policy sees the observation vector of the Gymnasium environment and picks among the legal
actions only (the environment's ``action_masks()``). It learns from ``reward="score"``: a loss
pays -1 to 0 and a win 1 to 2, the better the rulebook's score the more, so near misses teach
something before the first win. Before and after training it plays the same evaluation deals
(seeds the training never uses), and the game's heuristic bot plays them too, for scale.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import gymnasium
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import spyglass.adapters.gymnasium as spyglass_gym
from spyglass.engine import Rng

#: Evaluation deals are reset seeds from here on; training draws its own below it.
EVALUATION_SEEDS = 1_000_000


@dataclass(slots=True)
class Tally:
    wins: int = 0
    games: int = 0
    score: float = 0.0
    reward: float = 0.0

    def line(self, name: str) -> str:
        n = self.games
        return (
            f"{name:18} win rate {self.wins / n:6.1%}   mean score {self.score / n:6.2f}"
            f"   mean reward {self.reward / n:+.3f}"
        )


def make_env(game: str) -> gymnasium.Env:
    env = gymnasium.make(spyglass_gym.env_id(game), reward="score")
    # MaskablePPO asks the environment for its mask; Gymnasium's wrappers do not pass the
    # call through, so name it.
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def evaluate(game: str, deals: int, policy: MaskablePPO | None) -> Tally:
    """Play the evaluation deals with the policy (greedy), or with the heuristic bot."""
    env = make_env(game)
    base = env.unwrapped
    tally = Tally()
    rng = Rng(7)
    for k in range(deals):
        obs, info = env.reset(seed=EVALUATION_SEEDS + k)
        done, reward = False, 0.0
        while not done:
            mask = info["action_mask"]
            if not mask.any():  # the deal decided the game before any move
                action = 0
            elif policy is None:
                state = base.state
                action = base.encoding.index(base.game.spec.bot(state.determinize(0, rng), rng))
            else:
                action, _ = policy.predict(obs, action_masks=mask.astype(bool), deterministic=True)
            obs, reward, done, _, info = env.step(int(action))
        tally.games += 1
        tally.wins += bool(info["won"])
        tally.score += info["score"] or 0.0
        tally.reward += reward
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hide-and-seek", help="a solo game id")
    parser.add_argument("--timesteps", type=int, default=60_000, help="training steps")
    parser.add_argument("--deals", type=int, default=100, help="evaluation deals")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = make_env(args.game)
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=min(1024, max(64, args.timesteps)),
        batch_size=64,
        learning_rate=3e-4,
        gamma=1.0,  # one reward at the end: no discount
        seed=args.seed,
        verbose=0,
        device="cpu",
    )
    print(f"{args.game}: {args.deals} evaluation deals (the same for every line)")
    print(evaluate(args.game, args.deals, model).line("before training"), flush=True)
    start = time.process_time()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.process_time() - start
    print(evaluate(args.game, args.deals, model).line("after training"), flush=True)
    print(evaluate(args.game, args.deals, None).line("heuristic bot"))
    print(f"trained {args.timesteps:,} steps in {seconds:.0f} CPU-s")


if __name__ == "__main__":
    main()
