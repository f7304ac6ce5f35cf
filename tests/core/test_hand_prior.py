"""The learned chances of the opponent's hand: they see only the viewer's observation,
they guess better than chance, and the shipped weights fit the features computed."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

from conquian.bots.hand_prior import FEATURES, HandPrior, card_chances, load_prior
from conquian.bots.search import opponent_card_weights
from conquian.cards import mask_indices
from conquian.observation import Observation, observe
from conquian.sample import determinize

sys.path.insert(0, str(Path(__file__).parents[2] / "scripts"))
from hand_model_calibration import positions as heuristic_against_greedy


def positions(deals: int, seed: int) -> list[tuple[Observation, int]]:
    """Decisions of ``heuristic`` against ``greedy`` with the opponent's true hand."""
    return list(heuristic_against_greedy(deals, seed, 1.0))


def log_loss(chances: dict[int, float], truth: int) -> tuple[float, int]:
    total = 0.0
    for card, p in chances.items():
        p = min(max(p, 0.01), 0.99)
        total -= math.log(p) if truth >> card & 1 else math.log(1.0 - p)
    return total, len(chances)


def test_the_learned_chances_guess_the_hand_better_than_chance() -> None:
    learned = uniform = 0.0
    cards = 0
    for obs, truth in positions(40, 91_000):  # seeds far from the training deals
        unknown = list(mask_indices(obs.unknown_mask))
        share = obs.hand_counts[obs.opponent] / len(unknown)
        a, n = log_loss(card_chances(obs), truth)
        b, _ = log_loss(dict.fromkeys(unknown, share), truth)
        learned, uniform, cards = learned + a, uniform + b, cards + n
    assert cards > 3000
    # per card: about 0.52 against 0.56 on such positions
    assert learned / cards < uniform / cards - 0.02


def test_the_chances_depend_on_the_viewers_observation_only() -> None:
    rng = random.Random(5)
    for obs, truth in positions(6, 92_000)[::7]:
        # the same observation over another opponent hand and stock order
        other = rng.sample(list(mask_indices(obs.unknown_mask)), truth.bit_count())
        hand = sum(1 << c for c in other)
        again = observe(determinize(obs, hand, rng), obs.viewer, obs.history)
        assert again.unknown_mask == obs.unknown_mask and again.history == obs.history
        assert card_chances(again) == card_chances(obs)


def test_every_chance_is_a_probability_and_the_weights_are_their_odds() -> None:
    obs, _ = positions(2, 93_000)[-1]
    chances = card_chances(obs)
    assert set(chances) == set(mask_indices(obs.unknown_mask))
    assert all(0.0 < p < 1.0 for p in chances.values())
    weights = opponent_card_weights(obs)
    for card, p in chances.items():
        assert weights[card] == pytest.approx(p / (1.0 - p))


def test_weights_fitted_on_other_features_are_refused() -> None:
    spec = {"features": [*FEATURES[:-1]], "mean": [], "scale": []}
    with pytest.raises(ValueError, match="other features"):
        HandPrior(spec)
    shipped = load_prior()
    assert len(shipped.mean) == len(FEATURES) and len(shipped.hidden[0]) == len(FEATURES)
