"""A post-game review: each decision of one player judged by the expert's search.

For every decision of the reviewed player in a record, the review builds that player's
:class:`~conquian.observation.Observation` at that moment (never the record's hidden
cards), re-deals the cards he could not see from it as the ``search`` bot does (each
other player's hand drawn in proportion to how well it explains his play), and plays
the action he played and the best candidates out in the same sampled deals with the
search's greedy rollouts.  An action's *winning chance* is the share of those deals the
player wins; with two players a draw counts half, with three or four only his own wins
count.  The *drop* of a decision is the chance of the best action estimated minus the
chance of the action played; a drop of 0.1, 0.2 or 0.3 or more marks an inaccuracy, a
mistake or a blunder.  A decision with one legal action is not judged.

Everything is seeded from the settings' seed, the deal number and the action's place in
the record, all public, so a review is reproducible and depends on what the player
could see only.

>>> from conquian.game import Game
>>> game = Game(seed=3)
>>> obs = game.observation(game.state.to_act)
>>> chances = action_chances(obs, obs.legal_actions, samples=8, seed="doc")
>>> len(chances) == len(obs.legal_actions), all(0.0 <= c <= 1.0 for c in chances)
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..actions import Action
from ..cards import CARDS, mask_indices
from ..errors import ConquianError
from ..melds import Partition
from ..observation import Observation, PublicEvent, observe, public_event
from ..records import GameRecord, MatchRecord, format_result
from ..sample import determinize
from ..state import GameState, Phase
from .heuristic import HeuristicBot
from .search import HandModel, HandSampler, HandsSampler, opponent_card_weights, rollout

__all__ = [
    "CALIBRATION",
    "DEFAULT_CANDIDATES",
    "DEFAULT_SAMPLES",
    "IN_GAME_SAMPLES",
    "MARK_THRESHOLDS",
    "Decision",
    "Mark",
    "Review",
    "ReviewError",
    "ReviewSettings",
    "ReviewSummary",
    "action_chances",
    "calibrated_chance",
    "candidate_actions",
    "judge_decision",
    "mark_for",
    "player_decisions",
    "record_deals",
    "review_deals",
]

DEFAULT_SAMPLES = 200
"""Sampled deals per decision: a two-player deal is reviewed in seconds on one core."""
IN_GAME_SAMPLES = 100
"""Sampled deals per decision for a review asked for in a game (the terminal's, the
browser's): a two-player deal in a few seconds."""
DEFAULT_CANDIDATES = 6
"""Actions estimated per decision besides the one played: the heuristic's best ones."""


class ReviewError(ConquianError):
    """A review that cannot be made: an unknown player, a record hiding his own cards."""


class Mark(StrEnum):
    """How bad a decision was, by its drop in winning chance."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


MARK_THRESHOLDS: tuple[tuple[float, Mark], ...] = (
    (0.3, Mark.BLUNDER),
    (0.2, Mark.MISTAKE),
    (0.1, Mark.INACCURACY),
)
"""The least drop of each mark, worst first."""

_EPSILON = 1e-9
"""Chances are shares of whole samples: a drop of exactly 0.1 is not lost to rounding."""


def mark_for(drop: float | None) -> Mark | None:
    """The mark of a drop in winning chance (None: not judged, or no mark).

    >>> mark_for(0.05), mark_for(0.1), mark_for(0.25), mark_for(0.5), mark_for(None)
    (None, <Mark.INACCURACY: 'inaccuracy'>, <Mark.MISTAKE: 'mistake'>, <Mark.BLUNDER: 'blunder'>, None)
    """
    if drop is None:
        return None
    for least, mark in MARK_THRESHOLDS:
        if drop + _EPSILON >= least:
            return mark
    return None


@dataclass(frozen=True)
class ReviewSettings:
    """How the chances are estimated."""

    samples: int = DEFAULT_SAMPLES
    """Sampled deals per decision (each action is played out once in each)."""
    seed: int = 0
    """Seed of every sample, so that a review is reproducible."""
    candidates: int = DEFAULT_CANDIDATES
    """Most actions estimated besides the one played (the heuristic's best first)."""

    def __post_init__(self) -> None:
        if self.samples < 1 or self.candidates < 1:
            raise ReviewError("A review needs at least one sample and one candidate.")

    def to_dict(self) -> dict[str, Any]:
        return {
            "estimator": "search",
            "samples": self.samples,
            "candidates": self.candidates,
            "seed": self.seed,
            "rollout": "greedy",
            # two-player chances are corrected so (see calibrated_chance); others are not
            "calibration": {"a": CALIBRATION[0], "b": CALIBRATION[1], "clip": LOGIT_CLIP},
        }


def _draw_value(obs: Observation) -> float:
    """What a draw is worth in the winning chance: half with two players, else nothing."""
    return 0.5 if len(obs.tables) == 2 else 0.0


def _hands_source(obs: Observation, rng: random.Random) -> Callable[[], int | dict[int, int]]:
    """Other players' hands drawn as the search bot draws them (see :mod:`.search`)."""
    if len(obs.tables) > 2:
        return HandsSampler(obs, rng).draw
    return HandSampler(obs, opponent_card_weights(obs), HandModel(obs), rng).draw


def action_chances(
    obs: Observation, actions: Sequence[Action], *, samples: int, seed: int | str
) -> list[float]:
    """The winning chance of each of ``actions`` for ``obs.viewer``, from ``obs`` alone.

    Each of ``samples`` deals re-deals the cards the player cannot see consistently with
    ``obs``; every action is played in every deal and the deal finished with the same
    rollout seed (common random numbers: the chances are compared on the same deals).
    """
    rng = random.Random(f"conquian-review:{seed}")
    draw = _hands_source(obs, rng)
    player = obs.viewer
    draw_value = _draw_value(obs)
    totals = [0.0] * len(actions)
    for _ in range(samples):
        state = determinize(obs, draw(), rng)
        rollout_seed = rng.random()
        for i, action in enumerate(actions):
            child = state.copy()
            child.apply_unchecked(action)
            result = rollout(child, player, random.Random(rollout_seed))
            totals[i] += 1.0 if result > 0 else draw_value if result == 0 else 0.0
    return [total / samples for total in totals]


CALIBRATION: tuple[float, float] = (0.849, -0.0405)
"""``(a, b)`` of the logistic correction of a two-player winning chance estimated with the
default samples: ``1 / (1 + exp(-(a * logit(chance) + b)))`` (see :func:`calibrated_chance`).
Fitted by ``python scripts/calibration.py --load part3.jsonl part4.jsonl part5.jsonl`` (the
fit on the even shuffles of 1,000 bot games of the levels of 2026-12-02, checked on the odd
ones and on 400 more games, ``part6.jsonl``; ``docs/strength.md``, *Calibration*, gives the
commands that played them).  The review of a two-player deal reports its chances so corrected.

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


def candidate_actions(obs: Observation, played: Action, limit: int) -> list[Action]:
    """The actions to estimate: the one played and the heuristic's ``limit`` best others."""
    legal = obs.legal_actions
    if len(legal) <= limit + 1:
        ranked = list(legal)
    else:
        ranked = [action for _, action in HeuristicBot(rng=random.Random(0)).rank(obs)]
    chosen = [played]
    for action in ranked:
        if action != played and len(chosen) <= limit:
            chosen.append(action)
    return chosen


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed player, judged."""

    deal: int
    """The deal's number in the record (1 for a game record)."""
    index: int
    """The action's place in the deal's ``actions`` (0 first)."""
    phase: Phase
    legal_count: int
    played: Action
    best: Action
    """The action with the best estimated chance (the one played when no other beats it)."""
    chance_played: float
    chance_best: float
    centre: int = -1
    """The centre card the decision was about (-1: none, as in a discard)."""
    table: Partition = ()
    """The player's table before the action (to say which melds a take makes)."""

    @property
    def move(self) -> int:
        """The action's number as ``conquian replay`` writes it (1 first)."""
        return self.index + 1

    @property
    def judged(self) -> bool:
        return self.legal_count > 1

    @property
    def mark_code(self) -> str | None:
        """The code of its mark (``"mistake"``...), or None."""
        mark = self.mark
        return None if mark is None else mark.value

    @property
    def drop(self) -> float | None:
        """How much less likely to win the action played made him (None: not judged)."""
        return self.chance_best - self.chance_played if self.judged else None

    @property
    def mark(self) -> Mark | None:
        return mark_for(self.drop)

    def to_dict(self) -> dict[str, Any]:
        drop = self.drop
        mark = self.mark
        return {
            "deal": self.deal,
            "index": self.index,
            "move": self.move,
            "phase": self.phase.value,
            "legal_count": self.legal_count,
            "played": str(self.played),
            "best": str(self.best),
            "chance_played": round(self.chance_played, 4),
            "chance_best": round(self.chance_best, 4),
            "drop": None if drop is None else round(drop, 4),
            "mark": None if mark is None else mark.value,
            "centre": str(CARDS[self.centre]) if self.centre >= 0 else None,
        }


def judge_decision(
    obs: Observation, played: Action, settings: ReviewSettings, *, deal: int = 1, index: int = 0
) -> Decision:
    """Judge ``played`` at ``obs``: its chance and the best one's, from ``obs`` alone.

    ``deal`` and ``index`` (public: the deal's number and the action's place in it) only
    name the decision and seed its samples.
    """
    legal = obs.legal_actions
    if played not in legal:
        raise ReviewError(f"{played} is not a legal action of player {obs.viewer} here.")
    actions = candidate_actions(obs, played, settings.candidates)
    chances = action_chances(
        obs, actions, samples=settings.samples, seed=f"{settings.seed}:{deal}:{index}"
    )
    if len(obs.tables) == 2:  # the correction is fitted on two-player games
        ends = ends_deal(obs, actions)
        chances = [
            chance if end else calibrated_chance(chance)
            for chance, end in zip(chances, ends, strict=True)
        ]
    best = max(range(len(actions)), key=lambda i: (chances[i], i == 0))
    return Decision(
        deal=deal,
        index=index,
        phase=obs.phase,
        legal_count=len(legal),
        played=played,
        best=actions[best],
        chance_played=chances[0],
        chance_best=chances[best],
        centre=obs.centre,
        table=obs.tables[obs.viewer],
    )


@dataclass(frozen=True)
class ReviewSummary:
    """The counts and the accuracy of a review."""

    decisions: int
    judged: int
    forced: int
    """Decisions with one legal action (not judged)."""
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float | None
    """The mean over judged decisions of 1 - drop (None without a judged decision)."""

    @classmethod
    def of(cls, decisions: Sequence[Decision]) -> ReviewSummary:
        judged = [d for d in decisions if d.judged]
        marks = [d.mark for d in judged]
        drops = [d.drop for d in judged if d.drop is not None]
        return cls(
            decisions=len(decisions),
            judged=len(judged),
            forced=len(decisions) - len(judged),
            inaccuracies=marks.count(Mark.INACCURACY),
            mistakes=marks.count(Mark.MISTAKE),
            blunders=marks.count(Mark.BLUNDER),
            accuracy=1.0 - sum(drops) / len(drops) if drops else None,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "judged": self.judged,
            "not_judged": self.forced,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 4),
        }


@dataclass(frozen=True)
class Review:
    """Every decision of one player in a record, judged."""

    player: int
    players: tuple[str, ...]
    rules: str
    settings: ReviewSettings
    decisions: tuple[Decision, ...]
    deals: int
    """How many deals the record holds."""
    results: tuple[str, ...] = field(default=())
    """Each deal's result as the record writes it (``p0 wins: out``, ``*``)."""

    @property
    def summary(self) -> ReviewSummary:
        return ReviewSummary.of(self.decisions)

    def deal_decisions(self, deal: int) -> list[Decision]:
        return [d for d in self.decisions if d.deal == deal]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "conquian-review/1",
            "rules": self.rules,
            "players": list(self.players),
            "player": self.player,
            "deals": self.deals,
            "results": list(self.results),
            "settings": self.settings.to_dict(),
            "decisions": [d.to_dict() for d in self.decisions],
            "summary": self.summary.to_dict(),
        }


