"""A learned guess of the opponent's hand: for each unseen card, the chance that he holds it.

The chance comes from a small network (one hidden layer) over a few features of the card
and of the public history around it: how many of its meld partners (the same rank, the
same suit one or two ranks away) the opponent refused, discarded or laid on his table,
how many are still unseen or in the viewer's own hand, and the base rate (his hand's size
over the unseen cards).  The weights were fitted on positions from bot games by
``scripts/train_hand_model.py`` and ship beside this module (``hand_prior.json``); the
model runs in plain Python.

>>> from conquian.game import Game
>>> obs = Game(seed=4).observation(0)
>>> chances = card_chances(obs)
>>> sorted(chances) == sorted(mask_indices(obs.unknown_mask))
True
>>> round(sum(chances.values()))  # about the opponent's ten cards
10
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any

from ..cards import NUM_CARDS, NUM_RANKS, RANK_MASKS, mask_indices
from ..melds import meld_table, partition_mask
from ..observation import Observation
from .features import CLOSE, PARTNERS, THIRDS, Knowledge

__all__ = ["FEATURES", "HandPrior", "card_chances", "card_features", "load_prior"]


def _relations(card: int) -> tuple[int, int, int]:
    same_rank = RANK_MASKS[card % NUM_RANKS] & ~(1 << card)
    return same_rank, CLOSE[card] & ~same_rank, PARTNERS[card] & ~CLOSE[card]


RELATIONS: tuple[tuple[int, int, int], ...] = tuple(_relations(c) for c in range(NUM_CARDS))
"""For each card: the masks of its same-rank cards, its suit neighbours one rank away and
those two ranks away."""

FEATURES: tuple[str, ...] = (
    "base_logit",
    "stock_share",
    "edge_rank",
    *(
        f"{what}_{relation}"
        for what in ("refused", "discarded", "table", "unseen", "mine")
        for relation in ("rank", "near", "far")
    ),
    "refused_any",
    "discarded_any",
    "fits_table",
    "refused_meldable",
    "discarded_meldable",
)
"""The inputs of the model, in order."""


def card_features(obs: Observation) -> dict[int, list[float]]:
    """The model's inputs for each card the viewer has not seen (two-player view: the
    opponent is the next seat)."""
    opp = obs.opponent
    known = Knowledge.from_observation(obs)
    refused, discarded = known.opp_refused, known.opp_discarded
    table = partition_mask(obs.tables[opp])
    unseen = obs.unknown_mask
    count = unseen.bit_count()
    base = obs.hand_counts[opp] / count if count else 0.0
    base = min(max(base, 0.01), 0.99)
    head = [
        math.log(base / (1.0 - base)),
        obs.stock_count / NUM_CARDS,
    ]
    groups = (refused, discarded, table, unseen, obs.hand_mask)
    tail = [float(refused.bit_count() > 0), float(discarded.bit_count() > 0)]
    melds = meld_table(obs.rules.max_seq_len)
    opp_table = obs.tables[opp]
    refused_cards = list(mask_indices(refused))
    discarded_cards = list(mask_indices(discarded))
    out: dict[int, list[float]] = {}
    for card in mask_indices(unseen):
        rank = card % NUM_RANKS
        row = [*head, float(rank in (0, NUM_RANKS - 1))]
        relations = RELATIONS[card]
        for group in groups:
            for mask in relations:
                row.append(float((group & mask).bit_count()))
        row.extend(tail)
        # a card he could have laid on his table, or melded with a card he let go
        # and another unseen one
        row.append(float(melds.fits_directly(1 << card, opp_table)))
        row.append(float(sum(1 for r in refused_cards if THIRDS[r][card] & unseen)))
        row.append(float(sum(1 for r in discarded_cards if THIRDS[r][card] & unseen)))
        out[card] = row
    return out


class HandPrior:
    """The fitted network: inputs scaled by ``mean`` and ``scale``, a ``tanh`` hidden layer,
    a logistic output."""

    def __init__(self, spec: dict[str, Any]) -> None:
        if tuple(spec["features"]) != FEATURES:
            raise ValueError("the hand model's weights were fitted on other features")
        self.mean: list[float] = spec["mean"]
        self.scale: list[float] = spec["scale"]
        self.hidden: list[list[float]] = spec["hidden"]
        self.hidden_bias: list[float] = spec["hidden_bias"]
        self.out: list[float] = spec["out"]
        self.out_bias: float = spec["out_bias"]

    def chance(self, row: list[float]) -> float:
        x = [(v - m) / s for v, m, s in zip(row, self.mean, self.scale, strict=True)]
        z = self.out_bias
        for weights, bias, w_out in zip(self.hidden, self.hidden_bias, self.out, strict=True):
            a = bias
            for w, v in zip(weights, x, strict=True):
                a += w * v
            z += w_out * math.tanh(a)
        if z < -30.0:
            return 1e-13
        return 1.0 / (1.0 + math.exp(-z))


@cache
def load_prior() -> HandPrior:
    """The weights shipped with the package."""
    text = resources.files(__package__).joinpath("hand_prior.json").read_text(encoding="utf-8")
    return HandPrior(json.loads(text))


def card_chances(obs: Observation, prior: HandPrior | None = None) -> dict[int, float]:
    """The chance that the opponent holds each card the viewer has not seen."""
    model = prior or load_prior()
    return {card: model.chance(row) for card, row in card_features(obs).items()}
