"""The coach: one estimate of each action's winning chance, for the hints and the review.

A hint and a review judge a decision the same way, from the player's own view only:

- the cards he cannot see are dealt again and again, each other player's hand drawn in
  proportion to how well it explains that player's play (the search's hand model), but
  without taking every player to lay his melds as soon as he can: a share
  :data:`HIDDEN_MELDS` of players is taken to keep whole melds in hand, so that a card
  fitting a table is weighed by the chance that its owner is one card from out with melds
  nobody saw;
- every candidate action is played in every sampled deal and the deal finished by the
  search's fast rollouts, the same rollouts for every action (common random numbers);
- the samples are seeded from the position as the player sees it (:func:`position_key`),
  so the same position always gets the same answer, and a hint's samples are the first of
  a review's: the review spends more (:data:`REVIEW_SAMPLES` against :data:`HINT_SAMPLES`)
  on the same deals;
- one action is *clearly* better than another only when it leads by more than
  :data:`CLEAR_MARGIN` standard errors of their paired difference; otherwise the coach says
  they are about as good, so that its verdict does not move with the seed.

>>> from conquian.notation import parse_position
>>> from conquian.observation import observe
>>> state = parse_position("standard discard 0 0 As5s6h5c JsJhJc 3h3d3c/KsKhKdKc "
...     "AhAdAc/7s7h7d7c - Qs2h4h6dQd2c4c 2s3sQc4s5d5h6c6s4dQh2dJd 1")
>>> advice = advise(observe(state, 0), samples=60)
>>> str(advice.best), advice == advise(observe(state, 0), samples=60)
('discard As', True)
>>> feeds(observe(state, 0), advice.best)[0]
1
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import Action, ActionKind
from ..cards import mask_indices
from ..errors import ConquianError
from ..melds import meld_table, partition_mask
from ..observation import Observation
from ..reasons import Reason
from ..sample import determinize
from ..state import Phase
from .features import PARTNERS
from .heuristic import HeuristicBot
from .search import HandModel, HandSampler, HandsSampler, opponent_card_weights, rollout

__all__ = [
    "CALIBRATION",
    "CLEAR_MARGIN",
    "DEFAULT_CANDIDATES",
    "HIDDEN_MELDS",
    "HINT_SAMPLES",
    "LOGIT_CLIP",
    "REVIEW_SAMPLES",
    "Advice",
    "action_chances",
    "action_results",
    "advice_reason",
    "advise",
    "calibrated_chance",
    "candidate_actions",
    "ends_deal",
    "feeds",
    "hint",
    "position_key",
]

HIDDEN_MELDS = 0.3
"""Share of players the coach takes to keep whole melds hidden in hand (see
:class:`~conquian.bots.search.HandModel`): enough that a table one card from out is feared,
not so much that a player who lays his melds is taken for one who hides them."""
HINT_SAMPLES = 150
"""Sampled deals of a hint (each candidate played out once in each)."""
REVIEW_SAMPLES = 400
"""Sampled deals per decision of a review from the command line (the first
:data:`HINT_SAMPLES` are the hint's)."""
DEFAULT_CANDIDATES = 6
"""Actions estimated besides the one played or the heuristic's first: its best ones."""
CLEAR_MARGIN = 3.0
"""Standard errors of the paired difference by which an action must lead another for the
coach to call it better; within them the two are *about as good*."""

CALIBRATION: tuple[float, float] = (0.849, -0.0405)
"""``(a, b)`` of the logistic correction of a two-player winning chance:
``1 / (1 + exp(-(a * logit(chance) + b)))`` (see :func:`calibrated_chance`).  Fitted by
``python scripts/calibration.py --load part3.jsonl part4.jsonl part5.jsonl`` (the fit on the
even shuffles of 1,000 bot games of the levels of 2026-12-02, checked on the odd ones and on
400 more games, ``part6.jsonl``; ``docs/strength.md``, *Calibration*, gives the commands that
played them).

>>> round(calibrated_chance(0.8), 3), round(calibrated_chance(0.2), 3)
(0.757, 0.228)"""

LOGIT_CLIP = 0.02
"""A chance is clipped to [this, 1 - this] before its logit: none of 200 sampled deals won
is not a certain loss (such decisions went on to win about 6% of the time); chosen over
0.5%, 1%, 3% and 5% by the calibration of the games the correction was fitted on."""


def calibrated_chance(chance: float, correction: tuple[float, float] = CALIBRATION) -> float:
    """A winning chance of :func:`action_chances` corrected by :data:`CALIBRATION` (or
    ``correction``) towards the share of deals such players went on to win.

    >>> calibrated_chance(0.3, (1.0, 0.0)), round(calibrated_chance(0.5, (2.0, 1.0)), 4)
    (0.3, 0.7311)
    """
    a, b = correction
    if (a, b) == (1.0, 0.0):
        return chance
    p = min(1.0 - LOGIT_CLIP, max(LOGIT_CLIP, chance))
    return 1.0 / (1.0 + math.exp(-(a * math.log(p / (1.0 - p)) + b)))


def position_key(obs: Observation) -> str:
    """A short fingerprint of what ``obs.viewer`` sees (his hand, the tables, the centre,
    the piles' sizes and the deal's history as he saw it): the coach's seed.  Nothing
    hidden goes into it, so the answer depends on what the player could see only.

    >>> from conquian.game import Game
    >>> game = Game(seed=4)
    >>> position_key(game.observation(0)) == position_key(game.observation(0))
    True
    >>> position_key(game.observation(0)) == position_key(game.observation(1))
    False
    """
    text = json.dumps(obs.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _draw_value(obs: Observation) -> float:
    """What a draw is worth in the winning chance: half with two players, else nothing."""
    return 0.5 if len(obs.tables) == 2 else 0.0


def hands_source(
    obs: Observation, rng: random.Random, *, hidden_melds: float = HIDDEN_MELDS
) -> Callable[[], int | dict[int, int]]:
    """Other players' hands drawn as the search bot draws them, with the coach's share of
    players who keep melds hidden."""
    if len(obs.tables) > 2:
        return HandsSampler(obs, rng, hidden_melds=hidden_melds).draw
    model = HandModel(obs, hidden_melds=hidden_melds)
    return HandSampler(obs, opponent_card_weights(obs), model, rng).draw


def action_results(
    obs: Observation,
    actions: Sequence[Action],
    *,
    samples: int,
    seed: int | str,
    hidden_melds: float = HIDDEN_MELDS,
) -> list[list[float]]:
    """Each action's result in each of ``samples`` sampled deals, for ``obs.viewer``: 1 won,
    0 lost, a draw half with two players (else 0).  Every action is played in every deal and
    the deal finished with the same rollout seed, so the results are compared deal by deal;
    a longer run repeats a shorter one's deals first."""
    rng = random.Random(f"conquian-review:{seed}")
    draw = hands_source(obs, rng, hidden_melds=hidden_melds)
    player = obs.viewer
    draw_value = _draw_value(obs)
    results: list[list[float]] = [[] for _ in actions]
    for _ in range(samples):
        state = determinize(obs, draw(), rng)
        rollout_seed = rng.random()
        for i, action in enumerate(actions):
            child = state.copy()
            child.apply_unchecked(action)
            result = rollout(child, player, random.Random(rollout_seed))
            results[i].append(1.0 if result > 0 else draw_value if result == 0 else 0.0)
    return results


def action_chances(
    obs: Observation,
    actions: Sequence[Action],
    *,
    samples: int,
    seed: int | str,
    hidden_melds: float = HIDDEN_MELDS,
) -> list[float]:
    """The winning chance of each of ``actions`` for ``obs.viewer``, from ``obs`` alone
    (the mean of :func:`action_results`).

    >>> from conquian.game import Game
    >>> game = Game(seed=3)
    >>> obs = game.observation(game.state.to_act)
    >>> chances = action_chances(obs, obs.legal_actions, samples=8, seed="doc")
    >>> len(chances) == len(obs.legal_actions), all(0.0 <= c <= 1.0 for c in chances)
    (True, True)
    """
    results = action_results(obs, actions, samples=samples, seed=seed, hidden_melds=hidden_melds)
    return [sum(r) / samples for r in results]


def ends_deal(obs: Observation, actions: Sequence[Action]) -> list[bool]:
    """Whether each action ends the deal at once (its result is then known, not estimated):
    going out does whatever the hidden cards are, so any hand of the opponent's size will do."""
    rng = random.Random(0)
    unknown = list(mask_indices(obs.unknown_mask))
    count = min(obs.hand_counts[obs.opponent], len(unknown))
    hand = sum(1 << card for card in rng.sample(unknown, count))
    state = determinize(obs, hand, rng)
    ends = []
    for action in actions:
        child = state.copy()
        child.apply_unchecked(action)
        ends.append(child.phase is Phase.OVER)
    return ends


def candidate_actions(obs: Observation, limit: int, include: Action | None = None) -> list[Action]:
    """The actions to estimate: every legal one when there are at most ``limit + 1``, else
    the heuristic's ``limit + 1`` best; ``include`` (the move played) first, added when it is
    not among them.  A hint's candidates are so among its review's.

    >>> from conquian.game import Game
    >>> game = Game(seed=3)
    >>> obs = game.observation(game.state.to_act)
    >>> candidate_actions(obs, 6) == list(obs.legal_actions)
    True
    """
    legal = obs.legal_actions
    if len(legal) <= limit + 1:
        ranked = list(legal)
    else:
        ranked = [action for _, action in HeuristicBot(rng=random.Random(0)).rank(obs)]
        ranked = ranked[: limit + 1]
    if include is None:
        return ranked
    return [include, *(a for a in ranked if a != include)]


@dataclass(frozen=True)
class Advice:
    """The coach's verdict on one decision: the actions estimated, best first."""

    actions: tuple[Action, ...]
    chances: tuple[float, ...]
    """Each action's winning chance (two-player chances calibrated)."""
    errors: tuple[float, ...]
    """The standard error of the best action's lead over each (0 for the best itself)."""
    samples: int

    @property
    def best(self) -> Action:
        return self.actions[0]

    def lead(self, action: Action) -> float:
        """How much less likely to win ``action`` is than the best (0 to 1)."""
        return self.chances[0] - self.chances[self.actions.index(action)]

    def clearly_worse(self, action: Action) -> bool:
        """Whether the best leads ``action`` by more than :data:`CLEAR_MARGIN` standard errors."""
        i = self.actions.index(action)
        return i > 0 and self.chances[0] - self.chances[i] > CLEAR_MARGIN * self.errors[i]

    def chance(self, action: Action) -> float:
        return self.chances[self.actions.index(action)]


ERROR_BATCHES = 10
"""Batches of consecutive samples whose means give the error of a lead: the hands are drawn
by a Markov chain, so neighbouring samples are alike and the batches' spread is the honest
one (batch means)."""


def _paired_error(a: Sequence[float], b: Sequence[float]) -> float:
    """The standard error of the mean of ``a - b``, by batch means.

    >>> round(_paired_error([1, 0] * 50, [0, 0] * 50), 3)
    0.0
    >>> _paired_error([1.0] * 10 + [0.0] * 10, [0.0] * 20) > 0.1
    True
    """
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    batches = min(ERROR_BATCHES, n)
    size = n // batches
    if batches < 2:
        return float("inf")
    means = [sum(diffs[i * size : (i + 1) * size]) / size for i in range(batches)]
    mean = sum(means) / batches
    var = sum((m - mean) ** 2 for m in means) / (batches - 1)
    return math.sqrt(var / batches)


def advise(
    obs: Observation,
    *,
    samples: int = HINT_SAMPLES,
    seed: int = 0,
    candidates: int = DEFAULT_CANDIDATES,
    include: Action | None = None,
) -> Advice:
    """The coach's verdict at ``obs``: the candidate actions (``include`` among them) by
    winning chance, each with the error of the best one's lead over it.  The same position
    and arguments give the same advice; more samples repeat fewer samples' deals first."""
    actions = candidate_actions(obs, candidates, include)
    results = action_results(obs, actions, samples=samples, seed=f"{seed}:{position_key(obs)}")
    chances = [sum(r) / samples for r in results]
    if len(obs.tables) == 2:  # the correction is fitted on two-player games
        ends = ends_deal(obs, actions)
        chances = [c if end else calibrated_chance(c) for c, end in zip(chances, ends, strict=True)]
    order = sorted(range(len(actions)), key=lambda i: (-chances[i], i))
    best = order[0]
    return Advice(
        actions=tuple(actions[i] for i in order),
        chances=tuple(chances[i] for i in order),
        errors=tuple(0.0 if i == best else _paired_error(results[best], results[i]) for i in order),
        samples=samples,
    )


def feeds(obs: Observation, action: Action) -> tuple[int, int, int] | None:
    """Whom the card an action gives away helps: ``(player, meld, cards in his hand)`` for
    the player with the fewest cards whose table meld it fits (a discard, an exchange or a
    pass offers its card), or None.

    >>> from conquian.notation import parse_position
    >>> from conquian.observation import observe
    >>> state = parse_position("standard discard 0 0 As5s6h5c JsJhJc 3h3d3c/KsKhKdKc "
    ...     "AhAdAc/7s7h7d7c - Qs2h4h6dQd2c4c 2s3sQc4s5d5h6c6s4dQh2dJd 1")
    >>> obs = observe(state, 0)
    >>> from conquian.cards import format_mask
    >>> player, meld, count = feeds(obs, Action.parse("discard As"))
    >>> player, format_mask(meld), count
    (1, 'Ah Ad Ac', 3)
    """
    if action.kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
        card = action.card
    elif action.kind is ActionKind.PASS and not action.melds:
        card = obs.centre
    else:
        return None
    if card < 0:
        return None
    valid = meld_table(obs.rules.max_seq_len).valid
    found: tuple[int, int, int] | None = None
    for player in obs.others:
        count = obs.hand_counts[player]
        for meld in obs.tables[player]:
            if meld | 1 << card in valid and (found is None or count < found[2]):
                found = (player, meld, count)
    return found


def advice_reason(obs: Observation, advice: Advice) -> Reason:
    """Why the coach's best action is best, as data for the words: the heuristic's plain
    reason for it, the second best and how much less likely to win it is (0 when the two are
    about as good) with, for a discard, the hand cards it would break up, and, when the best or
    else the second best gives away a card that fits a table, which, whose and how many cards
    he holds."""
    best = advice.best
    why = HeuristicBot(rng=random.Random(0)).explain(obs, best)
    if len(advice.actions) < 2:
        return why._replace(key="only_worth", action=best)
    second = advice.actions[1]
    drop = advice.lead(second) if advice.clearly_worse(second) else 0.0
    laid = partition_mask(second.melds) & obs.hand_mask
    breaks = 0  # said only where it tells the two apart: the best keeps its pairs whole
    gives = (ActionKind.DISCARD, ActionKind.EXCHANGE)
    if drop > 0 and second.kind in gives:
        partners = PARTNERS[second.card] & obs.hand_mask
        alone = best.kind not in gives or not PARTNERS[best.card] & obs.hand_mask
        breaks = partners | 1 << second.card if partners and alone else 0
    fed, given = feeds(obs, best), best
    if fed is None:
        fed, given = feeds(obs, second), second
    player, meld, count = fed or (-1, 0, -1)
    card = -1 if fed is None else given.card if given.card >= 0 else obs.centre
    return why._replace(
        key="advised",
        action=best,
        mean=advice.chances[0],
        deals=advice.samples,
        second=second,
        second_laid=laid,
        second_breaks=breaks,
        drop=max(0.0, drop),
        feeds=player,
        feeds_card=card,
        feeds_meld=meld,
        feeds_count=count,
    )


def hint(obs: Observation, *, samples: int = HINT_SAMPLES) -> tuple[Advice, Reason]:
    """The coach's hint at ``obs``: its advice (the recommended action first) and why.

    >>> from conquian.game import Game
    >>> game = Game(seed=3)
    >>> obs = game.observation(game.state.to_act)
    >>> advice, why = hint(obs, samples=20)
    >>> why.action == advice.best, advice.best in obs.legal_actions
    (True, True)
    """
    if not obs.legal_actions:
        raise ConquianError(f"Player {obs.viewer} has no move to make here.")
    if len(obs.legal_actions) == 1:
        only = obs.legal_actions[0]
        advice = Advice(actions=(only,), chances=(float("nan"),), errors=(0.0,), samples=0)
        why = HeuristicBot(rng=random.Random(0)).explain(obs, only)
        return advice, why._replace(key="only_legal", action=only)
    advice = advise(obs, samples=samples)
    return advice, advice_reason(obs, advice)
