"""Fit the learned guess of the opponent's hand (``conquian/bots/hand_prior.json``).

Plays two-player deals between bots, and at some of the decisions of one of them (with a
choice to make, the opponent holding cards) records, for every card that player has not
seen, the model's features (:func:`conquian.bots.hand_prior.card_features`) and whether
the opponent held it.  The opponents are a mix (``greedy`` and the heuristic levels), so
that no single style is learned alone.  It then fits a network with one ``tanh`` hidden
layer by Adam on the log loss (NumPy, the 'rl' extra), keeps every tenth deal aside to
check it, prints the held-out log loss against the uniform guess and a
logistic fit, and writes the weights.

Reproduce the shipped weights (about three minutes on a 2-core machine: 60,000 deals, 3.3
million cards to guess, then the fit)::

    python scripts/train_hand_model.py --out src/conquian/bots/hand_prior.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool

import numpy as np

from conquian.bots import make_bot
from conquian.bots.hand_prior import FEATURES, card_features
from conquian.game import Game

OBSERVERS = ("heuristic", "greedy", "easy", "medium")
OPPONENTS = ("greedy", "heuristic", "beginner", "easy", "medium", "greedy")


def deal_rows(task: tuple[int, int, float]) -> tuple[list[list[float]], list[int], list[int]]:
    """Feature rows, labels and the deal's number for one deal."""
    seed, deal, share = task
    rng = random.Random(f"{seed}:{deal}")
    me = deal % 2
    names = [OPPONENTS[rng.randrange(len(OPPONENTS))]] * 2
    names[me] = OBSERVERS[rng.randrange(len(OBSERVERS))]
    bots = [make_bot(name, rng=random.Random(f"{seed}:{deal}:{p}")) for p, name in enumerate(names)]
    game = Game("standard", seed=seed + deal, dealer=rng.randrange(2))
    for player in (0, 1):
        bots[player].new_deal(player, game.rules)
    rows: list[list[float]] = []
    labels: list[int] = []
    while not game.state.is_over:
        player = game.state.to_act
        obs = game.observation(player)
        if (
            player == me
            and len(obs.legal_actions) > 1
            and obs.hand_counts[1 - me]
            and rng.random() < share
        ):
            truth = game.state.hands[1 - me]
            for card, row in card_features(obs).items():
                rows.append(row)
                labels.append(truth >> card & 1)
        game.push(bots[player].act(obs))
    return rows, labels, [deal] * len(labels)


def collect(deals: int, seed: int, share: float, jobs: int) -> tuple[np.ndarray, ...]:
    tasks = [(seed, deal, share) for deal in range(deals)]
    xs: list[list[float]] = []
    ys: list[int] = []
    ds: list[int] = []
    with Pool(jobs) as pool:
        for rows, labels, numbers in pool.imap(deal_rows, tasks, chunksize=20):
            xs += rows
            ys += labels
            ds += numbers
    return np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64), np.array(ds)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 0.01, 0.99)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int) -> dict[str, np.ndarray]:
    """Adam on the mean log loss, mini-batches of 4,096 rows."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    params = {
        "w1": rng.normal(0, 1 / np.sqrt(d), (hidden, d)),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0, 1 / np.sqrt(max(hidden, 1)), hidden),
        "b2": np.zeros(1),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step, rate, beta1, beta2 = 0, 3e-3, 0.9, 0.999
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, 4096):
            batch = order[start : start + 4096]
            xb, yb = x[batch], y[batch]
            h = np.tanh(xb @ params["w1"].T + params["b1"])
            z = h @ params["w2"] + params["b2"][0]
            p = 1 / (1 + np.exp(-z))
            g = (p - yb) / len(batch)
            grads = {"w2": h.T @ g, "b2": np.array([g.sum()])}
            gh = np.outer(g, params["w2"]) * (1 - h * h)
            grads["w1"] = gh.T @ xb
            grads["b1"] = gh.sum(axis=0)
            step += 1
            for k, grad in grads.items():
                m, v = moments[k]
                m *= beta1
                m += (1 - beta1) * grad
                v *= beta2
                v += (1 - beta2) * grad * grad
                m_hat = m / (1 - beta1**step)
                v_hat = v / (1 - beta2**step)
                params[k] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
    return params


def predict(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    h = np.tanh(x @ params["w1"].T + params["b1"])
    return 1 / (1 + np.exp(-(h @ params["w2"] + params["b2"][0])))


def logistic(x: np.ndarray, y: np.ndarray, held: np.ndarray) -> np.ndarray:
    """A plain logistic fit on the rows not ``held`` (Newton's method), for comparison: its
    chances for the ``held`` rows."""
    a = np.hstack([x, np.ones((len(x), 1))])
    fit_rows, fit_y = a[~held], y[~held]
    w = np.zeros(a.shape[1])
    for _ in range(25):
        p = 1 / (1 + np.exp(-(fit_rows @ w)))
        hess = (fit_rows * (p * (1 - p))[:, None]).T @ fit_rows + 1e-6 * np.eye(a.shape[1])
        w -= np.linalg.solve(hess, fit_rows.T @ (p - fit_y))
    return 1 / (1 + np.exp(-(a[held] @ w)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60000)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--share", type=float, default=0.5, help="share of decisions kept")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=24)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--out", help="write the weights here (JSON)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    x, y, deal = collect(args.deals, args.seed, args.share, args.jobs)
    played = time.perf_counter() - began
    held = deal % 10 == 9
    mean = x[~held].mean(axis=0)
    scale = x[~held].std(axis=0)
    scale[scale == 0] = 1.0
    xs = (x - mean) / scale
    params = fit(xs[~held], y[~held], args.hidden, args.epochs, args.seed)
    base = 1 / (1 + np.exp(-x[:, 0]))
    report = {
        "rows": len(y),
        "held_out_rows": int(held.sum()),
        "play_s": round(played, 1),
        "fit_s": round(time.perf_counter() - began - played, 1),
        "held_out_log_loss": {
            "uniform": round(log_loss(base[held], y[held]), 4),
            "logistic": round(log_loss(logistic(xs, y, held), y[held]), 4),
            "network": round(log_loss(predict(params, xs[held]), y[held]), 4),
        },
    }
    print(json.dumps(report), file=sys.stderr)
    if args.out:
        spec = {
            "features": list(FEATURES),
            "mean": mean.round(6).tolist(),
            "scale": scale.round(6).tolist(),
            "hidden": params["w1"].round(6).tolist(),
            "hidden_bias": params["b1"].round(6).tolist(),
            "out": params["w2"].round(6).tolist(),
            "out_bias": round(float(params["b2"][0]), 6),
            "trained": {
                "command": "python scripts/train_hand_model.py "
                + " ".join(argv if argv is not None else sys.argv[1:]),
                **report,
            },
        }
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(spec, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
