"""Styles of play people have, as opponents to measure ``expert`` against.

Each is the ``heuristic`` bot with one habit changed, or the ``greedy`` baseline made
careless, so that no one way of playing can exploit the search unseen:

- ``hider`` keeps complete melds in his hand and lays only what a take needs, so that
  he goes out at once, with melds nobody saw;
- ``nonforcer`` never forces; ``forcer`` forces whenever he may;
- ``safe`` discards the card that helps the others least, even from his own melds;
- ``careless`` plays like ``greedy`` but, half the time, any legal action at all.

>>> from conquian.game import Game
>>> game = Game(seed=5)
>>> [make_style(name).act(game.observation(game.state.to_act)) in game.legal_actions()
...  for name in STYLE_NAMES]
[True, True, True, True, True]
"""

from __future__ import annotations

import random

from ..actions import Action, ActionKind
from ..melds import MeldTable, partition_mask
from ..observation import Observation
from ..reasons import Reason
from . import STYLE_NAMES
from .base import Bot
from .features import Knowledge
from .heuristic import WIN, HeuristicBot
from .simple import GreedyBot


def laid_from_hand(obs: Observation, action: Action) -> int:
    """How many hand cards a take lays beside the card taken.

    >>> from conquian.notation import parse_position
    >>> from conquian.observation import observe
    >>> state = parse_position("standard turn 0 1 5h5d5c4c6c7cQsQhKcAd * - - 5s:t - * 1")
    >>> obs = observe(state, 0)
    >>> sorted({laid_from_hand(obs, a) for a in obs.legal_actions if a.kind.name == "TAKE"})
    [2, 3, 5, 6]
    >>> str(make_style("hider").act(obs)), str(make_style("safe").act(obs))
    ('take 5s5h5d', 'take 5s5h5d/4c5c6c7c')
    """
    before = partition_mask(obs.tables[obs.viewer]).bit_count()
    return partition_mask(action.melds).bit_count() - before - 1


class HiderBot(HeuristicBot):
    """Lays only the meld the card taken needs, and everything only when it goes out."""

    name = "hider"

    def _rank_takes(
        self, obs: Observation, k: Knowledge, melds: MeldTable
    ) -> list[tuple[float, Action]]:
        ranked = super()._rank_takes(obs, k, melds)
        takes = [a for v, a in ranked if a.kind is ActionKind.TAKE and v < WIN]
        least = min((laid_from_hand(obs, a) for a in takes), default=0)
        kept = [
            (value, action)
            for value, action in ranked
            if value >= WIN
            or (action.kind is ActionKind.TAKE and laid_from_hand(obs, action) == least)
            or (action.kind is not ActionKind.TAKE and not action.melds)
        ]
        return kept or ranked


class NonForcerBot(HeuristicBot):
    """Never forces a card on anyone."""

    name = "nonforcer"

    def _rank_force(
        self, obs: Observation, k: Knowledge, melds: MeldTable
    ) -> list[tuple[float, Action]]:
        self.why = Reason("no_gain")
        return [(1.0, Action(ActionKind.NO_FORCE)), (0.0, Action(ActionKind.FORCE))]


class ForcerBot(HeuristicBot):
    """Forces whenever he may, even a player one card from out."""

    name = "forcer"

    def _rank_force(
        self, obs: Observation, k: Knowledge, melds: MeldTable
    ) -> list[tuple[float, Action]]:
        self.why = Reason("force_breaks_hand")
        return [(1.0, Action(ActionKind.FORCE)), (0.0, Action(ActionKind.NO_FORCE))]


class SafeBot(HeuristicBot):
    """Discards and passes the card that helps the others least, before his own hand."""

    name = "safe"
    danger_weight = 12.0


class CarelessBot(GreedyBot):
    """A newcomer: ``greedy``'s plain moves, and half the time any legal action."""

    name = "careless"
    blunder = 0.5

    def act(self, obs: Observation) -> Action:
        if len(obs.legal_actions) > 1 and self.rng.random() < self.blunder:
            self.why = None
            return self.rng.choice(obs.legal_actions)
        return super().act(obs)


_STYLES: dict[str, type[Bot]] = {
    "hider": HiderBot,
    "nonforcer": NonForcerBot,
    "forcer": ForcerBot,
    "safe": SafeBot,
    "careless": CarelessBot,
}


def make_style(name: str, *, rng: random.Random | None = None) -> Bot:
    """A style's bot by name (see :data:`STYLE_NAMES`)."""
    return _STYLES[name](rng=rng)


__all__ = [
    "STYLE_NAMES",
    "CarelessBot",
    "ForcerBot",
    "HiderBot",
    "NonForcerBot",
    "SafeBot",
    "laid_from_hand",
    "make_style",
]
