"""Gymnasium environment ``conquian/Conquian-v0``: one deal against bots of the ladder.

The agent plays one seat; every other seat (one with two players, ``N - 1`` at a
table of ``N``, from the rules or ``num_players``) is a :mod:`conquian.bots` bot that
acts on its own observation whenever it is its turn, played through the seat driver
(:class:`conquian.seats.SeatDriver`) as in the games and the arena.  ``opponent`` is one bot name
for every other seat, or a list of ``N - 1`` names, for the seats after the
agent's in play order (the next seat first).  Observations and actions are those
of the PettingZoo environment: a dict of ``observation`` (int8 0/1 tensor) and
``action_mask`` (int8), and one action id per step (see
:mod:`conquian.envs.spaces`).  The reward, given at the end, is the agent's return
of the PettingZoo environment: +1 for winning a two-player deal (``N - 1`` at a table
of ``N``, each loser paying one unit), -1 for losing it and 0 for a draw.

>>> import gymnasium
>>> import conquian.envs
>>> env = gymnasium.make("conquian/Conquian-v0", opponent="random")
>>> observation, info = env.reset(seed=3)
>>> int(observation["action_mask"].sum()) >= 1, sorted(info)
(True, ['seat'])
>>> three = gymnasium.make("conquian/Conquian-v0", rules="tercerilla", opponent=["random", "greedy"])
>>> observation, info = three.reset(seed=3, options={"seat": 2})
>>> info["seat"], [bot.name for bot in three.unwrapped.bots]
(2, ['random', 'greedy'])

Gymnasium expects every id of the action space to be a valid input to
:meth:`~ConquianEnv.step`, so with ``illegal_action="refuse"`` (the default) an id
that is not legal now changes nothing: the step returns the same observation,
reward 0 and the reason under ``info["illegal_action"]``.  With
``illegal_action="raise"`` it raises :class:`~conquian.errors.IllegalActionError`
instead (also changing nothing).  Values that are not ids of the space always raise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..errors import IllegalActionError
from ..game import Game
from ..rules import Rules
from ..seats import Seat, SeatDriver
from ..state import shuffled_deck
from .episode import Episode, rules_for
from .spaces import TensorLayout

ObsDict = dict[str, Any]


class ConquianEnv(gymnasium.Env[ObsDict, np.int64]):
    """One deal of Conquian against one bot, or a bot in every other seat.

    :param opponent: a bot name or level (``random``, ``greedy``, ``heuristic``, ``search``...)
        for every other seat, or a list or tuple of ``N - 1`` of them: the seat after the
        agent's first, then on round the table.
    :param rules: a rules preset name, spec or :class:`~conquian.rules.Rules`.
    :param seat: the agent's player number (0 to ``N - 1``), or None to draw it at each reset.
    :param illegal_action: ``"refuse"`` or ``"raise"``, see the module documentation.
    :param render_mode: ``"ansi"`` or ``"human"``.
    :param num_players: the players at the table, None for as many as the rules say
        (see :func:`~conquian.envs.episode.rules_for`).
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium declares it)

    def __init__(
        self,
        opponent: str | Sequence[str] = "greedy",
        rules: Rules | str = "standard",
        seat: int | None = None,
        illegal_action: str = "refuse",
        render_mode: str | None = None,
        num_players: int | None = None,
    ) -> None:
        self.rules = rules_for(rules, num_players)
        n = self.rules.num_players
        if seat is not None and seat not in range(n):
            seats = "0, 1" if n == 2 else f"0 to {n - 1}"
            raise ValueError(f"seat must be {seats} or None, got {seat!r}.")
        if illegal_action not in ("refuse", "raise"):
            raise ValueError(f"illegal_action must be 'refuse' or 'raise', got {illegal_action!r}.")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, got {render_mode!r}.")
        if isinstance(opponent, str):
            names = [opponent] * (n - 1)
        elif isinstance(opponent, (list, tuple)) and all(isinstance(o, str) for o in opponent):
            names = list(opponent)
            if len(names) != n - 1:
                raise ValueError(
                    f"opponent must name one bot, or {n - 1} bots (one for every other seat "
                    f"of {n}), got {len(names)}."
                )
        else:
            raise ValueError(f"opponent must be a bot name or a list of them, got {opponent!r}.")
        self.opponent_name = opponent
        """The ``opponent`` argument as given."""
        self.opponent_names = names
        """The bot of each other seat: the seat after the agent's first."""
        for name in dict.fromkeys(names):
            make_bot(name)  # fail now for an unknown name
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
        """The agent's view of the deal: it follows the game that the seat driver plays."""
        self._driver: SeatDriver | None = None
        self.bots: list[Bot] = []
        """The bots of the current deal, in the order of :attr:`opponent_names`."""
        self.seat = 0

    @property
    def bot(self) -> Bot | None:
        """The bot in the seat after the agent's (with two players, the opponent)."""
        return self.bots[0] if self.bots else None

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
        n = self.rules.num_players
        dealer = options.get("dealer")
        if dealer is None:
            dealer = int(rng.integers(n))
        seat = options.get("seat", self.fixed_seat)
        if seat is None:
            seat = int(rng.integers(n))
        if seat not in range(n):
            seats = "0 or 1" if n == 2 else f"0 to {n - 1}"
            raise ValueError(f"The seat must be {seats}, got {seat!r}.")
        self.seat = seat
        self.bots = [
            make_bot(name, rng=random.Random(int(rng.integers(2**63))))
            for name in self.opponent_names
        ]
        game = Game(self.rules, deck=deck, dealer=dealer)
        bot_of = {(seat + k) % n: bot for k, bot in enumerate(self.bots, start=1)}
        self._driver = SeatDriver(
            [Seat(name, bot_of.get(p)) for p, name in enumerate(game.players)], self.rules
        )
        self._driver.start(game)  # each bot is told its seat
        self.episode = Episode(game.state, self.layout, game.history)
        self._play_bots()
        return self._observation(), {"seat": seat}

    def _play_bots(self) -> None:
        """Let the bots play until it is the agent's turn or the deal is over, then tell
        them the end."""
        driver = self._driver
        assert driver is not None
        while driver.bot_to_act() is not None:
            turn = driver.bot_turn()
            driver.push(turn.player, turn.decide())
        if driver.deal_is_over:
            driver.settle()

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
            done = episode.choose(action_id)
        except IllegalActionError as exc:
            if self.illegal_action == "raise":
                raise
            info["illegal_action"] = str(exc)
            return self._observation(), 0.0, episode.over, False, info
        if done is not None:
            assert self._driver is not None
            self._driver.push(self.seat, done)
            self._play_bots()
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
