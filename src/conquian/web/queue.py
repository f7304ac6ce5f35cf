"""The store's part that keeps the quick-match queue (``quick_tickets``), the players'
blocks (``blocks``) and the quick-match games' clocks (``clocks``).

The queue lives in the database, so that every server process seats from the same one and a
killed process loses nobody: :meth:`QueueStorage.seat_waiting` takes the waiting tickets of
a form under row locks (``FOR UPDATE SKIP LOCKED`` on PostgreSQL: two processes seating at
once never take the same ticket, and neither waits for the other), makes them into tables
(:func:`.pairing.tables`), and stores each table's match and each ticket's seat in the same
transaction.  SQLite serves one process, whose one storage thread does the same.

A game's clock says what is due by when (:mod:`.clock`); :meth:`QueueStorage.take_due`
hands each clock that is due to one process alone (under the same locks, its due time moved
on by a lease while that process makes it), so a clock is kept whichever process dies.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .clock import Clock
from .pairing import Table, Ticket, tables
from .ratings import MU, SIGMA, shown
from .schema import (
    DealRow,
    MatchRow,
    blocks,
    clocks,
    leaves,
    players,
    presence,
    quick_tickets,
    ratings,
)
from .storepart import StorePart

_T = TypeVar("_T")

WAITING, SEATED, CANCELLED = "waiting", "seated", "cancelled"


@dataclass(frozen=True, slots=True)
class TicketRow:
    """A stored ticket: who waits for which form since when, and where he was seated."""

    id: str
    player_id: str
    form: str
    status: str
    created: float
    game_id: str | None
    seat: int | None
    computers: int | None


TableRows = tuple[MatchRow, DealRow | None, dict[str, int]]
"""A table's match, its first deal's shuffle, and each ticket's seat."""


def _ticket_row(found: Any) -> TicketRow:
    return TicketRow(
        found.id,
        found.player_id,
        found.form,
        found.status,
        found.created,
        found.game_id,
        found.seat,
        found.computers,
    )


