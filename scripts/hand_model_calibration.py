"""How well ``search`` guesses the opponent's hand: calibration of its hand model.

Plays ``heuristic`` against ``greedy``, keeps some of the positions where ``heuristic``
had a choice, and for each asks the search's hand sampler for many hands.  The share
of sampled hands holding a card is the model's probability that the opponent holds
it; the script scores those probabilities against the true hand (log loss and Brier
score per unknown card, lower is better) for:

* ``uniform``   every unknown card equally likely (no inference);
* ``handset``   the search's sampler with the hand-set card weights it used before the
  learned chances (a card less likely for each neighbour refused or discarded);
* ``long``      the same with a chain ten times longer (does the sampler mix?);
* ``hard``      the same with the model's penalties near-certain (0.001 instead of 0.05);
* ``learned``   the learned chances of :mod:`conquian.bots.hand_prior`, card by card;
* ``shipped``   the search's sampler as it plays: the learned chances' odds as its card
  weights, and the same hand model;
* ``posterior`` the exact chances: every hand with which ``greedy`` would have played as he
  did, equally likely (:mod:`greedy_posterior`), the best any model could guess here.

It also counts the positions where the true hand breaks one of the model's
assumptions (it could have melded a card the opponent refused, and so on): against
``greedy`` that should never happen.

Example (about a minute on one core, and ten more for ``posterior``)::

    python scripts/hand_model_calibration.py --deals 200 --seed 5000
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable, Iterator

from greedy_posterior import greedy_hands

from conquian.bots import hand_prior, make_bot, search
from conquian.bots.features import Knowledge
from conquian.cards import mask_indices
from conquian.game import Game
from conquian.observation import Observation

Position = tuple[Observation, int]


def positions(deals: int, seed: int, share: float) -> Iterator[Position]:
    """Positions where ``heuristic`` (seat alternating) chose while the opponent held cards,
    with his true hand."""
    pick = random.Random(seed)
    for deal in range(deals):
        game = Game("standard", seed=seed + deal, dealer=deal % 2)
        me = deal % 2
        bots = [make_bot("greedy"), make_bot("greedy")]
        bots[me] = make_bot("heuristic", rng=random.Random(deal))
        for player in (0, 1):
            bots[player].new_deal(player, game.rules)
        while not game.state.is_over:
            player = game.state.to_act
            obs = game.observation(player)
            if (
                player == me
                and len(obs.legal_actions) > 1
                and obs.hand_counts[1 - me]
                and pick.random() < share
            ):
                yield obs, game.state.hands[1 - me]
            game.push(bots[player].act(obs))


def sampled_marginals(
    obs: Observation,
    rng: random.Random,
    draws: int,
    weights: dict[int, float] | None = None,
    **chain: int,
) -> dict[int, float]:
    """The share of sampled opponent hands holding each unknown card (``chain``: the
    sampler's ``steps`` and ``burn_in``, else its own defaults; ``weights``: the cards'
    weights, else the search's own)."""
    if weights is None:
        weights = search.hidden_card_weights(Knowledge.from_observation(obs))
    sampler = search.HandSampler(obs, weights, search.HandModel(obs), rng, **chain)
    return draw_shares(obs, sampler.draw, draws)


def draw_shares(obs: Observation, draw: Callable[[], int], draws: int) -> dict[int, float]:
    """The share of ``draws`` hands from ``draw`` that hold each unknown card."""
    counts = dict.fromkeys(mask_indices(obs.unknown_mask), 0)
    for _ in range(draws):
        for card in mask_indices(draw()):
            counts[card] += 1
    return {card: n / draws for card, n in counts.items()}


def uniform_marginals(obs: Observation) -> dict[int, float]:
    unknown = list(mask_indices(obs.unknown_mask))
    share = obs.hand_counts[1 - obs.viewer] / len(unknown)
    return dict.fromkeys(unknown, share)


def score(
    name: str, kept: list[Position], marginals: Callable[[int, Observation], dict[int, float]]
) -> dict[str, object]:
    """Mean log loss and Brier score per unknown card (probabilities clipped to 1%..99%)."""
    log_loss = brier = 0.0
    cards = 0
    for index, (obs, truth) in enumerate(kept):
        for card, p in marginals(index, obs).items():
            held = truth >> card & 1
            p = min(max(p, 0.01), 0.99)
            log_loss -= math.log(p) if held else math.log(1.0 - p)
            brier += (p - held) ** 2
            cards += 1
    return {
        "model": name,
        "log_loss": round(log_loss / cards, 4),
        "brier": round(brier / cards, 4),
        "positions": len(kept),
        "cards": cards,
    }


def broken_assumptions(kept: list[Position]) -> int:
    """Positions where the model gives the true hand less than full odds."""
    return sum(search.HandModel(obs).odds(truth) < 1.0 for obs, truth in kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--share", type=float, default=0.6, help="share of positions kept")
    parser.add_argument("--draws", type=int, default=200, help="sampled hands per position")
    args = parser.parse_args()
    kept = list(positions(args.deals, args.seed, args.share))
    print(json.dumps({"positions": len(kept), "true_hand_penalised": broken_assumptions(kept)}))

    def sampled(**chain: int) -> Callable[[int, Observation], dict[int, float]]:
        return lambda i, obs: sampled_marginals(obs, random.Random(i), args.draws, **chain)

    def learned_sampler(i: int, obs: Observation) -> dict[int, float]:
        weights = search.opponent_card_weights(obs)
        return sampled_marginals(obs, random.Random(i), args.draws, weights)

    print(json.dumps(score("uniform", kept, lambda _, obs: uniform_marginals(obs))), flush=True)
    print(json.dumps(score("handset", kept, sampled())), flush=True)
    print(json.dumps(score("long", kept, sampled(steps=150, burn_in=600))), flush=True)
    penalties = ("CONFLICT_WEIGHT", "HELD_MELD_WEIGHT", "DISCARD_WEIGHT")
    saved = {name: getattr(search, name) for name in penalties}
    for name in penalties:
        setattr(search, name, 0.001)
    try:
        print(json.dumps(score("hard", kept, sampled())), flush=True)
    finally:
        for name, value in saved.items():
            setattr(search, name, value)
    print(json.dumps(score("learned", kept, lambda _, obs: hand_prior.card_chances(obs))))
    print(json.dumps(score("shipped", kept, learned_sampler)), flush=True)

    def posterior(i: int, obs: Observation) -> dict[int, float]:
        rng = random.Random(i)
        weights = search.opponent_card_weights(obs)
        start = search.HandSampler(obs, weights, search.HandModel(obs), rng).draw()
        return draw_shares(obs, greedy_hands(obs, start, rng, steps=20), args.draws)

    print(json.dumps(score("posterior", kept, posterior)), flush=True)


if __name__ == "__main__":
    main()
