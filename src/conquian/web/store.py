"""The store of web matches: one awaited interface, whatever the database.

:func:`.database.open_store` opens a database by its URL (SQLAlchemy's: ``sqlite:///path``, or
``postgresql+psycopg://user:password@host/database``; a bare ``postgresql://`` gets the
psycopg driver too) and makes its tables (:mod:`.schema`) if they are missing, under a lock
so that two servers starting at once do not both make them.  Every method is awaited: the
hub never knows which database it talks to.

* **SQLite** (:class:`SqliteStore`, the default, one server process): SQLAlchemy Core in one
  storage thread, since SQLite has one writer.
* **PostgreSQL** (:class:`.postgres.PostgresStore`, one or several server processes): the
  statements of play (an action, a seat's seed, a deal's shuffle, and catching up with
  another process's) are raw SQL awaited on the event loop's own psycopg connections; the
  rest (making a match, a join, the lobby, loading a match) is SQLAlchemy Core in a few
  storage threads.  Every write also notifies the other processes (see :mod:`.notify`).

Every method that writes does so in one transaction, committed before it returns: the
server acknowledges an action only once :meth:`Store.add_action` has returned.

>>> import asyncio
>>> from conquian.web.schema import make_engine
>>> async def demo():
...     store = SqliteStore("sqlite://", make_engine("sqlite://"))
...     try:
...         return await store.load("nothing")
...     finally:
...         await store.close()
>>> asyncio.run(demo()) is None
True
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import insert, select, true, update
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection, Engine

from .accounts import AccountStorage, player_row
from .presence import PresenceStorage
from .queue import QueueStorage
from .ratingstore import RatingStorage
from .reports import ReportStorage
from .schema import (
    ActionRow,
    DealRow,
    Loaded,
    MatchRow,
    PlayerRow,
    actions,
    count_text,
    deal_row,
    deal_values,
    deals,
    match_row,
    matches,
    players,
    rating_events,
    records,
    seats,
)
from .upgrade import upgrade

__all__ = ["SqliteStore", "Store"]

_T = TypeVar("_T")


SEEN_EVERY = 3600.0
"""Seconds between two writes of when a player was last seen."""

ActionEnd = tuple[int, str, str]
"""The record of the deal an action ended: its number, its result and the record's text."""


