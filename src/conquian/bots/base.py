"""What every computer player is: a :class:`Bot` that acts on observations.

A bot sees only its own player's :class:`~conquian.observation.Observation`, which
carries the public history of the deal, so a bot can remember and infer from
everything that happened without ever seeing hidden cards.  The one exception is
a bot whose class sets ``sees_everything``; it is handed the full state and is
used only to measure how far the others are from perfect-information play.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action
from ..observation import Observation
from ..reasons import Reason
from ..rules import Rules
from ..state import GameState


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a bot may do per move: iterations, seconds, or both (first reached)."""

    iterations: int | None = None
    seconds: float | None = None

    def deadline(self) -> float | None:
        """The ``time.perf_counter()`` value at which to stop, if time-limited."""
        return None if self.seconds is None else time.perf_counter() + self.seconds


class Bot(ABC):
    """Base class of computer players.

    Subclasses implement :meth:`act`.  ``rng`` makes every choice reproducible;
    ``budget`` bounds the thinking time of bots that search.
    """

    name: ClassVar[str] = "bot"
    sees_everything: ClassVar[bool] = False
    default_budget: ClassVar[Budget] = Budget()

    def __init__(self, *, rng: random.Random | None = None, budget: Budget | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self.budget = budget if budget is not None else self.default_budget
        self.player = 0
        self.rules = Rules()
        self.why: Reason | None = None
        """Why the last action was chosen (None if the bot does not say)."""

    @property
    def reason(self) -> str:
        """Why the last action was chosen, in language-neutral tokens ("" if not said)."""
        return "" if self.why is None else self.why.code

    @reason.setter
    def reason(self, text: str) -> None:
        """A bot of one's own may say why in its own words: kept as they are (untranslated)."""
        self.why = Reason("external", text=text) if text else None

    def new_deal(self, player: int, rules: Rules) -> None:
        """Called before each deal with the bot's seat and the rules."""
        self.player = player
        self.rules = rules

    @abstractmethod
    def act(self, obs: Observation) -> Action:
        """Choose one of ``obs.legal_actions``."""

    def act_with_state(self, obs: Observation, state: GameState) -> Action:
        """Called instead of :meth:`act` only for bots with ``sees_everything``."""
        return self.act(obs)

    def deal_over(self, obs: Observation, winner: int | None, reason: str | None = None) -> None:  # noqa: B027
        """Called when a deal ends (``winner`` None for a draw; ``reason`` for a forfeit)."""

    def close(self) -> None:  # noqa: B027
        """Release whatever the bot holds (a process, files); the bot is not used again."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
