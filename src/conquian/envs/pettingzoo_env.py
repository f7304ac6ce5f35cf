"""PettingZoo AEC environment ``conquian_v0``: two to four agents play one deal.

The agents are ``player_0`` ... ``player_{N-1}``, engine players ``0 .. N-1``; ``N``
comes from the rules (``env(rules="tercerilla")`` seats three) or from
``num_players`` (``env(rules="mexican", num_players=4)``).  Each agent's observation
is a dict: ``observation`` (the current-observation tensor, int8 0/1, see
:mod:`conquian.envs.spaces`) and ``action_mask`` (int8, one entry per action id).
The agent to act steps one action id at a time; a take is several ids (take,
melds, finish).  Rewards come at the end: each loser pays the winner one unit, so
-1 to every loser and ``N - 1`` to the winner (+1 / -1 with two players); 0 to
everyone for a drawn deal.

>>> from conquian.envs import pettingzoo_env
>>> env = pettingzoo_env.env()
>>> env.reset(seed=7)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) >= 1
((1033,), True)
>>> three = pettingzoo_env.env(rules="tercerilla")
>>> three.reset(seed=7)
>>> three.possible_agents, three.agent_selection
(['player_0', 'player_1', 'player_2'], 'player_0')

An id that is not legal raises :class:`~conquian.errors.IllegalActionError`
naming the legal ids, and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import Rules
from ..state import GameState, Phase, shuffled_deck
from .episode import Episode, rules_for
from .spaces import TensorLayout

AGENTS = ("player_0", "player_1")
"""Agent names of the two-player game; ``player_i`` is engine player ``i``."""

ObsDict = dict[str, Any]


def agent_names(num_players: int) -> tuple[str, ...]:
    """The agents of a table of ``num_players``: ``player_0`` ... in seat order."""
    return tuple(f"player_{seat}" for seat in range(num_players))


def env(**kwargs: Any) -> Any:
    """The environment wrapped in PettingZoo's order-enforcing wrapper (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class
    """The unwrapped AEC environment.

    :param rules: a rules preset name, spec or :class:`~conquian.rules.Rules`.
    :param render_mode: ``"ansi"`` (render returns text) or ``"human"`` (prints it).
    :param num_players: the players at the table, None for as many as the rules say
        (see :func:`~conquian.envs.episode.rules_for`).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "conquian_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str = "standard",
        render_mode: str | None = None,
        num_players: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, got {render_mode!r}.")
        self.rules = rules_for(rules, num_players)
        self.render_mode = render_mode
        self.layout = TensorLayout(self.rules)
        names = self._names = agent_names(self.rules.num_players)
        self._seats = {agent: seat for seat, agent in enumerate(names)}
        self.possible_agents = list(names)
        self.agents = list(names)
        size = self.layout.space.size
        space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (self.layout.observation_size,), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in names}
        self.action_spaces = {agent: spaces.Discrete(size) for agent in names}
        self._rng = random.Random()
        self.episode: Episode | None = None
        self.rewards = {agent: 0.0 for agent in names}
        self._cumulative_rewards = {agent: 0.0 for agent in names}
        self.terminations = {agent: False for agent in names}
        self.truncations = {agent: False for agent in names}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in names}
        self.agent_selection = names[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal.  ``seed`` restarts the environment's random stream.

        ``options={"dealer": 0}`` fixes the dealer (by default it is drawn at random);
        ``options={"deck": [...]}`` deals a given card order (top card first).
        """
        if seed is not None:
            self._rng = random.Random(seed)
        options = options or {}
        deck = options.get("deck")
        if deck is None:
            deck = shuffled_deck(self._rng.randrange(2**63))
        dealer = options.get("dealer")
        if dealer is None:
            dealer = self._rng.randrange(self.rules.num_players)
        state = GameState.deal(self.rules, deck=list(deck), dealer=dealer)
        self.episode = Episode(state, self.layout)
        names = self._names
        self.agents = list(names)
        self.rewards = {agent: 0.0 for agent in names}
        self._cumulative_rewards = {agent: 0.0 for agent in names}
        self.terminations = {agent: False for agent in names}
        self.truncations = {agent: False for agent in names}
        self.infos = {agent: {} for agent in names}
        self.agent_selection = names[self.episode.player]

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("Call reset() before using the environment.")
        return self.episode

    def observe(self, agent: str) -> ObsDict:
        """``agent``'s observation tensor and action mask (all zeros when it is not his turn).

        Both arrays are fresh copies that the caller owns: later steps leave them alone.
        """
        episode = self.episode
        if episode is None:
            episode = self._episode()  # raises
        observation, mask = episode.observation_and_mask(self._seats[agent])
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play one action id for the agent to act.

        :raises IllegalActionError: if the id is not legal now; nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self.episode
        if episode is None:
            episode = self._episode()  # raises
        episode.step(action)
        self._cumulative_rewards[agent] = 0.0
        names = self._names
        if episode.state.phase is Phase.OVER:
            returns = episode.returns()
            for i, name in enumerate(names):
                self.rewards[name] = returns[i]
                self.terminations[name] = True
            self.agent_selection = names[(self._seats[agent] + 1) % len(names)]
            self._accumulate_rewards()
        else:
            # Every reward is 0 until the deal ends, so there is nothing to accumulate.
            self.agent_selection = names[episode.state.to_act]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The whole position as text (a spectator's view, both hands shown)."""
        episode = self._episode()
        text = repr(episode.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