def player_decisions(
    record: GameRecord, player: int
) -> tuple[list[tuple[int, Observation, Action]], str]:
    """Each decision of ``player`` in a deal's record (the action's place, what he could
    see then: his observation, with the history as he saw it, and what he played) and the
    deal's result as the replay ends it (``p0 wins: out``, ``*`` unfinished).

    :raises RecordError: if the record does not replay.
    """
    found: list[tuple[int, Observation, Action]] = []
    history: list[PublicEvent] = []
    before: GameState | None = None
    for number, action, state in record.iter_replay():
        if before is not None and action is not None:
            if before.to_act == player and before.phase is not Phase.OVER:
                found.append((number - 1, observe(before, player, tuple(history)), action))
            history.append(public_event(before, action))
        before = state
    assert before is not None
    return found, format_result(before.outcome())


def review_deals(
    deals: Sequence[GameRecord],
    player: int,
    settings: ReviewSettings | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of ``player``'s decisions in the deals of a record (one for a game
    record, each ``[[deal]]`` of a match record).  ``progress(done, total)`` is called
    after each decision.

    :raises ReviewError: for a player the record does not seat, or a record redacted for
        another player (his own cards hidden).
    :raises RecordError: if a deal does not replay.
    """
    settings = settings or ReviewSettings()
    if not deals:
        raise ReviewError("The record holds no deal to review.")
    first = deals[0]
    n = len(first.players)
    if not 0 <= player < n:
        seats = ", ".join(str(p) for p in range(n))
        raise ReviewError(f"The record has no player {player}: its players are {seats}.")
    for deal in deals:
        if deal.viewpoint is not None and deal.viewpoint != player:
            raise ReviewError(
                f"The record is redacted for player {deal.viewpoint}: it hides player "
                f"{player}'s cards, so only player {deal.viewpoint} can be reviewed."
            )
    found: list[tuple[int, int, Observation, Action]] = []
    results: list[str] = []
    for number, deal in enumerate(deals, start=1):
        decisions_of_deal, result = player_decisions(deal, player)
        found += [(number, index, obs, action) for index, obs, action in decisions_of_deal]
        results.append(result)
    decisions = []
    for done, (number, index, obs, action) in enumerate(found, start=1):
        decisions.append(judge_decision(obs, action, settings, deal=number, index=index))
        if progress is not None:
            progress(done, len(found))
    return Review(
        player=player,
        players=first.players,
        rules=first.rules,
        settings=settings,
        decisions=tuple(decisions),
        deals=len(deals),
        results=tuple(results),
    )


def record_deals(record: GameRecord | MatchRecord) -> tuple[GameRecord, ...]:
    """The deals of a game or match record."""
    if isinstance(record, MatchRecord):
        return record.deals
    return (record,)