class QueueStorage(StorePart):
    """The quick-match queue and the blocks in the store (a base of :class:`.store.Store`)."""

    # ------------------------------------------------------------------ tickets

    async def add_ticket(
        self, ticket_id: str, player_id: str, form: str, guest: bool, anyone: bool
    ) -> TicketRow:
        """A player waits for a quick match of ``form`` (his ticket).  A player waits once:
        his waiting ticket for the same form is answered again, one for another form is
        cancelled."""
        return await self._in_thread(
            self._add_ticket_now, ticket_id, player_id, form, guest, anyone
        )

    def _add_ticket_now(
        self, ticket_id: str, player_id: str, form: str, guest: bool, anyone: bool
    ) -> TicketRow:
        now = time.time()
        with self.engine.begin() as conn:
            mine = quick_tickets.c.player_id == player_id
            waiting = conn.execute(
                select(quick_tickets).where(mine, quick_tickets.c.status == WAITING)
            ).all()
            for old in waiting:
                if old.form == form:
                    return _ticket_row(old)
            conn.execute(
                update(quick_tickets)
                .where(mine, quick_tickets.c.status == WAITING)
                .values(status=CANCELLED)
            )
            found = conn.execute(
                select(ratings.c.mu, ratings.c.sigma).where(
                    ratings.c.player_id == player_id, ratings.c.form == form
                )
            ).first()
            rating = shown(*found) if found is not None else shown(MU, SIGMA)
            conn.execute(
                insert(quick_tickets).values(
                    id=ticket_id,
                    player_id=player_id,
                    form=form,
                    rating=rating,
                    guest=guest,
                    anyone=anyone,
                    created=now,
                    status=WAITING,
                )
            )
        return TicketRow(ticket_id, player_id, form, WAITING, now, None, None, None)

    async def ticket(self, ticket_id: str) -> TicketRow | None:
        """A ticket, or None."""
        return await self._in_thread(self._ticket_now, ticket_id)

    def _ticket_now(self, ticket_id: str) -> TicketRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(quick_tickets).where(quick_tickets.c.id == ticket_id))
            row = found.first()
        return None if row is None else _ticket_row(row)

    async def cancel_ticket(self, ticket_id: str) -> TicketRow | None:
        """Stop waiting (nothing changes for a ticket seated or cancelled already); the
        ticket as it is now."""
        return await self._in_thread(self._cancel_now, ticket_id)

    def _cancel_now(self, ticket_id: str) -> TicketRow | None:
        with self.engine.begin() as conn:
            conn.execute(
                update(quick_tickets)
                .where(quick_tickets.c.id == ticket_id, quick_tickets.c.status == WAITING)
                .values(status=CANCELLED)
            )
            row = conn.execute(select(quick_tickets).where(quick_tickets.c.id == ticket_id))
            found = row.first()
        return None if found is None else _ticket_row(found)

    # ------------------------------------------------------------------ seating

    async def waiting_forms(self) -> list[str]:
        """The forms someone waits for now."""
        return await self._in_thread(self._waiting_forms_now)

    def _waiting_forms_now(self) -> list[str]:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(quick_tickets.c.form).where(quick_tickets.c.status == WAITING).distinct()
            )
            return sorted(str(r.form) for r in found)

    async def seat_waiting(
        self,
        form: str,
        seats: int,
        bots_after: float,
        make: Callable[[Table, dict[str, str]], TableRows],
        wait: bool = False,
    ) -> list[str]:
        """Seat the waiting players of ``form`` who make tables now (see
        :func:`.pairing.tables`): each table's match made by ``make(table, names)`` (names:
        each player's own name, ``""`` if he gave none) and stored with its tickets' seats,
        all in one transaction, which tells the other processes each ticket seated (their
        waiting requests wake, see :mod:`.quick`).  The tickets seated.

        The tickets another process is seating are passed over (``SKIP LOCKED``), unless
        ``wait``: then that seating is waited for (a new ticket's request, which must see
        every ticket that waits before it so as not to be left waiting beside one)."""
        return await self._in_thread(self._seat_now, form, seats, bots_after, make, wait)

    def _seat_now(
        self,
        form: str,
        seats: int,
        bots_after: float,
        make: Callable[[Table, dict[str, str]], TableRows],
        wait: bool,
    ) -> list[str]:
        now = time.time()
        done: list[str] = []
        with self.engine.begin() as conn:
            found = conn.execute(
                select(quick_tickets)
                .where(quick_tickets.c.form == form, quick_tickets.c.status == WAITING)
                .order_by(quick_tickets.c.created)
                .limit(500)
                .with_for_update(skip_locked=not wait)
            ).all()
            if not found:
                return done
            waiting = [
                Ticket(t.id, t.player_id, t.rating, bool(t.guest), bool(t.anyone), t.created)
                for t in found
            ]
            ids = sorted({t.player for t in waiting})
            blocked = {
                frozenset({b.player_id, b.blocked_id})
                for b in conn.execute(
                    select(blocks).where(blocks.c.player_id.in_(ids), blocks.c.blocked_id.in_(ids))
                )
            }
            chosen = tables(waiting, seats, now, bots_after, blocked)
            if not chosen:
                return done
            names = {
                p.id: p.name
                for p in conn.execute(
                    select(players.c.id, players.c.name).where(players.c.id.in_(ids))
                )
            }
            for table in chosen:
                match, deal, seated = make(table, names)
                self._insert_match(conn, match, deal)
                for ticket_id, seat in seated.items():
                    conn.execute(
                        update(quick_tickets)
                        .where(quick_tickets.c.id == ticket_id)
                        .values(
                            status=SEATED, game_id=match.id, seat=seat, computers=table.computers
                        )
                    )
                    self._notify(conn, ticket_id, "q")
                    done.append(ticket_id)
        return done

    # ------------------------------------------------------------------ clocks

    async def save_clock(self, game_id: str, clock: Clock | None) -> None:
        """A game's clock from now on (None: it has none, its match being over)."""
        await self._in_thread(self._save_clock_now, game_id, clock)

    def _save_clock_now(self, game_id: str, clock: Clock | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(clocks).where(clocks.c.game_id == game_id))
            if clock is None:  # the match is over: who is at its table no longer matters
                conn.execute(delete(presence).where(presence.c.game_id == game_id))
            else:
                conn.execute(
                    insert(clocks).values(
                        game_id=game_id,
                        seq=clock.seq,
                        seat=clock.seat,
                        started=clock.started,
                        due=clock.due,
                        state=clock.to_text(),
                    )
                )

    async def clock(self, game_id: str) -> Clock | None:
        """A game's clock, as stored."""
        return await self._in_thread(self._clock_now, game_id)

    def _clock_now(self, game_id: str) -> Clock | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(clocks).where(clocks.c.game_id == game_id)).first()
        return None if row is None else Clock.of(row.seq, row.seat, row.started, row.due, row.state)

    async def take_due(self, lease: float, limit: int = 50) -> list[tuple[str, Clock]]:
        """The clocks due now, each taken by this process alone: its due time moves
        ``lease`` seconds on, so that another process makes it only if this one does not."""
        return await self._in_thread(self._take_due_now, lease, limit)

    def _take_due_now(self, lease: float, limit: int) -> list[tuple[str, Clock]]:
        now = time.time()
        with self.engine.begin() as conn:
            rows = conn.execute(
                select(clocks)
                .where(clocks.c.due <= now)
                .order_by(clocks.c.due)
                .limit(limit)
                .with_for_update(skip_locked=True)
            ).all()
            for row in rows:
                conn.execute(
                    update(clocks).where(clocks.c.game_id == row.game_id).values(due=now + lease)
                )
        return [(r.game_id, Clock.of(r.seq, r.seat, r.started, r.due, r.state)) for r in rows]

    # ------------------------------------------------------------------ leavers

    async def left(self, player_id: str, game_id: str) -> None:
        """A player left a quick-match game (a computer plays for him): kept once a game."""
        await self._in_thread(self._left_now, player_id, game_id)

    def _left_now(self, player_id: str, game_id: str) -> None:
        with self.engine.begin() as conn:
            done = conn.execute(
                select(leaves.c.at).where(
                    leaves.c.player_id == player_id, leaves.c.game_id == game_id
                )
            ).first()
            if done is None:
                conn.execute(
                    insert(leaves).values(player_id=player_id, game_id=game_id, at=time.time())
                )

    async def leaves_of(self, player_id: str) -> list[float]:
        """When a player left quick-match games."""
        return await self._in_thread(self._leaves_of_now, player_id)

    def _leaves_of_now(self, player_id: str) -> list[float]:
        with self.engine.connect() as conn:
            found = conn.execute(select(leaves.c.at).where(leaves.c.player_id == player_id))
            return [float(r.at) for r in found]

    # ------------------------------------------------------------------ blocks

    async def block(self, player_id: str, other: str, *, on: bool) -> None:
        """``player_id`` blocks ``other`` (``on``), or lifts the block."""
        await self._in_thread(self._block_now, player_id, other, on)

    def _block_now(self, player_id: str, other: str, on: bool) -> None:
        with self.engine.begin() as conn:
            if not on:
                conn.execute(
                    delete(blocks).where(
                        blocks.c.player_id == player_id, blocks.c.blocked_id == other
                    )
                )
                return
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(blocks).values(
                            player_id=player_id, blocked_id=other, created=time.time()
                        )
                    )
            except IntegrityError:
                pass  # blocked already

    async def blocked_by(self, player_id: str) -> list[dict[str, Any]]:
        """The players ``player_id`` blocked, with their names as stored."""
        return await self._in_thread(self._blocked_by_now, player_id)

    def _blocked_by_now(self, player_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(blocks.c.blocked_id, players.c.name)
                .join(players, players.c.id == blocks.c.blocked_id)
                .where(blocks.c.player_id == player_id)
                .order_by(blocks.c.created)
            )
            return [{"id": r.blocked_id, "name": r.name} for r in rows]
