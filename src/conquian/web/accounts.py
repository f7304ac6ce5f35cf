"""The store's part that keeps accounts: sessions, passwords, passkeys, recovery codes, each
player's settings, his profile and archive, and erasing him.

:class:`AccountStorage` is a part of every :class:`.store.Store` (SQLite or PostgreSQL), in the
same storage threads and with the same rule: each method that writes does so in one
transaction.  What is checked (a password, a passkey's signature) is checked by
:mod:`.credentials` before anything is stored; nothing here ever holds a password, a session
id or a recovery code itself, only their hashes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..errors import RecordError
from ..records import GameRecord
from .ratings import rating_facts
from .schema import (
    PlayerRow,
    blocks,
    hash_token,
    leaves,
    matches,
    passkeys,
    passwords,
    players,
    quick_tickets,
    rating_events,
    ratings,
    records,
    recovery_codes,
    reports,
    seats,
    sessions,
)
from .storepart import StorePart

_T = TypeVar("_T")

SESSION_SEEN_EVERY = 3600.0
"""Seconds between two writes of when a session was last used."""
ARCHIVE_DEALS = 5000
"""The most deals one archive holds (the newest)."""


def player_row(found: Any) -> PlayerRow:
    """A ``players`` row as the server reads it."""
    return PlayerRow(
        found.id, found.name, bool(found.guest), found.created, found.seen, found.settings
    )


class AccountStorage(StorePart):
    """Accounts in the store (a base of :class:`.store.Store`, which gives the engine and the
    storage threads)."""

    # ------------------------------------------------------------------ sessions

    async def session_valid(self, player_id: str, session_id: str) -> bool:
        """Whether this browser's session (its id, from the cookie) still signs it in to this
        account: not signed out, not ended by signing out everywhere, nor by erasure."""
        return await self._in_thread(self._session_valid_now, player_id, session_id)

    def _session_valid_now(self, player_id: str, session_id: str) -> bool:
        now = time.time()
        key = hash_token(session_id)
        with self.engine.begin() as conn:
            found = conn.execute(select(sessions).where(sessions.c.id_hash == key)).first()
            if found is None or found.player_id != player_id:
                return False
            if now - found.seen > SESSION_SEEN_EVERY:
                conn.execute(update(sessions).where(sessions.c.id_hash == key).values(seen=now))
        return True

    async def open_session(self, player_id: str, session_id: str, replacing: str | None) -> None:
        """Sign a browser in to an account under a new session id (the one it had before, if
        any, ends: a session is never carried over a sign-in); the player is no guest now."""
        await self._in_thread(self._open_session_now, player_id, session_id, replacing)

    def _open_session_now(self, player_id: str, session_id: str, replacing: str | None) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            if replacing:
                conn.execute(delete(sessions).where(sessions.c.id_hash == hash_token(replacing)))
            conn.execute(
                insert(sessions).values(
                    id_hash=hash_token(session_id), player_id=player_id, created=now, seen=now
                )
            )
            conn.execute(update(players).where(players.c.id == player_id).values(guest=False))

    async def close_sessions(self, player_id: str, session_id: str | None, *, all: bool) -> int:
        """Sign out this browser's session (``all``: every session of the player but this
        one); how many ended."""
        return await self._in_thread(self._close_sessions_now, player_id, session_id, all)

    def _close_sessions_now(self, player_id: str, session_id: str | None, every: bool) -> int:
        key = hash_token(session_id or "")
        mine = sessions.c.player_id == player_id
        with self.engine.begin() as conn:
            if every:
                done = conn.execute(delete(sessions).where(mine, sessions.c.id_hash != key))
            else:
                done = conn.execute(delete(sessions).where(mine, sessions.c.id_hash == key))
        return done.rowcount

    # ------------------------------------------------------------------ passwords

    async def password_of_login(self, login: str) -> tuple[str, str] | None:
        """``(player id, hash)`` of the account with this login name (as :func:`login_key`
        writes it), or None."""
        return await self._in_thread(self._password_of_login_now, login)

    def _password_of_login_now(self, login: str) -> tuple[str, str] | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(passwords).where(passwords.c.login == login)).first()
        return None if found is None else (found.player_id, found.hash)

    async def password_of_player(self, player_id: str) -> tuple[str, str] | None:
        """``(login, hash)`` of a player's password, or None."""
        return await self._in_thread(self._password_of_player_now, player_id)

    def _password_of_player_now(self, player_id: str) -> tuple[str, str] | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(passwords).where(passwords.c.player_id == player_id)
            ).first()
        return None if found is None else (found.login, found.hash)

    async def set_password(self, player_id: str, login: str, hashed: str) -> bool:
        """Give a player this login name and password hash; False (nothing changes) if another
        account has the login name."""
        return await self._in_thread(self._set_password_now, player_id, login, hashed)

    def _set_password_now(self, player_id: str, login: str, hashed: str) -> bool:
        values = {"login": login, "hash": hashed, "updated": time.time()}
        try:
            with self.engine.begin() as conn:
                taken = conn.execute(
                    select(passwords.c.player_id).where(passwords.c.login == login)
                ).first()
                if taken is not None and taken.player_id != player_id:
                    return False
                done = conn.execute(
                    update(passwords).where(passwords.c.player_id == player_id).values(**values)
                )
                if done.rowcount == 0:
                    conn.execute(insert(passwords).values(player_id=player_id, **values))
        except IntegrityError:  # another request took the name in between
            return False
        return True

    # ------------------------------------------------------------------ passkeys

    async def add_passkey(
        self, player_id: str, credential_id: str, public_key: bytes, sign_count: int
    ) -> bool:
        """Keep a new passkey of a player; False if that credential is stored already."""
        return await self._in_thread(
            self._add_passkey_now, player_id, credential_id, public_key, sign_count
        )

    def _add_passkey_now(
        self, player_id: str, credential_id: str, public_key: bytes, sign_count: int
    ) -> bool:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(passkeys).values(
                        id=credential_id,
                        player_id=player_id,
                        public_key=public_key.hex(),
                        sign_count=sign_count,
                        created=time.time(),
                        used=None,
                    )
                )
        except IntegrityError:
            return False
        return True

    async def passkey(self, credential_id: str) -> tuple[str, bytes, int] | None:
        """``(player id, public key, signature count)`` of a stored passkey, or None."""
        return await self._in_thread(self._passkey_now, credential_id)

    def _passkey_now(self, credential_id: str) -> tuple[str, bytes, int] | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(passkeys).where(passkeys.c.id == credential_id)).first()
        if found is None:
            return None
        return found.player_id, bytes.fromhex(found.public_key), int(found.sign_count)

    async def passkey_used(self, credential_id: str, sign_count: int) -> None:
        """A passkey signed in: its new signature count, and when."""
        await self._in_thread(self._passkey_used_now, credential_id, sign_count)

    def _passkey_used_now(self, credential_id: str, sign_count: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(passkeys)
                .where(passkeys.c.id == credential_id)
                .values(sign_count=sign_count, used=time.time())
            )

    async def remove_passkey(self, player_id: str, credential_id: str) -> bool:
        """Forget one of a player's passkeys; False if he has no such passkey."""
        return await self._in_thread(self._remove_passkey_now, player_id, credential_id)

    def _remove_passkey_now(self, player_id: str, credential_id: str) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                delete(passkeys).where(
                    passkeys.c.id == credential_id, passkeys.c.player_id == player_id
                )
            )
        return done.rowcount == 1

    # ------------------------------------------------------------------ recovery codes

    async def replace_recovery_codes(self, player_id: str, hashes: list[str]) -> None:
        """A player's recovery codes are these now (the old ones no longer sign in)."""
        await self._in_thread(self._replace_recovery_codes_now, player_id, hashes)

    def _replace_recovery_codes_now(self, player_id: str, hashes: list[str]) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(recovery_codes).where(recovery_codes.c.player_id == player_id))
            conn.execute(
                insert(recovery_codes), [{"code_hash": h, "player_id": player_id} for h in hashes]
            )

    async def use_recovery_code(self, hashed: str) -> str | None:
        """The player a recovery code signs in (it is used up), or None."""
        return await self._in_thread(self._use_recovery_code_now, hashed)

    def _use_recovery_code_now(self, hashed: str) -> str | None:
        with self.engine.begin() as conn:
            found = conn.execute(
                delete(recovery_codes)
                .where(recovery_codes.c.code_hash == hashed)
                .returning(recovery_codes.c.player_id)
            ).first()
        return None if found is None else str(found.player_id)

    # ------------------------------------------------------------------ the account page

    async def account(self, player_id: str) -> dict[str, Any]:
        """What a player's account page shows him: his login name, his passkeys, how many
        recovery codes are left and how many browsers are signed in."""
        return await self._in_thread(self._account_now, player_id)

    def _account_now(self, player_id: str) -> dict[str, Any]:
        with self.engine.connect() as conn:
            login = conn.execute(
                select(passwords.c.login).where(passwords.c.player_id == player_id)
            ).scalar()
            keys = conn.execute(
                select(passkeys.c.id, passkeys.c.created, passkeys.c.used)
                .where(passkeys.c.player_id == player_id)
                .order_by(passkeys.c.created)
            ).all()
            codes = conn.execute(
                select(func.count()).where(recovery_codes.c.player_id == player_id)
            ).scalar()
            signed_in = conn.execute(
                select(func.count()).where(sessions.c.player_id == player_id)
            ).scalar()
        return {
            "login": login,
            "passkeys": [{"id": k.id, "created": k.created, "used": k.used} for k in keys],
            "recovery_codes": int(codes or 0),
            "sessions": int(signed_in or 0),
        }

    async def save_settings(self, player_id: str, settings: dict[str, Any]) -> None:
        """Keep a player's settings with him."""
        await self._in_thread(self._save_settings_now, player_id, json.dumps(settings))

    def _save_settings_now(self, player_id: str, settings: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(players).where(players.c.id == player_id).values(settings=settings))

    # ------------------------------------------------------------------ profile and archive

    async def profile(self, player_id: str) -> dict[str, Any] | None:
        """What anyone may see of a player: his name as stored, each form's rating (with its
        games and wins), and how many finished games he played; None: no such player."""
        return await self._in_thread(self._profile_now, player_id)

    def _profile_now(self, player_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(players).where(players.c.id == player_id)).first()
            if found is None:
                return None
            forms = {
                r.form: rating_facts(r)
                for r in conn.execute(select(ratings).where(ratings.c.player_id == player_id))
            }
            finished = conn.execute(
                select(func.count())
                .select_from(seats.join(matches, matches.c.id == seats.c.game_id))
                .where(seats.c.player_id == player_id, matches.c.status == "over")
            ).scalar()
        return {
            "id": found.id,
            "name": found.name,
            "since": found.created,
            "ratings": forms,
            "games": int(finished or 0),
        }

    async def archive(self, player_id: str) -> list[tuple[str, int, str]]:
        """The records of every finished deal of a player's games, newest game first:
        ``(game id, deal, record)``; at most :data:`ARCHIVE_DEALS`."""
        return await self._in_thread(self._archive_now, player_id)

    def _archive_now(self, player_id: str) -> list[tuple[str, int, str]]:
        mine = select(seats.c.game_id).where(seats.c.player_id == player_id)
        query = (
            select(records.c.game_id, records.c.deal, records.c.record)
            .join(matches, matches.c.id == records.c.game_id)
            .where(records.c.game_id.in_(mine))
            .order_by(matches.c.created.desc(), records.c.deal)
            .limit(ARCHIVE_DEALS)
        )
        with self.engine.connect() as conn:
            return [(r.game_id, r.deal, r.record) for r in conn.execute(query)]

    # ------------------------------------------------------------------ erasure

    async def erase_player(self, player_id: str, anonymous: Callable[[int], str]) -> list[str]:
        """Erase a player: his name, settings, password, passkeys, recovery codes, sessions,
        ratings and rating history, tickets and blocks (his and others' of him).  His games stay, each seat of his named
        ``anonymous(seat)`` (in the seats and in the deals' records) and tied to nobody.
        The ids of those games."""
        return await self._in_thread(self._erase_now, player_id, anonymous)

    def _erase_now(self, player_id: str, anonymous: Callable[[int], str]) -> list[str]:
        with self.engine.begin() as conn:
            sat = conn.execute(
                select(seats.c.game_id, seats.c.seat).where(seats.c.player_id == player_id)
            ).all()
            for game_id, seat in sat:
                conn.execute(
                    update(seats)
                    .where(seats.c.game_id == game_id, seats.c.seat == seat)
                    .values(name=anonymous(seat), player_id=None)
                )
                self._anonymise_records(conn, game_id, seat, anonymous(seat))
            for table, column in (
                (sessions, sessions.c.player_id),
                (passwords, passwords.c.player_id),
                (passkeys, passkeys.c.player_id),
                (recovery_codes, recovery_codes.c.player_id),
                (ratings, ratings.c.player_id),
                (rating_events, rating_events.c.player_id),
                (quick_tickets, quick_tickets.c.player_id),
                (blocks, blocks.c.player_id),
                (blocks, blocks.c.blocked_id),
                (reports, reports.c.reporter_id),
                (leaves, leaves.c.player_id),
                (players, players.c.id),
            ):
                conn.execute(delete(table).where(column == player_id))
        return sorted({game_id for game_id, _seat in sat})

    @staticmethod
    def _anonymise_records(conn: Connection, game_id: str, seat: int, name: str) -> None:
        for row in conn.execute(select(records).where(records.c.game_id == game_id)).all():
            try:
                record = GameRecord.loads(row.record)
            except RecordError:
                continue  # not a record this release can read: left as it was
            if seat >= len(record.players):
                continue
            names = list(record.players)
            names[seat] = name
            conn.execute(
                update(records)
                .where(records.c.game_id == game_id, records.c.deal == row.deal)
                .values(record=replace(record, players=tuple(names)).dumps())
            )
