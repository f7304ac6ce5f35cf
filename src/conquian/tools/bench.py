"""Engine throughput, measured the way ``conquian bench`` reports it.

Random legal play through the public API: at every decision the legal actions
are listed, one is chosen uniformly, and :meth:`GameState.apply` checks it
before playing it.  Optional anchors (OpenSpiel and RLCard gin rummy) are
measured in the same run when installed, so the ratios are fair.
"""

from __future__ import annotations

import importlib.machinery
import random
import time
from collections.abc import Iterator
from typing import Any

from .. import state as _state_module
from ..rules import Rules, find_rules
from ..state import GameState, Phase
from . import anchors


def build() -> str:
    """The build of the core that runs: ``"compiled"`` (mypyc) or ``"pure"`` (Python).

    Compiled when ``conquian.state`` is an extension module (a ``.so`` file), as a
    ``CONQUIAN_COMPILE=1`` install makes it.
    """
    path = _state_module.__file__ or ""
    return "compiled" if path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "pure"


def random_games(rules: Rules, seconds: float, seed: int = 0) -> dict[str, float]:
    """Play random legal games for about ``seconds``; rates over whole games."""
    rates = interleaved({"raw": _raw_games(rules, seed)}, seconds)["raw"]
    return {
        "games_per_s": rates["games_per_s"],
        "decisions_per_s": rates["decisions_per_s"],
        "decisions_per_game": rates["decisions_per_s"] / rates["games_per_s"],
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
                state.redeal(state.to_act, rng)
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


def run(
    seconds: float = 5.0, rules: Rules | str = "standard", anchors_too: bool = True
) -> dict[str, Any]:
    """All figures of ``conquian bench`` in one dictionary."""
    rules = find_rules(rules)
    result: dict[str, Any] = {"rules": rules.to_spec(), "seconds": seconds, "build": build()}
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


def _raw_games(rules: Rules, seed: int) -> Iterator[tuple[int, int]]:
    """The games of :func:`random_games`, one per ``next()``: (decisions, decisions)."""
    rng = random.Random(seed)
    choice = rng.choice
    shuffle = rng.shuffle
    deck = list(range(40))
    over = Phase.OVER
    games = 0
    while True:
        shuffle(deck)
        state = GameState.deal(rules, deck=deck, dealer=games & 1)
        decisions = 0
        while state.phase is not over:
            state.apply(choice(state.legal_actions()))
            decisions += 1
        games += 1
        yield decisions, decisions


def _env_games(rules: Rules, seed: int, observe: bool) -> Iterator[tuple[int, int]]:
    """The same games through the PettingZoo environment, one per ``next()``: (decisions, steps).

    At every engine decision one legal action is drawn with the same random stream as
    :func:`_raw_games`, and it is played as its sequence of action ids through
    ``raw_env.step``.  Before every step the agent to act fetches its action mask and,
    with ``observe``, its observation tensor (``raw_env.observe``), as a learning agent
    would.
    """
    from ..envs.pettingzoo_env import raw_env

    env = raw_env(rules)
    space = env.layout.space
    rng = random.Random(seed)
    choice = rng.choice
    shuffle = rng.shuffle
    deck = list(range(40))
    agents = env.possible_agents
    over = Phase.OVER
    games = 0
    while True:
        shuffle(deck)
        env.reset(options={"deck": deck, "dealer": games & 1})
        episode = env.episode
        assert episode is not None
        state = episode.state
        decisions = steps = 0
        while state.phase is not over:
            action = choice(state.legal_actions())
            player = state.to_act
            for action_id in space.ids_of(action, state.tables[player], state.phase):
                if observe:
                    env.observe(agents[player])
                else:
                    episode.mask()
                env.step(action_id)
                steps += 1
            decisions += 1
        games += 1
        yield decisions, steps


def interleaved(
    runners: dict[str, Iterator[tuple[int, int]]], seconds: float, slice_s: float = 0.2
) -> dict[str, dict[str, float]]:
    """Run each game source for about ``seconds`` in total, taking turns every ``slice_s``.

    Taking turns in short slices exposes every source to the same load on a shared
    machine, so their ratios are steadier than those of runs one after another.
    Returns, per source, ``games_per_s``, ``decisions_per_s`` and ``steps_per_s``.
    """
    totals = {name: [0, 0, 0, 0.0] for name in runners}
    while any(total[3] < seconds for total in totals.values()):
        for name, runner in runners.items():
            total = totals[name]
            start = time.perf_counter()
            deadline = start + min(slice_s, max(seconds - total[3], 0.0))
            while True:
                decisions, steps = next(runner)
                total[0] += 1
                total[1] += decisions
                total[2] += steps
                now = time.perf_counter()
                if now >= deadline:
                    break
            total[3] += now - start
    return {
        name: {
            "games_per_s": games / elapsed,
            "decisions_per_s": decisions / elapsed,
            "steps_per_s": steps / elapsed,
        }
        for name, (games, decisions, steps, elapsed) in totals.items()
    }


def env_games(
    rules: Rules, seconds: float, seed: int = 0, observe: bool = True
) -> dict[str, float]:
    """Random play through the PettingZoo environment (``conquian.envs``, extra ``rl``).

    The games are those of :func:`random_games` with the same seed, each engine action
    played as its id sequence, the agent to act fetching its mask (and, with
    ``observe``, its observation) before every step; see :func:`_env_games`.
    """
    return interleaved({"env": _env_games(rules, seed, observe)}, seconds)["env"]


def env_run(seconds: float = 5.0, rules: Rules | str = "standard") -> dict[str, Any]:
    """The figures of ``conquian bench --env``: the adapter against the raw engine.

    The raw engine, the environment with observation and mask, and the environment
    with the mask only play the same games (same seed), taking turns in 0.2 s slices
    for about ``seconds`` each.  Two ratios, each a time over the raw engine's time
    per engine decision:

    * ``ratio``: the environment's time per engine decision (a take is several
      steps), i.e. the cost of the adapter on identical work;
    * ``ratio_per_step``: the environment's time per step (``env_steps_per_s``
      against ``raw_decisions_per_s``), kinder since a take's meld steps are cheap.
    """
    rules = find_rules(rules)
    rates = interleaved(
        {
            "raw": _raw_games(rules, 0),
            "observed": _env_games(rules, 0, observe=True),
            "masked": _env_games(rules, 0, observe=False),
        },
        seconds,
    )
    raw, observed, masked = rates["raw"], rates["observed"], rates["masked"]
    return {
        "rules": rules.to_spec(),
        "seconds": seconds,
        "build": build(),
        "raw_decisions_per_s": raw["decisions_per_s"],
        "env_steps_per_s": observed["steps_per_s"],
        "env_decisions_per_s": observed["decisions_per_s"],
        "ratio": raw["decisions_per_s"] / observed["decisions_per_s"],
        "ratio_per_step": raw["decisions_per_s"] / observed["steps_per_s"],
        "env_mask_only_steps_per_s": masked["steps_per_s"],
        "env_mask_only_decisions_per_s": masked["decisions_per_s"],
        "ratio_mask_only": raw["decisions_per_s"] / masked["decisions_per_s"],
        "ratio_mask_only_per_step": raw["decisions_per_s"] / masked["steps_per_s"],
        "steps_per_decision": observed["steps_per_s"] / observed["decisions_per_s"],
    }
