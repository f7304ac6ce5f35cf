#!/usr/bin/env python3
"""Learn to play Conquian from scratch with plain NumPy, then test the policy in the arena.

A linear softmax policy over the observation tensor (masked to the legal action ids)
is trained by REINFORCE with a running-average baseline, playing the Gymnasium
environment ``conquian/Conquian-v0`` against the ``random`` bot.  No GPU, no deep
learning library:

    pip install 'conquian[rl]'
    python examples/learn_numpy.py train --minutes 3 --out policy.npz
    conquian arena "cmd:python examples/learn_numpy.py play policy.npz" random --deals 500

``play`` serves the trained policy over the bot protocol (docs/protocol.md), so the
match runner measures it with duplicate deals like any other bot.  The policy sees
only its own observation, exactly as in training.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import gymnasium
import numpy as np

import conquian.envs
from conquian.bots.protocol import serve
from conquian.envs.agents import IdPolicyBot
from conquian.envs.spaces import Pending, TensorLayout, encode_observation
from conquian.observation import Observation
from conquian.rules import find_rules


class LinearPolicy:
    """Logits ``W @ x + b`` over the action ids; only legal ids are ever scored."""

    def __init__(self, num_inputs: int, num_actions: int) -> None:
        self.weights = np.zeros((num_actions, num_inputs), dtype=np.float32)
        self.bias = np.zeros(num_actions, dtype=np.float32)

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.weights[legal] @ x + self.bias[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def save(self, path: str, rules: str) -> None:
        np.savez_compressed(path, weights=self.weights, bias=self.bias, rules=rules)

    @classmethod
    def load(cls, path: str) -> tuple[LinearPolicy, str]:
        data = np.load(path)
        policy = cls(data["weights"].shape[1], data["weights"].shape[0])
        policy.weights[:] = data["weights"]
        policy.bias[:] = data["bias"]
        return policy, str(data["rules"])


def train(args: argparse.Namespace) -> int:
    env = gymnasium.make(conquian.envs.GYM_ID, opponent=args.opponent, rules=args.rules)
    space = env.observation_space["observation"]
    policy = LinearPolicy(space.shape[0], int(env.action_space.n))
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    deadline = time.monotonic() + 60 * args.minutes
    episode = 0
    recent: list[float] = []
    started = time.monotonic()
    while time.monotonic() < deadline and (args.episodes == 0 or episode < args.episodes):
        observation, _ = env.reset(seed=args.seed * 1_000_003 + episode)
        steps: list[tuple[np.ndarray, np.ndarray, int, np.ndarray]] = []
        done = False
        reward = 0.0
        while not done:
            x = observation["observation"].astype(np.float32)
            legal = np.flatnonzero(observation["action_mask"])
            p = policy.probabilities(x, legal)
            pick = int(rng.choice(len(legal), p=p))
            steps.append((x, legal, pick, p))
            observation, reward, done, truncated, _ = env.step(int(legal[pick]))
            done = done or truncated
        advantage = float(reward) - baseline
        baseline += 0.01 * (float(reward) - baseline)
        step_size = args.lr * advantage
        if step_size:
            for x, legal, pick, p in steps:
                if len(legal) == 1:
                    continue
                grad = -p
                grad[pick] += 1.0
                policy.weights[legal] += step_size * np.outer(grad, x)
                policy.bias[legal] += step_size * grad
        recent.append(float(reward))
        episode += 1
        if episode % args.report == 0:
            window = recent[-args.report :]
            wins, losses = window.count(1.0), window.count(-1.0)
            print(
                f"{episode:6d} deals  {time.monotonic() - started:6.0f} s  last {len(window)}: "
                f"{wins} won, {losses} lost, {len(window) - wins - losses} drawn",
                file=sys.stderr,
            )
    policy.save(args.out, find_rules(args.rules).to_spec())
    print(f"trained on {episode} deals in {time.monotonic() - started:.0f} s; saved {args.out}")
    return 0


class LinearPolicyBot(IdPolicyBot):
    """The trained policy as a bot: the most probable legal id at every step."""

    name = "numpy-linear-policy"

    def __init__(self, policy: LinearPolicy) -> None:
        super().__init__(rng=random.Random(0))
        self.policy = policy

    def choose(
        self, obs: Observation, pending: Pending | None, legal_ids: list[int], layout: TensorLayout
    ) -> int:
        x = encode_observation(layout, obs, pending)
        legal = np.asarray(legal_ids)
        return int(legal[int(np.argmax(self.policy.probabilities(x, legal)))])


def play(args: argparse.Namespace) -> int:
    policy, _rules = LinearPolicy.load(args.policy)
    return serve(LinearPolicyBot(policy))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("train", help="train a policy and save it")
    p.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    p.add_argument("--episodes", type=int, default=0, help="stop after this many deals (0: time)")
    p.add_argument("--opponent", default="random", help="bot to train against")
    p.add_argument("--rules", default="standard")
    p.add_argument("--lr", type=float, default=0.01, help="learning rate")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--report", type=int, default=500, help="progress line every N deals")
    p.add_argument("--out", default="policy.npz")
    p.set_defaults(func=train)
    p = sub.add_parser("play", help="serve a saved policy over the bot protocol")
    p.add_argument("policy", help="a file saved by 'train'")
    p.set_defaults(func=play)
    args = parser.parse_args()
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
