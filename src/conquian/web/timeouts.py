"""What falls due in quick-match games, made by whichever server process finds it first.

Each process looks each :data:`TICK` seconds for the clocks that are due (:mod:`.clock`,
kept in the database), each taken by it alone for :data:`LEASE` seconds (another process
makes it only if this one does not, so a killed process stalls no table), and makes it:

- a person's decision whose time ran out: a computer makes it for him (the ``heuristic``
  bot, from his observation alone); a decision with one choice, at once;
- the first deal's shuffle: the seats that gave no seed in time give none;
- a clock that is behind its match (its process died between a move and its clock): the
  clock as the match now says.

Each look also says who is at this process's tables, and gives a computer the seat of a
person gone past his grace (:mod:`.absence`).
"""

from __future__ import annotations

import asyncio
import logging
import random

from ..bots import make_bot
from ..seats import BotTurn
from .clock import SHUFFLE, Clock
from .hub import Hub
from .periodic import Periodic

log = logging.getLogger("conquian.web")

TICK = 1.0
"""Seconds between two looks for what is due."""
LEASE = 15.0
"""Seconds a clock taken by one process is left to it."""
STAND_IN = "heuristic"
"""The computer player that decides for a person whose time ran out."""


class Timeouts:
    """The clocks of one server process (see the module's words)."""

    def __init__(self, hub: Hub, every: float = TICK) -> None:
        self.hub = hub
        self.looks = Periodic(every, "the clocks: a look for what is due", self.look)
        self._soon: asyncio.Task[None] | None = None
        self._again = False
        hub.absence.on_due = self.make_soon

    async def close(self) -> None:
        """Stop looking (at the server's shutdown)."""
        await self.looks.close()
        if self._soon is not None:
            self._soon.cancel()

    def make_soon(self) -> None:
        """Make what is due now, without waiting for the next look: a clock this process
        just stored is due at once (one task at a time; a call meanwhile makes it look
        again once done)."""
        if self._soon is not None and not self._soon.done():
            self._again = True
            return
        self._soon = asyncio.get_running_loop().create_task(self._make_soon())

    async def _make_soon(self) -> None:
        while True:
            self._again = False
            try:
                await self.make_due()
            except Exception:
                log.exception("the clocks: could not make what is due")
            if not self._again:
                return

    async def look(self) -> None:
        """Make what is due, then see who is gone from this process's tables."""
        await self.make_due()
        await self.hub.absence.look()

    async def make_due(self) -> int:
        """Make every clock due now; how many were."""
        taken = await self.hub.store.take_due(LEASE)
        for game_id, clock in taken:
            try:
                await self._make(game_id, clock)
            except Exception:
                log.exception("match %s: could not make what its clock says is due", game_id)
        return len(taken)

    async def _make(self, game_id: str, clock: Clock) -> None:
        hub = self.hub
        room = await hub.get(game_id)
        try:
            async with room.lock:
                live = room.live
                seat, forced = live.awaited()
                if live.seq != clock.seq or seat != clock.seat:
                    await hub.absence.keep_clock(room)  # the stored clock is behind the match
                    room.broadcast()
                    return
                if seat == SHUFFLE:
                    number = live.collecting
                    if number is not None:
                        row = live.shuffle_for(number)
                        for s in live.seats:
                            if s.kind != "bot" and row.client_seeds[s.seat] is None:
                                await hub.no_seed(room, s.seat, number)
                    room.broadcast()
                    hub.kick_bot(room)  # dealt: a computer, or a one-choice decision, first
                    return
                game = live.game
                legal = game.legal_actions()
                seq = live.seq
                turn = BotTurn(
                    seat,
                    make_bot(STAND_IN, rng=random.Random(f"{game_id}:{seq}")),
                    game.observation(seat),
                )
            action = legal[0] if forced else await hub.decide(turn)
            async with room.lock:
                if live.seq == seq:
                    await hub.stand_in(room, seat, action, timed_out=None if forced else True)
        finally:
            hub.release(room)