class Store(AccountStorage, QueueStorage, ReportStorage, PresenceStorage, RatingStorage, ABC):
    """The database of web matches (made by :func:`.database.open_store`).

    What both databases do the same way is here, as SQLAlchemy Core run in the storage
    threads; a subclass says how the tables are locked while they are made, and how the
    statements of play are run (an action, a seat's seed, a deal's shuffle, catching up).
    """

    channel: str | None = None
    """The channel of the notifications other processes listen on (PostgreSQL only)."""
    threads = 1
    """Storage threads (SQLite has one writer)."""

    def __init__(self, url: str, engine: Engine) -> None:
        self.url = url
        self.engine = engine
        self.origin = secrets.token_hex(6)
        """This store's name in the notifications it sends (one per server process)."""
        with self.engine.begin() as conn:
            self._lock_schema(conn)
            self._bring_up_to_date(conn)
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="conquian-db")

    # -------------------------------------------------------- what a subclass says

    @abstractmethod
    def _lock_schema(self, conn: Connection) -> None:
        """Take the lock under which the tables are made (held to the transaction's end)."""

    def _bring_up_to_date(self, conn: Connection) -> None:
        """Make the tables, or bring them to this release's revision (embedded SQLite)."""
        upgrade(conn)

    def _notify(self, conn: Connection, match_id: str, kind: str, number: int = 0) -> None:
        """Tell the other processes, once this transaction commits, that a match changed
        (none but PostgreSQL's listen)."""
        return

    # ------------------------------------------------------------------ plumbing

    async def _in_thread(self, fn: Callable[..., _T], *args: Any) -> _T:
        """``fn(*args)`` in a storage thread, awaited."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, partial(fn, *args))

    async def close(self) -> None:
        """Close the connections (after the last call)."""
        self._pool.shutdown(wait=True)
        self.engine.dispose()

    # ------------------------------------------------------------------ matches

    async def create_match(self, match: MatchRow, first_deal: DealRow | None = None) -> None:
        """Store a new match and its seats (and the fair shuffle of its first deal)."""
        await self._in_thread(self._create_match_now, match, first_deal)

    def _create_match_now(self, match: MatchRow, first_deal: DealRow | None) -> None:
        with self.engine.begin() as conn:
            self._insert_match(conn, match, first_deal)

    @staticmethod
    def _insert_match(conn: Connection, match: MatchRow, first_deal: DealRow | None) -> None:
        now = time.time()
        conn.execute(
            insert(matches).values(
                id=match.id,
                created=now,
                updated=now,
                mode=match.mode,
                level=match.level,
                rules=match.rules,
                match_seed=match.match_seed,
                bot_seed=match.bot_seed,
                status=match.status,
                rematch_of=match.rematch_of,
                public=match.public,
                fair=match.fair,
                invite_only=match.invite_only,
                hints=match.hints,
                count=count_text(match.count),
                count_matches=match.count_matches,
                rated=match.rated,
                clock=match.clock,
                chat=match.chat,
            )
        )
        if first_deal is not None:
            conn.execute(insert(deals).values(deal_values(match.id, first_deal)))
        conn.execute(
            insert(seats),
            [
                {
                    "game_id": match.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "joined": now if s.joined else None,
                    "level": s.level,
                    "invite_hash": s.invite_hash,
                    "player_id": s.player_id,
                }
                for s in match.seats
            ],
        )

    # ------------------------------------------------------------------ players

    async def player(self, player_id: str, *, seen: bool = True) -> PlayerRow | None:
        """The player with this id (None: none); ``seen``: he is the visitor (seen now)."""
        return await self._in_thread(self._player_now, player_id, seen)

    def _player_now(self, player_id: str, seen: bool) -> PlayerRow | None:
        now = time.time()
        with self.engine.begin() as conn:
            found = conn.execute(select(players).where(players.c.id == player_id)).first()
            if found is None:
                return None
            if (
                seen and now - found.seen > SEEN_EVERY
            ):  # written once in a while, not at each request
                conn.execute(update(players).where(players.c.id == player_id).values(seen=now))
        return player_row(found)

    async def add_player(self, row: PlayerRow) -> None:
        """Store a new player."""
        await self._in_thread(self._add_player_now, row)

    def _add_player_now(self, row: PlayerRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(players).values(
                    id=row.id, name=row.name, guest=row.guest, created=row.created, seen=row.seen
                )
            )

    async def rename_player(self, player_id: str, name: str) -> bool:
        """Give a player another name; False if there is no such player."""
        return await self._in_thread(self._rename_player_now, player_id, name)

    def _rename_player_now(self, player_id: str, name: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(update(players).where(players.c.id == player_id).values(name=name))
        return done.rowcount == 1

    async def player_games(
        self, player_id: str, before: float | None = None, limit: int = 20
    ) -> list[dict[str, Any]]:
        """A player's finished matches, newest first (``before``: ended before then); each
        one's ``seats`` as ``(kind, stored name, level)``."""
        return await self._in_thread(self._player_games_now, player_id, before, limit)

    def _player_games_now(
        self, player_id: str, before: float | None, limit: int
    ) -> list[dict[str, Any]]:
        mine = select(seats.c.game_id, seats.c.seat).where(seats.c.player_id == player_id)
        mine_sub = mine.subquery()
        query = (
            select(matches, mine_sub.c.seat)
            .join(mine_sub, mine_sub.c.game_id == matches.c.id)
            .where(matches.c.status == "over")
        )
        if before is not None:
            query = query.where(matches.c.updated < before)
        query = query.order_by(matches.c.updated.desc()).limit(limit)
        with self.engine.connect() as conn:
            games = list(conn.execute(query))
            ids = [g.id for g in games]
            names: dict[str, list[tuple[str, str, str | None]]] = {i: [] for i in ids}
            for r in conn.execute(
                select(seats.c.game_id, seats.c.kind, seats.c.name, seats.c.level, matches.c.level)
                .join(matches, matches.c.id == seats.c.game_id)
                .where(seats.c.game_id.in_(ids))
                .order_by(seats.c.game_id, seats.c.seat)
            ):
                level = r[3] or r[4] if r.kind == "bot" else None
                names[r.game_id].append((r.kind, r.name, level))
            changes = {
                r.game_id: r
                for r in conn.execute(
                    select(rating_events).where(
                        rating_events.c.game_id.in_(ids), rating_events.c.player_id == player_id
                    )
                )
            }
        out = []
        for g in games:
            change = changes.get(g.id)
            out.append(
                {
                    "id": g.id,
                    "rules": g.rules,
                    "mode": g.mode,
                    "ended": g.updated,
                    "seat": g.seat,
                    "seats": names[g.id],
                    "rated": bool(g.rated),
                    "place": None if change is None else change.place,
                    "rating": None if change is None else [change.before, change.after],
                }
            )
        return out

    async def join(
        self, match_id: str, seat: int, name: str, token_hash: str, player_id: str | None = None
    ) -> bool:
        """Fill an empty person's seat (with the player who takes it); False if it was taken
        meanwhile.  The match is being played (no longer open) once its last free seat is
        filled."""
        return await self._in_thread(self._join_now, match_id, seat, name, token_hash, player_id)

    def _join_now(
        self, match_id: str, seat: int, name: str, token_hash: str, player_id: str | None
    ) -> bool:
        now = time.time()
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats)
                .where(seats.c.game_id == match_id, seats.c.seat == seat, seats.c.joined.is_(None))
                .values(name=name, token_hash=token_hash, joined=now, player_id=player_id)
            )
            if done.rowcount != 1:
                return False
            free = conn.execute(
                select(seats.c.seat).where(seats.c.game_id == match_id, seats.c.joined.is_(None))
            ).first()
            values: dict[str, Any] = {"updated": now}
            if free is None:
                values["status"] = "playing"
            conn.execute(update(matches).where(matches.c.id == match_id).values(**values))
            self._notify(conn, match_id, "j", seat)
        return True

    async def set_rematch(
        self, match_id: str, rematch: MatchRow, first_deal: DealRow | None = None
    ) -> bool:
        """Store ``rematch`` as the follow-up of ``match_id``, both in one transaction.

        False if the match has a rematch already (another process may have made it).
        """
        return await self._in_thread(self._set_rematch_now, match_id, rematch, first_deal)

    def _set_rematch_now(
        self, match_id: str, rematch: MatchRow, first_deal: DealRow | None
    ) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(matches)
                .where(matches.c.id == match_id, matches.c.rematch_id.is_(None))
                .values(rematch_id=rematch.id)
            )
            if done.rowcount != 1:
                return False
            self._insert_match(conn, rematch, first_deal)
            self._notify(conn, match_id, "r")
        return True

    async def load(self, match_id: str, after: int = 0) -> Loaded | None:
        """A match, its actions in order (those numbered after ``after``: a process bringing
        its copy up to date) and its deals' shuffles, or None if there is no such match."""
        return await self._in_thread(self._load_now, match_id, after)

    def _reader(self) -> Engine:
        """The engine a match is read with (in one snapshot, where the database has them)."""
        return self.engine

    def _load_now(self, match_id: str, after: int) -> Loaded | None:
        with self._reader().connect() as conn:
            row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(
                select(seats).where(seats.c.game_id == match_id).order_by(seats.c.seat)
            ).all()
            action_rows = conn.execute(
                select(actions)
                .where(actions.c.game_id == match_id, actions.c.seq > after)
                .order_by(actions.c.seq)
            ).all()
            deal_rows = conn.execute(
                select(deals.c.deal, deals.c.server_seed, deals.c.commitment, deals.c.client_seeds)
                .where(deals.c.game_id == match_id)
                .order_by(deals.c.deal)
            ).all()
        return (
            match_row(row, seat_rows),
            [ActionRow(a.seq, a.deal, a.player, a.action) for a in action_rows],
            [deal_row(d) for d in deal_rows],
        )

    async def lobby(self, limit: int = 30) -> dict[str, list[dict[str, Any]]]:
        """Public matches with a person's seat free (``open``), and public matches being
        played.

        Each match: ``id``, ``mode``, ``level``, ``rules``, ``size`` (its seats), ``free``
        (how many of them are free), ``players`` (each seat's name, ``""`` while free) and
        ``seats``: for each seat its ``kind`` (``human`` or ``bot``), ``name``, ``level`` (a
        computer seat's) and whether it is ``free``.  Never a token or an invitation.
        """
        return await self._in_thread(self._lobby_now, limit)

    def _lobby_now(self, limit: int) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        with self.engine.connect() as conn:
            for status in ("open", "playing"):
                rows = conn.execute(
                    select(
                        matches.c.id,
                        matches.c.mode,
                        matches.c.level,
                        matches.c.rules,
                        matches.c.updated,
                    )
                    .where(matches.c.status == status, matches.c.public == true())
                    .order_by(matches.c.updated.desc())
                    .limit(limit)
                ).all()
                ids = [r.id for r in rows]
                found: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
                level_of = {r.id: r.level for r in rows}
                if ids:
                    for s in conn.execute(
                        select(
                            seats.c.game_id,
                            seats.c.seat,
                            seats.c.kind,
                            seats.c.name,
                            seats.c.joined,
                            seats.c.level,
                        )
                        .where(seats.c.game_id.in_(ids))
                        .order_by(seats.c.game_id, seats.c.seat)
                    ):
                        free = s.joined is None
                        bot = s.kind == "bot"
                        found[s.game_id].append(
                            {
                                "kind": s.kind,
                                "name": "" if free else s.name,
                                "level": (s.level or level_of[s.game_id]) if bot else None,
                                "free": free,
                            }
                        )
                out[status] = [
                    {
                        "id": r.id,
                        "mode": r.mode,
                        "level": r.level,
                        "rules": r.rules,
                        "size": len(found[r.id]),
                        "free": sum(s["free"] for s in found[r.id]),
                        "players": [s["name"] for s in found[r.id]],
                        "seats": found[r.id],
                    }
                    for r in rows
                ]
        return out

    async def records(self, match_id: str) -> list[tuple[int, str, str]]:
        """The finished deals of a match: (deal, result, record text)."""
        return await self._in_thread(self._records_now, match_id)

    def _records_now(self, match_id: str) -> list[tuple[int, str, str]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(records).where(records.c.game_id == match_id).order_by(records.c.deal)
            ).all()
        return [(r.deal, r.result, r.record) for r in rows]

    # ------------------------------------------------------------------ play

    @abstractmethod
    async def add_action(
        self,
        match_id: str,
        row: ActionRow,
        *,
        record: ActionEnd | None = None,
        status: str | None = None,
        next_deal: DealRow | None = None,
        announce: bool = False,
    ) -> DealRow | None:
        """Commit one action, with the record of the deal it ended and the new status, at once.

        ``next_deal``, with the action that ends a deal of a match that goes on: the shuffle of
        the next deal (stored now if it is not yet).  Its stored row is locked and returned: the
        seeds it holds are the ones the next deal is dealt with, and none can be added to it
        from now on (:meth:`add_client_seed`).  ``announce``: the notification to the other
        processes may carry the action (one every player sees, that ends no deal).

        :raises sqlalchemy.exc.IntegrityError: if an action with this number exists.
        """

    @abstractmethod
    async def add_deal(self, match_id: str, deal: DealRow) -> DealRow:
        """Store the fair shuffle of a deal unless that deal has one already; returns the
        stored one (``deal``, or the one another process stored first)."""

    @abstractmethod
    async def add_client_seed(
        self, match_id: str, deal: int, seat: int, seed: str
    ) -> DealRow | None:
        """Store a seat's seed for a deal; returns the deal's shuffle with every seed stored
        so far, or None if the seat has given one already, the deal has no shuffle stored, or
        it has been dealt (the deal before it is over: its seeds are fixed)."""

    @abstractmethod
    async def since(
        self, match_id: str, after: int, deal: int
    ) -> tuple[list[ActionRow], list[DealRow]]:
        """The actions of a match numbered after ``after``, and the shuffles of deal ``deal``
        and later: what a process that has the match in memory must read after another
        process stored an action."""


