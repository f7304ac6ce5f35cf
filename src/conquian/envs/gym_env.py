"""Gymnasium environment ``conquian/Conquian-v0``: one deal against a bot of the ladder.

The agent plays one seat; the opponent is a :mod:`conquian.bots` bot that acts on
its own observation whenever it is its turn.  Observations and actions are those
of the PettingZoo environment: a dict of ``observation`` (int8 0/1 tensor) and
``action_mask`` (int8), and one action id per step (see
:mod:`conquian.envs.spaces`).  The reward is +1 for winning the deal, -1 for
losing it and 0 for a draw, given at the end.

>>> import gymnasium
>>> import conquian.envs
>>> env = gymnasium.make("conquian/Conquian-v0", opponent="random")
>>> observation, info = env.reset(seed=3)
>>> int(observation["action_mask"].sum()) >= 1, sorted(info)
(True, ['seat'])

Gymnasium expects every id of the action space to be a valid input to
:meth:`~ConquianEnv.step`, so with ``illegal_action="refuse"`` (the default) an id
that is not legal now changes nothing: the step returns the same observation,
reward 0 and the reason under ``info["illegal_action"]``.  With
``illegal_action="raise"`` it raises :class:`~conquian.errors.IllegalActionError`
instead (also changing nothing).  Values that are not ids of the space always raise.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..errors import IllegalActionError
from ..rules import Rules, find_rules
from ..state import GameState, shuffled_deck
from .episode import Episode
from .spaces import TensorLayout

ObsDict = dict[str, Any]


class ConquianEnv(gymnasium.Env[ObsDict, np.int64]):
    """One deal of Conquian against a bot.

    :param opponent: a bot name or level (``random``, ``greedy``, ``heuristic``, ``search``...).
    :param rules: a rules preset name, spec or :class:`~conquian.rules.Rules`.
    :param seat: the agent's player number (0 or 1), or None to draw it at each reset.
    :param illegal_action: ``"refuse"`` or ``"raise"``, see the module documentation.
    :param render_mode: ``"ansi"`` or ``"human"``.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium declares it)

    def __init__(
        self,
        opponent: str = "greedy",
        rules: Rules | str = "standard",
        seat: int | None = None,
        illegal_action: str = "refuse",
        render_mode: str | None = None,
    ) -> None:
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None, got {seat!r}.")
        if illegal_action not in ("refuse", "raise"):
            raise ValueError(f"illegal_action must be 'refuse' or 'raise', got {illegal_action!r}.")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, got {render_mode!r}.")
        self.rules = find_rules(rules)
        self.opponent_name = opponent
        make_bot(opponent)  # fail now for an unknown name
        self.fixed_seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.layout = TensorLayout(self.rules)
        size = self.layout.space.size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (self.layout.observation_size,), dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(size)
        self.episode: Episode | None = None
        self.bot: Bot | None = None
        self.seat = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Deal a new deal; the bot moves first if it is its turn.

        ``options`` may hold ``seat``, ``dealer`` and ``deck`` (top card first).
        """
        super().reset(seed=seed)
        options = options or {}
        rng = self.np_random
        deck = options.get("deck")
        if deck is None:
            deck = shuffled_deck(int(rng.integers(2**63)))
        dealer = options.get("dealer")
        if dealer is None:
            dealer = int(rng.integers(2))
        seat = options.get("seat", self.fixed_seat)
        if seat is None:
            seat = int(rng.integers(2))
        if seat not in (0, 1):
            raise ValueError(f"The seat must be 0 or 1, got {seat!r}.")
        self.seat = seat
        self.bot = make_bot(self.opponent_name, rng=random.Random(int(rng.integers(2**63))))
        self.bot.new_deal(1 - seat, self.rules)
        state = GameState.deal(self.rules, deck=list(deck), dealer=dealer)
        self.episode = Episode(state, self.layout)
        self._play_bot()
        return self._observation(), {"seat": seat}

    def _play_bot(self) -> None:
        episode = self._episode()
        bot = self.bot
        assert bot is not None
        other = 1 - self.seat
        while not episode.over and episode.player == other:
            obs = episode.observation(other)
            if bot.sees_everything:
                action = bot.act_with_state(obs, episode.state.copy())
            else:
                action = bot.act(obs)
            episode.play(action)
        if episode.over:
            outcome = episode.state.outcome()
            bot.deal_over(episode.observation(other), outcome.winner if outcome else None)

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("Call reset() before step().")
        return self.episode

    def _observation(self) -> ObsDict:
        observation, mask = self._episode().observation_and_mask(self.seat)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: np.int64 | int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Play one action id for the agent, then the bot's moves until the agent is to act.

        :raises IllegalActionError: for a value that is not an id of the action space, or
            (with ``illegal_action="raise"``) an id that is not legal now.
        """
        episode = self._episode()
        action_id = episode.space.check(action)
        info: dict[str, Any] = {"seat": self.seat}
        try:
            done = episode.step(action_id)
        except IllegalActionError as exc:
            if self.illegal_action == "raise":
                raise
            info["illegal_action"] = str(exc)
            return self._observation(), 0.0, episode.over, False, info
        if done is not None:
            self._play_bot()
        reward = episode.returns()[self.seat] if episode.over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, episode.over, False, info

    def render(self) -> str | None:
        """The agent's view of the position as text."""
        episode = self._episode()
        text = str(episode.observation(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text
