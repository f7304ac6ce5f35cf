"""A post-game review: each decision of one player judged by the coach.

For every decision of the reviewed player in a record, the review builds that player's
:class:`~conquian.observation.Observation` at that moment (never the record's hidden
cards) and asks the coach (:mod:`.coach`, the estimator the hints use) for the winning
chance of the action he played and of the best candidates: the cards he could not see
dealt again and again, each other player's hand drawn in proportion to how well it explains
his play without taking him for one who lays every meld at once, and every action played out
in the same sampled deals.  An action's *winning chance* is the share of those deals the
player wins; with two players a draw counts half, with three or four only his own wins
count.  The *drop* of a decision is the chance of the best action estimated minus the
chance of the action played; a drop of 0.1, 0.2 or 0.3 or more, clear of the estimate's
noise (:data:`~.coach.CLEAR_MARGIN`), marks an inaccuracy, a mistake or a blunder.  A
decision with one legal action is not judged.

Everything is seeded from the settings' seed and the position as the player saw it, so a
review is reproducible, depends on what the player could see only, and its first samples
are a hint's: where a hint calls a move clearly better, the review, which spends more
samples on the same deals first, sees what the hint saw.

>>> from conquian.game import Game
>>> game = Game(seed=3)
>>> obs = game.observation(game.state.to_act)
>>> chances = action_chances(obs, obs.legal_actions, samples=8, seed="doc")
>>> len(chances) == len(obs.legal_actions), all(0.0 <= c <= 1.0 for c in chances)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..actions import Action
from ..cards import CARDS, mask_labels
from ..errors import ConquianError
from ..melds import Partition
from ..notation import format_seen_position
from ..observation import Observation, PublicEvent, observe, public_event
from ..records import GameRecord, MatchRecord, format_result
from ..state import GameState, Phase
from .coach import (
    CALIBRATION,
    DEFAULT_CANDIDATES,
    HIDDEN_MELDS,
    LOGIT_CLIP,
    REVIEW_SAMPLES,
    action_chances,
    advise,
    calibrated_chance,
    candidate_actions,
    feeds,
)

__all__ = [
    "CALIBRATION",
    "DEFAULT_CANDIDATES",
    "DEFAULT_SAMPLES",
    "HIDDEN_MELDS",
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

DEFAULT_SAMPLES = REVIEW_SAMPLES
"""Sampled deals per decision: a two-player deal is reviewed in seconds on one core."""
IN_GAME_SAMPLES = 200
"""Sampled deals per decision for a review asked for in a game (the terminal's, the
browser's): more than a hint's, so the review sees at least what the hint saw."""


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
            "estimator": "coach",
            "hidden_melds": HIDDEN_MELDS,
            "samples": self.samples,
            "candidates": self.candidates,
            "seed": self.seed,
            "rollout": "greedy",
            # two-player chances are corrected so (see calibrated_chance); others are not
            "calibration": {"a": CALIBRATION[0], "b": CALIBRATION[1], "clip": LOGIT_CLIP},
        }


BOARD_KEYS = (
    "player",
    "hand",
    "tables",
    "centre",
    "centre_source",
    "dead",
    "hand_counts",
    "stock_count",
)
"""What a decision's board keeps of the player's observation (:meth:`Observation.to_dict`)."""


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
    clear: bool = True
    """Whether the best action leads the one played by more than the estimate's noise."""
    observation: Observation | None = field(default=None, compare=False, repr=False)
    """What the player saw when he decided (his hand, the tables, the centre): the
    position the review shows."""

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
        return mark_for(self.drop) if self.clear else None

    @property
    def fed(self) -> tuple[int, int, int] | None:
        """Whom the card the move played gave away helped: (player, his meld, the cards
        he held), or None (:func:`~.coach.feeds`)."""
        return None if self.observation is None else feeds(self.observation, self.played)

    @property
    def position(self) -> str | None:
        """The position string of what the player saw (:func:`format_seen_position`)."""
        return None if self.observation is None else format_seen_position(self.observation)

    def board(self) -> dict[str, Any] | None:
        """What the player saw, as plain data for a small board: his hand, every table,
        the centre card, the dead pile and how many cards each player and the stock held."""
        obs = self.observation
        if obs is None:
            return None
        seen = obs.to_dict()
        return {key: seen[key] for key in BOARD_KEYS}

    def to_dict(self) -> dict[str, Any]:
        drop = self.drop
        mark = self.mark
        fed = self.fed
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
            "clear": self.clear,
            "mark": None if mark is None else mark.value,
            "centre": str(CARDS[self.centre]) if self.centre >= 0 else None,
            "position": self.position,
            "board": self.board(),
            "feeds": None
            if fed is None
            else {"player": fed[0], "meld": mask_labels(fed[1]), "hand_count": fed[2]},
        }


def judge_decision(
    obs: Observation, played: Action, settings: ReviewSettings, *, deal: int = 1, index: int = 0
) -> Decision:
    """Judge ``played`` at ``obs``: its chance and the best one's, from ``obs`` alone
    (:func:`~.coach.advise`, with the settings' samples, seed and candidates).

    ``deal`` and ``index`` (public: the deal's number and the action's place in it) only
    name the decision.
    """
    legal = obs.legal_actions
    if played not in legal:
        raise ReviewError(f"{played} is not a legal action of player {obs.viewer} here.")
    advice = advise(
        obs,
        samples=settings.samples,
        seed=settings.seed,
        candidates=settings.candidates,
        include=played,
    )
    return Decision(
        deal=deal,
        index=index,
        phase=obs.phase,
        legal_count=len(legal),
        played=played,
        best=advice.best,
        chance_played=advice.chance(played),
        chance_best=advice.chances[0],
        centre=obs.centre,
        table=obs.tables[obs.viewer],
        clear=advice.best == played or advice.clearly_worse(played),
        observation=obs,
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
