"""``scripts/greedy_posterior.py``: the exact chances of ``greedy``'s hand, used to measure
how much better any hand model could guess it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from conquian.cards import mask_indices

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
from greedy_posterior import GreedyReplay, greedy_hands
from hand_model_calibration import positions as heuristic_against_greedy


def test_greedys_true_hand_is_always_possible_and_some_others_are_not() -> None:
    rng = random.Random(3)
    kept = list(heuristic_against_greedy(12, 700, 1.0))
    assert len(kept) > 60
    refused = 0
    for obs, truth in kept:
        replay = GreedyReplay(obs)
        assert replay.possible(truth, rng)
        inside = list(mask_indices(truth))
        outside = list(mask_indices(obs.unknown_mask & ~truth))
        if not outside:  # he holds every card the viewer has not seen
            continue
        for _ in range(3):
            swapped = truth ^ (1 << rng.choice(inside)) ^ (1 << rng.choice(outside))
            refused += not replay.possible(swapped, rng)
    assert refused > len(kept)  # the replay does rule hands out


def test_the_drawn_hands_are_possible_hands_of_the_right_size() -> None:
    rng = random.Random(5)
    for obs, truth in list(heuristic_against_greedy(3, 700, 1.0))[::4]:
        # start from a hand the replay rules out: the chain must still find possible ones
        start = obs.unknown_mask & ~truth
        start = sum(1 << c for c in list(mask_indices(start))[: obs.hand_counts[obs.opponent]])
        draw = greedy_hands(obs, start, rng, burn_in=300, steps=5)
        replay = GreedyReplay(obs)
        for _ in range(3):
            hand = draw()
            assert hand.bit_count() == obs.hand_counts[obs.opponent]
            assert not hand & ~obs.unknown_mask
            assert replay.possible(hand, rng)
