"""The clock of a quick-match game: how long the player to decide has, and what is due.

Pure: the hub works out each new clock when its copy of a match moves on, the store keeps it
(``clocks``: one row a match, its ``due`` time indexed), and any server process makes what
is due once it is due (:mod:`.timeouts`), so a killed process stalls no table.

- **A decision** of a person has :data:`DECISION` seconds, then his bank: :data:`BANK`
  seconds for the whole match, spent by each decision that takes longer.  A decision with
  one choice is made at once by the process that stored the move before it (as it moves the
  computers); its clock falls due :data:`FORCED_SLACK` seconds on, for another process to
  make it should that one have died.  When the time runs out, a computer makes that decision for him.
  After :data:`AWAY_AFTER` such decisions in a row he is *away*: each of his decisions is due
  at once (a computer plays for him, named so on the table) until he makes one himself.
- **The shuffle**: the people have :data:`SEED_SECONDS` to add their seeds (their pages do
  it as they connect); a seat that has not by then is counted as giving none.
- A computer's turn awaits nobody (:data:`NOBODY`); a match over has no clock.

>>> first = next_clock(None, 2, seq=0, seat=0, now=100.0, forced=False)
>>> first.due, first.banks
(190.0, (60.0, 60.0))
>>> late = next_clock(first, 2, seq=1, seat=1, now=150.0, forced=False)  # seat 0 took 50 s
>>> late.banks, late.due
((40.0, 60.0), 240.0)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

DECISION = 30.0
"""Seconds for each decision before the bank is spent."""
BANK = 60.0
"""Seconds of bank each person has for the whole match."""
SEED_SECONDS = 20.0
"""Seconds the people have to add their seeds to a deal's shuffle."""
FORCED_SLACK = 3.0
"""Seconds after which a decision with one choice is due (its process makes it at once)."""
AWAY_AFTER = 2
"""Decisions in a row a computer made for a person before he counts as away."""
SHUFFLE = -1
"""The ``seat`` of a clock for the shuffle (the seats' seeds), not for a decision."""
NOBODY = -2
"""The ``seat`` of a clock while no person is awaited (a computer's turn): nothing is due."""
NEVER = 10.0**10
"""The due time of a clock that awaits nobody."""
GRACE = 60.0
"""Seconds a person's seat waits, shown to the others, once he has no connection: then, at a
table of two, the other may claim the match; at a larger table a computer takes his seat."""


@dataclass(frozen=True, slots=True)
class Clock:
    """What is due in a match, and by when."""

    seq: int
    """How many actions were stored when it started (a later action makes it stale)."""
    seat: int
    """The person to decide, or :data:`SHUFFLE` while the seeds are awaited."""
    started: float
    due: float
    banks: tuple[float, ...]
    """Each seat's bank left, in seconds."""
    timeouts: tuple[int, ...]
    """Each seat's decisions in a row that a computer made for him."""

    @property
    def away(self) -> tuple[bool, ...]:
        """Each seat: away (a computer plays for him until he decides himself)."""
        return tuple(t >= AWAY_AFTER for t in self.timeouts)

    def to_text(self) -> str:
        """The banks and time-outs as stored (JSON).

        >>> Clock(0, 0, 0.0, 1.0, (60.0, 5.5), (0, 2)).to_text()
        '{"banks": [60.0, 5.5], "timeouts": [0, 2]}'
        """
        return json.dumps({"banks": list(self.banks), "timeouts": list(self.timeouts)})

    @classmethod
    def of(cls, seq: int, seat: int, started: float, due: float, text: str) -> Clock:
        """A clock read back from the store."""
        data = json.loads(text)
        return cls(
            seq, seat, started, due, tuple(data["banks"]), tuple(int(t) for t in data["timeouts"])
        )


def next_clock(
    before: Clock | None,
    seats: int,
    *,
    seq: int,
    seat: int,
    now: float,
    forced: bool,
    timed_out: bool | None = False,
) -> Clock:
    """The clock from ``now`` on: for ``seat`` (a person, or :data:`SHUFFLE`) at ``seq``.

    The decision of the clock ``before`` was made in between: its bank pays for the time
    over :data:`DECISION`, and its time-outs in a row grow (``timed_out``: a computer made
    it for him), start again (he made it), or stay (None: it had one choice, made for him).
    """
    banks = list(before.banks) if before is not None else [BANK] * seats
    timeouts = list(before.timeouts) if before is not None else [0] * seats
    if before is not None and before.seat >= 0 and before.seq != seq:
        over = max(0.0, now - before.started - DECISION)
        banks[before.seat] = max(0.0, banks[before.seat] - over)
        if timed_out is not None:
            timeouts[before.seat] = timeouts[before.seat] + 1 if timed_out else 0
    if seat == NOBODY:
        due = NEVER
    elif seat == SHUFFLE:
        due = now + SEED_SECONDS
    elif timeouts[seat] >= AWAY_AFTER:
        due = now
    elif forced:
        due = now + FORCED_SLACK
    else:
        due = now + DECISION + banks[seat]
    return Clock(seq, seat, now, due, tuple(banks), tuple(timeouts))


def away(clock: Clock, seat: int, now: float) -> Clock:
    """The clock once ``seat`` is away at once (he left the table and his grace ran out): a
    computer decides for him, now if it is his turn.

    >>> gone = away(Clock(3, 1, 0.0, 90.0, (60.0, 60.0), (0, 0)), 1, now=50.0)
    >>> gone.away, gone.due
    ((False, True), 50.0)
    """
    timeouts = list(clock.timeouts)
    timeouts[seat] = max(timeouts[seat], AWAY_AFTER)
    due = now if clock.seat == seat else clock.due
    return replace(clock, timeouts=tuple(timeouts), due=due)


def back(clock: Clock, seat: int) -> Clock:
    """The clock once ``seat`` is back (he made a decision himself): not away.

    >>> back(Clock(3, 1, 0.0, 0.0, (60.0, 60.0), (0, 4)), 1).timeouts
    (0, 0)
    """
    timeouts = list(clock.timeouts)
    timeouts[seat] = 0
    return replace(clock, timeouts=tuple(timeouts))


def part(
    clock: Clock, now: float, gone: tuple[float | None, ...] = (), left: tuple[bool, ...] = ()
) -> dict[str, object]:
    """The clock as a state message carries it: whose it is, when it is due, the server's
    time now (the page counts down from its own clock, set by it), the banks, who is away,
    and, of each person with no connection, when his grace ends and whether it ran out.

    >>> shown = part(Clock(4, 1, 10.0, 70.0, (60.0, 50.0), (0, 0)), 12.5, (None, 80.0))
    >>> shown["due"], shown["gone"], shown["left"]
    (70.0, [None, 80.0], [False, False])
    """
    seats = len(clock.banks)
    return {
        "seat": clock.seat,
        "due": None if clock.due >= NEVER else clock.due,
        "now": now,
        "banks": [round(b, 1) for b in clock.banks],
        "away": list(clock.away),
        "gone": list(gone) if len(gone) == seats else [None] * seats,
        "left": list(left) if len(left) == seats else [False] * seats,
    }
