"""Engine throughput, measured the way ``conquian bench`` reports it.

Random legal play through the public API: at every decision the legal actions
are listed, one is chosen uniformly, and :meth:`GameState.apply` checks it
before playing it.  Optional anchors (OpenSpiel and RLCard gin rummy) are
measured in the same run when installed, so the ratios are fair.
"""

from __future__ import annotations

import random
import time
from typing import Any

from . import anchors
from .rules import Rules, find_rules
from .state import GameState, Phase


def random_games(rules: Rules, seconds: float, seed: int = 0) -> dict[str, float]:
    """Play random legal games for about ``seconds``; rates over whole games."""
    rng = random.Random(seed)
    choice = rng.choice
    shuffle = rng.shuffle
    deck = list(range(40))
    over = Phase.OVER
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        shuffle(deck)
        state = GameState.deal(rules, deck=deck, dealer=games & 1)
        while state.phase is not over:
            state.apply(choice(state.legal_actions()))
            decisions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
    }


def sample_states(rules: Rules, count: int, seed: int = 1) -> list[GameState]:
    """Mid-game positions from random play, for timing copies and re-deals."""
    rng = random.Random(seed)
    states: list[GameState] = []
    while len(states) < count:
        state = GameState.deal(rules, seed=rng.randrange(2**32), dealer=len(states) & 1)
        stop = rng.randrange(4, 30)
        for _ in range(stop):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            states.append(state)
    return states


def per_call_us(states: list[GameState], what: str, repeat: int = 20) -> float:
    """Microseconds per ``copy()`` or ``redeal()`` over sample states."""
    rng = random.Random(2)
    start = time.perf_counter()
    if what == "copy":
        for _ in range(repeat):
            for state in states:
                state.copy()
    else:
        for _ in range(repeat):
            for state in states:
                state.redeal(state.player, rng)
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


def run(
    seconds: float = 5.0, rules: Rules | str = "standard", anchors_too: bool = True
) -> dict[str, Any]:
    """All figures of ``conquian bench`` in one dictionary."""
    rules = find_rules(rules)
    result: dict[str, Any] = {"rules": rules.to_spec(), "seconds": seconds}
    result.update(random_games(rules, seconds))
    states = sample_states(rules, 500)
    result["copy_us"] = min(per_call_us(states, "copy") for _ in range(3))
    result["redeal_us"] = min(per_call_us(states, "redeal") for _ in range(3))
    if anchors_too:
        spiel = anchors.openspiel_gin(seconds)
        if spiel is not None:
            result["openspiel_gin_games_per_s"] = spiel["games_per_s"]
            result["openspiel_gin_decisions_per_s"] = spiel["decisions_per_s"]
            result["ratio_vs_openspiel_gin"] = result["games_per_s"] / spiel["games_per_s"]
        rl = anchors.rlcard_gin(seconds)
        if rl is not None:
            result["rlcard_gin_games_per_s"] = rl["games_per_s"]
            result["rlcard_gin_decisions_per_s"] = rl["decisions_per_s"]
            result["ratio_vs_rlcard_gin"] = result["games_per_s"] / rl["games_per_s"]
    return result


def env_games(
    rules: Rules, seconds: float, seed: int = 0, observe: bool = True
) -> dict[str, float]:
    """Random play through the PettingZoo environment (``conquian.envs``, extra ``rl``).

    The games are those of :func:`random_games` with the same seed: at every engine
    decision one legal action is drawn with the same random stream, and it is played
    as its sequence of action ids through ``raw_env.step``.  Before every step the
    agent to act fetches its action mask and, with ``observe``, its observation
    tensor, as a learning agent would.  So the ratio of the two rates is the cost of
    the adapter on identical work.
    """
    from .envs.pettingzoo_env import raw_env

    env = raw_env(rules)
    space = env.layout.space
    rng = random.Random(seed)
    choice = rng.choice
    shuffle = rng.shuffle
    deck = list(range(40))
    agents = env.possible_agents
    games = decisions = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        shuffle(deck)
        env.reset(options={"deck": deck, "dealer": games & 1})
        episode = env.episode
        assert episode is not None
        state = episode.state
        while state.phase is not Phase.OVER:
            action = choice(state.legal_actions())
            player = state.player
            for action_id in space.ids_of(action, state.tables[player], state.phase):
                agent = agents[player]
                if observe:
                    env.observe(agent)
                else:
                    episode.mask()
                env.step(action_id)
                steps += 1
            decisions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "steps_per_s": steps / elapsed,
    }


def env_run(seconds: float = 5.0, rules: Rules | str = "standard") -> dict[str, Any]:
    """The figures of ``conquian bench --env``: the adapter against the raw engine.

    ``ratio`` compares time per engine decision on the same games (the adapter's cost);
    ``ratio_per_step`` compares a raw decision with one environment step, which is
    kinder since the steps that choose a take's melds are cheap.
    """
    rules = find_rules(rules)
    raw = random_games(rules, seconds)
    masked = env_games(rules, seconds, observe=False)
    observed = env_games(rules, seconds, observe=True)
    return {
        "rules": rules.to_spec(),
        "seconds": seconds,
        "raw_decisions_per_s": raw["decisions_per_s"],
        "env_steps_per_s": observed["steps_per_s"],
        "env_decisions_per_s": observed["decisions_per_s"],
        "ratio": raw["decisions_per_s"] / observed["decisions_per_s"],
        "ratio_per_step": raw["decisions_per_s"] / observed["steps_per_s"],
        "env_mask_only_steps_per_s": masked["steps_per_s"],
        "env_mask_only_decisions_per_s": masked["decisions_per_s"],
        "ratio_mask_only": raw["decisions_per_s"] / masked["decisions_per_s"],
        "steps_per_decision": observed["steps_per_s"] / observed["decisions_per_s"],
    }