class SqliteStore(Store):
    """A SQLite file (or ``sqlite://`` in memory): one server process, one writer."""

    def _lock_schema(self, conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    def _put_deal(self, conn: Connection, match_id: str, deal: DealRow) -> DealRow:
        new = sqlite_dialect.insert(deals)
        conn.execute(new.values(deal_values(match_id, deal)).on_conflict_do_nothing())
        query = select(deals.c.deal, deals.c.server_seed, deals.c.commitment, deals.c.client_seeds)
        found = conn.execute(query.where(deals.c.game_id == match_id, deals.c.deal == deal.deal))
        return deal_row(found.one())

    async def add_action(
        self,
        match_id: str,
        row: ActionRow,
        *,
        record: ActionEnd | None = None,
        status: str | None = None,
        next_deal: DealRow | None = None,
        announce: bool = False,
    ) -> DealRow | None:
        return await self._in_thread(self._add_action_now, match_id, row, record, status, next_deal)

    def _add_action_now(
        self,
        match_id: str,
        row: ActionRow,
        record: ActionEnd | None,
        status: str | None,
        next_deal: DealRow | None,
    ) -> DealRow | None:
        now = time.time()
        stored: DealRow | None = None
        with self.engine.begin() as conn:
            conn.execute(
                insert(actions).values(
                    game_id=match_id,
                    seq=row.seq,
                    deal=row.deal,
                    player=row.player,
                    action=row.action,
                    at=now,
                )
            )
            if next_deal is not None:
                stored = self._put_deal(conn, match_id, next_deal)
            if record is not None:
                deal, result, text = record
                conn.execute(
                    insert(records).values(game_id=match_id, deal=deal, result=result, record=text)
                )
            values: dict[str, Any] = {"updated": now}
            if status is not None:
                values["status"] = status
            conn.execute(update(matches).where(matches.c.id == match_id).values(**values))
        return stored

    async def add_deal(self, match_id: str, deal: DealRow) -> DealRow:
        return await self._in_thread(self._add_deal_now, match_id, deal)

    def _add_deal_now(self, match_id: str, deal: DealRow) -> DealRow:
        with self.engine.begin() as conn:
            return self._put_deal(conn, match_id, deal)

    async def add_client_seed(
        self, match_id: str, deal: int, seat: int, seed: str
    ) -> DealRow | None:
        return await self._in_thread(self._add_client_seed_now, match_id, deal, seat, seed)

    def _add_client_seed_now(
        self, match_id: str, deal: int, seat: int, seed: str
    ) -> DealRow | None:
        with self.engine.begin() as conn:
            query = select(deals).where(deals.c.game_id == match_id, deals.c.deal == deal)
            row = conn.execute(query).first()
            if row is None:
                return None
            client_seeds = json.loads(row.client_seeds)
            if client_seeds[seat] is not None:
                return None
            if deal > 1:  # dealt once the deal before it ended (its record is stored)
                ended = conn.execute(
                    select(records.c.deal).where(
                        records.c.game_id == match_id, records.c.deal == deal - 1
                    )
                ).first()
                if ended is not None:
                    return None
            client_seeds[seat] = seed
            conn.execute(
                update(deals)
                .where(deals.c.game_id == match_id, deals.c.deal == deal)
                .values(client_seeds=json.dumps(client_seeds))
            )
            return DealRow(row.deal, row.server_seed, row.commitment, tuple(client_seeds))

    async def since(
        self, match_id: str, after: int, deal: int
    ) -> tuple[list[ActionRow], list[DealRow]]:
        loaded = await self.load(match_id, after)
        if loaded is None:
            return [], []
        return loaded[1], [d for d in loaded[2] if d.deal >= deal]
