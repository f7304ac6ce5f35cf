"""Bots that choose action ids, so that learned policies and OpenSpiel searchers can play
through the match runner (``conquian arena``) and the bot protocol.

An :class:`IdPolicyBot` receives the usual :class:`~conquian.observation.Observation`
and plays one engine decision as its sequence of id steps, asking :meth:`choose`
at each step; it sees nothing else.

>>> import random
>>> from conquian.game import Game
>>> class FirstId(IdPolicyBot):
...     def choose(self, obs, pending, legal_ids, layout):
...         return legal_ids[0]
>>> game = Game(seed=3)
>>> obs = game.observation(game.state.to_act)
>>> FirstId().act(obs) in obs.legal_actions
True
"""

from __future__ import annotations

from abc import abstractmethod

from ..actions import Action
from ..bots.base import Bot
from ..observation import Observation
from ..rules import Rules
from .spaces import Decision, Pending, TensorLayout


class IdPolicyBot(Bot):
    """A bot that plays engine decisions as action ids (see :mod:`conquian.envs.spaces`)."""

    name = "id-policy"

    def layout(self, rules: Rules) -> TensorLayout:
        """The tensor layout (and action space) of ``rules``, built once."""
        cached: TensorLayout | None = getattr(self, "_layout", None)
        if cached is None or cached.space.rules != rules:
            cached = TensorLayout(rules)
            self._layout = cached
        return cached

    @abstractmethod
    def choose(
        self, obs: Observation, pending: Pending | None, legal_ids: list[int], layout: TensorLayout
    ) -> int:
        """One of ``legal_ids``; ``pending`` holds the melds chosen so far in a take."""

    def act(self, obs: Observation) -> Action:
        layout = self.layout(obs.rules)
        decision = Decision(layout.space, obs.legal_actions, obs.tables[obs.viewer], obs.phase)
        while True:
            pending = Pending(decision.mode, decision.chosen) if decision.mode >= 0 else None
            action = decision.step(self.choose(obs, pending, decision.legal_ids(), layout))
            if action is not None:
                return action
