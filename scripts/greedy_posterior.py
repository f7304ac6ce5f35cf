"""The exact chances of ``greedy``'s hand, for measurement: how much better could any hand
model guess it?

``greedy`` plays by fixed rules (it takes whenever the card melds, laying as many cards as
it can, forces whenever it may and throws the card with the fewest neighbours), so after
the deal every hand of his is either one with which he would have played exactly as he
did, or impossible; and as the deal was shuffled evenly, every possible hand is equally
likely. :class:`GreedyReplay` checks a hand by playing the deal again from the start with
it: the cards the viewer was dealt and the cards turned from the stock are his to know,
the opponent's first hand is the hand in question plus the cards he has laid or thrown
since. :func:`greedy_hands` walks over the possible hands (Metropolis: a swap that keeps
the hand possible is always taken). Used by ``hand_model_calibration.py`` and
``search_limits.py`` (variant ``posterior``); it is right only against ``greedy``.

>>> from conquian.game import Game
>>> from conquian.bots import make_bot
>>> game = Game(seed=3)
>>> bot = make_bot("greedy")
>>> for _ in range(6):
...     game.push(bot.act(game.observation(game.state.to_act)))
>>> viewer = game.state.to_act
>>> replay = GreedyReplay(game.observation(viewer))
>>> replay.possible(game.state.hands[1 - viewer], random.Random(1))
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from conquian.actions import ActionKind
from conquian.bots.simple import GreedyBot
from conquian.cards import ALL_CARDS_MASK, mask_indices
from conquian.errors import ConquianError
from conquian.game import Game
from conquian.melds import partition_mask
from conquian.observation import Observation
from conquian.state import Source

TURNED_FROM_STOCK = (Source.TURNED, Source.PASSED)


class GreedyReplay:
    """Whether ``greedy``, the viewer's opponent in a two-player deal, could hold a hand."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        players = len(obs.tables)
        self.from_hand = [0] * players
        """the cards each player has laid or thrown from his hand since the deal"""
        tables = [0] * players
        self.stock: list[int] = []
        """the cards turned from the stock so far, in order"""
        for event in obs.history:
            if event.source in TURNED_FROM_STOCK and event.card not in self.stock:
                self.stock.append(event.card)
            p = event.player
            if event.action.kind is ActionKind.DISCARD:
                self.from_hand[p] |= 1 << event.card
            elif event.action.melds:
                laid = partition_mask(event.action.melds) & ~tables[p]
                if event.action.kind is ActionKind.TAKE:
                    laid &= ~(1 << event.card)
                self.from_hand[p] |= laid
                tables[p] = partition_mask(event.action.melds)
        if obs.centre >= 0 and obs.source in TURNED_FROM_STOCK and obs.centre not in self.stock:
            self.stock.append(obs.centre)
        self.greedy = GreedyBot()

    def deck(self, hand: int, rng: random.Random) -> list[int]:
        """A deck order that deals the viewer his first hand and the opponent ``hand`` plus
        what he has played from it, turns the same cards from the stock, the rest shuffled."""
        obs = self.obs
        first = [0] * len(obs.tables)
        first[obs.viewer] = obs.hand_mask | self.from_hand[obs.viewer]
        first[obs.opponent] = hand | self.from_hand[obs.opponent]
        dealt = [list(mask_indices(h)) for h in first]
        order: list[int] = []
        receiver = (obs.dealer + 1) % len(first)
        while len(order) < len(first) * obs.rules.hand_size:
            for _ in range(obs.rules.deal_packet):
                order.append(dealt[receiver].pop())
            receiver = (receiver + 1) % len(first)
        used = 0
        for card in order + self.stock:
            used |= 1 << card
        rest = list(mask_indices(ALL_CARDS_MASK & ~used))
        rng.shuffle(rest)
        return order + self.stock + rest

    def possible(self, hand: int, rng: random.Random) -> bool:
        """Whether ``greedy`` holding ``hand`` now would have played this deal as he did."""
        obs = self.obs
        try:
            game = Game(obs.rules, deck=self.deck(hand, rng), dealer=obs.dealer)
            for event in obs.history:
                if event.player == obs.opponent:
                    seen = game.observation(event.player)
                    if len(seen.legal_actions) > 1 and self.greedy.act(seen) != event.action:
                        return False
                game.push(event.action)
        except (ConquianError, IndexError):
            return False
        return True


def greedy_hands(
    obs: Observation, start: int, rng: random.Random, *, burn_in: int = 200, steps: int = 10
) -> Callable[[], int]:
    """A source of ``greedy``'s possible hands, each equally likely, from a chain that starts
    at the hand ``start`` (best one drawn by a good model) and takes ``steps`` swaps between
    two draws."""
    replay = GreedyReplay(obs)
    hand = start
    inside = list(mask_indices(hand))
    outside = list(mask_indices(obs.unknown_mask & ~hand))
    possible = replay.possible(hand, rng)

    def walk(count: int) -> None:
        nonlocal hand, possible
        if not inside or not outside:
            return
        for _ in range(count):
            i, j = rng.randrange(len(inside)), rng.randrange(len(outside))
            swapped = hand ^ (1 << inside[i]) ^ (1 << outside[j])
            ok = replay.possible(swapped, rng)
            if ok or not possible:
                inside[i], outside[j] = outside[j], inside[i]
                hand, possible = swapped, ok

    walk(burn_in)

    def draw() -> int:
        walk(steps)
        return hand

    return draw
