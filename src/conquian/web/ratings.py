"""Ratings of the players, one for each game form, with ``openskill``'s Plackett-Luce model
(it rates two to four players, and ties).

A match's places come from its final balance (equal balances share a place: a drawn match
is a tie).  A rating is shown on the familiar scale, ``1500 + 20 * (mu - 3 * sigma)``: a new player
shows 1500; it is provisional (shown with a ``?``, and left off the leaderboards) for his first
:data:`PROVISIONAL_GAMES` rated games.

>>> form_of(find_rules("tercerilla")), form_of(find_rules("standard,max_seq_len=10"))
('tercerilla', None)
>>> shown(MU, SIGMA)
1500
>>> [shown(*r) for r in rated([(MU, SIGMA)] * 3, [2, -1, -1])]
[1565, 1488, 1488]
>>> places([0, 3, -3])
[2, 1, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from openskill.models import PlackettLuce

from ..bots import LEVEL_RATINGS
from ..rules import MatchKind, Rules, find_rules

MU = 25.0
SIGMA = MU / 3
PROVISIONAL_GAMES = 10
"""Rated games before a rating is no longer provisional."""

FORMS: dict[str, str] = {
    "classic": "standard",
    "mexican2": "mexican,num_players=2",
    "tercerilla": "tercerilla",
    "mexican4": "mexican,num_players=4",
}
"""The game forms rated apart, each with the rules it is played by (of any length)."""


def form_of(rules: Rules) -> str | None:
    """The form a match of these rules is rated in (None: rules no form has)."""
    single = replace(rules, match=MatchKind.SINGLE_DEAL, match_target=1)
    for form, spec in FORMS.items():
        if single == find_rules(spec):
            return form
    return None


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


COMPUTER = "computer:"
"""How a computer seat is named among a rated match's players (``computer:medium``): it plays
at its level's rating, which the match does not change."""
COMPUTER_SIGMA = 2.0
"""How uncertain a computer's rating is taken to be (it was measured over many deals)."""


def computer_rating(level: str) -> tuple[float, float]:
    """A computer's (mu, sigma): ``medium`` plays as a new player is taken to, the other levels
    apart from it by their measured ratings (:data:`conquian.bots.LEVEL_RATINGS`).

    >>> [round(computer_rating(level)[0], 1) for level in ("easy", "medium", "hard")]
    [19.2, 25.0, 30.0]
    """
    gap = LEVEL_RATINGS.get(level, LEVEL_RATINGS["medium"]) - LEVEL_RATINGS["medium"]
    return MU + gap / 20, COMPUTER_SIGMA


def shown(mu: float, sigma: float) -> int:
    """A rating on the familiar scale."""
    return round(1500 + 20 * (mu - 3 * sigma))


def rating_facts(row: Any) -> dict[str, Any]:
    """A rating (a row of ``ratings``) as answers show it: on the familiar scale, with its
    games and wins."""
    return {
        "rating": shown(row.mu, row.sigma),
        "games": row.games,
        "wins": row.wins,
        "provisional": row.games < PROVISIONAL_GAMES,
    }


def places(balances: Sequence[int]) -> list[int]:
    """Each player's place by his final balance (1 is first; equal balances, equal places)."""
    return [1 + sum(other > mine for other in balances) for mine in balances]


def rated(
    ratings: Sequence[tuple[float, float]], balances: Sequence[int]
) -> list[tuple[float, float]]:
    """The players' new (mu, sigma) after a match they finished with these balances."""
    model = _model()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    new = model.rate(teams, ranks=[float(p) for p in places(balances)])
    return [(team[0].mu, team[0].sigma) for team in new]
