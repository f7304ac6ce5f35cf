"""Throughput of third-party gin rummy engines, the anchors for ``conquian bench``.

No other engine plays Conquian, so our engine's speed is compared with the
nearest game's best-known engines (see ``PERFORMANCE.md``): OpenSpiel's
``gin_rummy`` (C++ core driven from a Python loop) and RLCard's ``gin-rummy``
(pure Python). Both are optional: they are imported lazily, and each function
returns ``None`` when its library is not installed. Absolute figures drift on
shared machines, so compare ratios measured in the same run.

Each function plays uniformly random legal games for about ``seconds`` of wall
time, always finishes the game in progress, counts only whole games and
computes rates over the time actually spent.
"""

from __future__ import annotations

import importlib
import random
import time
from typing import Any


def _optional(name: str) -> Any | None:
    """Import ``name`` if installed, else return ``None``.

    Going through ``importlib`` keeps ``mypy --strict`` results identical
    whether or not the optional, untyped libraries are installed.
    """
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _rates(elapsed: float, **counts: int) -> dict[str, float]:
    """Turn counts into per-second rates over ``elapsed`` seconds."""
    elapsed = max(elapsed, 1e-9)
    return {f"{name}_per_s": count / elapsed for name, count in counts.items()}


def openspiel_gin(seconds: float, seed: int = 0) -> dict[str, float] | None:
    """Measure OpenSpiel ``gin_rummy`` (default config) under random legal play.

    Chance outcomes and player actions are both drawn uniformly at random from
    ``random.Random(seed)``. Returns ``games_per_s``, ``decisions_per_s``
    (player decisions only) and ``steps_per_s`` (decisions plus chance
    outcomes), or ``None`` if ``pyspiel`` cannot be imported.
    """
    pyspiel = _optional("pyspiel")
    if pyspiel is None:
        return None

    # The default (52-card) config: OpenSpiel crashes with num_ranks=10.
    game: Any = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    choice = rng.choice
    games = decisions = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state: Any = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action, _prob = choice(state.chance_outcomes())
            else:
                action = choice(state.legal_actions())
                decisions += 1
            state.apply_action(action)
            steps += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    return _rates(now - start, games=games, decisions=decisions, steps=steps)


def rlcard_gin(seconds: float, seed: int = 0) -> dict[str, float] | None:
    """Measure RLCard ``gin-rummy`` with two ``RandomAgent``s via ``env.run``.

    Decisions are the actions recorded in the trajectories ``env.run`` returns.
    RLCard's ``RandomAgent`` draws from NumPy's global generator, so it is
    seeded with ``seed`` for the measurement and its previous state restored
    afterwards. Returns ``games_per_s`` and ``decisions_per_s``, or ``None`` if
    ``rlcard`` cannot be imported.
    """
    rlcard = _optional("rlcard")
    agents = _optional("rlcard.agents")
    np = _optional("numpy")  # an rlcard dependency
    if rlcard is None or agents is None or np is None:
        return None

    env: Any = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents(
        [agents.RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    )
    saved: Any = np.random.get_state()
    np.random.seed(seed)
    games = decisions = 0
    try:
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            trajectories: Any
            trajectories, _payoffs = env.run(is_training=False)
            # Each trajectory interleaves state dicts with the actions taken.
            decisions += sum(
                1 for traj in trajectories for item in traj if not isinstance(item, dict)
            )
            games += 1
            now = time.perf_counter()
            if now >= deadline:
                break
    finally:
        np.random.set_state(saved)
    return _rates(now - start, games=games, decisions=decisions)
