"""Hidden cards dealt at random, consistent with what one player knows.

Search bots and research adapters ask "what could the hidden cards be?": here the
answer is a full :class:`~conquian.state.GameState` that agrees with an observation,
the opponent holding a given hand and the other unseen cards forming the stock in a
random order.  (:meth:`GameState.redeal` does the same from a state.)

>>> import random
>>> from conquian.game import Game
>>> game = Game(seed=3)
>>> obs = game.observation(0)
>>> opponent = game.state.hands[1]
>>> state = determinize(obs, opponent, random.Random(1))
>>> state.hands == game.state.hands, state.stock_count == game.state.stock_count
(True, True)
"""

from __future__ import annotations

import random

from .cards import mask_indices
from .observation import Observation
from .state import GameState

__all__ = ["determinize"]


def determinize(obs: Observation, opp_hand: int, rng: random.Random) -> GameState:
    """A full state consistent with ``obs``: the opponent holds ``opp_hand`` and the rest
    of the live cards form the stock in a random order."""
    opp = 1 - obs.viewer
    live = obs.unknown_mask & ~opp_hand
    stock = list(mask_indices(live))
    rng.shuffle(stock)
    hands = [0, 0]
    hands[obs.viewer] = obs.hand_mask
    hands[opp] = opp_hand
    return GameState(
        obs.rules,
        dealer=obs.dealer,
        phase=obs.phase,
        to_act=obs.to_act,
        hands=(hands[0], hands[1]),
        tables=obs.tables,
        centre=obs.centre,
        source=obs.source,
        dead_mask=obs.dead_mask,
        stock=tuple(stock),
        stake=obs.stake,
        validate=False,
    )
