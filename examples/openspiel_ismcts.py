#!/usr/bin/env python3
"""OpenSpiel's information-set MCTS playing Conquian, as a bot for the match runner.

The bot speaks the conquian bot protocol (docs/protocol.md), so ``conquian arena``
plays it against any bot of the ladder with duplicate deals:

    pip install 'conquian[openspiel]'
    conquian arena "cmd:python examples/openspiel_ismcts.py --simulations 200" greedy \\
        --deals 20 --time-limit-ms 60000

At each of its decisions the bot rebuilds an OpenSpiel ``python_conquian`` state from
its observation (the cards hidden from it dealt at random), and runs OpenSpiel's
``ISMCTSBot`` for every action id of the decision (a take is several ids).  ISMCTS
re-deals the hidden cards itself for every simulation through
``resample_from_infostate``.  Leaves are valued by random rollouts.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from conquian.actions import Action
from conquian.bots import Bot
from conquian.bots.protocol import serve
from conquian.envs.openspiel import state_from_observation
from conquian.observation import Observation


class ISMCTSConquianBot(Bot):
    """OpenSpiel's ISMCTS behind the conquian bot interface."""

    name = "openspiel-ismcts"

    def __init__(self, simulations: int, rollouts: int, uct_c: float, seed: int) -> None:
        super().__init__(rng=random.Random(seed))
        self.simulations = simulations
        self.rollouts = rollouts
        self.uct_c = uct_c
        self.seed = seed
        self._games: dict[str, pyspiel.Game] = {}

    def _searcher(self, game: pyspiel.Game) -> ismcts.ISMCTSBot:
        rng = np.random.RandomState(self.rng.randrange(2**31))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=rng)
        return ismcts.ISMCTSBot(game, evaluator, self.uct_c, self.simulations, random_state=rng)

    def act(self, obs: Observation) -> Action:
        spec = obs.rules.to_spec()
        game = self._games.get(spec)
        if game is None:
            import conquian.envs.openspiel  # noqa: F401  (registers python_conquian)

            game = self._games[spec] = pyspiel.load_game("python_conquian", {"rules": spec})
        state = state_from_observation(game, obs, self.rng)
        searcher = self._searcher(game)
        episode = state.episode
        done = len(episode.history)
        while len(episode.history) == done:
            state.apply_action(int(searcher.step(state)))
        action: Action = episode.history[-1].action
        self.reason = f"ISMCTS, {self.simulations} simulations per action id"
        return action


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=200, help="per action id")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    parser.add_argument("--uct-c", type=float, default=2.0, help="exploration constant")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    return serve(ISMCTSConquianBot(args.simulations, args.rollouts, args.uct_c, args.seed))


if __name__ == "__main__":
    raise SystemExit(main())
