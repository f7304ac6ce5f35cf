"""The store's part that keeps who is at each clocked table (``presence``), and the matches
claimed from a player who left (``games.abandoned``).

Each server process says, each second, which seats of clocked matches it holds connections
for (:meth:`PresenceStorage.here`); a seat none has spoken for lately is gone, since its
``seen``.  A process that is killed stops speaking for its seats, so its players count as gone
until their pages connect to another process.  A seat no process has ever spoken for counts
from when its match's clock started (:meth:`PresenceStorage.arrived`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite

from .schema import clocks, matches, presence
from .storepart import StorePart

Seen = dict[str, dict[int, float]]
"""When each seat of each match last had a connection (seconds since the epoch)."""


class PresenceStorage(StorePart):
    """Presence and claims in the store (a base of :class:`.store.Store`)."""

    async def here(self, seats: Iterable[tuple[str, int]], *, only_new: bool = False) -> None:
        """These seats (match, seat) have a connection now (``only_new``: mark only those
        that have no row yet, as when a match's clock starts)."""
        rows = [{"game_id": g, "seat": s, "seen": time.time()} for g, s in seats]
        if rows:
            await self._in_thread(self._here_now, rows, only_new)

    def _here_now(self, rows: list[dict[str, object]], only_new: bool) -> None:
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        insert = dialect.insert(presence).values(rows)
        keys = [presence.c.game_id, presence.c.seat]
        if only_new:
            statement = insert.on_conflict_do_nothing(index_elements=keys)
        else:
            statement = insert.on_conflict_do_update(
                index_elements=keys, set_={"seen": insert.excluded.seen}
            )
        with self.engine.begin() as conn:
            conn.execute(statement)

    async def seen(self, match_ids: Iterable[str]) -> Seen:
        """When each seat of these matches last had a connection (seats never seen: none)."""
        ids = sorted(set(match_ids))
        return await self._in_thread(self._seen_now, ids) if ids else {}

    def _seen_now(self, ids: list[str]) -> Seen:
        found: Seen = {}
        with self.engine.connect() as conn:
            for row in conn.execute(select(presence).where(presence.c.game_id.in_(ids))):
                found.setdefault(row.game_id, {})[row.seat] = row.seen
        return found

    async def abandon(self, match_id: str, seat: int) -> bool:
        """The match ends, ``seat``'s player having left it, its other player claiming it: its
        status becomes ``over`` and its clock stops.  False if it was over already."""
        return await self._in_thread(self._abandon_now, match_id, seat)

    def _abandon_now(self, match_id: str, seat: int) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(matches)
                .where(matches.c.id == match_id, matches.c.status == "playing")
                .values(status="over", abandoned=seat, updated=time.time())
            )
            if done.rowcount != 1:
                return False
            conn.execute(clocks.delete().where(clocks.c.game_id == match_id))
            conn.execute(presence.delete().where(presence.c.game_id == match_id))
            self._notify(conn, match_id, "j", seat)
        return True
