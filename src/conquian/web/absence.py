"""The clock of each clocked match this process serves, and who is gone from its table.

- **The clock** (:mod:`.clock`) is worked out again, and stored, each time this process's copy
  of the match moves on (:meth:`Absence.keep_clock`), so that any process makes what falls
  due (:mod:`.timeouts`).
- **Who is here.** Each second (:meth:`Absence.look`) the process says which seats of clocked
  matches it holds connections for, and reads when the others were last seen
  (:mod:`.presence`): a person seen by none for :data:`ABSENT` seconds is gone, and his
  table is shown when his grace (:data:`~.clock.GRACE`) ends.
- **When the grace runs out**, at a table of three or four a computer takes his seat (he is
  *away*: his decisions are made at once, named so on the table) until his page says hello
  again (:meth:`Absence.returned`); at a table of two the other may claim the match
  (:meth:`Absence.claim`: a win, rated) or wait, the clock making the absent one's decisions.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from .clock import DECISION, GRACE, away, back, next_clock
from .conn import Conn
from .languages import WEB_WORDS
from .live import QUICK, Refused
from .requests import UserError
from .room import Room, rate
from .store import Store
from .sync import Sync

_ = WEB_WORDS.gettext

ABSENT = 5.0
"""Seconds without a connection (said each second by the process that holds it) after which a
person counts as gone."""


class Absence:
    """The clocks and the presence of the clocked matches in this process's memory."""

    def __init__(self, store: Store, rooms: dict[str, Room], sync: Sync, grace: float = GRACE):
        self.store = store
        self.rooms = rooms
        self.sync = sync
        self.grace = grace
        self.on_due: Callable[[], None] = lambda: None
        """Called when a clock just stored is due at once (a decision with one choice, or an
        away person's): the clocks' keeper (:mod:`.timeouts`) makes it now, not at its next
        look."""

    async def keep_clock(self, room: Room, *, timed_out: bool | None = False) -> None:
        """A clocked match's clock as its state now says (the match's lock is held), stored
        when it changes; ``timed_out``: the last decision was made for its player when his
        time ran out (None: it had one choice, made for him at once)."""
        live = room.live
        if not live.clocked:
            return
        before = live.clock if live.clock is not None else await self.store.clock(live.id)
        if live.match.is_over:
            if before is not None:
                await self.store.save_clock(live.id, None)
            live.clock = None
            return
        seat, forced = live.awaited()
        if before is not None and before.seq == live.seq and before.seat == seat:
            live.clock = before
            return
        live.clock = next_clock(
            before,
            len(live.seats),
            seq=live.seq,
            seat=seat,
            now=time.time(),
            forced=forced,
            timed_out=timed_out,
        )
        await self.store.save_clock(live.id, live.clock)
        if live.clock.due <= time.time():
            self.on_due()
        if before is None:  # the clock starts: each person's grace counts from now
            people = [(live.id, s.seat) for s in live.seats if s.kind != "bot"]
            await self.store.here(people, only_new=True)
        if timed_out and before is not None and before.seat >= 0:
            gone = before.seat
            if live.clock.away[gone] and not before.away[gone]:
                await self._left(room, gone)

    async def _left(self, room: Room, seat: int) -> None:
        """``seat``'s person left a quick-match game (a computer plays for him)."""
        player = room.live.seats[seat].player_id
        if room.live.mode == QUICK and player is not None:
            await self.store.left(player, room.id)

    async def returned(self, room: Room, seat: int) -> None:
        """A person away (a computer played for him) is back: his page said hello."""
        async with room.lock:
            clock = room.live.clock
            if clock is None or not clock.away[seat]:
                return
            clock = back(clock, seat)
            if clock.seat == seat:  # his decision: his own time again
                clock = replace(clock, due=time.time() + DECISION + clock.banks[seat])
            room.live.clock = clock
            await self.store.save_clock(room.id, clock)

    # ------------------------------------------------------------------ who is here

    async def look(self) -> None:
        """Say which seats this process holds connections for, read who is gone from its
        clocked tables, show a change to their people, and give a computer the seat of a
        person whose grace ran out at a table of three or four."""
        rooms = [
            r
            for r in self.rooms.values()
            if r.live.clocked and r.live.ready and not r.live.match.is_over and r.conns
        ]
        if not rooms:
            return
        await self.store.here(
            {(r.id, c.seat) for r in rooms for c in r.conns if c.seat is not None}
        )
        seen = await self.store.seen(r.id for r in rooms)
        now = time.time()
        for room in rooms:
            live = room.live
            last = seen.get(room.id, {})
            gone = tuple(
                None
                if s.kind == "bot" or s.seat not in last or now - last[s.seat] < ABSENT
                else last[s.seat] + self.grace
                for s in live.seats
            )
            left = tuple(g is not None and now >= g for g in gone)
            if gone == live.gone and left == live.left:
                continue
            before = live.left or (False,) * len(left)
            newly_left = [p for p, ran_out in enumerate(left) if ran_out and not before[p]]
            live.gone, live.left = gone, left
            if len(live.seats) > 2:
                for seat in newly_left:
                    await self._take_seat(room, seat, now)
            room.broadcast()

    async def _take_seat(self, room: Room, seat: int, now: float) -> None:
        """A computer takes ``seat``, its person gone past his grace, until he comes back."""
        async with room.lock:
            await self.sync.catch_up(room)
            clock = await self.store.clock(room.id)
            if clock is None or clock.away[seat] or room.live.match.is_over:
                return
            room.live.clock = away(clock, seat, now)
            await self.store.save_clock(room.id, room.live.clock)
            if room.live.clock.due <= now:
                self.on_due()
            await self._left(room, seat)

    async def claim(self, room: Room, conn: Conn) -> None:
        """``conn``'s player claims the match at a table of two: the other has been gone past
        his grace.  The match ends, a win for him (rated, if the match is), and the other
        counts as having left it.

        :raises UserError: for a spectator, a table not of two people, a match over, or an
            opponent who is here (or whose grace has not run out); nothing changes.
        """
        if conn.seat is None:
            raise UserError(_("Only the players can claim a match, not spectators."))
        live = room.live
        async with room.lock:
            try:
                other = live.claimable(conn.seat)
            except Refused as refused:
                raise UserError.of(refused) from None
            last = (await self.store.seen([room.id])).get(room.id, {}).get(other)
            if not live.clocked or last is None or time.time() < last + self.grace:
                raise UserError(
                    _(
                        "{name} has not left the table: a match can be claimed once the other player has been gone {seconds} seconds."
                    ).format(name=live.names[other], seconds=round(self.grace))
                )
            if not await self.store.abandon(room.id, other):
                await self.sync.catch_up_and_show(room)  # it ended meanwhile
                return
            live.abandoned(other)
            await rate(self.store, live)
            await self._left(room, other)
        room.broadcast()
