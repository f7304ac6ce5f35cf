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
from dataclasses import dataclass

from ..errors import ConquianError
from ..reasons import Reason
from .base import Bot, Budget
from .simple import GreedyBot, RandomBot

_CLASSES: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}
_LATER = {
    "heuristic": (".heuristic", "HeuristicBot"),
    "search": (".search", "SearchBot"),
    "oracle": (".search", "OracleBot"),
    "lesson": (".lesson", "LessonBot"),
    "hider": (".styles", "HiderBot"),
    "nonforcer": (".styles", "NonForcerBot"),
    "forcer": (".styles", "ForcerBot"),
    "safe": (".styles", "SafeBot"),
    "careless": (".styles", "CarelessBot"),
}
"""Bots imported when first asked for: ``lesson`` plays only the guided first hand and is
offered to nobody (it is not in :data:`BOT_NAMES`)."""


def bot_class(name: str) -> type[Bot] | None:
    """The class of a bot name (not a level), or None."""
    if name not in _CLASSES and name in _LATER:
        module_name, class_name = _LATER[name]
        module = importlib.import_module(module_name, __name__)
        _CLASSES[name] = getattr(module, class_name)
    return _CLASSES.get(name)


BOT_NAMES: tuple[str, ...] = ("random", "greedy", "heuristic", "search", "oracle")
"""Every bot name, weakest first (``oracle`` cheats and is for measurement only)."""

STYLE_NAMES: tuple[str, ...] = ("hider", "nonforcer", "forcer", "safe", "careless")
"""Styles of play besides ``greedy`` and ``heuristic`` (:mod:`.styles`), that ``expert`` is
measured against and no person is offered: ``make_bot("hider")`` plays one."""


@dataclass(frozen=True, slots=True)
class Level:
    """What plays at a difficulty level: a bot, its budget, and how often it slips.

    >>> LEVELS["beginner"]
    Level(bot='heuristic', budget=None, slip=0.85)
    """

    bot: str
    budget: Budget | None = None
    slip: float = 0.0
    """Chance of a newcomer's slip at each decision (:attr:`HeuristicBot.slip`)."""


LEVELS: dict[str, Level] = {
    "beginner": Level("heuristic", slip=0.85),
    "easy": Level("heuristic", slip=0.6),
    "medium": Level("heuristic", slip=0.3),
    "hard": Level("heuristic"),
    "expert": Level("search"),
}
"""Difficulty levels offered to people, weakest first, and what plays at each: the lower
levels are ``heuristic`` with slips (a take missed, a careless discard, a force
forgotten), so that each level wins about 64 of 100 decided deals against the one below."""

LEVEL_RATINGS: dict[str, int] = {
    "beginner": 704,
    "easy": 807,
    "medium": 922,
    "hard": 1022,
    "expert": 1124,
}
"""Each level's rating on one scale, ``greedy`` = 1000: the Elo differences of the
ladder of docs/strength.md (``hard`` against ``greedy``, and each level against the one
below over 2,000 duplicate deals), added up.  A level 100 points above another wins about
64 of 100 decided deals against it."""


def level_of(name: str) -> Level:
    """What plays under a level or bot name: the level's, or that bot's own without slips.

    >>> level_of(" Medium ").slip, level_of("search")
    (0.3, Level(bot='search', budget=None, slip=0.0))
    """
    key = name.strip().lower()
    return LEVELS.get(key, Level(key))


def make_bot(name: str, *, rng: random.Random | None = None, budget: Budget | None = None) -> Bot:
    """A bot by name or difficulty level.

    >>> make_bot("medium").slip, make_bot("heuristic").slip
    (0.3, 0.0)

    :raises ConquianError: for an unknown name.
    """
    level = level_of(name)
    cls = bot_class(level.bot)
    if cls is None:
        known = ", ".join([*BOT_NAMES, *LEVELS, *STYLE_NAMES])
        raise ConquianError(f"Unknown bot {name!r}; bots and levels are: {known}.")
    bot = cls(rng=rng, budget=budget or level.budget)
    if level.slip:
        from .heuristic import HeuristicBot

        assert isinstance(bot, HeuristicBot), level
        bot.slip = level.slip
    return bot


__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "LEVEL_RATINGS",
    "STYLE_NAMES",
    "Bot",
    "Budget",
    "GreedyBot",
    "Level",
    "RandomBot",
    "Reason",
    "bot_class",
    "level_of",
    "make_bot",
]
