"""Why a player chose a move, as data (a bot's reason; the words are the front ends').

>>> Reason("take_goes_out", card=21).code
'take_goes_out 2d'
>>> Reason("searched", card=21, action=Action.parse("decline"), mean=0.5, deals=8,
...        because="fits_nothing", second=Action.parse("take 2d3d4d"), drop=0.25).code
'searched decline; +0.50 over 8 2d'
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
    """The action a search scored best (or the only legal one, to say it in words)."""
    mean: float = 0.0
    """Its mean result over the sampled deals, from -1 (lost) to +1 (won)."""
    deals: int = 0
    """How many sampled deals."""
    text: str = ""
    """An external bot's own words, as it sent them."""
    because: str = ""
    """Why the action is good, in plain terms a player reads (``goes_out``, ``completes``,
    ``lays``, ``fits_nothing``, ``waits``, ``needs_least``, ``all_fit_others``, and the
    force decisions' keys); "" when not said."""
    meld: int = 0
    """The meld (a mask, with the centre card) that a take makes or adds to, or the cards a
    pass lays from the hand."""
    to_go: int = -1
    """How many more table cards the player needs to go out after the action (-1: not said)."""
    second: Action | None = None
    """The second-best action the search found (None: none)."""
    second_laid: int = 0
    """For a second-best take, the cards it lays from the hand (a mask)."""
    second_breaks: int = 0
    """For a second-best discard, the hand cards it would break up: the card and those it
    could meld with (the same rank, or the same suit up to two ranks away; a mask)."""
    drop: float = 0.0
    """How much less likely to win the second-best action is, as a winning chance (0 to 1)."""
    feeds: int = -1
    """The player whose table a card given away fits (-1: none): the best action's card, or
    else the second best's (:attr:`feeds_card`)."""
    feeds_card: int = -1
    """That card."""
    feeds_meld: int = 0
    """That player's meld the card fits (a mask)."""
    feeds_count: int = -1
    """How many cards that player holds."""

    @property
    def code(self) -> str:
        """The reason in a few language-neutral tokens (for logs and the bot protocol)."""
        if self.key == "external":
            return self.text
        parts = [self.key]
        if self.key in ("searched", "advised") and self.action is not None:
            parts.append(f"{self.action}; {self.mean:+.2f} over {self.deals}")
        if self.card >= 0:
            parts.append(str(CARDS[self.card]))
        return " ".join(parts)
