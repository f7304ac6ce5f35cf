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
