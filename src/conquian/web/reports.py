"""The store's part that keeps what players report of each other (``reports``), for the
moderators: who reported whom, at which game (the seat), why, and a note.

A report names a seat of a game the reporter sat at; the server finds the player who sat
there (a game's answers never carry players' ids), so only a table's people report each
other.
"""

from __future__ import annotations

import time
from typing import Any, TypeVar

from sqlalchemy import insert, select
from sqlalchemy.orm import aliased

from .schema import players, reports, seats
from .storepart import StorePart

_T = TypeVar("_T")

REASONS = ("cheating", "abuse", "leaving", "name", "other")
"""Why a player is reported: he cheats (helped by another, or by a program), he is abusive,
he leaves games, his name offends, something else (the note says what)."""
NOTE_MOST = 500
"""The longest note of a report, in characters."""


class ReportStorage(StorePart):
    """Reports in the store (a base of :class:`.store.Store`)."""

    async def seat_players(self, game_id: str) -> list[str | None]:
        """The player who sat in each seat of a game (None: a computer, or nobody known)."""
        return await self._in_thread(self._seat_players_now, game_id)

    def _seat_players_now(self, game_id: str) -> list[str | None]:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(seats.c.player_id).where(seats.c.game_id == game_id).order_by(seats.c.seat)
            )
            return [r.player_id for r in found]

    async def add_report(
        self, reporter: str, reported: str, game_id: str, seat: int, reason: str, note: str
    ) -> int:
        """Keep a report; its number."""
        return await self._in_thread(
            self._add_report_now, reporter, reported, game_id, seat, reason, note
        )

    def _add_report_now(
        self, reporter: str, reported: str, game_id: str, seat: int, reason: str, note: str
    ) -> int:
        with self.engine.begin() as conn:
            done = conn.execute(
                insert(reports).values(
                    reporter_id=reporter,
                    reported_id=reported,
                    game_id=game_id,
                    seat=seat,
                    reason=reason,
                    note=note,
                    created=time.time(),
                )
            )
            key = done.inserted_primary_key
            assert key is not None
            return int(key[0])

    async def reports(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest reports, each with both players' names as stored."""
        return await self._in_thread(self._reports_now, limit)

    def _reports_now(self, limit: int) -> list[dict[str, Any]]:
        reporter, reported = aliased(players), aliased(players)
        query = (
            select(
                reports,
                reporter.c.name.label("reporter_name"),
                reported.c.name.label("reported_name"),
            )
            .outerjoin(reporter, reporter.c.id == reports.c.reporter_id)
            .outerjoin(reported, reported.c.id == reports.c.reported_id)
            .order_by(reports.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]
