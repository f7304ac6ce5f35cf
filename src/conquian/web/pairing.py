"""Who sits with whom in a quick match: the waiting players of one game form, made into
tables.  Pure: the queue (:mod:`.queue`) reads the waiting tickets, calls :func:`tables`
under its lock, and seats what it returns.

The oldest ticket is seated first, with the players whose ratings are closest to his.  How
far apart two players may be widens with the wait (:func:`allowed_gap`, on the ratings'
shown scale: 100 points at once, 20 more each second).  Blocked players never sit together;
a guest sits with guests and a player with an account with accounts, unless both chose to
meet anyone.  A table of three or four is filled with people first; once its oldest player has
waited ``bots_after`` seconds, its empty seats go to computer players.

>>> ana, ben = Ticket("a", "ana", 1500, False, False, 0.0), Ticket("b", "ben", 1560, False, False, 0.0)
>>> [([t.player for t in table.people], table.computers) for table in tables([ana, ben], 2, 1.0, 20.0, set())]
[(['ana', 'ben'], 0)]
>>> tables([ana, ben], 2, 1.0, 20.0, {frozenset({"ana", "ben"})})  # blocked: they wait
[]
>>> [(len(t.people), t.computers) for t in tables([ana], 3, 25.0, 20.0, set())]
[(1, 2)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

GAP_AT_ONCE = 100.0
"""How far apart (rating points) two players may be seated at once."""
GAP_PER_SECOND = 20.0
"""How much farther apart, for each second the longer waiter has waited."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """One player waiting for a quick match."""

    id: str
    player: str
    rating: float
    """His rating in the form, on the shown scale (1500 for a new player)."""
    guest: bool
    anyone: bool
    """He meets anyone (guests and accounts alike), not only his own kind."""
    created: float


@dataclass(frozen=True, slots=True)
class Table:
    """A table to seat: its people (the oldest ticket first) and how many computers."""

    people: tuple[Ticket, ...]
    computers: int

    @property
    def rating(self) -> float:
        """The people's mean rating (the computers' level is chosen near it)."""
        return sum(t.rating for t in self.people) / len(self.people)


def allowed_gap(waited: float) -> float:
    """How far apart two players may be seated after ``waited`` seconds.

    >>> allowed_gap(0.0), allowed_gap(20.0)
    (100.0, 500.0)
    """
    return GAP_AT_ONCE + GAP_PER_SECOND * max(0.0, waited)


def meet(a: Ticket, b: Ticket) -> bool:
    """Whether two waiting players may sit together, blocks aside."""
    return a.player != b.player and (a.guest == b.guest or (a.anyone and b.anyone))


def tables(
    waiting: Sequence[Ticket],
    seats: int,
    now: float,
    bots_after: float,
    blocked: set[frozenset[str]],
) -> list[Table]:
    """The tables to seat now from the tickets ``waiting`` of one form (``seats`` a table);
    the rest wait.  ``blocked``: the pairs of players of whom one blocked the other."""
    queue = sorted(waiting, key=lambda t: (t.created, t.id))
    used: set[str] = set()
    out: list[Table] = []
    for first in queue:
        if first.id in used:
            continue
        group = [first]
        others = sorted(
            (t for t in queue if t.id not in used and t.id != first.id),
            key=lambda t: (abs(t.rating - first.rating), t.created),
        )
        for other in others:
            if len(group) == seats:
                break
            waited = now - min(first.created, other.created)
            if abs(other.rating - first.rating) > allowed_gap(waited):
                continue
            if not all(meet(g, other) for g in group):
                continue
            if any(frozenset({g.player, other.player}) in blocked for g in group):
                continue
            group.append(other)
        if len(group) == seats or now - first.created >= bots_after:
            out.append(Table(tuple(group), seats - len(group)))
            used.update(t.id for t in group)
    return out


def computer_level(rating: float) -> str:
    """The level of the computers that fill a table whose people are rated ``rating``.

    >>> computer_level(1500), computer_level(1320), computer_level(1700)
    ('medium', 'easy', 'hard')
    """
    if rating < 1400:
        return "easy"
    if rating < 1600:
        return "medium"
    return "hard"


LEAVES_COUNTED = 7 * 86400.0
"""How far back the quick-match games a player left count (seconds)."""
TIMEOUTS = (0.0, 0.0, 5 * 60.0, 30 * 60.0, 2 * 3600.0, 12 * 3600.0)
"""The time-out from quick match after a player's first, second... leave in that span (the
last for every leave after)."""


def kept_out_until(leaves: Sequence[float], now: float) -> float | None:
    """Until when a player who left quick-match games at ``leaves`` (times) may not ask for
    another (None: he may now).  Each leave counts for :data:`LEAVES_COUNTED`; the n-th one
    keeps him out :data:`TIMEOUTS` [n] from it.

    >>> kept_out_until([100.0], 200.0) is None  # once: nothing
    True
    >>> kept_out_until([100.0, 1000.0], 1100.0)  # twice: five minutes from the last
    1300.0
    >>> kept_out_until([100.0, 1000.0], 1400.0) is None
    True
    """
    recent = sorted(t for t in leaves if now - t < LEAVES_COUNTED)
    if not recent:
        return None
    until = recent[-1] + TIMEOUTS[min(len(recent), len(TIMEOUTS) - 1)]
    return until if until > now else None
