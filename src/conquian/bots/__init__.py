"""Computer players, from a random mover to a determinized search.

>>> from conquian.bots import make_bot, BOT_NAMES
>>> BOT_NAMES
('random', 'greedy', 'heuristic', 'search', 'oracle')
>>> make_bot("greedy").name
'greedy'
"""

from __future__ import annotations

import importlib
import random

from ..errors import ConquianError
from ..reasons import Reason
from .base import Bot, Budget
from .simple import GreedyBot, RandomBot

_CLASSES: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}
_LATER = {"heuristic": "HeuristicBot", "search": "SearchBot", "oracle": "OracleBot"}


def bot_class(name: str) -> type[Bot] | None:
    """The class of a bot name (not a level), or None."""
    if name not in _CLASSES and name in _LATER:
        module = importlib.import_module(
            ".heuristic" if name == "heuristic" else ".search", __name__
        )
        _CLASSES[name] = getattr(module, _LATER[name])
    return _CLASSES.get(name)


BOT_NAMES: tuple[str, ...] = ("random", "greedy", "heuristic", "search", "oracle")
"""Every bot name, weakest first (``oracle`` cheats and is for measurement only)."""

LEVELS: dict[str, tuple[str, Budget | None]] = {
    "easy": ("greedy", None),
    "medium": ("heuristic", None),
    "hard": ("search", Budget(iterations=50, seconds=0.3)),
    "expert": ("search", None),
}
"""Difficulty levels offered to people, and the bot (and budget) behind each."""

LEVEL_RATINGS: dict[str, int] = {"easy": 1000, "medium": 1017, "hard": 1104, "expert": 1122}
"""Each level's rating on one scale, ``easy`` (``greedy``) = 1000: the Elo differences of the
ladder of docs/strength.md (each level against the one below over 2,000 duplicate deals),
added up.  A level 100 points above another wins about 64 of 100 decided deals against it."""


def make_bot(name: str, *, rng: random.Random | None = None, budget: Budget | None = None) -> Bot:
    """A bot by name or difficulty level.

    :raises ConquianError: for an unknown name.
    """
    key = name.strip().lower()
    if key in LEVELS:
        key, level_budget = LEVELS[key]
        budget = budget or level_budget
    cls = bot_class(key)
    if cls is None:
        known = ", ".join([*BOT_NAMES, *LEVELS])
        raise ConquianError(f"Unknown bot {name!r}; bots and levels are: {known}.")
    return cls(rng=rng, budget=budget)


__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "LEVEL_RATINGS",
    "Bot",
    "Budget",
    "GreedyBot",
    "RandomBot",
    "Reason",
    "bot_class",
    "make_bot",
]
