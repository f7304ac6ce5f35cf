"""Other processes' changes to the matches this process holds: heard, read and applied.

Several server processes may serve the same matches from one PostgreSQL database.  Every
commit notifies the others (:mod:`.notify`); :class:`Sync` listens, notes what each
notification says of a match in memory (an action, which it may carry; a seed; a seat or a
rematch), and brings that match up to date in the background, one refresh at a time per match
(:meth:`Sync.catch_up`: the actions are checked again by the engine).  It reports a match that
changed to the hub (``on_changed``), which shows it to its connections and moves its computer
players; it never moves or shows anything itself.  On SQLite (one process) nothing is heard.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping

from .notify import Listener
from .room import Room, save_shuffles
from .schema import ActionRow
from .store import Store

log = logging.getLogger("conquian.web")


class Sync:
    """What other processes change, for the matches in ``rooms`` (the hub's registry;
    ``loading``: the ids of matches being read from the database now)."""

    def __init__(
        self,
        store: Store,
        rooms: Mapping[str, Room],
        loading: Mapping[str, object],
        on_changed: Callable[[Room], None],
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.loading = loading
        self.on_changed = on_changed
        """Called (in the event loop) with a match that changed and was brought up to date."""
        self.on_ticket: Callable[[str], None] = lambda ticket_id: None
        """Called with a quick-match ticket another process seated (:mod:`.quick`)."""
        self._listener: Listener | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._refreshing: set[str] = set()
        """Matches being brought up to date now."""
        self._stale: set[str] = set()
        """Matches that changed again while being brought up to date, or while being loaded."""

    @property
    def shared(self) -> bool:
        """Other processes may change the matches (their database tells of it)."""
        return self.store.channel is not None

    async def start(self) -> None:
        """Listen for the other processes' changes (PostgreSQL); before serving."""
        if self.store.channel is not None and self._listener is None:
            self._listener = Listener(
                self.store.url, self.store.channel, self.notified, self.refresh_all
            )
            await self._listener.start()

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        for task in list(self._tasks):
            task.cancel()

    def loaded(self, room: Room) -> None:
        """A match was just read from the database: read it again if another process
        changed it meanwhile (the read may predate the change)."""
        if room.id in self._stale:
            self.refresh_soon(room)

    def forget_loading(self, match_id: str) -> None:
        """A match is about to be read from the database: what was heard of it is in it."""
        self._stale.discard(match_id)

    def notified(
        self,
        match_id: str,
        kind: str,
        number: int,
        origin: str,
        action: tuple[int, int, str] | None = None,
    ) -> None:
        """Another process committed a change to a match (:mod:`.notify`); ``action``: the
        action it stored (deal, player, text), when the notification carries it."""
        if origin == self.store.origin:
            return
        if kind == "q":  # a quick-match ticket seated (its id in the game's place)
            self.on_ticket(match_id)
            return
        if match_id in self.loading:
            self._stale.add(match_id)  # read again once loaded: the load may predate it
            return
        room = self.rooms.get(match_id)
        if room is None or (kind == "a" and number <= room.live.seq):
            return
        if kind == "a":
            room.heard = max(room.heard, number)
            if action is not None:
                room.announced[number] = ActionRow(number, *action)
        elif kind == "s":
            room.unread = True  # a seed: the shuffles' rows are read with the new actions
        else:
            room.stale_rows = True  # a seat or the rematch: read the match's rows too
        self.refresh_soon(room)

    def refresh_all(self) -> None:
        """After notifications may have been lost: bring every match in memory up to date."""
        for room in list(self.rooms.values()):
            self.refresh_soon(room)

    def refresh_soon(self, room: Room) -> None:
        """Bring a match up to date in the background (one refresh at a time per match;
        changes that come meanwhile are read by one more)."""
        if room.id in self._refreshing:
            self._stale.add(room.id)
            return
        self._refreshing.add(room.id)
        task = asyncio.get_running_loop().create_task(self._refreshes(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refreshes(self, room: Room) -> None:
        try:
            while True:
                self._stale.discard(room.id)
                await self.refresh(room)
                if room.id not in self._stale:
                    return
        finally:
            self._refreshing.discard(room.id)

    async def refresh(self, room: Room) -> None:
        """Read what other processes stored for a match, apply it, show it to this
        process's connections and tell the hub (``on_changed``)."""
        async with room.lock:
            if room.evicted:
                return
            try:
                changed = await self.catch_up(room, full=room.stale_rows)
            except Exception:
                log.exception("match %s: could not bring it up to date", room.id)
                return
            if changed:
                room.broadcast()
        if changed:
            self.on_changed(room)

    async def catch_up(self, room: Room, *, full: bool = True) -> bool:
        """Apply what other processes stored (the match's lock is held); whether it changed.

        ``full``: the match's rows too (its seats, its rematch), not only the new actions and
        the shuffles of the deals from the one in play on."""
        live = room.live
        if full:
            room.stale_rows = room.unread = False
            loaded = await self.store.load(live.id, live.seq)
            if loaded is None:
                return False
            changed = live.catch_up(*loaded)
        elif not room.unread and (announced := room.take_announced()) is not None:
            changed = live.catch_up(None, announced, ())  # no need to read them back
        else:
            room.unread = False
            news, deals = await self.store.since(live.id, live.seq, live.deal_number)
            changed = live.catch_up(None, news, deals)
        await save_shuffles(self.store, live)
        return changed

    async def catch_up_and_show(self, room: Room) -> bool:
        """:meth:`catch_up` (the lock is held), then show a change to the connections."""
        changed = await self.catch_up(room)
        if changed:
            room.broadcast()
        return changed
