"""Self-play records (for training): games of random players, each seeded from the run's
seed and its own number only, so that a run gives the same games whether they are played
here one after another or as Ray tasks (``--ray``, the extra ``cluster``) in any order.

>>> result = run_selfplay("standard", 4, seed=1)
>>> result.games, sum(result.wins) + result.draws
(4, 4)
>>> run_selfplay("standard", 4, seed=1).to_dict() == result.to_dict()
True
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..records import GameRecord
from ..rules import find_rules

__all__ = ["GameSummary", "SelfplayConfig", "SelfplayResult", "run_selfplay"]


@dataclass(frozen=True)
class GameSummary:
    """What a run counts of one game."""

    number: int
    """The game's number in the run (1 first)."""
    winner: int | None
    decisions: int


@dataclass(frozen=True)
class SelfplayConfig:
    """A run's games, as a Ray task receives them (:func:`conquian.tools.cluster.run_on_ray`
    plays ``player().play_deals(start, stop)`` in each task)."""

    rules: str
    seed: int
    records_dir: str | None = None

    def player(self) -> SelfplayPlayer:
        return SelfplayPlayer(self)


class SelfplayPlayer:
    """Plays the games of a run by their index (0 first)."""

    def __init__(self, config: SelfplayConfig) -> None:
        self.config = config
        self.rules = find_rules(config.rules)

    def play_deals(self, start: int, stop: int) -> list[GameSummary]:
        return [self.play(index) for index in range(start, stop)]

    def play(self, index: int) -> GameSummary:
        """Game number ``index + 1``: its deal and every move drawn from the run's seed and
        that number (never from the games before it)."""
        number = index + 1
        rng = random.Random(f"selfplay:{self.config.seed}:{number}")
        players = self.rules.num_players
        game = Game(
            self.rules,
            seed=rng.randrange(2**32),
            dealer=index % players,
            players=("random",) * players,
        )
        while not game.state.is_over:
            game.push(rng.choice(game.legal_actions()))
        outcome = game.state.outcome()
        assert outcome is not None
        if self.config.records_dir is not None:
            path = os.path.join(self.config.records_dir, f"game-{number:05d}.toml")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(GameRecord.from_game(game, event="selfplay").dumps())
        return GameSummary(number, outcome.winner, len(game.history))

    def close(self) -> None:
        """Nothing to release (the arena's tables close their bots)."""


@dataclass
class SelfplayResult:
    """The counts of a run (the shape :func:`~conquian.tools.cluster.run_on_ray` fills)."""

    rules: str
    seed: int
    deals_requested: int
    players: int
    first_deal: int = 0
    jobs: int = 1
    elapsed_s: float = 0.0
    summaries: list[GameSummary] = field(default_factory=list)

    @property
    def deals(self) -> int:
        """Games played so far."""
        return len(self.summaries)

    @property
    def games(self) -> int:
        return len(self.summaries)

    def add(self, games: Sequence[GameSummary]) -> None:
        self.summaries.extend(games)

    @property
    def wins(self) -> list[int]:
        return [sum(1 for s in self.summaries if s.winner == p) for p in range(self.players)]

    @property
    def draws(self) -> int:
        return sum(1 for s in self.summaries if s.winner is None)

    def to_dict(self) -> dict[str, Any]:
        """The counts, the same however the games were played (no timing)."""
        decisions = sum(s.decisions for s in self.summaries)
        return {
            "games": self.games,
            "rules": find_rules(self.rules).to_spec(),
            "seed": self.seed,
            "wins": self.wins,
            "draws": self.draws,
            "mean_decisions": decisions / self.games if self.games else 0.0,
        }


def run_selfplay(
    rules: str,
    games: int,
    *,
    seed: int = 0,
    records_dir: str | None = None,
    ray: str | None = None,
    jobs: int = 0,
) -> SelfplayResult:
    """Play ``games`` random games: here, or as Ray tasks with ``ray`` (an address, or
    :data:`conquian.tools.cluster.LOCAL`; ``jobs``: its CPUs or the tasks at once).

    :raises ConquianError: if Ray is asked for and missing, or cannot start or connect.
    """
    config = SelfplayConfig(rules, seed, records_dir)
    result = SelfplayResult(rules, seed, games, find_rules(rules).num_players)
    if records_dir is not None:
        os.makedirs(records_dir, exist_ok=True)
    started = time.perf_counter()
    if ray is None:
        player = config.player()
        result.add(player.play_deals(0, games))
    else:
        from .cluster import run_on_ray

        run_on_ray(config, result, ray, jobs, started, None)
        result.summaries.sort(key=lambda s: s.number)
    result.elapsed_s = time.perf_counter() - started
    return result
