"""PettingZoo AEC environment ``conquian_v0``: two agents play one deal.

Each agent's observation is a dict: ``observation`` (the current-observation
tensor, int8 0/1, see :mod:`conquian.envs.spaces`) and ``action_mask``
(int8, one entry per action id).  The agent to act steps one action id at a
time; a take is several ids (take, melds, finish).  Rewards come at the end:
+1 to the winner, -1 to the loser, 0 to both for a drawn deal.

>>> from conquian.envs import pettingzoo_env
>>> env = pettingzoo_env.env()
>>> env.reset(seed=7)
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) >= 1
((1033,), True)

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

from ..rules import Rules, find_rules
from ..state import GameState, Phase, shuffled_deck
from .episode import Episode
from .spaces import TensorLayout

AGENTS = ("player_0", "player_1")
"""Agent names; ``player_i`` is engine player ``i``."""

_SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}
ObsDict = dict[str, Any]


def env(**kwargs: Any) -> Any:
    """The environment wrapped in PettingZoo's order-enforcing wrapper (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class
    """The unwrapped AEC environment.

    :param rules: a rules preset name, spec or :class:`~conquian.rules.Rules`.
    :param render_mode: ``"ansi"`` (render returns text) or ``"human"`` (prints it).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "conquian_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: Rules | str = "standard", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, got {render_mode!r}.")
        self.rules = find_rules(rules)
        self.render_mode = render_mode
        self.layout = TensorLayout(self.rules)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        size = self.layout.space.size
        space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (self.layout.observation_size,), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(size) for agent in AGENTS}
        self._rng = random.Random()
        self.episode: Episode | None = None
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0]

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
            dealer = self._rng.randrange(2)
        state = GameState.deal(self.rules, deck=list(deck), dealer=dealer)
        self.episode = Episode(state, self.layout)
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self.episode.player]

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
        observation, mask = episode.observation_and_mask(_SEATS[agent])
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
        if episode.state.phase is Phase.OVER:
            returns = episode.returns()
            for i, name in enumerate(AGENTS):
                self.rewards[name] = returns[i]
                self.terminations[name] = True
            self.agent_selection = AGENTS[1 - _SEATS[agent]]
            self._accumulate_rewards()
        else:
            # Every reward is 0 until the deal ends, so there is nothing to accumulate.
            self.agent_selection = AGENTS[episode.state.to_act]
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
