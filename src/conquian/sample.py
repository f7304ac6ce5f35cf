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
from collections.abc import Mapping

from .cards import NUM_CARDS, mask_indices
from .observation import Observation
from .state import GameState, Phase, chosen_in_exchange

__all__ = ["determinize"]


def determinize(
    obs: Observation, opp_hand: int | Mapping[int, int], rng: random.Random
) -> GameState:
    """A full state consistent with ``obs``: the next player (the opponent, with two
    players) holds ``opp_hand``, any other player a random hand of his size from the rest,
    and the rest of the live cards form the stock in a random order.  ``opp_hand`` may
    instead give every other player's hand (masks by player; the card the viewer passed
    in the exchange, while unseen, must be in the next seat's).  Other players' exchange
    choices still hidden are drawn from their hands."""
    n = len(obs.tables)
    opp = obs.opponent
    if isinstance(opp_hand, Mapping):
        given = dict(opp_hand)
    else:
        given = {opp: _with_passed(obs, opp_hand, rng)}
    taken = 0
    for hand in given.values():
        taken |= hand
    live = obs.unknown_mask & ~taken
    hands = [0] * n
    hands[obs.viewer] = obs.hand_mask
    for p, hand in given.items():
        hands[p] = hand
    cards = list(mask_indices(live))
    rng.shuffle(cards)
    at = 0
    for p in obs.others:
        if p in given:
            continue
        for index in cards[at : at + obs.hand_counts[p]]:
            hands[p] |= 1 << index
        at += obs.hand_counts[p]
    exchange: tuple[int, ...] = ()
    if obs.rules.exchange_one_card:
        if obs.phase is Phase.EXCHANGE:
            exchange = tuple(
                obs.passed if p == obs.viewer else _hidden_pick(obs, p, hands[p], rng)
                for p in range(n)
            )
        elif obs.passed >= 0 and obs.received >= 0:
            exchange = _exchange_record(obs, hands, rng)
    return GameState(
        obs.rules,
        dealer=obs.dealer,
        phase=obs.phase,
        to_act=obs.to_act,
        hands=tuple(hands),
        tables=obs.tables,
        centre=obs.centre,
        source=obs.source,
        owner=obs.owner,
        offeree=obs.offeree,
        exchange=exchange,
        dead_mask=obs.dead_mask,
        stock=tuple(cards[at:]),
        stake=obs.stake,
        validate=False,
    )


def _with_passed(obs: Observation, opp_hand: int, rng: random.Random) -> int:
    """``opp_hand`` with the card the viewer passed in the exchange, while unseen: it is
    still with the next seat, who received it, in place of one card of the drawn hand."""
    if obs.passed >= 0 and obs.phase is not Phase.EXCHANGE:
        bit = 1 << obs.passed
        if not (obs.seen_mask | obs.hand_mask) & bit and not opp_hand & bit:
            drop = mask_indices(opp_hand)
            if drop:
                opp_hand &= ~(1 << rng.choice(drop))
            opp_hand |= bit
    return opp_hand


def _exchange_record(obs: Observation, hands: list[int], rng: random.Random) -> tuple[int, ...]:
    """The exchange after it is over, as the viewer may believe it: his own pass and the
    card he received as he knows them; for each other player (whose choice he never saw)
    a card of the receiver's drawn hand, or any card not named yet if it holds none."""
    n = len(obs.tables)
    picks = [-1] * n
    picks[obs.viewer] = obs.passed
    picks[(obs.viewer - 1) % n] = obs.received
    used = {obs.passed, obs.received}
    for p in range(n):
        if picks[p] >= 0:
            continue
        free = [c for c in mask_indices(hands[(p + 1) % n]) if c not in used]
        if not free:
            free = [c for c in range(NUM_CARDS) if c not in used]
        picks[p] = rng.choice(free)
        used.add(picks[p])
    return tuple(picks)


def _hidden_pick(obs: Observation, player: int, hand: int, rng: random.Random) -> int:
    """In the exchange: a chosen card of ``player`` (who chose before the player to act),
    drawn from his hand, or -1 if he has not chosen yet."""
    if player not in chosen_in_exchange(obs.dealer, obs.to_act, len(obs.tables)):
        return -1
    return rng.choice(mask_indices(hand))
