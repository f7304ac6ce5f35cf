"""Why a player chose a move, as data (a bot's reason; the words are the front ends').

>>> Reason("take_goes_out", card=21).code
'take_goes_out 2d'
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action
from .cards import CARDS

__all__ = ["Reason"]


class Reason(NamedTuple):
    """Why a bot chose its last action, as data: the words are written by
    :func:`conquian.present.hints.reason_words`, in the language and deck shown."""

    key: str
    """What kind of reason (``take_goes_out``, ``searched``...; see the bots)."""
    card: int = -1
    """The card it is about, if any."""
    action: Action | None = None
    """The action a search scored best."""
    mean: float = 0.0
    """Its mean result over the sampled deals, from -1 (lost) to +1 (won)."""
    deals: int = 0
    """How many sampled deals."""
    text: str = ""
    """An external bot's own words, as it sent them."""

    @property
    def code(self) -> str:
        """The reason in a few language-neutral tokens (for logs and the bot protocol)."""
        if self.key == "external":
            return self.text
        parts = [self.key]
        if self.action is not None:
            parts.append(f"{self.action}; {self.mean:+.2f} over {self.deals}")
        if self.card >= 0:
            parts.append(str(CARDS[self.card]))
        return " ".join(parts)
